"""systemd/install.sh in a temporary root: what it creates, that a second run changes nothing,
and that --uninstall removes everything, and says what it leaves behind (the saved games,
unless the user says to remove them too).

Commands that would change the real machine (user and group tools, systemctl, pip, chgrp)
are stand-ins on PATH that record their calls and keep their state in files; everything
else (files, modes, config.txt, /etc/modules) is the script's real work under the root.
"""

import grp
import hashlib
import os
import pty
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
STUBS = ("getent", "groupadd", "groupmod", "useradd", "usermod", "userdel", "id", "systemctl",
         "chgrp",
         "chown", "python3", "python", "pip", "dpkg", "dpkg-query", "apt-cache", "apt-get")
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
def option(flag):
    return args[args.index(flag) + 1]
if name == "getent":
    if not has(args[0] + "-" + args[1]):
        sys.exit(2)
    print((state / (args[0] + "-" + args[1])).read_text(), end="")
elif name == "groupadd":
    put("group-" + args[-1])
elif name == "groupmod":
    (state / ("group-" + args[-1])).rename(state / ("group-" + option("-n")))
elif name == "useradd":
    (state / ("passwd-" + args[-1])).write_text(
        f"{{args[-1]}}:x:999:999:{{option('--comment')}}:{{option('--home-dir')}}:"
        "/usr/sbin/nologin\\n")
    put("group-" + args[-1])
    for group in option("--groups").split(","):
        put("member-" + group)
elif name == "usermod" and "-l" in args:
    fields = (state / ("passwd-" + args[-1])).read_text().split(":")
    fields[0], fields[4] = option("-l"), option("-c")
    (state / ("passwd-" + option("-l"))).write_text(":".join(fields))
    put("passwd-" + args[-1], False)
elif name == "usermod":
    put("member-" + option("-G"))
elif name == "userdel":
    put("passwd-" + args[-1], False)
elif name == "id":
    print(" ".join(f.name[7:] for f in sorted(state.glob("member-*"))))
elif name == "systemctl":
    flags = {{"is-enabled": "enabled", "is-active": "active"}}
    if verb[0] in flags:
        sys.exit(0 if has(flags[verb[0]] + "-" + verb[1]) else 1)
    changes = {{"enable": ("enabled", True), "disable": ("enabled", False),
               "start": ("active", True), "restart": ("active", True),
               "stop": ("active", False)}}
    if verb[0] in changes:
        flag, on = changes[verb[0]]
        put(flag + "-" + verb[1], on)
elif name == "dpkg":
    print((state / "arch").read_text() if has("arch") else "arm64")
elif name == "pip" and args[:1] == ["freeze"]:
    print((state / "pip-installed").read_text() if has("pip-installed") else "", end="")
elif name == "pip" and has("pip-fails"):
    sys.exit(1)
elif name == "pip":
    (state / "pip-installed").write_text(args[-1] + "\\n")
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
SERVICE = "table-companion.service"
READ_ONLY_CALLS = {"getent", "id", "dpkg", "systemctl is-enabled", "systemctl is-active",
                   "dpkg-query", "apt-cache", "python3 -c", "python -c", "pip freeze"}
KITCHEN_BOOT = ["dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000",
                "dtoverlay=i2c-mux,pca9548,addr=0x70"]
STEADY_I2C_CLOCK = ["[pi3]", "core_freq=250", "[pi02]", "core_freq=250", "[all]"]


@pytest.fixture
def pi(tmp_path: Path):
    """A fresh Raspberry Pi OS root, a source tree, and the stand-in commands."""
    source = tmp_path / "src"
    for name in ("install.sh", SERVICE, "README.md", "99-table-companion-pods.rules"):
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


def install_sh(pi, *args: str, stdin: int = subprocess.DEVNULL
               ) -> subprocess.CompletedProcess[str]:
    """install.sh in the root, with the stand-in commands first on PATH."""
    source, root, stubs, state = pi
    env = dict(os.environ, COMPANION_ROOT=str(root), STUB_STATE=str(state),
               PYTHON=str(stubs / "python3"), PATH=f"{stubs}:{os.environ['PATH']}")
    return subprocess.run(["sh", str(source / "systemd" / "install.sh"), *args], env=env,
                          stdin=stdin, capture_output=True, text=True, timeout=60)


