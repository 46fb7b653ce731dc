"""``companion install-service``, ``update`` and ``uninstall``: the appliance install with no
checkout on the Pi.

The wheel carries systemd/ (the unit, the udev rule, their README and install.sh) as
``companion/service_files``; these commands run that install.sh, the one implementation of
the install, telling it what pip is to install, where the example tables are and what the
user typed. What pip installs is a requirement with the ``pi`` extra: the source named, or for
``install-service`` the one pip installed this companion from (PEP 610's direct_url.json), or
for ``update`` the one the install recorded in service.toml.

``update`` runs the install.sh of the companion running it. On the Pi that is the service's
venv, which pip upgrades in place before the unit and the udev rule are copied, so they are
the new version's; its changes to install.sh itself take effect at the next update.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from .exc import CompanionError
from .installed import installed_service
from .shipped import example_tables_folder

DISTRIBUTION = "table-companion"
INSTALL_SH = Path(__file__).parent / "service_files" / "install.sh"


def requirement_from(source: str) -> str:
    """pip's requirement for ``source``: a wheel, an sdist or a folder here, or a URL
    (``https://...``, ``git+https://...``)."""
    if "://" not in source:
        path = Path(source).resolve()
        if not path.exists():
            raise CompanionError(f"{source}: no such file (a wheel, an sdist or a URL)")
        source = path.as_uri()
    return f"{DISTRIBUTION}[pi] @ {source}"


def requirement_installed() -> str:
    """The requirement this companion was installed from, as pip recorded it; from an index,
    the newest there."""
    try:
        recorded = distribution(DISTRIBUTION).read_text("direct_url.json")
    except PackageNotFoundError:
        recorded = None
    if recorded is None:
        return f"{DISTRIBUTION}[pi]"
    direct = json.loads(recorded)
    url = direct["url"]
    vcs = direct.get("vcs_info")
    if vcs is not None:
        revision = vcs.get("requested_revision")
        url = f"{vcs['vcs']}+{url}" + (f"@{revision}" if revision else "")
    return f"{DISTRIBUTION}[pi] @ {url}"


def install_service(source: str | None, args: list[str]) -> int:
    """Install the service from ``source`` (default: where this companion came from)."""
    wanted = requirement_from(source) if source else requirement_installed()
    return _install_sh("install-service", wanted, args)


def update(source: str | None) -> int:
    """Bring the install up to date from ``source`` (default: the source it was installed
    from); the table's settings, games and memory stay, a stopped service stays stopped."""
    if source is not None:
        return _install_sh("update", requirement_from(source), ["--update"])
    service = installed_service(_service_prefix())
    if service is None or service.requirement is None:
        raise CompanionError("update from what? companion update WHEEL-SDIST-OR-URL (no "
                             "installed service here names its source)")
    return _install_sh("update", service.requirement, ["--update"])


def uninstall(purge: bool) -> int:
    return _install_sh("uninstall", None, ["--uninstall", *(["--purge"] if purge else [])])


def _service_prefix() -> Path:
    """The service's venv: /opt/table-companion/venv, under COMPANION_ROOT if set."""
    return Path(os.environ.get("COMPANION_ROOT", "/")) / "opt/table-companion/venv"


def _install_sh(command: str, requirement: str | None, args: list[str]) -> int:
    """Run install.sh for ``command``, whose name begins its messages (not install.sh's,
    which the user never typed)."""
    env = dict(os.environ, COMPANION_TABLES=str(example_tables_folder()),
               COMPANION_COMMAND=_as_typed(), COMPANION_NAME=f"companion {command}")
    if requirement is not None:
        env["COMPANION_REQUIREMENT"] = requirement
    return subprocess.run(["sh", str(INSTALL_SH), *args], env=env).returncode


def _as_typed() -> str:
    """This command line, to be run again with sudo: ``companion`` when that is this one on
    PATH, else the path it was run by."""
    program = sys.argv[0]
    on_path = shutil.which("companion")
    if on_path is not None and Path(on_path).resolve() == Path(program).resolve():
        program = "companion"
    return shlex.join([program, *sys.argv[1:]])
