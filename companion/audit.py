"""``companion audit``: check a finished game's deal, from the commitment to the last action.

Before the cut every seat is shown the commitment to the companion's key; every player then
cuts; at the end the key is revealed (docs/fairness.md). The audit reads a finished (archived)
game from the journal and checks, each in its own line: that the key gives the commitment (the
one the table noted, when given: a key chosen after the cut fails here); that every player of
the game cut exactly once (in a game whose first presses cut: that the cut is those presses,
as journaled); that the key and the cut give the seed the game was dealt from; and
that replaying the recorded actions from that seed is a game in which every action was legal
at its moment, offered under the label the table saw, and that two replays reach the same
state (every shuffle and deal re-derived, none depending on anything but the seed), its
timers run on to the game's last moment (a game lost to the hourglass ends there). A game
still in play is refused: its key and seed are still secret. A game is over once its replay
is, archived or not: the game-over screen shows the key until a seat leaves it.

The journal is opened read-only, so an audit never changes the file a running table writes.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from engine import registry
from engine.api import State
from engine.exc import EngineError
from engine.rng import commitment, deal_seed, parse_cut

from .exc import AuditError
from .journal_chain import genesis, history_digest, seed_vouched_for, stored_rows, verify
from .journal_digest import state_digest
from .journal_file import SCHEMA_VERSION
from .record import GameRecord, JournaledAction
from .statedir import choose_state_dir, journal_path


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
    seen: float | None = None  # its last moment: a timer may end it after its last action


@contextmanager
def snapshot(path: Path) -> Iterator[sqlite3.Connection]:
    """The journal as it stands, read from a private copy of the file and its log.

    A running table holds its journal in SQLite's exclusive mode (its log's index in memory,
    no other reader), so the audit never opens the live file: it copies the file and its
    write-ahead log into a directory only this user can read, and SQLite reads the copy as it
    would after a power cut, up to the last whole commit. The copy is removed at once: it
    holds the keys of games still in play. The live journal is never written.
    """
    with tempfile.TemporaryDirectory(prefix="companion-audit-") as private:
        copy = Path(private) / path.name
        shutil.copyfile(path, copy, follow_symlinks=False)
        log = path.with_name(path.name + "-wal")
        if log.is_file() and not log.is_symlink():
            shutil.copyfile(log, copy.with_name(copy.name + "-wal"), follow_symlinks=False)
        db = sqlite3.connect(copy)
        try:
            yield db
        finally:
            db.close()


def load_finished(path: Path, game_id: int | None = None) -> Archived:
    """A finished game from the journal at ``path``: ``game_id``, else the newest finished,
    read from a private copy (:func:`snapshot`), so a table playing on it is not disturbed.
    A game whose end is on its screens (archived only when a seat leaves it) is finished too.
    """
    if not path.exists():
        raise AuditError(f"no journal at {path} (try --state-dir)")
    if path.is_symlink():
        raise AuditError(f"the journal {path} is a symbolic link: not followed")
    with snapshot(path) as db:
        return _archived(path, db, game_id)


def finished_games(path: Path, limit: int = 50) -> list[tuple[int, str, str]]:
    """The journal's archived games, newest first: number, game key, seats ("1,2,3"), read
    from a private copy (:func:`snapshot`); none when there is no journal yet."""
    if not path.is_file() or path.is_symlink():
        return []
    with snapshot(path) as db:
        try:
            return db.execute("SELECT id, game_key, seats FROM games WHERE finished IS NOT NULL "
                              "ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        except sqlite3.DatabaseError as error:
            raise AuditError(f"cannot read the journal {path} ({error})") from None


def _archived(path: Path, db: sqlite3.Connection, game_id: int | None) -> Archived:
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise AuditError(f"the journal {path} has schema version {version}; this companion "
                             f"audits version {SCHEMA_VERSION} (start companion play once to "
                             "bring an older journal up to date)")
        row = _game_row(db, game_id)
        rows = stored_rows(db, row[0])
    except sqlite3.DatabaseError as error:
        raise AuditError(f"cannot read the journal {path} ({error})") from None
    (number, game_key, seats, options, _, deck_list, _, _, in_play, finished, shown,
     length, seen, seal, damage) = row
    record = _record(row, rows)
    if finished is None and not ended(record, seen):
        raise AuditError(f"game {number} is still in play: its key and seed stay secret until "
                         "it ends")
    start = genesis(game_key, seats, options, str(shown), deck_list, in_play == 1)
    verdict = verify(start, rows, length, seen, seal, finished=finished is not None)
    problems = [f"the table gave this game up: {damage}"] if damage else []
    if not seed_vouched_for(record.seed, record.key, record.cut, shown):
        problems.append("the key, cut and seed in the journal do not match the commitment "
                        "it stored at setup")
    if verdict.setup_damaged or verdict.lost or verdict.kept < len(rows):
        problems.append(f"the journal's history is not whole after action {verdict.kept}")
    return Archived(number, record, problems, seen)


def _record(row: tuple, rows: list) -> GameRecord:
    """The game of a ``games`` row (as :func:`_game_row` selects it) with its entries."""
    _, game_key, seats, options, seed, deck_list, deal_key, cut, in_play, *_ = row
    return GameRecord(game_key, tuple(int(s) for s in seats.split(",")), json.loads(options),
                      bytes(seed), [entry for _, entry, _ in rows],
                      None if deck_list is None else tuple(json.loads(deck_list)),
                      bytes(deal_key), cut, in_play == 1)


def _row_ended(db: sqlite3.Connection, row: tuple) -> bool:
    return ended(_record(row, stored_rows(db, row[0])), row[12])


def ended(record: GameRecord, seen: float | None) -> bool:
    """The game reached its end, archived or not: its game-over screen shows the key until a
    seat leaves it, and only then is the game archived. A record that does not replay is
    not called ended: its key stays secret."""
    try:
        return record.replay(now=seen).is_terminal()
    except Exception:  # whatever the game code raises, the game is not shown over
        return False


def _game_row(db: sqlite3.Connection, game_id: int | None) -> tuple:
    """Game ``game_id``, else the newest that is over: archived, or the newest game if its
    game-over screen is still up."""
    select = ("SELECT id, game_key, seats, options, seed, deck_list, deal_key, cut, "
              "cut_in_play, finished, commitment, length, seen, seal, damage FROM games")
    if game_id is None:
        newest = db.execute(f"{select} ORDER BY id DESC LIMIT 1").fetchone()
        if newest is not None and newest[9] is None and _row_ended(db, newest):
            return newest
        row = db.execute(f"{select} WHERE finished IS NOT NULL ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            raise AuditError("the journal holds no finished game yet")
        return row
    row = db.execute(f"{select} WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise AuditError(f"the journal holds no game {game_id}")
    return row


# --------------------------------------------------------------------------- checking


def audit_record(record: GameRecord, noted: str | None = None,
                 digest: str | None = None, seen: float | None = None) -> Audit:
    """Check ``record`` from its key on; ``noted`` is the commitment the table wrote down,
    ``digest`` the history digest it wrote down at the end, ``seen`` the game's last moment
    (its timers run on to it, as the table's did: an hourglass that ran out ends it)."""
    report = Audit()
    _check_commitment(record, noted, report)
    _check_digest(record, digest, report)
    if not _check_cut(record, report):
        return report
    seed = deal_seed(record.key, record.cut)
    if not record.cut and record.cut_in_play and not record.seed:
        report.passed("the game ended before every player had cut: nothing was dealt")
    elif seed == record.seed:
        report.passed("the key and the cut give the seed the game was dealt from")
    else:
        report.failed(f"the key and the cut give the seed {seed.hex()}, not the one recorded")
        return report
    first = _replay_checked(record, report.failed, seen)
    if first is None:
        return report
    report.passed(f"all {len(record.entries)} actions replay from the seed, each legal at its "
                  "moment and offered as the table saw it")
    second = record.replay(now=seen)
    if state_digest(second) == state_digest(first):
        report.passed("a second replay deals and shuffles exactly the same")
    else:
        report.failed("two replays of the same seed differ: a deal depends on more than the seed")
    report.lines.append(f"  outcome: {first.result() or 'the game was ended before its end'}")
    return report


def _check_commitment(record: GameRecord, noted: str | None, report: Audit) -> None:
    _check_noted(report, noted, "the key gives commitment", commitment(record.key),
                 "compare it with the one shown before the cut", "the one shown before the cut",
                 "it is not the key committed to before the cut")


def _check_digest(record: GameRecord, noted: str | None, report: Audit) -> None:
    """The history as the journal holds it gives the digest shown at the end: an action
    changed, added or taken away since (its chain made again or not) fails here."""
    _check_noted(report, noted, "the history gives digest", history_digest(record),
                 "compare it with the one shown beside the key", "the one shown at the end",
                 "it is not the history the table played")


def _check_noted(report: Audit, noted: str | None, what: str, value: str, compare: str,
                 shown: str, unlike: str) -> None:
    """``value`` against what the table noted: reported to compare by eye when not given."""
    if noted is None:
        report.passed(f"{what} {value}: {compare}")
    elif noted.strip().lower() == value:
        report.passed(f"{what} {value}, {shown}")
    else:
        report.failed(f"{what} {value}, not {noted.strip()}: {unlike}")


def _check_cut(record: GameRecord, report: Audit) -> bool:
    """Every player of the game cut, once each, in the order and at the moments recorded;
    in a game whose first presses cut, those presses as journaled are the cut. False when
    nothing more can be checked (the game is not known here)."""
    try:
        registry.get(record.game_key)
    except EngineError as error:
        report.failed(str(error))
        return False
    in_play = record.cut_in_play
    if in_play and not record.cut_agrees():
        report.failed(f"the cut '{record.cut}' is not the players' first presses as "
                      f"journaled ('{record.played_cut()}')")
    elif in_play and not record.cut:
        return True  # ended before every player had pressed: there is no cut to read
    try:
        presses = parse_cut(record.cut)
    except ValueError as error:
        report.failed(f"the cut '{record.cut}' cannot be read ({error})")
        return True
    seats = sorted(seat for seat, _ in presses)
    if seats == sorted(record.seats):
        what = "once, with their first press" if in_play else "once"
        report.passed(f"every player cut {what}: {record.cut}")
    else:
        report.failed(f"the cut '{record.cut}' is not one press from each of seats "
                      f"{' '.join(map(str, record.seats))}")
    return True


def _replay_checked(record: GameRecord, fail: Callable[[str], None],
                    seen: float | None) -> State | None:
    """Replay as :meth:`GameRecord.replay` does (to ``seen``), reporting the first action
    that does not fit."""
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
            record.deal_if_cut(state, record.entries[:number])
        except EngineError as error:
            fail(f"action {number} ({entry.action}, seat {entry.seat}) was not legal: {error}")
            return None
        except Exception as error:  # a report, never a traceback: the game code broke here
            fail(f"action {number} ({entry.action}): the game failed ({type(error).__name__})")
            return None
    deadline = state.next_deadline()
    if seen is not None and deadline is not None and deadline <= seen and not state.paused:
        state.advance(seen)
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
              out: Callable[[str], None] = print, *, digest: str | None = None) -> int:
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
    out(f"  key:  {record.key.hex()}")
    out(f"  cut:  {record.cut}")
    out(f"  seed: {record.seed.hex()}")
    report = audit_record(record, noted, digest, archived.seen)
    for problem in archived.problems:
        report.failed(problem)
    for line in report.lines:
        out(line)
    out("Fair: every shuffle and deal came from the committed key and the players' cut."
        if report.ok else "NOT VERIFIED.")
    return 0 if report.ok else 1


def _known(key: str) -> bool:
    return any(game.key == key for game in registry.all_games())
