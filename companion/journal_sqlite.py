"""The durable journal: every applied action in SQLite before its effects play.

Why and how: docs/ARCHITECTURE.md §5.

One file, ``journal.sqlite3`` in the state directory, mode 0600: it holds every game's key and seed.
WAL with ``synchronous=FULL`` makes each append one fsync'd transaction, so an action the
table saw survives a power cut, and SQLite's own frame checksums drop a write the cut tore.

- ``games``: one row per game (game key, seats, options, seed, and the deal behind the seed:
  ``deal_key``, the companion's key, and ``cut``, the players' presses). ``finished`` is NULL
  while the game may be resumed; a finished game stays as it is, archived, for ``companion audit``.
  ``seen`` is the game clock's last known moment, written every few seconds while a timer
  runs, so a restart gives back at most those seconds of sand.
- ``entries``: the game's actions in order (``idx`` 0, 1, 2...). Undo deletes the tail.

Resume replays the live game, cuts back to the last action that replays (and says so), then
brings it to its last known moment and pauses it there; the pause is journaled like any
other table action, so the next replay (an undo, another restart) lands in the same state.
A file that is not a readable journal is moved aside and a fresh one started: a damaged
journal costs the game in it, never the table.

``acks`` (optional) receives one line per durable write, after its commit: the crash tests
use it to know which actions were acknowledged. It carries tags and digests keyed by the
seed, never the seed or an action in the clear.
"""

from __future__ import annotations

import contextlib
import enum
import hashlib
import hmac
import json
import logging
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from engine.api import State

from .record import GameRecord, JournaledAction

log = logging.getLogger(__name__)

SCHEMA_VERSION = 3  # 2: games.deck_list; 3: games.deal_key and games.cut
SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game_key TEXT NOT NULL,
    seats TEXT NOT NULL,
    options TEXT NOT NULL,
    seed BLOB NOT NULL,
    deck_list TEXT,
    deal_key BLOB NOT NULL,
    cut TEXT NOT NULL,
    seen REAL,
    finished REAL
);
CREATE TABLE entries (
    game INTEGER NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    seat INTEGER,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    undoable INTEGER NOT NULL,
    label TEXT NOT NULL,
    PRIMARY KEY (game, idx)
) WITHOUT ROWID;
"""
WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER = 32
WAL_FRAME_HEADER = 24
CORRUPT_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


class Unreadable(Exception):
    """The file is not a journal this version can read (garbage, damage, another schema)."""


class SqliteJournal:
    """The Journal protocol on SQLite; also :meth:`remember` and :attr:`notices`."""

    def __init__(self, path: Path, *, acks: TextIO | None = None) -> None:
        self.path = Path(path)
        self.acks = acks
        self.notices: list[str] = []  # short texts for every seat's screen after a start
        self._game: int | None = None
        self._db: sqlite3.Connection | None = None

    # --- opening -------------------------------------------------------------------------------

    @property
    def db(self) -> sqlite3.Connection:
        """Opened on first use, so the app blanks every seat before the file is read."""
        if self._db is None:
            self._db = self._open()
        return self._db

    def _open(self) -> sqlite3.Connection:
        torn = wal_is_torn(self.path)
        try:
            db = connect(self.path)
        except Unreadable as error:
            self._move_aside(str(error))
            return connect(self.path)
        if torn:
            kept = db.execute("SELECT count(*) FROM entries").fetchone()[0]
            log.warning("journal %s: the last write was torn (a power cut mid-write); cut back "
                        "to the last whole action (%d actions kept)", self.path, kept)
            self.notices.append("Torn write cut back")
        return db

    def _move_aside(self, reason: str) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        for suffix in ("", "-wal"):
            with contextlib.suppress(FileNotFoundError):
                os.replace(f"{self.path}{suffix}", f"{aside}{suffix}")
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{self.path}-shm")
        log.error("journal %s cannot be read (%s): moved aside to %s; starting a fresh journal "
                  "(the game in it is lost, the table starts in the lobby)", self.path, reason,
                  aside.name)
        self.notices.append("Bad journal set aside")

    # --- the Journal protocol ------------------------------------------------------------------

    def begin(self, record: GameRecord) -> None:
        """A new game; any game still open (``Play again``) is archived first."""
        with self._transaction():
            self._archive_open_games()
            cursor = self.db.execute(
                "INSERT INTO games (game_key, seats, options, seed, deck_list, deal_key, cut) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (record.game_key, ",".join(map(str, record.seats)),
                 json.dumps(record.options, sort_keys=True), record.seed,
                 None if record.deck_list is None else json.dumps(record.deck_list),
                 record.key, record.cut),
            )
        self._game = cursor.lastrowid
        self._ack("begin", self._game)

    def append(self, record: GameRecord, entry: JournaledAction) -> None:
        """``entry`` is the newest of ``record.entries``; committed (fsync'd) on return."""
        if self._game is None:
            raise RuntimeError("journal: append before begin or resume")
        index = len(record.entries) - 1
        self.db.execute(
            "INSERT INTO entries (game, idx, seat, action, at, undoable, label) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (self._game, index, entry.seat, entry.action, entry.at, int(entry.undoable),
             entry.label),
        )
        self._ack("append", self._game, index, entry_tag(record.seed, index, entry),
                  int(entry.undoable))

    def truncate(self, record: GameRecord, length: int) -> None:
        self.db.execute("DELETE FROM entries WHERE game = ? AND idx >= ?", (self._game, length))
        self._ack("truncate", self._game, length)

    def finish(self, record: GameRecord) -> None:
        if self._game is None:
            return
        self.db.execute("UPDATE games SET finished = ? WHERE id = ?", (time.time(), self._game))
        self._ack("finish", self._game)
        self._game = None

    def remember(self, record: GameRecord, at: float) -> None:
        """The game clock reached ``at`` with a timer running: a restart resumes from here."""
        if self._game is not None:
            self.db.execute("UPDATE games SET seen = ? WHERE id = ?", (at, self._game))

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # --- resume --------------------------------------------------------------------------------

    def resume(self) -> tuple[GameRecord, State] | None:
        """The open game replayed and paused at its last known moment, or None.

        A game that has ended (its time ran out while the table was off, say) comes back
        terminal and unpaused: the app archives it and opens the lobby.
        """
        row = self.db.execute(
            "SELECT id, game_key, seats, options, seed, deck_list, deal_key, cut, seen FROM games "
            "WHERE finished IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        game_id, key, seats, options, seed, deck_list, deal_key, cut, seen = row
        self._game = game_id
        record = GameRecord(key, tuple(int(s) for s in seats.split(",")), json.loads(options),
                            seed, self._entries(game_id),
                            None if deck_list is None else tuple(json.loads(deck_list)),
                            deal_key, cut)
        state = self._replay_whole_actions(record)
        if state is None:
            return None
        self._ack("resume", game_id, len(record.entries), state_digest(state))
        self._pause_at_last_moment(record, state, seen)
        return record, state

    def _entries(self, game_id: int) -> list[JournaledAction]:
        """The entries in order, up to the first gap (a gap would make the rest meaningless)."""
        entries = []
        for index, seat, action, at, undoable, label in self.db.execute(
            "SELECT idx, seat, action, at, undoable, label FROM entries WHERE game = ? "
            "ORDER BY idx", (game_id,)
        ):
            if index != len(entries):
                break
            entries.append(JournaledAction(seat, action, at, bool(undoable), label))
        return entries

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
            self.notices.append("Last game unreadable")
            self.finish(record)
            return None
        if count < len(record.entries):
            log.warning("journal: action %d of game %d does not replay (%s); cut back to %d "
                        "actions", count + 1, self._game, failure, count)
            self.notices.append(f"Cut back to action {count}"[:21])
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

    def _archive_open_games(self) -> None:
        self.db.execute("UPDATE games SET finished = ? WHERE finished IS NULL", (time.time(),))

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _ack(self, *fields: object) -> None:
        if self.acks is not None:
            self.acks.write(" ".join(map(str, fields)) + "\n")
            self.acks.flush()

    def __enter__(self) -> SqliteJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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


# --- the file ----------------------------------------------------------------------------------


def connect(path: Path) -> sqlite3.Connection:
    """Open (or create) the journal: 0600, WAL, synchronous=FULL, checked, with its schema.

    Raises :class:`Unreadable` for a file that is damaged or not ours to read; other errors
    (permissions, a full disk) propagate, since moving the file aside would not help.
    """
    os.close(os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600))
    os.chmod(path, 0o600)  # an older file, or one a person copied in, is tightened too
    db = sqlite3.connect(path, isolation_level=None)  # autocommit: one write, one transaction
    try:
        _configure(db)
    except sqlite3.DatabaseError as error:
        db.close()
        if isinstance(error, sqlite3.OperationalError) or \
                getattr(error, "sqlite_errorcode", None) not in CORRUPT_CODES:
            raise
        raise Unreadable(str(error)) from None
    except Unreadable:
        db.close()
        raise
    return db


