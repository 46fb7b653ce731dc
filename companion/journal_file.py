"""The journal's file: its schema and migrations, what makes a file unreadable, its write-ahead
log checked and repaired, and the classes of error a write can meet.

A file is either a journal this version reads (an older schema is migrated in one
transaction, so an upgrade resumes the game in progress), or it is *unreadable*: damaged
pages, a damaged schema text, an encoding it cannot decode, a newer schema, a foreign
database. An unreadable file is moved aside whole, never edited, and a fresh journal starts.

An error that says the disk refused a write (full, I/O, read-only) is an *I/O fault*: moving
the file aside would not help, so the journal keeps its writes in memory until the disk
takes them again (see :class:`companion.journal_writer.JournalWriter`). A symbolic link
where one of the journal's files belongs is one too (:class:`LinkRefused`): it is never
followed, and nothing is written until it is gone.

``companion play`` opens the journal in SQLite's exclusive locking mode (``exclusive``): its
write-ahead log's index is kept in the process's memory, not in a ``-shm`` file mapped from
the disk, which another program (or an immutable or truncated file) could break under us
with a SIGBUS. Only one writer ever has the file anyway
(:func:`companion.statedir.hold_state_dir`); the lock SQLite holds on the file for the
process's life is a second guard, at the file itself; a reader (``companion audit``) waits
until the table has stopped.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import journal_chain
from .exc import LinkRefused, Unreadable
from .record import JournaledAction
from .statedir import open_nofollow

log = logging.getLogger(__name__)

SCHEMA_VERSION = 6
# The newest schema. A migrated file has the same columns, perhaps in another order (ALTER
# TABLE adds at the end), so :func:`_check_shape` compares column sets, never the text.
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
    cut_in_play INTEGER NOT NULL DEFAULT 0,
    seen REAL,
    finished REAL,
    commitment TEXT,
    length INTEGER,
    seal BLOB,
    damage TEXT
);
CREATE TABLE entries (
    game INTEGER NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    seat INTEGER,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    undoable INTEGER NOT NULL,
    label TEXT NOT NULL,
    link BLOB,
    PRIMARY KEY (game, idx)
) WITHOUT ROWID;
"""
# The log is checkpointed by the writer, on its flusher thread after a commit, every
# CHECKPOINT_COMMITS commits (:class:`companion.journal_writer.JournalWriter`), never inside a
# commit: SQLite's own checkpoint runs in the commit that fills the log, and the card's
# five to seven writes would then be a presser's. A short log: quick to check at start, and
# little to repair. An append is two pages (its entry's and its game's row), a split three
# or four: LOG_FRAMES, the length the log is given at open, holds CHECKPOINT_COMMITS of them.
CHECKPOINT_COMMITS = 64
LOG_FRAMES = 4 * CHECKPOINT_COMMITS

# Primary result codes that mean the disk or the system refused, not that the file is bad.
IO_CODES = frozenset({
    sqlite3.SQLITE_PERM, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_NOMEM,
    sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PROTOCOL, sqlite3.SQLITE_NOLFS,
})


def is_io_fault(error: BaseException) -> bool:
    """Whether ``error`` is the disk refusing (full, failing, read-only), not bad content."""
    if isinstance(error, OSError):
        return True
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in IO_CODES


def is_disk_full(error: BaseException) -> bool:
    if isinstance(error, OSError):
        return error.errno in (28, 122)  # ENOSPC, EDQUOT
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF == sqlite3.SQLITE_FULL


def fault_name(error: BaseException) -> str:
    """Why nothing is saved, in a seat's words ("Not saving: read-only")."""
    if isinstance(error, LinkRefused):
        return "symlink"
    if is_disk_full(error):
        return "disk full"
    code = getattr(error, "sqlite_errorcode", None)
    if getattr(error, "errno", None) in (13, 30) or (  # EACCES, EROFS
            code is not None and code & 0xFF == sqlite3.SQLITE_READONLY):
        return "read-only"
    return "I/O error" if is_io_fault(error) else "journal error"


# --- opening -----------------------------------------------------------------------------------


def connect(path: Path, exclusive: bool = False) -> sqlite3.Connection:
    """Open (or create) the journal: 0600, WAL, synchronous=FULL, checked, at this schema;
    ``exclusive``: the log's index in memory, and the file locked until it is closed.

    Raises :class:`Unreadable` for a file that is damaged or not ours to read; an I/O fault
    (permissions, a full disk) propagates as it is, since moving the file aside would not help.
    """
    refuse_links(path)
    fd = open_nofollow(path, os.O_RDWR | os.O_CREAT)
    try:
        os.fchmod(fd, 0o600)  # an older file, or one a person copied in, is tightened too
        new = os.fstat(fd).st_size == 0 and not os.path.lexists(f"{path}-wal")
    finally:
        os.close(fd)
    if exclusive and new:  # SQLite cuts a log it finds beside a new file: made whole first
        _open(path, exclusive).close()
    if exclusive:
        presize_log(path)
    return _open(path, exclusive)


