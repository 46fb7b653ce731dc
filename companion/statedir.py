"""Where the companion keeps its journal: one directory that only its own user can read.

The journal holds every game's seed, so a directory we create is mode 0700, and one that
already exists must be ours and private: we never change the mode of a directory we did not
make (``--state-dir ~`` must not close up a home directory), we refuse it and say why. One
process at a time writes there: :func:`hold_state_dir` takes a lock for the process's life.
The first of these wins:

1. ``[table] state_dir`` in table.toml (a table that wants its games somewhere special);
2. ``$STATE_DIRECTORY``, which systemd sets from ``StateDirectory=`` (the service:
   /var/lib/table-companion); systemd may list several, colon-separated: the first is ours;
3. ``$XDG_STATE_HOME/table-companion``, else ``~/.local/state/table-companion`` (a person
   running ``companion play`` on a laptop).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
from collections.abc import Mapping
from pathlib import Path

from .exc import StateDirBusy

APP_NAME = "table-companion"
JOURNAL_NAME = "journal.sqlite3"
MEMORY_NAME = "table-memory.json"  # card values, options and seats' cues (companion/memory.py)
LOCK_NAME = "lock"


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
    """Create ``path`` (and its parents) private, or check that an existing one is private.

    Raises :class:`OSError` with a message that names the directory when it cannot be made,
    belongs to another user, or can be read by others (its seeds would be readable by them).
    """
    try:
        created = not path.exists()
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        if created:
            path.chmod(0o700)  # mkdir's mode is filtered by the umask
        info = path.stat()
    except OSError as error:
        raise OSError(error.errno, f"cannot create the state directory {path} "
                      f"({error.strerror}); set [table] state_dir or --state-dir") from None
    if info.st_uid != os.geteuid():
        raise OSError(f"the state directory {path} belongs to another user (uid "
                      f"{info.st_uid}); the journal's seeds must be ours alone")
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077:
        raise OSError(f"the state directory {path} can be read by others (mode {mode:o}); "
                      f"make it private (chmod 700 {path}) or choose another with --state-dir")
    return path


def hold_state_dir(path: Path) -> int:
    """Lock ``path`` for this process's life and return the lock's descriptor.

    ``flock`` is released by the kernel when the process ends, even by SIGKILL, so a lock is
    never stale. A second copy gets :class:`StateDirBusy` naming the holder's pid.
    """
    fd = os.open(path / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
        os.close(fd)
        raise StateDirBusy(f"another companion (pid {holder}) is already using {path}; "
                           "stop it first (sudo systemctl stop companion)") from None
    with contextlib.suppress(OSError):  # a full disk: the lock holds, only the pid is unsaid
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    return fd


def journal_path(state_dir: Path) -> Path:
    return state_dir / JOURNAL_NAME


def memory_path(state_dir: Path) -> Path:
    return state_dir / MEMORY_NAME
