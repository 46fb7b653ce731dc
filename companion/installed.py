"""The installed service's table.toml and games, so that on the Pi ``companion check-config``
and ``companion audit`` need no paths.

systemd/install.sh writes ``service.toml`` beside the venv it installs
(/opt/table-companion/service.toml: where the unit's table.toml and state directory are, and
what pip installed the companion from). The
``companion`` on PATH is that venv's, so the parent of its ``sys.prefix`` holds the file; a
checkout's .venv or a laptop has none, and the commands ask for their paths as before. A file
beside the venv, not a question to systemd: it answers without systemd running (a chroot, a
rescue boot) and names exactly the install this ``companion`` belongs to.
"""

from __future__ import annotations

import os
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from hardware.config import load_config

from .exc import CompanionError

SETTINGS_NAME = "service.toml"


class NotInstalled(CompanionError):
    """A command that needs a path was given none, and no installed service names one."""


@dataclass(frozen=True)
class InstalledService:
    config: Path  # the unit's --table
    state_dir: Path  # its StateDirectory=, unless table.toml's [table] state_dir moves it
    requirement: str | None  # what pip installed it from (companion update's default)


def installed_service(prefix: Path = Path(sys.prefix)) -> InstalledService | None:
    """The service this ``companion``'s venv (``prefix``) was installed for; None if none."""
    try:
        data = tomllib.loads((prefix.parent / SETTINGS_NAME).read_text())
        return InstalledService(Path(data["config"]), Path(data["state_dir"]),
                                data.get("requirement"))
    except (OSError, tomllib.TOMLDecodeError, KeyError):
        return None


def config_to_check(given: str | None, prefix: Path = Path(sys.prefix), *,
                    command: str = "check-config") -> str:
    """check-config's (or doctor's) file: the one given, else the installed service's."""
    if given is not None:
        return given
    service = installed_service(prefix)
    if service is None:
        raise NotInstalled(f"which table.toml? companion {command} FILE (no installed "
                           "service here to take it from)")
    if not os.access(service.config, os.R_OK):
        raise NotInstalled(f"{service.config} is readable by root and the service only: "
                           f"sudo companion {command}")
    return str(service.config)


def games_to_audit(given: str | None, prefix: Path = Path(sys.prefix)) -> str | None:
    """audit's state directory: the one given, else the installed service's (table.toml's
    ``[table] state_dir`` if it moves the games), else None (the user's own, as for play)."""
    if given is not None:
        return given
    service = installed_service(prefix)
    if service is None:
        return None
    state_dir = service.state_dir
    if os.access(service.config, os.R_OK):
        state_dir = load_config(service.config).state_dir or state_dir
    if not os.access(state_dir, os.R_OK | os.X_OK):
        raise NotInstalled(f"the table's games in {state_dir} are the service's alone "
                           "(every seed is there): sudo companion audit")
    return str(state_dir)
