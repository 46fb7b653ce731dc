"""On the installed Pi, ``companion check-config`` and ``companion audit`` find the service's
table.toml and games by themselves: run as the installed venv's companion (a real venv, a
real process), with the service.toml install.sh writes beside it."""

from __future__ import annotations

import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rng import commitment
from tests.test_audit import _journal_game
from tests.test_install import pi, run  # noqa: F401  (pi: the fixture)

REPO = Path(__file__).resolve().parent.parent


def installed_venv(prefix: Path) -> Path:
    """A venv at ``prefix`` that runs this tree's companion, as install.sh's venv does."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(prefix)], check=True)
    (packages,) = prefix.glob("lib/python*/site-packages")
    (packages / "tree.pth").write_text(f"{REPO}\n{site.getsitepackages()[0]}\n")
    return prefix / "bin" / "python"


def companion(python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(python), "-m", "companion", *args], capture_output=True,
                          text=True, timeout=120)


def service_settings(prefix: Path, config: Path, state_dir: Path) -> None:
    (prefix.parent / "service.toml").write_text(
        f'config = "{config}"\nstate_dir = "{state_dir}"\n')


@pytest.fixture
def installed(tmp_path: Path) -> tuple[Path, Path]:
    prefix = tmp_path / "opt/table-companion/venv"
    return installed_venv(prefix), prefix


def test_check_config_checks_the_installed_table_with_no_path(installed, tmp_path) -> None:
    """`companion check-config` alone checks the service's table.toml; a wiring mistake in it
    is reported with the file's own path."""
    python, prefix = installed
    config = tmp_path / "etc/table-companion/table.toml"
    config.parent.mkdir(parents=True)
    shutil.copy(REPO / "hardware/tables/kitchen.toml", config)
    service_settings(prefix, config, tmp_path / "var/lib/table-companion")
    done = companion(python, "check-config")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{config}: ok")
    config.write_text("[[seat]]\nnumber = 1\n")
    done = companion(python, "check-config")
    assert done.returncode == 2 and done.stderr.startswith(f"companion: {config}")


@pytest.mark.parametrize("moved", [False, True])
def test_audit_audits_the_installed_tables_last_game_with_no_path(installed, tmp_path,
                                                                  moved: bool) -> None:
    """`companion audit` alone reads the service's journal (not the user's own): in its state
    directory, or where table.toml's [table] state_dir moves the games."""
    python, prefix = installed
    state = tmp_path / ("usb/games" if moved else "var/lib/table-companion")
    state.mkdir(parents=True)
    record = _journal_game(state)
    config = tmp_path / "table.toml"
    pods = (REPO / "hardware/tables/pods.toml").read_text()
    config.write_text(pods.replace("[table]\n", f'[table]\nstate_dir = "{state}"\n') if moved
                      else pods)
    service_settings(prefix, config, tmp_path / "var/lib/table-companion")
    done = companion(python, "audit", "--commitment", commitment(record.key))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Fair: every shuffle and deal came from the committed key" in done.stdout


def test_without_an_install_check_config_asks_for_the_file(installed) -> None:
    """A venv that is not the service's (a checkout's, a laptop's): one line saying what to
    give, not a traceback."""
    python, _ = installed
    done = companion(python, "check-config")
    assert done.returncode == 2
    assert done.stderr == ("companion: which table.toml? companion check-config FILE (no "
                           "installed service here to take it from)\n")


def test_install_sh_tells_the_installed_companion_where_the_service_is(pi, tmp_path):  # noqa: F811
    """install.sh's service.toml names the unit's table.toml and state directory, and its
    /usr/local/bin/companion is the venv's."""
    from companion.installed import installed_service

    root = pi[1]
    run(pi)
    unit = (root / "etc/systemd/system/table-companion.service").read_text()
    service = installed_service(root / "opt/table-companion/venv")
    assert service is not None
    assert f"--table {service.config}" in unit
    assert service.state_dir == Path("/var/lib") / "table-companion"
    assert "StateDirectory=table-companion" in unit
    link = root / "usr/local/bin/companion"
    assert link.readlink() == Path("/opt/table-companion/venv/bin/companion")
    assert f"companion is on PATH: {link}" in (pi[3] / "said.txt").read_text()
    run(pi, "--uninstall", "--purge")
    assert not link.is_symlink()


def test_install_sh_leaves_another_companion_on_path_alone(pi):  # noqa: F811
    """A /usr/local/bin/companion of another program's stays, through install and uninstall."""
    link = pi[1] / "usr/local/bin/companion"
    link.parent.mkdir(parents=True)
    link.write_text("#!/bin/sh\necho another companion\n")
    run(pi)
    run(pi, "--uninstall", "--purge")
    assert link.read_text() == "#!/bin/sh\necho another companion\n"
