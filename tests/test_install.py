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
         "chown", "python3", "python", "pip")
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
elif name == "python3" and args[:2] == ["-m", "venv"]:
    bin = pathlib.Path(args[2]) / "bin"
    bin.mkdir(parents=True)
    for tool in ("python", "pip"):
        (bin / tool).symlink_to(pathlib.Path(sys.argv[0]).parent / tool)
"""
GROUPS_ON_PI_OS = ("gpio", "i2c", "dialout", "audio")  # spi is left out: the script adds it
READ_ONLY_CALLS = {"getent", "id", "systemctl is-enabled", "systemctl is-active"}


@pytest.fixture
def pi(tmp_path: Path):
    """A fresh Raspberry Pi OS root, a source tree, and the stand-in commands."""
    source = tmp_path / "src"
    for name in ("install.sh", "companion.service", "README.md"):
        (source / "systemd").mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / "systemd" / name, source / "systemd" / name)
    for name in ("pyproject.toml", "engine/api.py", "companion/app.py"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(f"# {name}\n")
    (source / "hardware").mkdir()
    (source / "hardware" / "table.example.toml").write_text("[table]\nname = \"Example\"\n")
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


def run(pi, *args: str) -> list[str]:
    """Run install.sh (no one at the keyboard); returns the stand-in calls it made."""
    return run_said(pi, *args)[0]


def run_said(pi, *args: str, stdin: int = subprocess.DEVNULL) -> tuple[list[str], str]:
    """Run install.sh; returns the stand-in calls it made and what it said."""
    source, root, stubs, state = pi
    log = state / "calls.log"
    log.unlink(missing_ok=True)
    env = dict(os.environ, COMPANION_ROOT=str(root), STUB_STATE=str(state),
               PYTHON=str(stubs / "python3"), PATH=f"{stubs}:{os.environ['PATH']}")
    done = subprocess.run(["sh", str(source / "systemd" / "install.sh"), *args], env=env,
                          stdin=stdin, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return (log.read_text().splitlines() if log.exists() else []), done.stdout


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
    """User, groups, venv, config from the example, I2C on, the unit installed and started."""
    source, root, _, state = pi
    calls = run(pi)
    assert called(calls, "useradd --system") and called(calls, "groupadd --system spi")
    assert all((state / f"member-{g}").exists() for g in (*GROUPS_ON_PI_OS, "spi"))
    assert called(calls, "pip install --quiet --upgrade")
    unit = root / "etc/systemd/system/companion.service"
    assert unit.read_bytes() == (source / "systemd/companion.service").read_bytes()
    config = root / "etc/table-companion/table.toml"
    assert config.read_text() == (source / "hardware/table.example.toml").read_text()
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    assert "dtparam=i2c_arm=on" in (root / "boot/firmware/config.txt").read_text().splitlines()
    assert "i2c-dev" in (root / "etc/modules").read_text().splitlines()
    assert called(calls, "systemctl daemon-reload")
    assert (state / "enabled").exists() and (state / "active").exists()


def test_install_twice_changes_nothing(pi):
    """A second run finds everything in place: no file changes, only questions asked."""
    root = pi[1]
    run(pi)
    before = snapshot(root)
    calls = run(pi)
    assert snapshot(root) == before
    assert all(call.split()[0] in READ_ONLY_CALLS or " ".join(call.split()[:2])
               in READ_ONLY_CALLS for call in calls), calls


def test_install_keeps_an_edited_config(pi):
    """table.toml is the table's own: an install never overwrites it."""
    root = pi[1]
    run(pi)
    config = root / "etc/table-companion/table.toml"
    config.write_text("# my wiring\n")
    run(pi)
    assert config.read_text() == "# my wiring\n"


def test_install_new_version_is_installed_and_restarted(pi):
    """A changed source tree is reinstalled and the running service restarted."""
    source = pi[0]
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
    """--uninstall removes the service, venv, config and user; the journal stays, handed to
    root (the deleted user's id must not own the seeds), and the script says so."""
    _, root, _, state = pi
    run(pi)
    games = saved_games(root)
    calls, said = run_said(pi, "--uninstall")
    assert called(calls, "systemctl stop companion") and called(calls, "userdel companion")
    assert not (root / "etc/systemd/system/companion.service").exists()
    assert not (root / "opt/table-companion").exists()
    assert not (root / "etc/table-companion").exists()
    assert games.read_bytes() == b"saved games"
    assert f"chown -R root:root {games.parent}" in calls
    assert f"kept the saved games in {games.parent}, now owned by root" in said
    assert f"sudo rm -rf {games.parent}" in said
    assert "left on: I2C" in said
    assert not (state / "enabled").exists() and not (state / "passwd-companion").exists()


def test_install_uninstall_purge_removes_the_saved_games(pi):
    """--uninstall --purge takes the saved games too, without asking."""
    root = pi[1]
    run(pi)
    games = saved_games(root)
    _, said = run_said(pi, "--uninstall", "--purge")
    assert not games.parent.exists()
    assert f"removed the saved games in {games.parent}" in said


@pytest.mark.parametrize(("answer", "removed"), [("y\n", True), ("\n", False)])
def test_install_uninstall_asks_about_the_saved_games(pi, answer, removed):
    """At a terminal, --uninstall says where the saved games are and asks; no is the default."""
    root = pi[1]
    run(pi)
    games = saved_games(root)
    keyboard, terminal = pty.openpty()
    os.write(keyboard, answer.encode())
    try:
        _, said = run_said(pi, "--uninstall", stdin=terminal)
    finally:
        os.close(keyboard)
        os.close(terminal)
    assert f"{games.parent} holds the saved games" in said and "Remove them too? [y/N]" in said
    assert games.parent.exists() != removed


def test_install_refuses_an_unknown_option(pi):
    """A mistyped option is an error with the usage, not a half install."""
    source, root, stubs, state = pi
    done = subprocess.run(["sh", str(source / "systemd/install.sh"), "--unistall"],
                          env=dict(os.environ, COMPANION_ROOT=str(root)), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1 and "usage" in done.stderr
    assert not (root / "opt").exists()


def test_install_script_is_valid_posix_sh():
    """The script parses as POSIX sh (dash, Raspberry Pi OS's /bin/sh)."""
    assert subprocess.run(["sh", "-n", str(REPO / "systemd/install.sh")]).returncode == 0
