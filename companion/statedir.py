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

The *runtime directory* (:func:`choose_runtime_dir`) holds what must outlive a restart of the
service but not a reboot, in memory (a tmpfs) so that it can be written when the state
directory cannot: the mark of writes held back (:class:`companion.journal_file.UnsavedMark`).
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import stat
from collections.abc import Mapping
from pathlib import Path

from .exc import StateDirBusy

APP_NAME = "table-companion"
JOURNAL_NAME = "journal.sqlite3"
MEMORY_NAME = "table-memory.json"  # card values, options and seats' cues (companion/memory.py)
LOCK_NAME = "lock"  # the holder's pid, for the refusal's message; the lock is the directory

log = logging.getLogger(__name__)


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


def choose_runtime_dir(environ: Mapping[str, str] = os.environ) -> Path | None:
    """``$RUNTIME_DIRECTORY`` (systemd's ``RuntimeDirectory=``, kept across the service's
    restarts by ``RuntimeDirectoryPreserve=restart``), else ``$XDG_RUNTIME_DIR/table-companion``
    (a person's session); None without either. Nothing is created here."""
    systemd = environ.get("RUNTIME_DIRECTORY", "").split(":")[0]
    if systemd:
        return Path(systemd)
    xdg = environ.get("XDG_RUNTIME_DIR", "")
    return Path(xdg) / APP_NAME if xdg and Path(xdg).is_absolute() else None


def hold_state_dir(path: Path) -> int:
    """Lock ``path`` for this process's life and return the lock's descriptor.

    The lock is an ``flock`` on the directory itself, not on a file in it: it needs no write
    (a read-only state directory still has one writer, none), and deleting or replacing the
    ``lock`` file cannot let a second copy in. The kernel releases it when the process ends,
    even by SIGKILL, so it is never stale. A second copy gets :class:`StateDirBusy` naming
    the holder's pid, which the holder notes in ``lock`` when it can.
    """
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StateDirBusy(f"another companion (pid {_holder(path)}) is already using {path}; "
                           "stop it first (sudo systemctl stop table-companion)") from None
    _note_pid(path / LOCK_NAME)
    return fd


def open_nofollow(path: Path, flags: int) -> int:
    """``os.open`` that refuses a symbolic link (ELOOP) instead of following it; a file made
    here is 0600."""
    return os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)


def _note_pid(path: Path) -> None:
    """Best effort: a read-only or full disk leaves only the pid unsaid; a link is not
    followed (its target would be truncated), and the log says so."""
    try:
        fd = open_nofollow(path, os.O_WRONLY | os.O_CREAT)
    except OSError as error:
        if os.path.islink(path):
            log.error("%s is a symbolic link: not followed, not written (remove it)", path)
        elif error.errno not in (30, 28, 13):  # EROFS, ENOSPC, EACCES: nothing to tell
            log.warning("cannot note the pid in %s (%s)", path, error.strerror)
        return
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    os.close(fd)


def _holder(path: Path) -> str:
    try:
        fd = open_nofollow(path / LOCK_NAME, os.O_RDONLY)
    except OSError:
        return "unknown"
    try:
        return os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
    finally:
        os.close(fd)


def journal_path(state_dir: Path) -> Path:
    return state_dir / JOURNAL_NAME


def memory_path(state_dir: Path) -> Path:
    return state_dir / MEMORY_NAME