def _open(path: Path, exclusive: bool) -> sqlite3.Connection:
    # Autocommit: one write, one transaction. Its commit is made on the journal's flusher
    # thread while the loop draws; one thread at a time uses the connection.
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.text_factory = _lenient_text  # a damaged byte fails its row's check, not the start
    try:
        _configure(db, exclusive)
    except (sqlite3.Error, UnicodeDecodeError, ValueError, TypeError, KeyError) as error:
        db.close()
        if is_io_fault(error):
            raise
        raise Unreadable(f"{type(error).__name__}: {error}") from None
    except BaseException:
        db.close()
        raise
    return db


def _lenient_text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def presize_log(path: Path) -> None:
    """Give a log that is not there yet its full length (LOG_FRAMES frames of zeros, made
    durable) before SQLite opens it. A log that grows sends the card ext4's own journal with
    every commit, three writes and two flushes where overwriting the log in place takes one
    and one; SQLite keeps a log's length (only its close deletes it), and a log of zeros
    holds no transaction (its header is not one). A log the last run left is SQLite's to
    recover, never touched here; where the disk has no room the log grows as it always did.
    """
    wal = f"{path}-wal"
    try:
        fd = open_nofollow(Path(wal), os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    except OSError:  # there already, or a disk that refuses: SQLite's open says which
        return
    try:
        frame = WAL_FRAME_HEADER + _page_size(path)
        with os.fdopen(fd, "wb", closefd=False) as log_file:
            log_file.write(bytes(WAL_HEADER + LOG_FRAMES * frame))
        os.fsync(fd)
    except OSError as error:
        os.unlink(wal)
        log.warning("journal %s: its log cannot be given its length (%s); it grows as it is "
                    "written", path, type(error).__name__)
    finally:
        os.close(fd)


def _page_size(path: Path) -> int:
    """The database's page size, from its header (bytes 16-17; 1 means 65536)."""
    with open(path, "rb") as db_file:
        header = db_file.read(18)
    size = int.from_bytes(header[16:18], "big") if len(header) == 18 else 0
    return 65536 if size == 1 else size or 4096


SIDE_FILES = ("-wal", "-shm", "-unsaved", "-tally")  # the journal's files beside its own


def refuse_links(path: Path) -> None:
    """Raise :class:`LinkRefused` when the journal or a file beside it is a symbolic link
    (checked before anything reads, repairs or writes them)."""
    for name in (str(path), *(f"{path}{suffix}" for suffix in SIDE_FILES)):
        if os.path.islink(name):
            raise LinkRefused(40, f"{name} is a symbolic link: not followed; nothing is saved "
                              "until it is removed")  # 40: ELOOP, as O_NOFOLLOW says it


def _configure(db: sqlite3.Connection, exclusive: bool) -> None:
    if exclusive:
        db.execute("PRAGMA locking_mode=EXCLUSIVE")  # before the first read: no -shm
    mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if mode != "wal":
        raise Unreadable(f"journal mode {mode}, not WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA wal_autocheckpoint=0")  # the writer's: see CHECKPOINT_COMMITS
    check = db.execute("PRAGMA quick_check").fetchone()[0]
    if check != "ok":
        raise Unreadable(f"quick_check: {check}")
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    if version == 0 and tables == 0:
        db.executescript(f"BEGIN; {SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
    elif version != SCHEMA_VERSION:
        _migrate(db, version)
    _check_shape(db)


def _migrate(db: sqlite3.Connection, version: int) -> None:
    """Bring an older journal to this schema in one transaction; a failure leaves it as it was."""
    if version not in MIGRATIONS:
        raise Unreadable(f"schema version {version}, this companion reads "
                         f"{min(MIGRATIONS)} to {SCHEMA_VERSION}")
    db.execute("BEGIN IMMEDIATE")
    try:
        for step in range(version, SCHEMA_VERSION):
            MIGRATIONS[step](db)
        _check_shape(db)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    log.warning("journal: migrated from schema version %d to %d", version, SCHEMA_VERSION)


def _add_deck_list(db: sqlite3.Connection) -> None:
    """1 -> 2: a table's own card list (They Live's War Table deck)."""
    db.execute("ALTER TABLE games ADD COLUMN deck_list TEXT")


def _add_cut(db: sqlite3.Connection) -> None:
    """2 -> 3: the deal behind the seed, the companion's key and the players' cut (a game
    dealt before the cut has neither)."""
    db.execute("ALTER TABLE games ADD COLUMN deal_key BLOB NOT NULL DEFAULT x''")
    db.execute("ALTER TABLE games ADD COLUMN cut TEXT NOT NULL DEFAULT ''")


def _add_chain(db: sqlite3.Connection) -> None:
    """3 -> 4: the commitment shown at setup and the hash chain, computed from the rows as
    they are (nothing older can vouch for them: from here on, damage is found)."""
    for column in ("commitment TEXT", "length INTEGER", "seal BLOB", "damage TEXT"):
        db.execute(f"ALTER TABLE games ADD COLUMN {column}")
    db.execute("ALTER TABLE entries ADD COLUMN link BLOB")
    games = db.execute("SELECT id, game_key, seats, options, seed, deck_list, deal_key, seen "
                       "FROM games")
    for game_id, key, seats, options, seed, deck_list, deal_key, seen in games.fetchall():
        shown = journal_chain.shown_commitment(bytes(seed), bytes(deal_key))
        head = journal_chain.genesis(key, seats, options, shown, deck_list)
        rows = db.execute("SELECT idx, seat, action, at, undoable, label FROM entries "
                          "WHERE game = ? ORDER BY idx", (game_id,)).fetchall()
        for index, seat, action, at, undoable, label in rows:
            entry = JournaledAction(seat, action, at, bool(undoable), label)
            head = journal_chain.link(head, index, entry)
            db.execute("UPDATE entries SET link = ? WHERE game = ? AND idx = ?",
                       (head, game_id, index))
        db.execute("UPDATE games SET commitment = ?, length = ?, seal = ? WHERE id = ?",
                   (shown, len(rows), journal_chain.seal(head, len(rows), seen), game_id))


def _add_cut_in_play(db: sqlite3.Connection) -> None:
    """4 -> 5: whether the players cut with their first presses of the game (every game
    before this version was cut with "Cut the deck" before it, and is dealt from its seed)."""
    db.execute("ALTER TABLE games ADD COLUMN cut_in_play INTEGER NOT NULL DEFAULT 0")


def _seal_finished_and_cut_in_play(db: sqlite3.Connection) -> None:
    """5 -> 6: whether a game is over is under its seal, and whether its players cut in play
    under its genesis (a flipped bit in either changed the game silently). Only what the
    old chain and seal vouch for is vouched for again: damage already there stays found."""
    games = db.execute("SELECT id, game_key, seats, options, commitment, deck_list, "
                       "cut_in_play, seen, finished, length, seal FROM games").fetchall()
    for (game_id, key, seats, options, shown, deck_list, in_play, seen, finished, length,
         seal) in games:
        old = journal_chain.genesis(str(key), str(seats), str(options), str(shown), deck_list)
        rows = journal_chain.stored_rows(db, game_id)
        verdict = journal_chain.verify(old, rows, length, seen, seal)
        head = journal_chain.genesis(str(key), str(seats), str(options), str(shown), deck_list,
                                     in_play == 1)
        for index, entry, _ in rows[: verdict.kept]:
            head = journal_chain.link(head, index, entry)
            if in_play == 1:
                db.execute("UPDATE entries SET link = ? WHERE game = ? AND idx = ?",
                           (head, game_id, index))
        if verdict == journal_chain.Verdict(len(rows)):
            db.execute("UPDATE games SET seal = ? WHERE id = ?",
                       (journal_chain.seal(head, len(rows), seen, finished is not None),
                        game_id))


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: _add_deck_list,
    2: _add_cut,
    3: _add_chain,
    4: _add_cut_in_play,
    5: _seal_finished_and_cut_in_play,
}


def _shape(db: sqlite3.Connection) -> dict[str, frozenset[tuple]]:
    """Each table's columns as (name, type, not null, primary key), and nothing else."""
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_schema ORDER BY name")]
    return {name: frozenset((c[1], c[2].upper(), c[3], c[5])
                            for c in db.execute(f"PRAGMA table_info('{name}')"))
            for name in names}


def _reference_shape() -> dict[str, frozenset[tuple]]:
    with contextlib.closing(sqlite3.connect(":memory:")) as db:
        db.executescript(SCHEMA)
        return _shape(db)


REFERENCE_SHAPE = _reference_shape()


def _check_shape(db: sqlite3.Connection) -> None:
    """The tables are exactly ours: a changed schema text (``seeX BLOB``), a foreign database
    or a missing table is found here, at start, not at the first query that needs it."""
    if _shape(db) != REFERENCE_SHAPE:
        raise Unreadable("the tables are not a journal's (a damaged schema, or another file)")


def move_aside(path: Path, reason: str) -> Path:
    """Move the journal's files out of the way, whole; the name says when and why."""
    aside = _free_name(path, "unreadable")
    for suffix in ("", "-wal", "-tally"):  # the tally counts the file set aside
        with contextlib.suppress(FileNotFoundError):
            os.replace(f"{path}{suffix}", f"{aside}{suffix}")
    with contextlib.suppress(FileNotFoundError):
        os.unlink(f"{path}-shm")
    log.error("journal %s cannot be read (%s): moved aside to %s; starting a fresh journal",
              path, reason, aside.name)
    return aside


def copy_aside(path: Path, why: str) -> Path:
    """A copy of the journal's files as found, before anything repairs them."""
    aside = _free_name(path, why)
    for suffix in ("", "-wal"):
        with contextlib.suppress(FileNotFoundError):
            shutil.copyfile(f"{path}{suffix}", f"{aside}{suffix}")
            os.chmod(f"{aside}{suffix}", 0o600)
    return aside


def _free_name(path: Path, why: str) -> Path:
    """``journal.sqlite3.<why>-<when>``, numbered when one of that second exists already."""
    stem = f"{path.name}.{why}-{time.strftime('%Y%m%d-%H%M%S')}"
    aside, number = path.with_name(stem), 1
    while aside.exists():
        number += 1
        aside = path.with_name(f"{stem}-{number}")
    return aside


def decode_options(text: str) -> dict[str, str]:
    options = json.loads(text)
    if not isinstance(options, dict):
        raise ValueError("options are not a table")
    return options


# --- the write-ahead log -----------------------------------------------------------------------
#
# A log is a 32-byte header (magic, version, page size, checkpoint number, two salts, a
# checksum) then frames: a 24-byte header (page number, the database size for the frame that
# commits a transaction, the salts, a cumulative checksum) and one page. SQLite reads frames
# while their salts match and their checksums hold, and keeps what the last good commit says:
# one damaged frame silently drops every transaction after it. So the log is read here first.

WAL_MAGIC = (0x377F0682, 0x377F0683)  # the low bit: checksums in big-endian words
WAL_HEADER = 32
WAL_FRAME_HEADER = 24


@dataclass(frozen=True)
class WalCheck:
    """``torn``: it ends in a part-written frame (a cut mid-write; SQLite drops it).
    ``lost``: committed transactions after a damaged frame, which SQLite would drop."""

    torn: bool = False
    lost: int = 0


def check_wal(path: Path) -> WalCheck:
    data = _read_wal(path)
    if not data:
        return WalCheck()
    return _walk(data, repair=False)[0]


def repair_wal(path: Path) -> None:
    """Recompute the checksums over every frame of the log's current generation, so SQLite
    reads the transactions after a damaged frame too. The damaged page comes in as it is:
    a page that a later frame rewrote is harmless, and one that is not is left to the
    integrity check and the hash chain, which say what it cost."""
    wal = Path(f"{path}-wal")
    _, repaired = _walk(wal.read_bytes(), repair=True)
    wal.write_bytes(repaired)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(f"{path}-shm")  # its index describes the log before the repair


def _read_wal(path: Path) -> bytes:
    try:
        return Path(f"{path}-wal").read_bytes()
    except FileNotFoundError:
        return b""


def _walk(data: bytes, *, repair: bool) -> tuple[WalCheck, bytes]:
    if len(data) < WAL_HEADER:
        return WalCheck(torn=True), b""
    header = bytearray(data[:WAL_HEADER])
    magic, _, page_size = struct.unpack(">III", header[:12])
    if page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
        page_size = 4096
    size = WAL_FRAME_HEADER + page_size
    count = (len(data) - WAL_HEADER) // size
    torn = (len(data) - WAL_HEADER) % size != 0
    big = magic & 1 if magic in WAL_MAGIC else 0
    sums = _checksum(header[:24], 0, 0, big)
    header_ok = magic in WAL_MAGIC and struct.unpack(">II", header[24:32]) == sums
    salts = bytes(header[16:24]) if header_ok or count == 0 else data[WAL_HEADER + 8:
                                                                      WAL_HEADER + 16]
    if repair:
        header[0:4] = struct.pack(">I", WAL_MAGIC[big])
        header[16:24] = salts
        sums = _checksum(header[:24], 0, 0, big)
        header[24:32] = struct.pack(">II", *sums)
    good, lost, last_commit = header_ok, 0, 0
    frames = bytearray()
    for number in range(count):
        start = WAL_HEADER + number * size
        frame = bytearray(data[start:start + size])
        commits = struct.unpack(">I", frame[4:8])[0] != 0
        if frame[8:16] != salts:
            good = False  # the end of this generation (older frames beyond it are normal)
            continue
        if good or repair:
            sums = _checksum(frame[:8] + frame[WAL_FRAME_HEADER:], *sums, big)
        if good and struct.unpack(">II", frame[16:24]) != sums:
            good = False
        if not good and commits:
            lost += 1
        if repair:
            frame[16:24] = struct.pack(">II", *sums)
            frames += frame
            if commits:
                last_commit = len(frames)
    return WalCheck(torn=torn and not lost, lost=lost), bytes(header) + bytes(frames[:last_commit])


def _checksum(data: bytes | bytearray, s0: int, s1: int, big: int) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    for index in range(0, len(words), 2):
        s0 = (s0 + words[index] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[index + 1] + s0) & 0xFFFFFFFF
    return s0, s1


# --- the mark left while writes are held back --------------------------------------------------


class UnsavedMark:
    """Where "writes are held back" is noted, so that a start after a process that died still
    behind tells the table what really happened (actions lost), not a torn write or nothing.

    Two places, either enough: a small file beside the journal, allocated while the disk has
    room (rewriting blocks a file already owns needs no free space, so it is set on a full
    disk, and it outlives a reboot); and a file in the runtime directory, in memory, which
    can be written when the disk cannot (read-only, failing, full from the start) and
    outlives a restart of the service but not a reboot. A reboot after a disk that refused
    even the first place loses the mark: that start cannot know, and says nothing.
    """

    SIZE = 512

    def __init__(self, journal: Path, runtime: Path | None = None) -> None:
        self.path = Path(f"{journal}-unsaved")
        # One journal's mark among others' (tests, a second table): named by its path.
        name = hashlib.sha256(str(self.path.absolute()).encode()).hexdigest()[:16]
        self.runtime = None if runtime is None else runtime / f"journal-{name}.unsaved"
        self._read = False

    def found(self) -> str:
        """What the last run left (empty: nothing held back), on the first call only: a
        mark this run set since is its own, not the last run's (a start whose file could not
        be opened tries again later)."""
        if self._read:
            return ""
        self._read = True
        return _read_mark(self.path, self.SIZE) or (
            _read_mark(self.runtime, self.SIZE) if self.runtime else "")

    def prepare(self) -> None:
        """Give the file its blocks now, while the disk has room (once; kept after)."""
        with contextlib.suppress(OSError):
            if os.lstat(self.path).st_size == self.SIZE and not _read_mark(self.path, self.SIZE):
                self._clear_runtime()
                return
        self.set("")

    def set(self, text: str) -> None:
        """Best effort, in both places: a disk that refuses even this leaves the table
        playing all the same. A link is never written through."""
        data = text.encode("ascii", "replace")[: self.SIZE].ljust(self.SIZE, b"\0")
        with contextlib.suppress(OSError):
            _write_mark(self.path, data)
        if not text:
            self._clear_runtime()
        elif self.runtime is not None:
            with contextlib.suppress(OSError):
                self.runtime.parent.mkdir(mode=0o700, exist_ok=True)
                _write_mark(self.runtime, data)

    def _clear_runtime(self) -> None:
        if self.runtime is not None:
            with contextlib.suppress(OSError):
                self.runtime.unlink(missing_ok=True)


def _read_mark(path: Path, size: int) -> str:
    try:
        fd = open_nofollow(path, os.O_RDONLY)
    except FileNotFoundError:
        return ""
    except OSError as error:  # a link is refused and told apart (refuse_links)
        return "" if error.errno == 40 else f"unreadable mark ({error.strerror})"
    try:
        data = os.pread(fd, size, 0)
    except OSError as error:
        return f"unreadable mark ({error.strerror})"
    finally:
        os.close(fd)
    return data.rstrip(b"\0").decode("ascii", "replace").strip()


def _write_mark(path: Path, data: bytes) -> None:
    fd = open_nofollow(path, os.O_WRONLY | os.O_CREAT)
    try:
        os.pwrite(fd, data, 0)
        os.fsync(fd)
    finally:
        os.close(fd)
