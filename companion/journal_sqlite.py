"""The durable journal: every applied action in SQLite before its effects play.

Why and how: docs/ARCHITECTURE.md §5. One file, ``journal.sqlite3`` in the state directory,
mode 0600: it holds every game's key and seed. WAL with ``synchronous=FULL`` makes each write
one fsync'd transaction, so an action the table saw survives a power cut. The file itself
(schema, migrations, the log's check and repair) is :mod:`companion.journal_file`; the hash
chain is :mod:`companion.journal_chain`.

- ``games``: one row per game (game key, seats, options, seed, the deal behind the seed:
  ``deal_key``, the companion's key, and ``cut``, the players' presses; the commitment shown
  at setup and the chain's seal). A game whose players cut with their first presses
  (``cut_in_play``) is begun at Start with an empty cut and seed; the entry that completes
  its cut writes both, in the same transaction. ``finished`` is NULL while the game may be
  resumed; a finished game stays as it is, archived, for ``companion audit`` (``damage``
  says why a damaged game was given up). ``seen`` is the game clock's last known moment,
  written every few seconds while a timer runs, so a restart gives back at most those
  seconds of sand.
- ``entries``: the game's actions in order (``idx`` 0, 1, 2...), each with its chain link.
  Undo deletes the tail.

Nothing here stops the table, and nothing is lost without the table being told:

- resume checks the seed against its commitment, the entries against their chain, and
  replays the longest whole prefix; whatever it cannot restore it announces on every seat
  ("Last 3 actions lost", "Game lost: bad seed"), never a silent re-deal or a silent cut;
- a file that is not a readable journal is moved aside whole and a fresh one started;
- a write the disk refuses (full, failing) is held in memory, in order, with "Not saving:
  disk full" on every seat; :meth:`SqliteJournal.catch_up` writes it all once the disk takes
  it again ("Saving again"). A process that dies while behind leaves a mark, and the next
  start says so.

``acks`` (optional) receives one line per durable write, after its commit: the crash tests
use it to know which actions were acknowledged. It carries tags and digests keyed by the
seed, never the seed or an action in the clear; and ``notice TEXT`` for each notice.
"""

from __future__ import annotations

import contextlib
import enum
import hashlib
import hmac
import json
import logging
import math
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from engine.api import State

from . import journal_chain
from .journal_file import (
    Unreadable,
    UnsavedMark,
    check_wal,
    connect,
    copy_aside,
    decode_options,
    is_disk_full,
    is_io_fault,
    move_aside,
    repair_wal,
)
from .record import GameRecord, JournaledAction

log = logging.getLogger(__name__)

# A write: statements inside one transaction, returning what to note once it committed.
Write = Callable[[sqlite3.Connection], Callable[[], None]]


