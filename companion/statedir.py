"""Where the companion keeps its journal: one directory that only its own user can read.

The journal holds every game's seed, so the directory is created mode 0700 (and tightened
to 0700 if it already exists and is ours). The first of these wins:

1. ``[table] state_dir`` in table.toml (a table that wants its games somewhere special);
2. ``$STATE_DIRECTORY``, which systemd sets from ``StateDirectory=`` (the service:
   /var/lib/table-companion); systemd may list several, colon-separated: the first is ours;
3. ``$XDG_STATE_HOME/table-companion``, else ``~/.local/state/table-companion`` (a person
   running ``companion play`` on a laptop).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path

APP_NAME = "table-companion"
JOURNAL_NAME = "journal.sqlite3"


def choose_state_dir(configured: Path | None, environ: Mapping[str, str] = os.environ) -> Path:
    """The state directory by the rules above; nothing is created here."""
    if configured is not None:
        return configured
    systemd = environ.get("STATE_DIRECTORY", "").split(":")[0]
    if systemd:
        return Path(systemd)
    xdg = environ.get("XDG_STATE_HOME", "")
    if xdg and Path(xdg).is_absolute():  # the XDG spec says to ignore a relative value
        return Path(xdg) / APP_NAME
    return Path(environ.get("HOME") or Path.home()) / ".local" / "state" / APP_NAME


def prepare_state_dir(path: Path) -> Path:
    """Create ``path`` (and its parents) and make sure nobody else can look inside.

    Raises :class:`OSError` with a message that names the directory when it cannot be made
    or belongs to another user (its seeds would be readable by them).
    """
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.stat()
    except OSError as error:
        raise OSError(error.errno, f"cannot create the state directory {path} "
                      f"({error.strerror}); set [table] state_dir or --state-dir") from None
    if info.st_uid != os.geteuid():
        raise OSError(f"the state directory {path} belongs to another user (uid "
                      f"{info.st_uid}); the journal's seeds must be ours alone")
    if stat.S_IMODE(info.st_mode) != 0o700:
        path.chmod(0o700)
    return path


def journal_path(state_dir: Path) -> Path:
    return state_dir / JOURNAL_NAME