def run(pi, *args: str, stdin: int = subprocess.DEVNULL) -> list[str]:
    """Run install.sh (no one at the keyboard, unless stdin is a terminal); returns the
    stand-in calls it made (what it said: :func:`said`)."""
    state = pi[3]
    log = state / "calls.log"
    log.unlink(missing_ok=True)
    done = install_sh(pi, *args, stdin=stdin)
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


def enabled(state: Path, unit: str = SERVICE) -> bool:
    return (state / f"enabled-{unit}").exists()


def active(state: Path, unit: str = SERVICE) -> bool:
    return (state / f"active-{unit}").exists()


def test_install_sets_up_a_fresh_pi(pi):
    """User, groups, venv, the kitchen table, I2C at 400 kHz with the mux overlay its seats
    are on, the pods' udev rule, the unit enabled; started by the reboot config.txt needs."""
    source, root, _, state = pi
    calls = run(pi)
    assert called(calls, "useradd --system")
    assert all((state / f"member-{g}").exists() for g in GROUPS_ON_PI_OS)
    assert called(calls, f"pip install --quiet --upgrade --prefer-binary {source}[pi]")
    unit = root / "etc/systemd/system" / SERVICE
    assert unit.read_bytes() == (source / "systemd" / SERVICE).read_bytes()
    config = root / "etc/table-companion/table.toml"
    assert config.read_text() == (source / "hardware/tables/kitchen.toml").read_text()
    assert stat.S_IMODE(config.stat().st_mode) == 0o660
    assert stat.S_IMODE(config.parent.stat().st_mode) == 0o2770
    assert f"chgrp table-companion {config.parent} {config}" in calls
    assert boot_lines(pi) == ["[all]", "dtparam=audio=on", *KITCHEN_BOOT, *STEADY_I2C_CLOCK]
    assert "i2c-dev" in (root / "etc/modules").read_text().splitlines()
    rule = root / "etc/udev/rules.d/99-table-companion-pods.rules"
    assert rule.read_bytes() == (source / "systemd/99-table-companion-pods.rules").read_bytes()
    assert called(calls, "systemctl daemon-reload")
    assert enabled(state) and not active(state)
    assert "REBOOT" in said(pi) and all(line in said(pi) for line in KITCHEN_BOOT)


def test_install_keeps_the_i2c_clock_steady_on_a_pi_3_and_zero_2_w_unless_set(pi):
    """On a Pi 3 or Zero 2 W the I2C clock follows the core clock: 400 kHz asked is 250 kHz
    at idle unless core_freq holds it. A core_freq the owner set stays as it is."""
    config = pi[1] / "boot/firmware/config.txt"
    config.write_text("[all]\ncore_freq=400\ncore_freq_min=400\n")
    run(pi)
    assert boot_lines(pi) == ["[all]", "core_freq=400", "core_freq_min=400", *KITCHEN_BOOT]
    config.write_text("[all]\n")
    run(pi)
    assert boot_lines(pi)[-len(STEADY_I2C_CLOCK):] == STEADY_I2C_CLOCK
    assert "core_freq=250 (Pi 3, Zero 2 W: a steady I2C clock)" in said(pi)


ARMHF_PACKAGES = ("python3-pygame", "python3-pil", "python3-cbor2")


@pytest.mark.parametrize("arch", ["armhf", "arm64"])
def test_install_takes_pygame_pillow_and_cbor2_from_the_os_on_32_bit(pi, arch):
    """On 32-bit Pi OS, where PyPI has no wheels of them, the OS's pygame, Pillow and cbor2
    are installed for the venv to see; on 64-bit PyPI's wheels serve and none is asked for.
    No python3-cryptography on either: the phones' seals are the OS's libcrypto's."""
    state = pi[3]
    (state / "arch").write_text(arch)
    for package in (*ARMHF_PACKAGES, "python3-cryptography"):
        (state / f"archive-{package}").touch()
    calls = run(pi, "--venv-only")
    installed = [package for package in ARMHF_PACKAGES
                 if f"apt-get install -y -q --no-install-recommends {package}" in calls]
    assert installed == (list(ARMHF_PACKAGES) if arch == "armhf" else [])
    assert not [call for call in calls if "cryptography" in call]


@pytest.mark.parametrize("arch", ["armhf", "arm64"])
def test_install_a_failed_pip_says_why_on_32_bit(pi, arch):
    """pip fails (on armv7 PyPI builds no pygame or Pillow, and the OS's were
    not installed): the install stops, and on 32-bit names the OS packages that fix it."""
    root, state = pi[1], pi[3]
    (state / "arch").write_text(arch)
    (state / "pip-fails").touch()
    done = install_sh(pi, "--venv-only")
    assert done.returncode == 1
    assert "pip could not install the companion" in done.stderr
    fix = "sudo apt install python3-pygame python3-pil python3-cbor2"
    assert (fix in done.stdout) == (arch == "armhf")
    assert not (root / "opt/table-companion/venv/.source-hash").exists()


