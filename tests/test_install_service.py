"""The appliance install with no checkout: the wheel alone, installed in a fresh venv, sets up
the service (``companion install-service``), brings it up to date (``companion update``) and
removes it (``companion uninstall``), all through the install.sh it carries.

A real wheel built from this tree and a real venv; the Pi's root and its commands are
test_install's (COMPANION_ROOT and the stand-ins that record their calls).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_install import (  # noqa: F401  (pi: the fixture)
    READ_ONLY_CALLS,
    SERVICE,
    active,
    pi,
    reboot,
    snapshot,
)

REPO = Path(__file__).resolve().parent.parent
PACKAGED = ("pyproject.toml", "README.md", "LICENSE", "engine", "hardware", "companion",
            "podproto", "systemd", "firmware")
NEXT_VERSION = "99.0.0"


def build_wheel(tree: Path, out: Path) -> Path:
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(out), str(tree)], check=True, capture_output=True,
                   timeout=300)
    (wheel,) = out.glob("*.whl")
    return wheel


@pytest.fixture(scope="module")
def made() -> Iterator[tuple[Path, Path, Path]]:
    """The wheel of this tree, the same at the next version, and a fresh venv with only the
    first installed (as the documented bootstrap does: pip install --no-deps). Readable by
    everyone, so that a user without root can run it too."""
    work = Path(tempfile.mkdtemp(prefix="install-service-"))
    work.chmod(0o755)
    tree = work / "tree"
    tree.mkdir()
    for name in PACKAGED:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, tree / name, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(REPO / name, tree / name)
    first = build_wheel(tree, work / "first")
    version = tree / "podproto/__init__.py"
    text = version.read_text()
    version.write_text(text.replace('VERSION = "', f'VERSION = "{NEXT_VERSION}"  # "', 1))
    second = build_wheel(tree, work / "second")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin/python"),
                    "install", "--quiet", "--no-deps", str(first)], check=True,
                   capture_output=True, timeout=300)
    shutil.rmtree(tree)
    yield first, second, venv / "bin/companion"
    shutil.rmtree(work)


def companion(pi, program: Path, *args: str) -> subprocess.CompletedProcess[str]:  # noqa: F811
    """The venv's companion with the Pi's root and stand-ins, away from any checkout."""
    _, root, stubs, state = pi
    (state / "calls.log").unlink(missing_ok=True)
    env = dict(os.environ, COMPANION_ROOT=str(root), STUB_STATE=str(state),
               PYTHON=str(stubs / "python3"), PATH=f"{stubs}:{os.environ['PATH']}")
    return subprocess.run([str(program), *args], env=env, cwd=root, capture_output=True,
                          text=True, timeout=120)


def calls(pi) -> list[str]:  # noqa: F811
    log = pi[3] / "calls.log"
    return log.read_text().splitlines() if log.exists() else []


def requirement(wheel: Path) -> str:
    return f"table-companion[pi] @ {wheel.as_uri()}"


def ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_install_service_sets_up_the_pi_from_the_wheel_alone(pi, made):  # noqa: F811
    """The wheel carries the unit, the udev rule and install.sh: install-service lays them
    down, starts table.toml from the chosen example and notes what pip installed it from;
    a second run changes nothing."""
    first, _, program = made
    root = pi[1]
    said = ok(companion(pi, program, "install-service", "--table", "pods"))
    system = root / "etc/systemd/system"
    assert (system / SERVICE).read_bytes() == (REPO / "systemd" / SERVICE).read_bytes()
    rule = "99-table-companion-pods.rules"
    assert (root / "etc/udev/rules.d" / rule).read_bytes() == \
        (REPO / "systemd" / rule).read_bytes()
    assert (root / "etc/table-companion/table.toml").read_bytes() == \
        (REPO / "hardware/tables/pods.toml").read_bytes()
    settings = (root / "opt/table-companion/service.toml").read_text()
    assert f'requirement = "{requirement(first)}"' in settings
    assert f"pip install --quiet --upgrade --prefer-binary {requirement(first)}" in calls(pi)
    assert f"installed {requirement(first)}" in said
    assert all(line.startswith("companion install-service: ") for line in said.splitlines())
    before = snapshot(root)
    said = ok(companion(pi, program, "install-service", "--table", "pods"))
    assert snapshot(root) == before
    changing = [call for call in calls(pi) if not call.startswith("pip install")
                and call.split()[0] not in READ_ONLY_CALLS
                and " ".join(call.split()[:2]) not in READ_ONLY_CALLS]
    assert changing == [] and "is up to date" in said


def running(pi, program: Path) -> None:  # noqa: F811
    """Installed, rebooted for I2C, and the service started by the next install-service."""
    ok(companion(pi, program, "install-service"))
    reboot(pi)
    ok(companion(pi, program, "install-service"))
    assert active(pi[3])


def the_tables_own(root: Path) -> dict[Path, bytes]:
    """The table's games, its memory and an edited table.toml."""
    files = {root / "var/lib/table-companion/journal.sqlite3": b"saved games",
             root / "var/lib/table-companion/table-memory.json": b'{"values": {}}',
             root / "etc/table-companion/table.toml": b"# my wiring\n"}
    for path, content in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    return files


