"""systemd/install.sh in a temporary root: what it creates, that a second run changes nothing,
and that --uninstall removes everything, and says what it leaves behind (the saved games,
unless the user says to remove them too).

Commands that would change the real machine (user and group tools, systemctl, pip, chgrp)
are stand-ins on PATH that record their calls and keep their state in files; everything
else (files, modes, config.txt, /etc/modules) is the script's real work under the root.
"""

import hashlib
import os
import pty
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
STUBS = ("getent", "groupadd", "useradd", "usermod", "userdel", "id", "systemctl", "chgrp",
         "chown", "python3", "python", "pip", "dpkg-query", "apt-cache", "apt-get")
STUB = f"""#!{sys.executable} -S
import os, pathlib, sys
state = pathlib.Path(os.environ["STUB_STATE"])
name, args = pathlib.Path(sys.argv[0]).name, sys.argv[1:]
with open(state / "calls.log", "a") as log:
    log.write(" ".join([name, *args]) + "\\n")
def has(flag):
    return (state / flag).exists()
def put(flag, on=True):
    (state / flag).touch() if on else (state / flag).unlink(missing_ok=True)
verb = [a for a in args if not a.startswith("--")]
if name == "getent":
    sys.exit(0 if has(args[0] + "-" + args[1]) else 2)
elif name == "groupadd":
    put("group-" + args[-1])
elif name == "useradd":
    put("passwd-" + args[-1]); put("group-" + args[-1])
    for group in args[args.index("--groups") + 1].split(","):
        put("member-" + group)
elif name == "usermod":
    put("member-" + args[args.index("-G") + 1])
elif name == "userdel":
    put("passwd-" + args[-1], False)
elif name == "id":
    print(" ".join(f.name[7:] for f in sorted(state.glob("member-*"))))
elif name == "systemctl":
    flags = {{"is-enabled": "enabled", "is-active": "active"}}
    if verb[0] in flags:
        sys.exit(0 if has(flags[verb[0]]) else 1)
    changes = {{"enable": ("enabled", True), "disable": ("enabled", False),
               "start": ("active", True), "restart": ("active", True),
               "stop": ("active", False)}}
    if verb[0] in changes:
        put(*changes[verb[0]])
elif name == "dpkg-query":
    if not has("deb-" + args[-1]):
        sys.exit(1)
    print("install ok installed")
elif name == "apt-cache":
    print("  Candidate: " + ("1.0" if has("archive-" + args[-1]) else "(none)"))
elif name == "apt-get":
    put("deb-" + args[-1])
    put("lgpio", args[-1] == "python3-lgpio" or has("lgpio"))
elif name in ("python3", "python") and args[:2] == ["-m", "venv"]:
    venv = pathlib.Path(args[-1])
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    for tool in ("python", "pip"):
        (venv / "bin" / tool).unlink(missing_ok=True)
        (venv / "bin" / tool).symlink_to(pathlib.Path(sys.argv[0]).parent / tool)
    shared = "true" if "--system-site-packages" in args else "false"
    (venv / "pyvenv.cfg").write_text(f"include-system-site-packages = {{shared}}\\n")
elif name in ("python3", "python") and args[:1] == ["-c"]:
    if "import lgpio" in args[1]:
        sys.exit(0 if has("lgpio") else 1)
    if "platform" in args[1]:
        print("Python 3.13 on aarch64")
"""
GROUPS_ON_PI_OS = ("gpio", "i2c", "dialout", "audio", "video", "render")
READ_ONLY_CALLS = {"getent", "id", "systemctl is-enabled", "systemctl is-active", "dpkg-query",
                   "apt-cache", "python3 -c", "python -c"}
KITCHEN_BOOT = ["dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000",
                "dtoverlay=i2c-mux,pca9548,addr=0x70"]


