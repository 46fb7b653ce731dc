"""Where the companion service may keep its games, so check-config can refuse a place it can't.

table-companion.service runs with ``ProtectSystem=strict`` and ``ProtectHome=yes``: for it the whole
file system is read-only but its ``StateDirectory=`` (/var/lib/table-companion), and /home,
/root and /run/user do not exist. A ``[table] state_dir`` anywhere else would stop the service
at every start, so ``companion check-config`` refuses it, saying why, unless an administrator
allowed the directory explicitly with ``ReadWritePaths=`` (systemd/README.md, "Games kept
elsewhere"). Where the service is not installed (a laptop) any state_dir is fine.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

SERVICE = "table-companion.service"
HIDDEN = (Path("/home"), Path("/root"), Path("/run/user"))  # ProtectHome=yes
PROPERTIES = ("LoadState", "StateDirectory", "ReadWritePaths")

Show = Callable[[], str | None]


def systemctl_show() -> str | None:
    """``systemctl show`` of the service's file-system properties; None without systemd."""
    try:
        done = subprocess.run(["systemctl", "show", SERVICE, f"--property={','.join(PROPERTIES)}"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def service_writable_dirs(show: Show = systemctl_show) -> tuple[Path, ...] | None:
    """The directories the installed service may write: its state directory and the ones an
    administrator allowed; None when the service is not installed here."""
    output = show()
    if output is None:
        return None
    found = dict(line.partition("=")[::2] for line in output.splitlines())
    if found.get("LoadState") != "loaded":
        return None
    state = [Path("/var/lib") / name for name in found.get("StateDirectory", "").split()]
    allowed = [Path(path.lstrip("-+")) for path in found.get("ReadWritePaths", "").split()]
    return (*state, *allowed)


def state_dir_refusal(state_dir: Path, writable: Sequence[Path]) -> str | None:
    """Why the service could not keep its games in ``state_dir``; None when it can."""
    where = Path(os.path.normpath(state_dir))
    for hidden in HIDDEN:
        if where.is_relative_to(hidden):
            return (f"state_dir {state_dir} is under {hidden}, which the companion service "
                    "cannot see (ProtectHome=yes): remove state_dir to keep the games in "
                    "/var/lib/table-companion, or choose a directory outside the homes")
    if any(where.is_relative_to(directory) for directory in writable):
        return None
    return (f"state_dir {state_dir} is read-only for the companion service (ProtectSystem="
            f"strict; it may write {', '.join(map(str, writable))}): remove state_dir to keep "
            "the games in /var/lib/table-companion, or allow the directory explicitly: "
            f"sudo systemctl edit table-companion, [Service] ReadWritePaths={state_dir} "
            "(systemd/README.md, \"Games kept elsewhere\")")