def _configure(db: sqlite3.Connection) -> None:
    mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if mode != "wal":
        raise Unreadable(f"journal mode {mode}, not WAL")
    db.execute("PRAGMA synchronous=FULL")
    check = db.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        raise Unreadable(f"quick_check: {check}")
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    if version == 0 and tables == 0:
        db.executescript(f"BEGIN; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
    elif version != SCHEMA_VERSION:
        raise Unreadable(f"schema version {version}, this companion reads {SCHEMA_VERSION}")


def wal_is_torn(path: Path) -> bool:
    """Whether the write-ahead log ends in a part-written frame (a cut mid-write).

    SQLite ignores such a frame on recovery; this only lets the table be told. A log is a
    32-byte header then frames of 24 bytes plus one page each.
    """
    wal = Path(f"{path}-wal")
    try:
        size = wal.stat().st_size
        with wal.open("rb") as file:
            header = file.read(WAL_HEADER)
    except FileNotFoundError:
        return False
    if size == 0:
        return False
    if len(header) < WAL_HEADER or int.from_bytes(header[:4], "big") not in WAL_MAGIC:
        return True
    page_size = int.from_bytes(header[8:12], "big")
    return (size - WAL_HEADER) % (WAL_FRAME_HEADER + page_size) != 0


# --- tags and digests for the ack stream -------------------------------------------------------


def entry_tag(seed: bytes, index: int, entry: JournaledAction) -> str:
    """A short tag of one entry, keyed by the game's seed: equal entries, equal tags."""
    text = f"{index}|{entry.seat}|{entry.action}|{entry.at!r}|{entry.undoable}|{entry.label}"
    return hmac.new(seed, text.encode(), hashlib.sha256).hexdigest()[:16]


def state_digest(state: State) -> str:
    """A hash of everything a state holds (decks, secrets, health, turn, the generator's
    position): two states with one digest are the same game. Keyed by the seed."""
    text = _canonical(state, set())
    return hmac.new(state.seed, text.encode(), hashlib.sha256).hexdigest()[:32]


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