def test_install_creates_a_group_the_system_lacks(pi):
    """A system without one of Raspberry Pi OS's device groups (gpio, on plain Debian): the
    script creates it and puts the user in it."""
    state = pi[3]
    (state / "group-gpio").unlink()
    calls = run(pi)
    assert called(calls, "groupadd --system gpio") and (state / "member-gpio").exists()


def test_install_over_an_older_one_lets_the_service_save_table_toml(pi):
    """An install from before the table's page could save has /etc/table-companion root's
    alone: the next install gives it, and table.toml, to the service's group, once."""
    root = pi[1]
    run(pi)
    config = root / "etc/table-companion/table.toml"
    config.parent.chmod(0o755)
    config.chmod(0o640)
    config.write_text("# my wiring\n")
    calls = run(pi)
    assert stat.S_IMODE(config.parent.stat().st_mode) == 0o2770
    assert stat.S_IMODE(config.stat().st_mode) == 0o660
    assert f"chgrp table-companion {config.parent} {config}" in calls
    assert "the table's page can save table.toml" in said(pi)
    assert config.read_text() == "# my wiring\n"
    calls = run(pi)
    assert not called(calls, "chgrp") and "page can save" not in said(pi)


SAVE_AS_THE_SERVICE = """
import os, pathlib, sys
from companion.recent_log import RecentLog
from companion.table_desk import TableDesk
os.umask(0o077)  # the unit's UMask=
path = pathlib.Path(sys.argv[1])
said = TableDesk(path, path.parent / "state", lambda event: None, RecentLog()).save(sys.argv[2])
print(said or "saved")
"""


def test_the_service_saves_table_toml_in_the_directory_the_install_made(pi, tmp_path):
    """The table's page writes table.toml as the service's user (not root, in its group):
    a temporary file in the directory install.sh made, renamed over table.toml; a user
    outside the group can read neither."""
    if os.geteuid() != 0:
        pytest.skip("needs root, to run the save as another user")
    source, root = pi[0], pi[1]
    run(pi)
    reachable = Path(tempfile.mkdtemp(dir="/tmp"))  # pytest's tmp_path is root's alone
    try:
        reachable.chmod(0o755)
        etc = reachable / "table-companion"
        (root / "etc/table-companion").rename(etc)  # the modes install.sh gave, kept
        group = grp.getgrnam("nogroup").gr_gid  # the service's group, as chgrp makes it
        os.chown(etc, 0, group)
        os.chown(etc / "table.toml", 0, group)
        porch = (source / "hardware/tables/kitchen.toml").read_text() + "\n# the porch\n"
        service = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        done = subprocess.run([*service, sys.executable, "-c", SAVE_AS_THE_SERVICE,
                               str(etc / "table.toml"), porch], capture_output=True, text=True,
                              cwd=REPO, timeout=60)
        assert done.stdout == "saved\n", done.stdout + done.stderr
        assert (etc / "table.toml").read_text() == porch
        assert stat.S_IMODE((etc / "table.toml").stat().st_mode) == 0o660
        assert sorted(p.name for p in etc.iterdir()) == ["table.toml"]
        stranger = ["setpriv", "--reuid=65533", "--regid=65533", "--clear-groups", "cat",
                    str(etc / "table.toml")]
        assert subprocess.run(stranger, capture_output=True, timeout=60).returncode != 0
    finally:
        shutil.rmtree(reachable)


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
    assert called(calls, f"systemctl start {SERVICE}") and active(state)
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
    assert called(calls, "pip install") and called(calls, f"systemctl restart {SERVICE}")


FOREIGN_UNIT = """[Service]
ExecStart=/opt/companion/bin/companion
User=companion
"""


def another_companion(pi) -> Path:
    """Another program's companion (Bitfocus Companion Pi's): its user, unit and running
    service, all named companion."""
    root, state = pi[1], pi[3]
    (state / "passwd-companion").write_text(
        "companion:x:1001:1001:Companion:/home/companion:/bin/bash\n")
    unit = root / "etc/systemd/system/companion.service"
    unit.parent.mkdir(parents=True, exist_ok=True)
    unit.write_text(FOREIGN_UNIT)
    (state / "enabled-companion.service").touch()
    (state / "active-companion.service").touch()
    return unit