def test_update_installs_the_new_version_and_keeps_the_tables_own(pi, made):  # noqa: F811
    """update WHEEL: the new version is installed and the running service restarted; the
    games, the memory and table.toml are as they were, and the new source is noted."""
    _, second, program = made
    root = pi[1]
    running(pi, program)
    kept = the_tables_own(root)
    said = ok(companion(pi, program, "update", str(second)))
    assert f"pip install --quiet --upgrade --prefer-binary {requirement(second)}" in calls(pi)
    assert f"systemctl restart {SERVICE}" in calls(pi) and active(pi[3])
    assert {path: path.read_bytes() for path in kept} == kept
    assert f'requirement = "{requirement(second)}"' in \
        (root / "opt/table-companion/service.toml").read_text()
    assert "restarted table-companion.service" in said and "done: updated" in said


def test_update_with_no_source_takes_the_installs_own(pi, made):  # noqa: F811
    """update alone installs from the source noted at install time."""
    first, _, program = made
    running(pi, program)
    (pi[3] / "pip-installed").unlink()  # a newer build behind the same source
    ok(companion(pi, program, "update"))
    assert f"pip install --quiet --upgrade --prefer-binary {requirement(first)}" in calls(pi)
    assert f"systemctl restart {SERVICE}" in calls(pi)


def test_update_leaves_a_stopped_service_stopped(pi, made):  # noqa: F811
    """The owner stopped the service: an update installs the new version, starts nothing,
    and says so."""
    _, second, program = made
    state = pi[3]
    running(pi, program)
    (state / f"active-{SERVICE}").unlink()
    said = ok(companion(pi, program, "update", str(second)))
    assert not [call for call in calls(pi) if call.startswith(("systemctl start",
                                                               "systemctl restart"))]
    assert not active(state)
    assert "table-companion.service was not running and stays stopped" in said


def test_update_without_an_install_says_what_to_give(pi, made):  # noqa: F811
    """No install here to name its source: update asks for one and does nothing."""
    done = companion(pi, made[2], "update")
    assert done.returncode == 2
    assert "update from what? companion update WHEEL-SDIST-OR-URL" in done.stderr


def test_uninstall_removes_the_install_and_says_what_it_leaves(pi, made):  # noqa: F811
    """uninstall, from the wheel's install.sh too: the install gone, with what it leaves."""
    program = made[2]
    root = pi[1]
    running(pi, program)
    the_tables_own(root)
    said = ok(companion(pi, program, "uninstall", "--purge"))
    assert not (root / "opt/table-companion").exists()
    assert not (root / "etc/systemd/system" / SERVICE).exists()
    assert "removed the saved games" in said and "left on: I2C" in said
    assert "removed the table's settings" in said
    assert all(line.startswith("companion uninstall: ") for line in said.splitlines())


def as_nobody() -> list[str]:
    """The prefix that runs a command as a user without root."""
    if os.geteuid() != 0:
        return []
    drop = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    uid = subprocess.run([*drop, "id", "-u"], capture_output=True, text=True, check=True)
    assert uid.stdout.strip() != "0"  # never on to a real install as root
    return drop


@pytest.mark.parametrize("args", [["install-service", "--table", "pods"],
                                  ["update", "new.whl"], ["uninstall", "--purge"]])
def test_without_root_the_command_says_to_run_it_with_sudo(made, args):
    """Run by a user without root, each command does nothing, and says so under its own
    name, with the command as typed, sudo in front."""
    program = made[2]
    Path(made[0].parent.parent / "new.whl").touch()
    done = subprocess.run([*as_nobody(), str(program), *args], capture_output=True, text=True,
                          cwd=made[0].parent.parent, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == \
        f"companion {args[0]}: run it as root: sudo {program} {' '.join(args)}\n"


def test_install_sh_without_root_says_to_run_it_with_sudo():
    """From a checkout too: the script names itself and its options, with sudo in front."""
    done = subprocess.run([*as_nobody(), "sh", str(REPO / "systemd/install.sh"), "--table",
                           "pods"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == \
        f"install.sh: run it as root: sudo {REPO}/systemd/install.sh --table pods\n"
