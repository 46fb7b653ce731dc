"""The journal's write path: every write one transaction, durable before the table shows it.

A write's statements run on the caller's thread and its commit (the fsync) on the writer's
own flusher thread: the loop draws the presser's screen while the disk flushes, and
:meth:`JournalWriter.settle` holds every byte and cue back until the commit has returned.
An append's commit is left on its way when it returns; every other write (begin, undo,
finish, the running timer's moment) is durable, or held, on return.

A write the disk refuses (full, failing) is held in memory, in order, with "Not saving:
disk full" on every seat; :meth:`JournalWriter.catch_up` writes it all once the disk takes
it again ("Saving again"). While writes are held, the ``-unsaved`` mark says so, so that a
process that dies behind leaves word for the next start.

Each write is a named method that runs its statements and returns what to note once they
are durable (the chain's new link, the game's row id, a line on the ack stream): nothing is
believed written before the disk says so.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Self, TextIO

from . import journal_chain
from .journal_digest import entry_tag
from .journal_file import CHECKPOINT_COMMITS, UnsavedMark, fault_name, move_aside
from .journal_open import open_journal
from .journal_tally import Tallied, Tally
from .record import GameRecord, JournaledAction

log = logging.getLogger(__name__)

# A write: statements inside one transaction, returning what to note once it committed.
Write = Callable[[sqlite3.Connection], Callable[[], None]]
# What the games row holds from ``begin``: the columns up to ``cut_in_play``.
GameRow = tuple[str, str, str, bytes, str, str | None, bytes, str, int]


class JournalWriter:
    """The write half of the Journal protocol on SQLite, and the game it is writing."""

    def __init__(self, path: Path, *, acks: TextIO | None = None,
                 runtime: Path | None = None, exclusive: bool = False) -> None:
        """``runtime``: the runtime directory, where the unsaved mark is kept too;
        ``exclusive``: the service's way of opening the file (no ``-shm``, no other reader;
        :func:`companion.journal_file.connect`)."""
        self._exclusive = exclusive
        self.path = Path(path)
        self.acks = acks
        self.notices: list[str] = []  # short texts for every seat (the app shows and clears)
        self._db: sqlite3.Connection | None = None
        self._mark = UnsavedMark(self.path, runtime)
        self._held: list[tuple[str, Write]] = []  # writes the disk refused, oldest first
        # The write whose commit the flusher thread is making: what it was, what to note
        # once it is durable, and the commit.
        self._flight: tuple[str, Write, Callable[[], None], Future[object]] | None = None
        self._flusher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="journal")
        # The checkpoint the flusher makes between commits (CHECKPOINT_COMMITS), and how many
        # commits the log has taken since the last one.
        self._checkpoint: Future[object] | None = None
        self._commits = 0
        self._fault: str | None = None  # why writes are held back, while they are
        self._marked = False  # the unsaved mark is set
        self._closed = False
        self._live = False  # a game is open (begun or resumed, not finished), held or not
        # The game as the file holds it: its row, its chain (start and links), its moment.
        self._game: int | None = None
        self._start = b""
        self._links: list[bytes] = []
        self._seen: float | None = None
        self._cut = ""  # the cut the game's row holds, or will once the held writes are in
        self._dealt = False  # the game's row holds its deal (durable)
        self._tally = Tally(self.path)
        # What the tally said when the file was opened, before this run wrote anything.
        self.tallied: Tallied | None = None

    @property
    def db(self) -> sqlite3.Connection:
        """Opened on first use, so the app blanks every seat before the file is read; the
        loop's again once the flusher's checkpoint is done with it."""
        self._checkpointed()
        if self._db is None:
            counted = self._tally.read() is not None
            self._db = open_journal(self.path, self._mark, self.tell, counted=counted,
                                    exclusive=self._exclusive)
            self.tallied = self._tally.read()  # gone with a journal set aside
        return self._db

    # --- writing, or holding writes back -------------------------------------------------------

    @property
    def behind(self) -> bool:
        """Writes are waiting for the disk: the app calls :meth:`catch_up` every few seconds."""
        return bool(self._held)

    def _write(self, kind: str, write: Write) -> None:
        """Write now, or hold the write while the disk refuses: an append's commit is left
        on its way (the app settles it before drawing the presser's screen is sent); any
        other write is durable, or held, on return."""
        if kind == "remember" and self._held and self._held[-1][0] == "remember":
            self._held[-1] = (kind, write)  # only the newest moment matters
        else:
            self._held.append((kind, write))
        self.catch_up()
        if kind != "append":
            self.settle()

    def catch_up(self) -> bool:
        """Write what is held, in order; True once nothing waits (the newest write may still
        be on its way to the disk: :meth:`settle` waits for it)."""
        if not self.settle():
            return False
        while self._held:
            try:
                self._hand_over(self.db)
            except (sqlite3.Error, OSError) as error:
                self.refused(error)
                return False
            if self._held and not self.settle():  # older writes are durable before newer
                return False
        if self._flight is None:
            self._saved()
        return True

    def settle(self) -> bool:
        """Wait until the write handed to the flusher is on the disk (False: the disk
        refused it, and it is held like any refused write). What the table shows or plays
        after a write waits for this, so nothing is seen before it is durable; meanwhile
        the loop draws (the commit lets go of the GIL while it waits for the disk)."""
        flight, self._flight = self._flight, None
        if flight is None:
            return True
        kind, write, noted, commit = flight
        try:
            commit.result()
        except (sqlite3.Error, OSError) as error:
            self._roll_back()
            self._held.insert(0, (kind, write))
            self.refused(error)
            return False
        noted()
        self._commits += 1
        if self._commits >= CHECKPOINT_COMMITS and self._db is not None:
            self._commits = 0
            self._checkpoint = self._flusher.submit(
                self._db.execute, "PRAGMA wal_checkpoint(PASSIVE)")
        if not self._held:
            self._saved()
        return True

    def _checkpointed(self) -> None:
        """Wait for the checkpoint the flusher is making, if it is. One that fails loses
        nothing (every write is in the log, and the next is tried CHECKPOINT_COMMITS later):
        it is only logged."""
        checkpoint, self._checkpoint = self._checkpoint, None
        if checkpoint is None:
            return
        try:
            checkpoint.result()
        except (sqlite3.Error, OSError) as error:
            log.warning("journal %s: cannot checkpoint its log (%s): the log grows until the "
                        "next checkpoint", self.path, type(error).__name__)

    def _hand_over(self, db: sqlite3.Connection) -> None:
        """Run the oldest held write's statements here, and hand its commit (the fsync) to
        the flusher thread."""
        kind, write = self._held[0]
        db.execute("BEGIN IMMEDIATE")
        try:
            noted = write(db)
        except BaseException:
            self._roll_back()
            raise
        self._held.pop(0)
        self._flight = (kind, write, noted, self._flusher.submit(db.execute, "COMMIT"))

    def _roll_back(self) -> None:
        db = self._db
        if db is not None and db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")

    def _saved(self) -> None:
        """Nothing is held or on its way: a fault is over, and the unsaved mark goes."""
        if self._fault is not None:
            log.warning("journal %s: the disk takes writes again; every held write is saved",
                        self.path)
            self._fault = None
            self.tell("Saving again")
        if self._marked:
            self._mark.set("")
            self._marked = False

    def refused(self, error: BaseException) -> None:
        """The disk refused a write, or a read: keep what is held, tell the table once,
        keep playing."""
        if self._held and not self._marked:
            where = f"game {self._game} entry {len(self._links)}" if self._game else "no game"
            self._mark.set(f"behind since {where} ({type(error).__name__}: {error})"[:200])
            self._marked = True
        if self._fault is not None:
            return
        self._fault = fault_name(error)
        log.error("journal %s: cannot save (%s: %s); the game goes on, held in memory, and is "
                  "saved when the disk takes writes again", self.path, type(error).__name__,
                  error)
        self.tell(f"Not saving: {self._fault}")

    # --- the writes of the Journal protocol ----------------------------------------------------

    def begin(self, record: GameRecord) -> None:
        """A new game; any game still open (``Play again``) is archived first."""
        shown = journal_chain.shown_commitment(record.seed, record.key)
        seats, options, deck_list = journal_chain.setup_text(record)
        row: GameRow = (record.game_key, seats, options, record.seed, shown, deck_list,
                        record.key, record.cut, int(record.cut_in_play))
        start = journal_chain.record_genesis(record)
        self._live, self._cut = True, record.cut
        self._write("begin", partial(self._insert_game, row, start))

    def _insert_game(self, row: GameRow, start: bytes,
                     db: sqlite3.Connection) -> Callable[[], None]:
        """Any game still open is archived (the one being written sealed as finished); this
        one's row has the seal of an empty chain."""
        if self._game is not None:
            self._archive(None, db)
        db.execute("UPDATE games SET finished = ? WHERE finished IS NULL", (time.time(),))
        cursor = db.execute(
            "INSERT INTO games (game_key, seats, options, seed, commitment, deck_list, "
            "deal_key, cut, cut_in_play, length, seal) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
            (*row, journal_chain.seal(start, 0, None)))
        return partial(self._began, cursor.lastrowid, start)

    def _began(self, game: int | None, start: bytes) -> None:
        """Durable: later writes go to this row, and its chain starts at ``start``."""
        self._game, self._start, self._links, self._seen = game, start, [], None
        self._dealt = bool(self._cut)
        self._tally_now()
        self.ack("begin", game)

    def append(self, record: GameRecord, entry: JournaledAction) -> None:
        """``entry`` is the newest of ``record.entries``; its commit is on its way on return
        (durable once :meth:`settle` returns True), or it is held until the disk takes it."""
        if not self._live:
            raise RuntimeError("journal: append before begin or resume")
        index = len(record.entries) - 1
        dealt = (record.cut, record.seed) if record.cut != self._cut else None
        self._cut = record.cut  # the entry that completed a cut in play: it deals the game
        self._write("append", partial(self._insert_entry, index, entry, dealt, record.seed))

    def _insert_entry(self, index: int, entry: JournaledAction, dealt: tuple[str, bytes] | None,
                      seed: bytes, db: sqlite3.Connection) -> Callable[[], None]:
        """The entry with its chain link, and the cut and seed it dealt, if it did."""
        link = journal_chain.link(self._head(index), index, entry)
        db.execute(
            "INSERT INTO entries (game, idx, seat, action, at, undoable, label, link) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (self._game, index, entry.seat, entry.action, entry.at, int(entry.undoable),
             entry.label, link))
        if dealt is not None:
            db.execute("UPDATE games SET cut = ?, seed = ? WHERE id = ?", (*dealt, self._game))
        self._update_seal(db, link, index + 1, self._seen)
        return partial(self._appended, index, link, entry, seed, dealt is not None)

    def _appended(self, index: int, link: bytes, entry: JournaledAction, seed: bytes,
                  deals: bool) -> None:
        """Durable: the next entry links to this one (an entry undone before is replaced).
        The entry that deals the game is not shown before the tally says it was dealt. Its
        tag (an HMAC) is made only for an ack stream (``--ack-fd``: the crash tests, a
        supervisor): the loop makes it before the presser's screen goes out, and a table
        runs without one."""
        del self._links[index:]
        self._links.append(link)
        self._dealt = self._dealt or deals
        self._tally_now(wait=deals)
        if self.acks is not None:
            self.ack("append", self._game, index, entry_tag(seed, index, entry),
                     int(entry.undoable))

    def truncate(self, record: GameRecord, length: int) -> None:
        self._write("truncate", partial(self._delete_entries, length))

    def _delete_entries(self, length: int, db: sqlite3.Connection) -> Callable[[], None]:
        """Undo: the tail goes, and the seal covers the entries left."""
        db.execute("DELETE FROM entries WHERE game = ? AND idx >= ?", (self._game, length))
        self._update_seal(db, self._head(length), length, self._seen)
        return partial(self._truncated, length)

    def _truncated(self, length: int) -> None:
        del self._links[length:]
        self._tally_now()
        self.ack("truncate", self._game, length)

    def finish(self, record: GameRecord, damage: str | None = None) -> None:
        """Archive the game; ``damage`` says why a game that could not be restored was."""
        if not self._live:
            return
        self._live = False
        self._write("finish", partial(self._archive, damage))

    def _archive(self, damage: str | None, db: sqlite3.Connection) -> Callable[[], None]:
        """The game's row says it is over, and its seal says so too."""
        length = len(self._links)
        seal = journal_chain.seal(self._head(length), length, self._seen, finished=True)
        db.execute("UPDATE games SET finished = ?, damage = ?, length = ?, seal = ? WHERE id = ?",
                   (time.time(), damage, length, seal, self._game))
        return self._finished

    def _finished(self) -> None:
        self._tally_now(finished=True)
        self.ack("finish", self._game)
        self._game = None

    def remember(self, record: GameRecord, at: float) -> None:
        """The game clock reached ``at`` with a timer running: a restart resumes from here."""
        if self._live:
            self._reseal(at)

    def _reseal(self, at: float | None) -> None:
        """Write the game's moment (None: its last action's) and the seal that covers it."""
        self._write("remember", partial(self._write_moment, at))

    def _write_moment(self, at: float | None, db: sqlite3.Connection) -> Callable[[], None]:
        length = len(self._links)
        self._update_seal(db, self._head(length), length, at, moment=True)
        return partial(self._remembered, at)

    def _remembered(self, at: float | None) -> None:
        self._seen = at

    def _tally_now(self, *, finished: bool = False, wait: bool = False) -> None:
        """The tally of what is durable now, written on the flusher thread after the commit
        that made it so; ``wait``: and on the disk before this returns."""
        if self._game is None:
            return
        length = len(self._links)
        tallied = Tallied(self._game, length, self._head(length), self._dealt, finished)
        written = self._flusher.submit(self._tally.write, tallied)
        if wait:
            written.result()

    def _head(self, length: int) -> bytes:
        """The chain's link after ``length`` entries (the start for none)."""
        return self._links[length - 1] if length else self._start

    def _update_seal(self, db: sqlite3.Connection, head: bytes, length: int,
                     seen: float | None, *, moment: bool = False) -> None:
        seal = journal_chain.seal(head, length, seen)
        if moment:
            db.execute("UPDATE games SET seen = ?, seal = ? WHERE id = ?",
                       (seen, seal, self._game))
        else:
            db.execute("UPDATE games SET length = ?, seal = ? WHERE id = ?",
                       (length, seal, self._game))

    # --- a game read back from the file (companion.journal_resume) -----------------------------

    def reopen(self, game: int, cut: str, start: bytes) -> None:
        """Write on from here into ``game``, an open game found in the file: its row holds
        ``cut``, its chain begins at ``start``."""
        self._game, self._live, self._cut, self._start = game, True, cut, start
        self._dealt = bool(cut)

    def unfinish(self, game: int) -> None:
        """The game's ``finished`` mark is damage (its seal is an open game's): mend it."""
        self._write("unfinish", partial(self._clear_finished, game))

    def _clear_finished(self, game: int, db: sqlite3.Connection) -> Callable[[], None]:
        db.execute("UPDATE games SET finished = NULL WHERE id = ?", (game,))
        return lambda: None

    def vouched_for(self, links: list[bytes], seen: float | None) -> None:
        """The links of the entries the chain vouches for, and the game's moment."""
        self._links, self._seen = links, seen

    def forget_moment(self) -> None:
        """The remembered moment is damaged: resume at the last action, and write that."""
        self._seen = None
        self._reseal(None)

    def set_aside(self, reason: str) -> None:
        """The file cannot be read after all: it goes, not the table; a fresh one starts."""
        self._disconnect()
        move_aside(self.path, reason)
        self.tell("Bad journal set aside")
        self._live, self._game = False, None

    # --- closing, notices and acks -------------------------------------------------------------

    def close(self) -> None:
        """The last try at what is held, then the file is closed; once (the app and its
        caller may both close: a second close must not open the file again)."""
        if self._closed:
            return
        self._closed = True
        self.settle()
        if self._held:
            self.catch_up()
        if not self.settle() or self._held:
            log.error("journal %s: stopping with %d writes the disk would not take; the next "
                      "start says so", self.path, len(self._held))
        self._disconnect()
        self._flusher.shutdown()

    def _disconnect(self) -> None:
        self._checkpointed()
        if self._db is not None:
            self._db.close()
            self._db = None

    def tell(self, notice: str) -> None:
        """A notice for every seat; the ack stream hears it too (a supervisor, the fault
        bench: what the table was told)."""
        self.notices.append(notice)
        self.ack("notice", notice)

    def ack(self, *fields: object) -> None:
        """One line on the ack stream, if there is one."""
        if self.acks is not None:
            self.acks.write(" ".join(map(str, fields)) + "\n")
            self.acks.flush()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
