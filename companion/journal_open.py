"""Opening the journal's file, and telling the table what the last run left behind.

A start finds one of: a file this version reads; a file that is not a journal (moved aside
whole, a fresh one started: "Bad journal set aside"); a log whose last write was torn by a
power cut ("Torn write cut back"); a log with a damaged frame, repaired from a copy kept
aside ("Journal damage found"), or, when the repair does not read, cut back where SQLite
cuts it ("Last 3 saves lost"); or the mark of a run that died with writes the disk had
refused ("Unsaved actions lost"), told first, even when the file cannot be opened now (a
read-only disk, a symbolic link refused). The file's own checks are :mod:`companion.journal_file`.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Callable
from functools import partial
from pathlib import Path

from .exc import Unreadable
from .journal_file import (
    UnsavedMark,
    check_wal,
    connect,
    copy_aside,
    move_aside,
    refuse_links,
    repair_wal,
)

log = logging.getLogger(__name__)


def open_journal(path: Path, mark: UnsavedMark, tell: Callable[[str], None], *,
                 counted: bool = False, exclusive: bool = False) -> sqlite3.Connection:
    """The journal at ``path``, open and checked; each thing found is told with ``tell``.
    The unsaved mark is read (once a run), then given its blocks for this run. ``counted``: a
    tally (:mod:`companion.journal_tally`) was found, and resume tells what a torn log lost,
    with its size (nothing, when the torn write was never acknowledged). A file that cannot
    be opened now raises an I/O fault (:func:`companion.journal_file.is_io_fault`).
    ``exclusive``: see :func:`companion.journal_file.connect`."""
    opener = partial(connect, exclusive=exclusive)
    unsaved = mark.found()
    if unsaved:
        log.error("journal %s: the last run ended with writes the disk had refused (%s); "
                  "what was played after that is lost", path, unsaved)
        tell("Unsaved actions lost")
    refuse_links(path)
    wal = check_wal(path)
    try:
        db = _connect_checked(path, wal.lost, tell, opener)
    except Unreadable as error:
        move_aside(path, str(error))
        tell("Bad journal set aside")
        db = opener(path)
    if wal.torn and not unsaved and not counted:
        log.warning("journal %s: the last write was torn (a power cut mid-write); cut back "
                    "to the last whole write", path)
        tell("Torn write cut back")
    mark.prepare()
    return db


def _connect_checked(path: Path, lost: int, tell: Callable[[str], None],
                     opener: Callable[[Path], sqlite3.Connection]) -> sqlite3.Connection:
    """Open the file; a log with a damaged frame is repaired first (a copy kept aside),
    and when the repair does not read, SQLite's own cut is taken and announced."""
    if not lost:
        return opener(path)
    aside = copy_aside(path, "damaged")
    log.error("journal %s: its log has a damaged frame, and %d committed writes after it; "
              "a copy is kept as %s; repairing", path, lost, aside.name)
    repair_wal(path)
    try:
        db = opener(path)
    except Unreadable as error:
        log.error("journal %s: the repaired log does not read (%s): the %d writes after "
                  "the damage are lost", path, error, lost)
        Path(f"{path}-wal").write_bytes(Path(f"{aside}-wal").read_bytes())
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}-shm").unlink()
        tell(f"Last {lost} saves lost")
        return opener(path)
    tell("Journal damage found")
    return db