def touches_companion(calls: list[str]) -> list[str]:
    """The calls that changed anything named companion alone."""
    return [call for call in calls if call.split()[-1] in ("companion", "companion.service")
            and call.split()[0] not in READ_ONLY_CALLS
            and " ".join(call.split()[:2]) not in READ_ONLY_CALLS]


def test_install_and_uninstall_never_touch_another_programs_companion(pi):
    """A Pi that runs another program's companion user and unit: the install makes its own
    table-companion user and unit beside them, and --uninstall removes only those."""
    _, root, _, state = pi
    unit = another_companion(pi)
    calls = run(pi)
    assert (state / "passwd-table-companion").read_text().split(":")[5] == \
        "/var/lib/table-companion"
    calls += run(pi, "--uninstall", "--purge")
    assert touches_companion(calls) == []
    assert unit.read_text() == FOREIGN_UNIT
    assert (state / "passwd-companion").exists()
    assert enabled(state, "companion.service") and active(state, "companion.service")
    assert not (state / "passwd-table-companion").exists()


def old_install(pi) -> dict[Path, bytes]:
    """An install of ours under the old name, running, with the public screen: the unit
    companion.service and the user companion (home: our state directory); its games, the
    table's memory and an edited table.toml. Returns those files and their bytes."""
    source, root, _, state = pi
    run(pi, "--public-screen")
    system = root / "etc/systemd/system"
    (system / SERVICE).rename(system / "companion.service")
    (system / f"{SERVICE}.d").rename(system / "companion.service.d")
    (state / "passwd-table-companion").rename(state / "passwd-companion")
    (state / "passwd-companion").write_text(
        "companion:x:998:998::/var/lib/table-companion:/usr/sbin/nologin\n")
    (state / "group-table-companion").rename(state / "group-companion")
    for flag in ("enabled", "active"):
        (state / f"{flag}-companion.service").touch()
    (state / f"enabled-{SERVICE}").unlink()
    reboot(pi)
    kept = {saved_games(root): b"saved games",
            root / "var/lib/table-companion/table-memory.json": b'{"values": {}}',
            root / "etc/table-companion/table.toml": b"# my wiring\n"}
    for path, content in kept.items():
        path.write_bytes(content)
    return kept


def test_install_moves_our_old_companion_install_to_the_new_name(pi):
    """An install of ours named companion becomes table-companion: the old unit stopped and
    gone, the user renamed (its id, so its files, kept), the public screen carried over, and
    the games, the table's memory and table.toml untouched; the new service runs."""
    _, root, _, state = pi
    kept = old_install(pi)
    calls = run(pi)
    system = root / "etc/systemd/system"
    assert "systemctl stop companion.service" in calls
    assert not (system / "companion.service").exists()
    assert not (system / "companion.service.d").exists()
    assert not enabled(state, "companion.service") and not active(state, "companion.service")
    assert "usermod -l table-companion -c table-companion service companion" in calls
    assert (state / "group-table-companion").exists() and not (state / "passwd-companion").exists()
    assert (system / f"{SERVICE}.d/public-screen.conf").exists()
    assert enabled(state) and active(state)
    assert {path: path.read_bytes() for path in kept} == kept
    assert "moved companion.service to table-companion.service" in said(pi)


def test_install_hands_our_old_users_files_to_the_new_one(pi):
    """Both our old user and the new one exist (an install under the new name beside an old
    one): the old user goes and its files, the games and table.toml, are the new user's."""
    _, root, _, state = pi
    kept = old_install(pi)
    (state / "passwd-table-companion").write_text(
        "table-companion:x:997:997::/var/lib/table-companion:/usr/sbin/nologin\n")
    calls = run(pi)
    assert "userdel companion" in calls and not (state / "passwd-companion").exists()
    etc = root / "etc/table-companion"
    assert f"chgrp table-companion {etc} {etc}/table.toml" in calls
    assert f"chown -R table-companion:table-companion {root}/var/lib/table-companion" in calls
    assert {path: path.read_bytes() for path in kept} == kept


def test_uninstall_removes_our_old_companion_install(pi):
    """--uninstall of an install never moved to the new name removes the old unit and user,
    which are ours, and keeps the games as ever."""
    _, root, _, state = pi
    kept = old_install(pi)
    calls = run(pi, "--uninstall")
    assert "systemctl stop companion.service" in calls and "userdel companion" in calls
    assert not (root / "etc/systemd/system/companion.service").exists()
    assert not (state / "passwd-companion").exists()
    games = root / "var/lib/table-companion/journal.sqlite3"
    assert games.read_bytes() == kept[games]