class SqliteJournal:
    """The Journal protocol on SQLite."""

    def __init__(self, path: Path, *, acks: TextIO | None = None) -> None:
        self.path = Path(path)
        self.acks = acks
        self.notices: list[str] = []  # short texts for every seat (the app shows and clears)
        self._db: sqlite3.Connection | None = None
        self._mark = UnsavedMark(self.path)
        self._held: list[tuple[str, Write]] = []  # writes the disk refused, oldest first
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

    # --- opening -------------------------------------------------------------------------------

    @property
    def db(self) -> sqlite3.Connection:
        """Opened on first use, so the app blanks every seat before the file is read."""
        if self._db is None:
            self._db = self._open()
        return self._db

    def _open(self) -> sqlite3.Connection:
        unsaved = self._mark.read()
        wal = check_wal(self.path)
        try:
            db = self._connect_checked(wal.lost)
        except Unreadable as error:
            move_aside(self.path, str(error))
            self._tell("Bad journal set aside")
            db = connect(self.path)
        if unsaved:
            log.error("journal %s: the last run ended with writes the disk had refused (%s); "
                      "what was played after that is lost", self.path, unsaved)
            self._tell("Unsaved actions lost")
        elif wal.torn:
            log.warning("journal %s: the last write was torn (a power cut mid-write); cut back "
                        "to the last whole write", self.path)
            self._tell("Torn write cut back")
        self._mark.prepare()
        return db

    def _connect_checked(self, lost: int) -> sqlite3.Connection:
        """Open the file; a log with a damaged frame is repaired first (a copy kept aside),
        and when the repair does not read, SQLite's own cut is taken and announced."""
        if not lost:
            return connect(self.path)
        aside = copy_aside(self.path, "damaged")
        log.error("journal %s: its log has a damaged frame, and %d committed writes after it; "
                  "a copy is kept as %s; repairing", self.path, lost, aside.name)
        repair_wal(self.path)
        try:
            db = connect(self.path)
        except Unreadable as error:
            log.error("journal %s: the repaired log does not read (%s): the %d writes after "
                      "the damage are lost", self.path, error, lost)
            Path(f"{self.path}-wal").write_bytes(Path(f"{aside}-wal").read_bytes())
            with contextlib.suppress(FileNotFoundError):
                Path(f"{self.path}-shm").unlink()
            self._tell(f"Last {lost} saves lost")
            return connect(self.path)
        self._tell("Journal damage found")
        return db

    # --- writing, or holding writes back -------------------------------------------------------

    @property
    def behind(self) -> bool:
        """Writes are waiting for the disk: the app calls :meth:`catch_up` every few seconds."""
        return bool(self._held)

    def _write(self, kind: str, write: Write) -> None:
        if kind == "remember" and self._held and self._held[-1][0] == "remember":
            self._held[-1] = (kind, write)  # only the newest moment matters
        else:
            self._held.append((kind, write))
        self.catch_up()

    def catch_up(self) -> bool:
        """Write what is held, in order; True once nothing waits."""
        while self._held:
            try:
                db = self.db
                noted = self._transaction(db, self._held[0][1])
            except (sqlite3.Error, OSError) as error:
                self._refused(error)
                return False
            self._held.pop(0)
            noted()
        if self._fault is not None:
            log.warning("journal %s: the disk takes writes again; every held write is saved",
                        self.path)
            self._fault = None
            self._tell("Saving again")
        if self._marked:
            self._mark.set("")
            self._marked = False
        return True

    @staticmethod
    def _transaction(db: sqlite3.Connection, write: Write) -> Callable[[], None]:
        db.execute("BEGIN IMMEDIATE")
        try:
            noted = write(db)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            raise
        return noted

    def _refused(self, error: BaseException) -> None:
        """The disk refused a write: keep it, tell the table once, keep playing."""
        if self._held and not self._marked:
            where = f"game {self._game} entry {len(self._links)}" if self._game else "no game"
            self._mark.set(f"behind since {where} ({type(error).__name__}: {error})"[:200])
            self._marked = True
        if self._fault is not None:
            return
        self._fault = "disk full" if is_disk_full(error) else (
            "I/O error" if is_io_fault(error) else "journal error")
        log.error("journal %s: cannot save (%s: %s); the game goes on, held in memory, and is "
                  "saved when the disk takes writes again", self.path, type(error).__name__,
                  error)
        self._tell(f"Not saving: {self._fault}")

    # --- the Journal protocol ------------------------------------------------------------------

    def begin(self, record: GameRecord) -> None:
        """A new game; any game still open (``Play again``) is archived first."""
        shown = journal_chain.shown_commitment(record.seed, record.key)
        row = (record.game_key, ",".join(map(str, record.seats)),
               json.dumps(record.options, sort_keys=True), record.seed, shown,
               None if record.deck_list is None else json.dumps(record.deck_list),
               record.key, record.cut, int(record.cut_in_play))
        start = journal_chain.genesis(row[0], row[1], row[2], shown, row[5])

        def write(db: sqlite3.Connection) -> Callable[[], None]:
            db.execute("UPDATE games SET finished = ? WHERE finished IS NULL", (time.time(),))
            cursor = db.execute(
                "INSERT INTO games (game_key, seats, options, seed, commitment, deck_list, "
                "deal_key, cut, cut_in_play, length, seal) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
                (*row, journal_chain.seal(start, 0, None)))

            def noted() -> None:
                self._game, self._start, self._links, self._seen = (
                    cursor.lastrowid, start, [], None)
                self._ack("begin", self._game)
            return noted

        self._live, self._cut = True, record.cut
        self._write("begin", write)

    def append(self, record: GameRecord, entry: JournaledAction) -> None:
        """``entry`` is the newest of ``record.entries``; committed (fsync'd) on return, or
        held until the disk takes it."""
        if not self._live:
            raise RuntimeError("journal: append before begin or resume")
        index = len(record.entries) - 1
        tag = entry_tag(record.seed, index, entry)
        dealt = (record.cut, record.seed) if record.cut != self._cut else None
        self._cut = record.cut  # the entry that completed a cut in play: it deals the game

        def write(db: sqlite3.Connection) -> Callable[[], None]:
            link = journal_chain.link(self._head(index), index, entry)
            db.execute(
                "INSERT INTO entries (game, idx, seat, action, at, undoable, label, link) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (self._game, index, entry.seat, entry.action, entry.at, int(entry.undoable),
                 entry.label, link))
            if dealt is not None:
                db.execute("UPDATE games SET cut = ?, seed = ? WHERE id = ?",
                           (*dealt, self._game))
            self._update_seal(db, link, index + 1, self._seen)

            def noted() -> None:
                del self._links[index:]
                self._links.append(link)
                self._ack("append", self._game, index, tag, int(entry.undoable))
            return noted

        self._write("append", write)

    def truncate(self, record: GameRecord, length: int) -> None:
        def write(db: sqlite3.Connection) -> Callable[[], None]:
            db.execute("DELETE FROM entries WHERE game = ? AND idx >= ?", (self._game, length))
            self._update_seal(db, self._head(length), length, self._seen)

            def noted() -> None:
                del self._links[length:]
                self._ack("truncate", self._game, length)
            return noted

        self._write("truncate", write)

    def finish(self, record: GameRecord, damage: str | None = None) -> None:
        """Archive the game; ``damage`` says why a game that could not be restored was."""
        if not self._live:
            return

        def write(db: sqlite3.Connection) -> Callable[[], None]:
            db.execute("UPDATE games SET finished = ?, damage = ? WHERE id = ?",
                       (time.time(), damage, self._game))

            def noted() -> None:
                self._ack("finish", self._game)
                self._game = None
            return noted

        self._live = False
        self._write("finish", write)

    def remember(self, record: GameRecord, at: float) -> None:
        """The game clock reached ``at`` with a timer running: a restart resumes from here."""
        if self._live:
            self._reseal(at)

    def _reseal(self, at: float | None) -> None:
        """Write the game's moment (None: its last action's) and the seal that covers it."""
        def write(db: sqlite3.Connection) -> Callable[[], None]:
            length = len(self._links)
            self._update_seal(db, self._head(length), length, at, moment=True)

            def noted() -> None:
                self._seen = at
            return noted

        self._write("remember", write)

    def close(self) -> None:
        """The last try at what is held, then the file is closed; once (the app and its
        caller may both close: a second close must not open the file again)."""
        if self._closed:
            return
        self._closed = True
        if self._held and self.catch_up() is False:
            log.error("journal %s: stopping with %d writes the disk would not take; the next "
                      "start says so", self.path, len(self._held))
        self._disconnect()

    def _disconnect(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

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

    # --- resume --------------------------------------------------------------------------------

    def resume(self) -> tuple[GameRecord, State] | None:
        """The open game, checked, replayed and paused at its last known moment, or None.

        A game that has ended (its time ran out while the table was off, say) comes back
        terminal and unpaused: the app archives it and opens the lobby.
        """
        try:
            found = self._read_open_game()
        except (sqlite3.Error, OSError) as error:
            if is_io_fault(error):
                self._refused(error)  # the file cannot be read now: the lobby, and say why
            else:  # quick_check passed, yet a page does not read: the file goes, not the table
                self._disconnect()
                move_aside(self.path, f"{type(error).__name__}: {error}")
                self._tell("Bad journal set aside")
                self._live, self._game = False, None
            return None
        if found is None:
            return None
        record, seen = found
        state = self._replay_whole_actions(record)
        if state is None:
            return None
        if not record.cut_agrees():  # resumed, its next press would cut and deal again
            return self._give_up(self._game, "its cut is not its players' first presses",
                                 "Game lost: bad seed")
        self._ack("resume", self._game, len(record.entries), state_digest(state))
        self._pause_at_last_moment(record, state, seen)
        return record, state

    def _read_open_game(self) -> tuple[GameRecord, float | None] | None:
        """The newest open game, with as much of its history as its chain vouches for."""
        row = self.db.execute(
            "SELECT id, game_key, seats, options, seed, commitment, deck_list, deal_key, cut, "
            "cut_in_play, seen, length, seal FROM games WHERE finished IS NULL "
            "ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        (game_id, key, seats, options, seed, shown, deck_list, deal_key, cut, in_play, seen,
         length, seal) = row
        self._game, self._live, self._cut = game_id, True, cut
        self._start = journal_chain.genesis(str(key), str(seats), str(options), str(shown),
                                            deck_list)
        rows = self._entry_rows(game_id)
        verdict = journal_chain.verify(self._start, rows, length, seen, seal)
        self._links = [link for _, _, link in rows[: verdict.kept]]
        if not journal_chain.seed_vouched_for(seed, deal_key, cut, shown):
            return self._give_up(game_id, "its key, cut and seed do not match the commitment "
                                 "shown at setup", "Game lost: bad seed")
        if verdict.setup_damaged:
            return self._give_up(game_id, "its setup or first action is damaged",
                                 "Last game unreadable")
        try:
            record = GameRecord(key, tuple(int(s) for s in seats.split(",")),
                                decode_options(options), seed,
                                [entry for _, entry, _ in rows[: verdict.kept]],
                                None if deck_list is None else tuple(json.loads(deck_list)),
                                deal_key, cut, in_play == 1)
        except (ValueError, TypeError, AttributeError):
            return self._give_up(game_id, "its row does not decode", "Last game unreadable")
        if verdict.lost:
            log.error("journal: game %d: the last %d actions are damaged or missing; cut back "
                      "to %d", game_id, verdict.lost, verdict.kept)
            self._tell(f"Last {verdict.lost} actions lost" if verdict.lost > 1
                       else "Last action lost")
        self._seen = seen
        if verdict.moment_damaged or not _plausible(seen, record.entries):
            log.error("journal: game %d: its remembered moment is damaged; resuming at its "
                      "last action", game_id)
            self._tell("Back to last action")
            self._seen = seen = None
            self._reseal(None)
        if verdict.lost or len(rows) > verdict.kept:
            self.truncate(record, verdict.kept)
        return record, seen

    def _entry_rows(self, game_id: int) -> list[tuple[int, JournaledAction, bytes | None]]:
        rows = []
        for index, seat, action, at, undoable, label, link in self.db.execute(
            "SELECT idx, seat, action, at, undoable, label, link FROM entries WHERE game = ? "
            "ORDER BY idx", (game_id,)
        ):
            try:
                entry = JournaledAction(seat, str(action), float(at), bool(undoable), str(label))
            except (TypeError, ValueError):
                break  # a damaged row: the chain ends before it
            rows.append((index, entry, link))
        return rows

    def _give_up(self, game_id: int, why: str, notice: str) -> None:
        """Archive a game that cannot be restored as it was, and say so: never a re-deal."""
        log.error("journal: game %d cannot be resumed: %s; archived", game_id, why)
        self._tell(notice)
        self._game = game_id
        self.finish(GameRecord("", (), {}, b""), damage=why)
        return None

    def _replay_whole_actions(self, record: GameRecord) -> State | None:
        """Replay the longest prefix of the entries that replays; cut the rest off for good.

        Any exception counts, not only IllegalAction: an entry the game code cannot take
        (a bug, a changed rule) must not keep the table from starting. Logs name counts and
        exception types only: an action id or a message may carry a secret.
        """
        count, state, failure = longest_replay(record)
        if state is None:
            log.error("journal: game %d (%s) cannot be set up again (%s); archived",
                      self._game, record.game_key, failure)
            self._tell("Last game unreadable")
            self.finish(record, damage=f"it does not set up ({failure})")
            return None
        if count < len(record.entries):
            log.warning("journal: action %d of game %d does not replay (%s); cut back to %d "
                        "actions", count + 1, self._game, failure, count)
            self._tell(f"Cut back to action {count}"[:21])
            del record.entries[count:]
            self.truncate(record, count)
        return state

    def _pause_at_last_moment(self, record: GameRecord, state: State, seen: float | None) -> None:
        """Let the time up to the last known moment pass, then pause there (journaled).

        It does exactly what a replay does before an entry at that moment: one ``advance``
        when a deadline has passed, so replays of this journal agree with this state.
        """
        moments = [entry.at for entry in record.entries] + ([seen] if seen is not None else [])
        moment = max(moments, default=0.0)
        deadline = state.next_deadline()
        if deadline is not None and deadline <= moment:
            state.advance(moment)
        if state.is_terminal() or state.paused:
            return
        state.apply(None, "pause", moment)
        record.entries.append(JournaledAction(None, "pause", moment))
        self.append(record, record.entries[-1])

    # --- helpers -------------------------------------------------------------------------------

    def _tell(self, notice: str) -> None:
        """A notice for every seat; the ack stream hears it too (a supervisor, the fault
        bench: what the table was told)."""
        self.notices.append(notice)
        self._ack("notice", notice)

    def _ack(self, *fields: object) -> None:
        if self.acks is not None:
            self.acks.write(" ".join(map(str, fields)) + "\n")
            self.acks.flush()

    def __enter__(self) -> SqliteJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _plausible(seen: float | None, entries: list[JournaledAction]) -> bool:
    """A remembered moment is a finite time no earlier than the last action."""
    if seen is None:
        return True
    return isinstance(seen, float) and math.isfinite(seen) and \
        all(entry.at <= seen for entry in entries[-1:])


def longest_replay(record: GameRecord) -> tuple[int, State | None, str]:
    """The longest prefix of ``record.entries`` that replays: (length, state, why the next
    one failed). A prefix fails exactly when some entry in it fails, so a binary search
    finds it in a few replays."""
    try:
        return len(record.entries), record.replay(), ""
    except Exception as error:
        failure = type(error).__name__
    best: tuple[int, State | None] = (0, None)
    low, high = 0, len(record.entries) - 1
    while low <= high:
        middle = (low + high) // 2
        try:
            best = (middle, record.replay(record.entries[:middle]))
            low = middle + 1
        except Exception as error:
            failure = type(error).__name__
            high = middle - 1
    return (*best, failure)


# --- tags and digests for the ack stream -------------------------------------------------------


def entry_tag(seed: bytes, index: int, entry: JournaledAction) -> str:
    """A short tag of one entry, keyed by the game's seed: equal entries, equal tags."""
    text = f"{index}|{entry.seat}|{entry.action}|{entry.at!r}|{entry.undoable}|{entry.label}"
    return hmac.new(seed, text.encode(), hashlib.sha256).hexdigest()[:16]


def state_digest(state: State) -> str:
    """A hash of everything a state holds (decks, secrets, health, turn, the generator's
    position): two states with one digest are the same game. Keyed by the seed (none yet
    while its players cut in play: nothing secret is dealt then)."""
    text = _canonical(state, set())
    return hmac.new(state.seed or b"", text.encode(), hashlib.sha256).hexdigest()[:32]


def _canonical(value: object, path: set[int]) -> str:
    """A text for ``value`` that depends on neither memory addresses nor hash randomisation.

    ``path`` holds the objects being expanded above this one, so a cycle ends in "<cycle>"
    while an object shared by two parts is written out in both.
    """
    if value is None or isinstance(value, str | int | float | bytes | enum.Enum):
        return repr(value)
    if id(value) in path:
        return "<cycle>"
    path.add(id(value))
    try:
        return _container(value, path)
    finally:
        path.discard(id(value))


def _container(value: object, path: set[int]) -> str:
    if isinstance(value, dict):
        return _mapping(value, path)
    if isinstance(value, set | frozenset):
        return "{" + ",".join(sorted(_canonical(v, path) for v in value)) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(_canonical(v, path) for v in value) + "]"
    fields = getattr(value, "__dict__", None)
    if fields is None:
        fields = {name: getattr(value, name, None) for name in getattr(value, "__slots__", ())}
    return type(value).__qualname__ + _mapping(fields, path)


def _mapping(items: dict, path: set[int]) -> str:
    pairs = sorted(f"{_canonical(k, path)}:{_canonical(v, path)}" for k, v in items.items())
    return "{" + ",".join(pairs) + "}"