@pytest.fixture
def pi(tmp_path: Path):
    """A fresh Raspberry Pi OS root, a source tree, and the stand-in commands."""
    source = tmp_path / "src"
    for name in ("install.sh", "companion.service", "README.md", "99-table-companion-pods.rules"):
        (source / "systemd").mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / "systemd" / name, source / "systemd" / name)
    for name in ("pyproject.toml", "engine/api.py", "companion/app.py"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(f"# {name}\n")
    shutil.copytree(REPO / "hardware" / "tables", source / "hardware" / "tables")
    root = tmp_path / "root"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text("[all]\ndtparam=audio=on\n")
    (root / "etc").mkdir()
    (root / "etc" / "modules").write_text("# /etc/modules\n")
    stubs, state = tmp_path / "stubs", tmp_path / "stub-state"
    stubs.mkdir()
    state.mkdir()
    (stubs / "stub").write_text(STUB)
    (stubs / "stub").chmod(0o755)
    for name in STUBS:
        (stubs / name).symlink_to(stubs / "stub")
    for group in GROUPS_ON_PI_OS:
        (state / f"group-{group}").touch()
    return source, root, stubs, state


def run(pi, *args: str, stdin: int = subprocess.DEVNULL) -> list[str]:
    """Run install.sh (no one at the keyboard, unless stdin is a terminal); returns the
    stand-in calls it made (what it said: :func:`said`)."""
    source, root, stubs, state = pi
    log = state / "calls.log"
    log.unlink(missing_ok=True)
    env = dict(os.environ, COMPANION_ROOT=str(root), STUB_STATE=str(state),
               PYTHON=str(stubs / "python3"), PATH=f"{stubs}:{os.environ['PATH']}")
    done = subprocess.run(["sh", str(source / "systemd" / "install.sh"), *args], env=env,
                          stdin=stdin, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    (state / "said.txt").write_text(done.stdout)
    return log.read_text().splitlines() if log.exists() else []


def said(pi) -> str:
    return (pi[3] / "said.txt").read_text()


def reboot(pi) -> None:
    """/run is emptied by every boot."""
    shutil.rmtree(pi[1] / "run", ignore_errors=True)


def boot_lines(pi) -> list[str]:
    return (pi[1] / "boot/firmware/config.txt").read_text().splitlines()


def snapshot(root: Path) -> dict[str, tuple[int, str]]:
    """Every file and directory under root: its mode and content hash."""
    out = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        content = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
        out[str(path.relative_to(root))] = (info.st_mode, content)
    return out


def called(calls: list[str], prefix: str) -> bool:
    return any(call.startswith(prefix) for call in calls)


def test_install_sets_up_a_fresh_pi(pi):
    """User, groups, venv, the kitchen table, I2C at 400 kHz with the mux overlay its seats
    are on, the pods' udev rule, the unit enabled; started by the reboot config.txt needs."""
    source, root, _, state = pi
    calls = run(pi)
    assert called(calls, "useradd --system")
    assert all((state / f"member-{g}").exists() for g in GROUPS_ON_PI_OS)
    assert called(calls, f"pip install --quiet --upgrade {source}[pi]")
    unit = root / "etc/systemd/system/companion.service"
    assert unit.read_bytes() == (source / "systemd/companion.service").read_bytes()
    config = root / "etc/table-companion/table.toml"
    assert config.read_text() == (source / "hardware/tables/kitchen.toml").read_text()
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    assert boot_lines(pi) == ["[all]", "dtparam=audio=on", *KITCHEN_BOOT]
    assert "i2c-dev" in (root / "etc/modules").read_text().splitlines()
    rule = root / "etc/udev/rules.d/99-table-companion-pods.rules"
    assert rule.read_bytes() == (source / "systemd/99-table-companion-pods.rules").read_bytes()
    assert called(calls, "systemctl daemon-reload")
    assert (state / "enabled").exists() and not (state / "active").exists()
    assert "REBOOT" in said(pi) and all(line in said(pi) for line in KITCHEN_BOOT)


def test_install_creates_a_group_the_system_lacks(pi):
    """A system without one of Raspberry Pi OS's device groups (gpio, on plain Debian): the
    script creates it and puts the user in it."""
    state = pi[3]
    (state / "group-gpio").unlink()
    calls = run(pi)
    assert called(calls, "groupadd --system gpio") and (state / "member-gpio").exists()


def test_install_twice_changes_nothing(pi):
    """A second run finds everything in place: no file changes, only questions asked, and
    the reboot still to do is said again."""
    root = pi[1]
    run(pi)
    before = snapshot(root)
    calls = run(pi)
    assert snapshot(root) == before
    assert all(call.split()[0] in READ_ONLY_CALLS or " ".join(call.split()[:2])
               in READ_ONLY_CALLS for call in calls), calls
    assert "REBOOT" in said(pi)


def test_install_after_the_reboot_starts_the_service(pi):
    """Run again once the Pi has rebooted: the service starts, nothing else changes."""
    state = pi[3]
    run(pi)
    reboot(pi)
    calls = run(pi)
    assert called(calls, "systemctl start companion") and (state / "active").exists()
    assert "REBOOT" not in said(pi)


def test_install_keeps_an_edited_config(pi):
    """table.toml is the table's own: an install never overwrites it."""
    root = pi[1]
    run(pi)
    config = root / "etc/table-companion/table.toml"
    config.write_text("# my wiring\n")
    run(pi, "--table", "pods")
    assert config.read_text() == "# my wiring\n"
    assert "kept your" in said(pi)


def test_install_new_version_is_installed_and_restarted(pi):
    """A changed source tree is reinstalled and the running service restarted."""
    source = pi[0]
    run(pi)
    reboot(pi)
    run(pi)
    (source / "companion/app.py").write_text("# a fix\n")
    calls = run(pi)
    assert called(calls, "pip install") and called(calls, "systemctl restart companion")


def saved_games(root: Path) -> Path:
    games = root / "var/lib/table-companion/journal.sqlite3"
    games.parent.mkdir(parents=True, exist_ok=True)
    games.write_bytes(b"saved games")
    return games


def test_install_uninstall_keeps_the_saved_games(pi):
    """--uninstall removes the service, its drop-in, venv, config, udev rule and user; the
    journal stays, handed to root (the deleted user's id must not own the seeds), and the
    script says so."""
    _, root, _, state = pi
    run(pi, "--public-screen")
    reboot(pi)
    run(pi)  # running now
    games = saved_games(root)
    calls = run(pi, "--uninstall")
    report = said(pi)
    assert called(calls, "systemctl stop companion") and called(calls, "userdel companion")
    assert not (root / "etc/systemd/system/companion.service").exists()
    assert not (root / "etc/systemd/system/companion.service.d").exists()
    assert not (root / "etc/udev/rules.d/99-table-companion-pods.rules").exists()
    assert not (root / "opt/table-companion").exists()
    assert not (root / "etc/table-companion").exists()
    assert games.read_bytes() == b"saved games"
    assert f"chown -R root:root {games.parent}" in calls
    assert f"kept the saved games in {games.parent}, now owned by root" in report
    assert f"sudo rm -rf {games.parent}" in report
    assert "left on: I2C" in report
    assert not (state / "enabled").exists() and not (state / "passwd-companion").exists()


def test_install_uninstall_purge_removes_the_saved_games(pi):
    """--uninstall --purge takes the saved games too, without asking."""
    root = pi[1]
    run(pi)
    games = saved_games(root)
    run(pi, "--uninstall", "--purge")
    assert not games.parent.exists()
    assert f"removed the saved games in {games.parent}" in said(pi)


@pytest.mark.parametrize(("answer", "removed"), [("y\n", True), ("\n", False)])
def test_install_uninstall_asks_about_the_saved_games(pi, answer, removed):
    """At a terminal, --uninstall says where the saved games are and asks; no is the default."""
    root = pi[1]
    run(pi)
    games = saved_games(root)
    keyboard, terminal = pty.openpty()
    os.write(keyboard, answer.encode())
    try:
        run(pi, "--uninstall", stdin=terminal)
    finally:
        os.close(keyboard)
        os.close(terminal)
    report = said(pi)
    assert f"{games.parent} holds the saved games" in report
    assert "Remove them too? [y/N]" in report
    assert games.parent.exists() != removed


@pytest.mark.parametrize("args", [["--unistall"], ["--table", "no-such-table"], ["--table"],
                                  ["--purge"]])
def test_install_refuses_a_wrong_option(pi, args):
    """A mistyped option or table is an error saying what is wanted, not a half install."""
    source, root, stubs, state = pi
    done = subprocess.run(["sh", str(source / "systemd/install.sh"), *args],
                          env=dict(os.environ, COMPANION_ROOT=str(root)), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1
    assert "usage" in done.stderr or "the examples: kitchen living-room pods" in done.stderr
    assert not (root / "opt").exists()


def test_install_script_is_valid_posix_sh():
    """The script parses as POSIX sh (dash, Raspberry Pi OS's /bin/sh)."""
    assert subprocess.run(["sh", "-n", str(REPO / "systemd/install.sh")]).returncode == 0
