"""``companion audit``: check a finished game's shuffles and deals against its revealed seed.

At setup every seat is shown ``commitment(seed)``; at the end the seed is revealed. The audit
reads a finished (archived) game from the journal and checks that the seed gives the
commitment (the one the table noted, when given), and that replaying the recorded actions from
the seed is a game in which every action was legal at its moment, offered under the label the
table saw, and that two replays reach the same state (every shuffle and deal re-derived, none
depending on anything but the seed). A game still in play is refused: its seed is still secret.

The journal is opened read-only, so an audit never changes the file a running table writes.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine import registry
from engine.api import State
from engine.exc import EngineError
from engine.rng import commitment

from .journal_chain import genesis, verify
from .journal_file import SCHEMA_VERSION
from .journal_sqlite import state_digest
from .record import GameRecord, JournaledAction
from .statedir import choose_state_dir, journal_path


class AuditError(Exception):
    """The journal or the game asked for cannot be audited (missing, unfinished)."""


@dataclass
class Audit:
    """What the audit found: the lines of its report, and whether every check passed."""

    lines: list[str] = field(default_factory=list)
    ok: bool = True

    def passed(self, text: str) -> None:
        self.lines.append(f"  ok    {text}")

    def failed(self, text: str) -> None:
        self.lines.append(f"  FAIL  {text}")
        self.ok = False


# --------------------------------------------------------------------------- reading


@dataclass
class Archived:
    """A finished game as the journal holds it, and what the journal's own checks found."""

    number: int
    record: GameRecord
    problems: list[str] = field(default_factory=list)


def load_finished(path: Path, game_id: int | None = None) -> Archived:
    """A finished game from the journal at ``path``: ``game_id``, else the newest finished.

    The file is opened read-only by a ``file:`` URI built from the whole path, escaped
    (a ``#`` or ``?`` in a directory name stays part of the name).
    """
    if not path.exists():
        raise AuditError(f"no journal at {path} (try --state-dir)")
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise AuditError(f"the journal {path} has schema version {version}; this companion "
                             f"audits version {SCHEMA_VERSION} (start companion play once to "
                             "bring an older journal up to date)")
        row = _game_row(db, game_id)
        rows = [(index, JournaledAction(seat, action, at, bool(undoable), label), link)
                for index, seat, action, at, undoable, label, link in db.execute(
                    "SELECT idx, seat, action, at, undoable, label, link FROM entries "
                    "WHERE game = ? ORDER BY idx", (row[0],))]
    except sqlite3.DatabaseError as error:
        raise AuditError(f"cannot read the journal {path} ({error})") from None
    finally:
        db.close()
    number, key, seats, options, seed, finished, shown, deck_list, length, seen, seal, damage = row
    if finished is None:
        raise AuditError(f"game {number} is still in play: its seed stays secret until it ends")
    record = GameRecord(key, tuple(int(s) for s in seats.split(",")), json.loads(options),
                        bytes(seed), [entry for _, entry, _ in rows],
                        None if deck_list is None else tuple(json.loads(deck_list)))
    return Archived(number, record, _journal_problems(record, rows, shown, length, seen, seal,
                                                      damage, (key, seats, options, deck_list)))


def _journal_problems(record: GameRecord, rows: list, shown: str | None, length: int | None,
                      seen: float | None, seal: bytes | None, damage: str | None,
                      setup: tuple) -> list[str]:
    """What the journal itself says against this game: the table gave it up, the seed it
    holds is not the one committed to at setup, or its history is not whole."""
    problems = []
    if damage:
        problems.append(f"the table gave this game up: {damage}")
    if shown != commitment(record.seed):
        problems.append("the seed in the journal does not give the commitment stored at setup")
    key, seats, options, deck_list = setup
    verdict = verify(genesis(key, seats, options, str(shown), deck_list), rows, length, seen,
                     seal)
    if verdict.setup_damaged or verdict.lost or verdict.kept < len(rows):
        problems.append(f"the journal's history is not whole after action {verdict.kept}")
    return problems


