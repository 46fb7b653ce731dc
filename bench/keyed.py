"""Damage aimed at real keyed games: journals written by the real ``companion play`` (a key,
the players' cut, the seal and the chain links, as every game the table starts has them),
then one column flipped, or the log cut at one of its frame boundaries, and the service's
own ``SqliteJournal`` started on the damaged copy (what the next start of the table reads).

Each trial is compared with the game as a clean restart of the undamaged copy finds it: a
start that keeps the game whole and says nothing, or says exactly what it lost (every
notice is shown on every seat), is fine; a game gone without a word, a deal the players
saw dealt again, an edited action accepted or a wrong size told is a goal row.
"""

from __future__ import annotations

import io
import os
import random
import shutil
import signal
import sqlite3
import struct
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from companion.journal_digest import state_digest
from companion.journal_file import WAL_FRAME_HEADER, WAL_HEADER
from companion.journal_sqlite import SqliteJournal
from companion.record import GameRecord

# Every game, at its fewest and most players (and one between for the games of 3 or more).
GAMES = (("staying-alive", 3), ("staying-alive", 5), ("they-live", 3), ("they-live", 6),
         ("mind-invaders", 2), ("mind-invaders", 5), ("heroes-love-to-lie", 2),
         ("heroes-love-to-lie", 5), ("alter-ego", 1), ("alter-ego", 4))
NAME = "journal.sqlite3"


@dataclass
class Found:
    """What one start made of a state directory: the open game (None: the lobby) and the
    notices every seat was shown."""

    record: GameRecord | None
    notices: list[str]


def start_on(state: Path) -> Found:
    """The service's journal started on ``state`` (twice: a damage that crashes only the
    second start is a crash loop, raised as it would be)."""
    acks = io.StringIO()
    journal = SqliteJournal(state / NAME, acks=acks)
    found = journal.resume()
    notices = list(journal.notices)
    journal.close()
    SqliteJournal(state / NAME).close()
    if found is None:
        return Found(None, notices)
    record = found[0]
    resumed = next(line for line in acks.getvalue().splitlines() if line.startswith("resume"))
    del record.entries[int(resumed.split()[2]):]  # the restart's own pause, if it made one
    return Found(record, notices)


def real_game(directory: Path, game: str, players: int, seed: int, feeds: int) -> Path:
    """A state directory as a SIGKILL leaves it after ``feeds`` bursts of keys on the real
    ``companion play`` (its log, tally and marks beside the journal)."""
    from tests.test_crash_harness import Chain

    directory.mkdir(parents=True)
    chain = Chain(directory, seed=seed, game=game, players=players)
    process, acks = chain.spawn()
    try:
        chain.wait_ready(process)
        for _ in range(feeds):
            chain.feed(process)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
        process.stdin.close()
        os.close(acks)
        chain.notify.close()
    return chain.state


def copy_state(state: Path, into: Path) -> Path:
    shutil.copytree(state, into)
    return into


# --- what a start made of the damage -----------------------------------------------------------


def judge(found: Found, original: Found) -> str:
    """One outcome name; goal rows start with a word of ``bench.faults.BAD``."""
    told = found.notices
    before = original.record
    if found.record is None:
        if before is None:
            return "no open game before or after" + (f", told {_shape(told)}" if told else "")
        return f"game given up, told {_shape(told)}" if told else "SILENT LOSS: a silent lobby"
    record = found.record
    if before is None:
        return "a finished game resumed, told" if told else "SILENT: a finished game reopened"
    if (record.game_key, record.seats, record.key) != (before.game_key, before.seats,
                                                       before.key):
        return "SILENT RE-DEAL: another game resumed"
    if before.cut and record.cut != before.cut or before.seed and record.seed != before.seed:
        return "RE-DEAL: the deal seen is not the deal resumed" + (", told" if told else "")
    kept = record.entries
    if kept != before.entries[: len(kept)]:
        return "ALTERED history accepted"
    if state_digest(record.replay()) != state_digest(before.replay(kept)):
        return "SILENT RE-DEAL: the same actions replay to another state"
    lost = len(before.entries) - len(kept)
    if not lost:
        return f"whole, told {_shape(told)}" if told else "whole, nothing said"
    if not told:
        return "SILENT LOSS: actions cut without a word"
    sizes = [_size(notice) for notice in told if _size(notice) is not None]
    if sizes and sizes[0] == lost:
        return "actions cut, told with the exact size"
    if sizes and 0 <= lost - sizes[0] <= 1:  # the tally's documented slack: one action
        return "actions cut, told one fewer than lost (the tally's slack)"
    return f"MISTOLD: {lost} lost, told {told[0]!r}"


def _size(notice: str) -> int | None:
    if notice == "Last action lost":
        return 1
    words = notice.split()
    return int(words[1]) if len(words) > 2 and words[0] == "Last" and words[1].isdigit() \
        else None


def _shape(notices: list[str]) -> str:
    """A notice with its numbers as N (so outcomes group): 'Last 12 actions lost' -> N."""
    return " + ".join(f"'{' '.join('N' if w.isdigit() else w for w in n.split())}'"
                      for n in notices)


# --- a column flipped --------------------------------------------------------------------------


def columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def flip_value(value: object, rng: random.Random) -> tuple[str, object]:
    """One bit of ``value`` changed as the file stores it (NULL read as 0 when its type byte
    flips); the SQL to store it (TEXT may come out as bytes that are no UTF-8)."""
    if value is None:
        return "?", 0
    if isinstance(value, bool | int):
        return "?", value ^ (1 << rng.randrange(8))
    if isinstance(value, float):
        bits = struct.unpack("<Q", struct.pack("<d", value))[0] ^ (1 << rng.randrange(64))
        return "?", struct.unpack("<d", struct.pack("<Q", bits))[0]
    data = bytearray(value.encode() if isinstance(value, str) else value)  # type: ignore[union-attr]
    if not data:
        return ("CAST(? AS TEXT)" if isinstance(value, str) else "?"), b"\0"
    data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    return ("CAST(? AS TEXT)" if isinstance(value, str) else "?"), bytes(data)


def flip_column(state: Path, table: str, column: str, rng: random.Random) -> bool:
    """Flip ``column`` in one row of ``table`` (the open game's, else the last game's);
    False when there is no such row."""
    with sqlite3.connect(state / NAME) as db:
        game = db.execute("SELECT coalesce(max(CASE WHEN finished IS NULL THEN id END), "
                          "max(id)) FROM games").fetchone()[0]
        if game is None:
            return False
        if table == "games":
            rows = db.execute(f"SELECT id, {column} FROM games WHERE id = ?", (game,))
            where, place = "id = ?", ()
        else:
            rows = db.execute(f"SELECT idx, {column} FROM entries WHERE game = ?", (game,))
            where, place = "game = ? AND idx = ?", (game,)
        found = rows.fetchall()
        if not found:
            return False
        row, value = rng.choice(found)
        for _ in range(8):  # a key flipped onto another row's key: another bit
            how, flipped = flip_value(value, rng)
            try:
                db.execute(f"UPDATE {table} SET {column} = {how} WHERE {where}",
                           (flipped, *place, row))
                break
            except sqlite3.IntegrityError:
                continue
        else:
            return False
    db.close()
    return True


def column_flips(rounds: int, workdir: Path, rng: random.Random,
                 games: tuple[tuple[str, int], ...] = GAMES) -> Counter:
    """Every column of ``games`` and ``entries``, ``rounds`` times, over real games of every
    game (killed at random moments, so some are mid-cut, some dealt, some finished)."""
    outcomes: Counter = Counter()
    for trial in range(rounds):
        for number, (game, players) in enumerate(games):
            where = workdir / f"col{trial}-{number}"
            state = real_game(where, game, players, rng.randrange(1 << 30), rng.randrange(2, 9))
            pristine = copy_state(state, where / "pristine")
            original = start_on(pristine)
            with sqlite3.connect(state / NAME) as db:
                names = [("games", c) for c in columns(db, "games")] + \
                    [("entries", c) for c in columns(db, "entries")]
            db.close()
            for index, (table, column) in enumerate(names):
                copy = copy_state(state, where / f"flip{index}")
                if not flip_column(copy, table, column, rng):
                    continue
                try:
                    outcome = judge(start_on(copy), original)
                except Exception as error:  # the table would not start on it
                    outcome = f"CRASH at start ({type(error).__name__})"
                outcomes[f"{table}.{column}: {outcome}"] += 1
            shutil.rmtree(where, ignore_errors=True)  # a killed run's -shm may come and go
    return outcomes


# --- the log cut at a frame boundary -----------------------------------------------------------


def wal_cuts(rounds: int, workdir: Path, rng: random.Random,
             games: tuple[tuple[str, int], ...] = GAMES) -> Counter:
    """The log of a killed real game cut at every frame boundary (a card that dropped
    frames it had acknowledged), and to nothing."""
    outcomes: Counter = Counter()
    for trial in range(rounds):
        for number, (game, players) in enumerate(games):
            where = workdir / f"wal{trial}-{number}"
            state = real_game(where, game, players, rng.randrange(1 << 30), rng.randrange(3, 9))
            wal = state / f"{NAME}-wal"
            data = wal.read_bytes() if wal.exists() else b""
            # The service gives its log its length in zeros at start: what no write reached
            # is no frame to cut.
            written = len(data.rstrip(b"\0"))
            if written <= WAL_HEADER:
                outcomes["no log left to cut (folded in at the kill)"] += 1
                shutil.rmtree(where, ignore_errors=True)
                continue
            page = struct.unpack(">I", data[8:12])[0]
            frames = -(-(written - WAL_HEADER) // (WAL_FRAME_HEADER + page))
            original = start_on(copy_state(state, where / "pristine"))
            for frame in range(frames):
                copy = copy_state(state, where / f"cut{frame}")
                size = WAL_HEADER + frame * (WAL_FRAME_HEADER + page) if frame else 0
                (copy / f"{NAME}-wal").write_bytes(data[:size])
                try:
                    outcome = judge(start_on(copy), original)
                except Exception as error:
                    outcome = f"CRASH at start ({type(error).__name__})"
                outcomes[outcome] += 1
            shutil.rmtree(where, ignore_errors=True)  # a killed run's -shm may come and go
    return outcomes
