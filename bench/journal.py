"""Journal commit latency: the companion's SqliteJournal (WAL, synchronous=FULL).

Each append is one committed, fsync'd transaction, timed from the call until ``settle``
returns (the commit is made on the journal's flusher thread): the time an action would wait
before its effects may play if the loop drew nothing meanwhile. The baseline is the same row
written by plain SQLite in its default rollback-journal mode (also synchronous=FULL). The
files live in a scratch folder beside the bench, on the disk the companion would use, not on
a tmpfs. """

from __future__ import annotations

import hashlib
import sqlite3
import tempfile
import time
from pathlib import Path

from companion.journal_file import SCHEMA
from companion.journal_sqlite import SqliteJournal
from companion.record import GameRecord, JournaledAction

from .bot import GAME
from .report import Figure
from .sizes import Sizes
from .stats import spread

SCRATCH = Path(__file__).resolve().parent
ROLLBACK = "rollback journal"


class RunningJournal(SqliteJournal):
    """The production journal, except that the loop's start does not resume (and so pause)
    the game just started on it: the idle bench measures a glass that keeps running."""

    def resume(self) -> None:
        return None


def measure(sizes: Sizes) -> list[Figure]:
    commits = sizes.commits
    with tempfile.TemporaryDirectory(prefix="journal-", dir=SCRATCH) as folder:
        ours = spread(_journal_appends(Path(folder) / "journal.sqlite3", commits))
        plain = spread(_rollback_appends(Path(folder) / "rollback.sqlite3", commits))
    return [
        Figure("journal_p50", "journal commit p50", ours.p50 * 1000, "ms",
               baseline=plain.p50 * 1000, baseline_label=ROLLBACK),
        Figure("journal_p99", "journal commit p99", ours.p99 * 1000, "ms",
               baseline=plain.p99 * 1000, baseline_label=ROLLBACK),
    ]


SEED = hashlib.sha256(b"table-companion bench journal").digest()  # the appends draw nothing


def entry(index: int) -> JournaledAction:
    """A typical Staying Alive action row."""
    return JournaledAction(1 + index % 5, "check:low", 1000.0 + index, True, "Strain under 5")


def _journal_appends(path: Path, commits: int) -> list[float]:
    record = GameRecord(GAME, (1, 2, 3, 4, 5), {}, SEED)
    seconds = []
    with SqliteJournal(path) as journal:
        journal.begin(record)
        for index in range(commits):
            record.entries.append(entry(index))
            started = time.perf_counter()
            journal.append(record, record.entries[-1])
            journal.settle()
            seconds.append(time.perf_counter() - started)
    return seconds


def _rollback_appends(path: Path, commits: int) -> list[float]:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("PRAGMA synchronous=FULL")
    db.executescript(SCHEMA)
    db.execute("INSERT INTO games (game_key, seats, options, seed, deal_key, cut) "
               "VALUES (?, '1,2,3,4,5', '{}', ?, x'', '')", (GAME, SEED))
    seconds = []
    for index in range(commits):
        e = entry(index)
        started = time.perf_counter()
        db.execute("INSERT INTO entries (game, idx, seat, action, at, undoable, label) "
                   "VALUES (1, ?, ?, ?, ?, ?, ?)",
                   (index, e.seat, e.action, e.at, int(e.undoable), e.label))
        seconds.append(time.perf_counter() - started)
    db.close()
    return seconds