def _game_row(db: sqlite3.Connection, game_id: int | None) -> tuple:
    select = ("SELECT id, game_key, seats, options, seed, finished, commitment, deck_list, "
              "length, seen, seal, damage FROM games")
    if game_id is None:
        row = db.execute(f"{select} WHERE finished IS NOT NULL ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            raise AuditError("the journal holds no finished game yet")
        return row
    row = db.execute(f"{select} WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise AuditError(f"the journal holds no game {game_id}")
    return row


# --------------------------------------------------------------------------- checking


def audit_record(record: GameRecord, noted: str | None = None) -> Audit:
    """Check ``record`` against its seed; ``noted`` is the commitment the table wrote down."""
    report = Audit()
    shown = commitment(record.seed)
    if noted is None:
        report.passed(f"the seed gives commitment {shown}: compare it with the one shown "
                      "at setup")
    elif noted.strip().lower() == shown:
        report.passed(f"the seed gives commitment {shown}, the one shown at setup")
    else:
        report.failed(f"the seed gives commitment {shown}, not {noted.strip()}")
    try:
        registry.get(record.game_key)
    except EngineError as error:
        report.failed(str(error))
        return report
    first = _replay_checked(record, report.failed)
    if first is None:
        return report
    report.passed(f"all {len(record.entries)} actions replay from the seed, each legal at its "
                  "moment and offered as the table saw it")
    second = record.replay()
    if state_digest(second) == state_digest(first):
        report.passed("a second replay deals and shuffles exactly the same")
    else:
        report.failed("two replays of the same seed differ: a deal depends on more than the seed")
    report.lines.append(f"  outcome: {first.result() or 'the game was ended before its end'}")
    return report


def _replay_checked(record: GameRecord, fail: Callable[[str], None]) -> State | None:
    """Replay as :meth:`GameRecord.replay` does, reporting the first action that does not fit."""
    state = record.start()
    for number, entry in enumerate(record.entries, start=1):
        deadline = state.next_deadline()
        if deadline is not None and deadline <= entry.at:
            state.advance(entry.at)
        problem = _mismatch(state, entry)
        if problem:
            fail(f"action {number} ({entry.action}, seat {entry.seat}): {problem}")
            return None
        try:
            state.apply(entry.seat, entry.action, entry.at)
        except EngineError as error:
            fail(f"action {number} ({entry.action}, seat {entry.seat}) was not legal: {error}")
            return None
        except Exception as error:  # a report, never a traceback: the game code broke here
            fail(f"action {number} ({entry.action}): the game failed ({type(error).__name__})")
            return None
    return state


def _mismatch(state: State, entry: JournaledAction) -> str:
    """Why ``entry`` does not fit ``state`` as journaled (its label, its undo mark), or ""."""
    if entry.seat is None or state.is_terminal() or state.paused:
        return ""
    offered = {a.id: a for a in state.legal_actions(entry.seat)}
    action = offered.get(entry.action)
    if action is None:
        return ""  # apply says why, in the game's words
    if entry.label and action.label != entry.label:
        return f"the table saw '{entry.label}', the seed gives '{action.label}'"
    if entry.undoable != state.is_undoable(entry.seat, entry.action):
        return "its undo mark differs from the replay"
    return ""


# --------------------------------------------------------------------------- the command


def run_audit(state_dir: str | None, game_id: int | None, noted: str | None,
              out: Callable[[str], None] = print) -> int:
    """``companion audit``: print a short report; 0 when every check passed, else 1."""
    path = journal_path(Path(state_dir) if state_dir else choose_state_dir(None))
    try:
        archived = load_finished(path, game_id)
    except AuditError as error:
        out(f"companion audit: {error}")
        return 1
    number, record = archived.number, archived.record
    name = registry.get(record.game_key).name if _known(record.game_key) else record.game_key
    options = " ".join(f"{k}={v}" for k, v in sorted(record.options.items()))
    out(f"Game {number}: {name}, seats {' '.join(map(str, record.seats))}"
        + (f", {options}" if options else ""))
    out(f"  seed: {record.seed.hex()}")
    report = audit_record(record, noted)
    for problem in archived.problems:
        report.failed(problem)
    for line in report.lines:
        out(line)
    out("Fair: every shuffle and deal came from the seed." if report.ok else "NOT VERIFIED.")
    return 0 if report.ok else 1


def _known(key: str) -> bool:
    try:
        registry.get(key)
    except EngineError:
        return False
    return True