def saved_games(root: Path) -> Path:
    games = root / "var/lib/table-companion/journal.sqlite3"
    games.parent.mkdir(parents=True, exist_ok=True)
    games.write_bytes(b"saved games")
    return games


def test_install_uninstall_keeps_the_saved_games_and_the_tables_settings(pi):
    """--uninstall removes the service, its drop-in, venv, udev rule and user; the journal
    and table.toml stay, handed to root (the deleted user's id must not own the seeds, nor
    its group read the settings), and the script says so."""
    _, root, _, state = pi
    run(pi, "--public-screen")
    reboot(pi)
    run(pi)  # running now
    games = saved_games(root)
    calls = run(pi, "--uninstall")
    report = said(pi)
    assert called(calls, f"systemctl stop {SERVICE}") and "userdel table-companion" in calls
    assert not (root / "etc/systemd/system" / SERVICE).exists()
    assert not (root / "etc/systemd/system" / f"{SERVICE}.d").exists()
    assert not (root / "etc/udev/rules.d/99-table-companion-pods.rules").exists()
    assert not (root / "opt/table-companion").exists()
    settings = root / "etc/table-companion/table.toml"
    assert settings.read_bytes() == (REPO / "hardware/tables/kitchen.toml").read_bytes()
    assert f"chgrp root {settings}" in calls and stat.S_IMODE(settings.stat().st_mode) == 0o600
    assert stat.S_IMODE(settings.parent.stat().st_mode) == 0o700
    assert f"kept the table's settings in {settings}, now root's alone" in report
    assert games.read_bytes() == b"saved games"
    assert f"chown -R root:root {games.parent}" in calls
    assert f"kept the saved games in {games.parent}, now owned by root" in report
    assert f"sudo rm -rf {games.parent}" in report
    assert "left on: I2C" in report
    assert not enabled(state) and not (state / "passwd-table-companion").exists()


def test_install_uninstall_purge_removes_the_saved_games_and_the_tables_settings(pi):
    """--uninstall --purge takes the saved games and table.toml too, without asking."""
    root = pi[1]
    run(pi)
    games = saved_games(root)
    run(pi, "--uninstall", "--purge")
    assert not games.parent.exists() and not (root / "etc/table-companion").exists()
    assert f"removed the saved games in {games.parent}" in said(pi)
    assert f"removed the table's settings, {root}/etc/table-companion/table.toml" in said(pi)


def test_install_after_an_uninstall_takes_the_kept_settings_back(pi):
    """An edited table.toml kept by --uninstall is the new install's, the service's group's
    again; it is not replaced by the example."""
    root = pi[1]
    run(pi)
    settings = root / "etc/table-companion/table.toml"
    settings.write_text("# my wiring\n")
    run(pi, "--uninstall")
    calls = run(pi)
    assert settings.read_text() == "# my wiring\n"
    assert f"chgrp table-companion {settings.parent} {settings}" in calls
    assert stat.S_IMODE(settings.stat().st_mode) == 0o660
    assert stat.S_IMODE(settings.parent.stat().st_mode) == 0o2770


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


def test_pi_check_names_no_package_archive():
    """make pi-check leaves the archive to debootstrap's default: the repository names no
    registry's address."""
    script = (REPO / "tools/pi-check.sh").read_text()
    assert "://" not in script


def test_uninstall_names_each_thing_it_leaves(pi):
    """What the install set up that other programs may use stays, and the uninstall names
    each: our lines in config.txt, i2c-dev, the OS packages present, the device groups."""
    state = pi[3]
    (state / "deb-python3-lgpio").touch()
    run(pi)
    run(pi, "--uninstall")
    left = [line for line in said(pi).splitlines() if line.startswith("install.sh: left")]
    config = pi[1] / "boot/firmware/config.txt"
    assert left == [
        f"install.sh: left on: I2C, in {config}: {' '.join(KITCHEN_BOOT)} core_freq=250"
        " core_freq=250",
        f"install.sh: left on: i2c-dev in {pi[1]}/etc/modules",
        "install.sh: left installed: the OS packages python3-lgpio (other programs may need"
        " them)",
        "install.sh: left as they are: the device groups (gpio i2c dialout audio video render)",
    ]
