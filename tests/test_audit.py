"""``companion audit``: a finished game checked against its seed; tampering and secrecy."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.audit import run_audit
from companion.cli import main
from companion.journal_sqlite import SqliteJournal
from companion.statedir import journal_path
from engine import registry
from engine.rng import commitment
from tests.test_conformance import RandomGame


def _journal_game(state_dir: Path, key: str = "they-live", *, finished: bool = True):
    """A random game of ``key`` written to the journal as the app writes it."""
    play = RandomGame(registry.get(key), 7)
    for _ in play.steps():
        pass
    record = play.record()
    with SqliteJournal(journal_path(state_dir)) as journal:
        entries, record.entries = record.entries, []
        journal.begin(record)
        for entry in entries:
            record.entries.append(entry)
            journal.append(record, entry)
        if finished:
            journal.finish(record)
    return record


def _audit(state_dir: Path, noted: str | None = None, game_id: int | None = None):
    lines: list[str] = []
    status = run_audit(str(state_dir), game_id, noted, out=lines.append)
    return status, "\n".join(lines)


@pytest.mark.parametrize("key", [game.key for game in registry.all_games()])
def test_audit_finished_game_is_fair(tmp_path, key: str) -> None:
    """Every game's finished journal passes: commitment, legal replay, identical re-deal."""
    record = _journal_game(tmp_path, key)
    status, report = _audit(tmp_path, commitment(record.seed))
    assert status == 0, report
    assert record.seed.hex() in report and "FAIL" not in report
    assert f"commitment {commitment(record.seed)}, the one shown at setup" in report


def test_audit_wrong_commitment_fails(tmp_path) -> None:
    """A seed that does not give the commitment the table noted is reported, exit 1."""
    _journal_game(tmp_path)
    status, report = _audit(tmp_path, "000000000000")
    assert status == 1 and "FAIL" in report and "not 000000000000" in report


def test_audit_unfinished_game_keeps_its_seed(tmp_path) -> None:
    """A game still in play is refused and its seed is not printed."""
    record = _journal_game(tmp_path, finished=False)
    status, report = _audit(tmp_path, game_id=1)
    assert status == 1 and "still in play" in report
    assert record.seed.hex()[:16] not in report


def test_audit_tampered_action_names_its_number(tmp_path) -> None:
    """An action changed in the journal no longer fits the seed's game: named, exit 1."""
    record = _journal_game(tmp_path)
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("UPDATE entries SET label = 'Seat 9 is lying' WHERE idx = 0")
    status, report = _audit(tmp_path, commitment(record.seed))
    assert status == 1 and "action 1 " in report and "Seat 9 is lying" in report


def test_audit_tampered_seed_breaks_the_commitment_or_the_replay(tmp_path) -> None:
    """Another seed for the same actions fails: its commitment differs from the one noted."""
    record = _journal_game(tmp_path)
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("UPDATE games SET seed = ?", (bytes(32),))
    status, report = _audit(tmp_path, commitment(record.seed))
    assert status == 1 and f"not {commitment(record.seed)}" in report


def test_audit_without_a_journal_says_where_it_looked(tmp_path) -> None:
    """No journal: one clear line naming the path, exit 1, no traceback."""
    status, report = _audit(tmp_path / "nowhere")
    assert status == 1 and "no journal at" in report and "nowhere" in report


def test_audit_command_line_reports_and_exits_zero(tmp_path, capsys) -> None:
    """``companion audit --state-dir DIR`` prints the report and exits 0 for a fair game."""
    record = _journal_game(tmp_path)
    assert main(["audit", "--state-dir", str(tmp_path),
                 "--commitment", commitment(record.seed)]) == 0
    out = capsys.readouterr().out
    assert "Fair: every shuffle and deal came from the seed." in out


def test_audit_reads_a_path_with_uri_characters_and_writes_nothing(tmp_path) -> None:
    """A ``#`` or ``?`` in the state directory is part of its name, not a URI's fragment:
    the audit reads that journal, and creates no file anywhere else."""
    odd = tmp_path / "games #1 ?x=y"
    odd.mkdir()
    record = _journal_game(odd)
    status, report = _audit(odd, commitment(record.seed))
    assert status == 0, report
    assert [p.name for p in tmp_path.iterdir()] == [odd.name]


def test_audit_a_game_the_table_gave_up_is_not_called_fair(tmp_path) -> None:
    """A game whose seed was damaged was archived with the reason: the audit says so."""
    record = _journal_game(tmp_path, finished=False)
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("UPDATE games SET seed = ?", (bytes(32),))
    db.close()
    assert SqliteJournal(journal_path(tmp_path)).resume() is None  # given up, archived
    status, report = _audit(tmp_path, commitment(record.seed))
    assert status == 1 and "NOT VERIFIED" in report and "gave this game up" in report


def test_audit_a_cut_history_is_not_called_fair(tmp_path) -> None:
    """Actions missing from the end of a finished game: its chain's seal says so."""
    record = _journal_game(tmp_path)
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("DELETE FROM entries WHERE idx >= ?", (len(record.entries) - 2,))
    db.close()
    status, report = _audit(tmp_path, commitment(record.seed))
    assert status == 1 and "history is not whole" in report
