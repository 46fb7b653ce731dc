"""``companion audit``: a finished game checked from its key to its last action; tampering
(of the key, the cut, the seed, an action), a key chosen after the cut, and secrecy."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from companion.audit import run_audit
from companion.cli import main
from companion.journal_sqlite import SqliteJournal
from companion.record import GameRecord, JournaledAction
from companion.statedir import journal_path
from engine import registry
from engine.rng import commitment, cut_text, deal_seed, parse_cut
from tests.test_conformance import RandomGame


def _journal_game(state_dir: Path, key: str = "they-live", *, finished: bool = True,
                  upto: int | None = None):
    """A random game of ``key`` written to the journal as the app writes it: a game whose
    players cut in play (They Live) is begun with no cut and no seed, and the entry that
    completes its cut writes both; a timer that ran out is remembered at its moment, as the
    table does. ``upto``: only that many of its actions, a game still in play."""
    play = RandomGame(registry.get(key), 7)
    timers = [step.now for step in play.steps() if step.seat is None]
    record = play.record()
    with SqliteJournal(journal_path(state_dir)) as journal:
        entries, record.entries = record.entries[:upto], []
        if record.cut_in_play:
            record.cut, record.seed = "", b""
        journal.begin(record)
        for entry in entries:
            record.entries.append(entry)
            if record.cut_in_play and not record.cut:
                record.cut = record.played_cut()
                record.seed = deal_seed(record.key, record.cut) if record.cut else b""
            journal.append(record, entry)
        if timers and upto is None:
            journal.remember(record, timers[-1])
        if finished:
            journal.finish(record)
    return record


def _audit(state_dir: Path, noted: str | None = None, game_id: int | None = None):
    lines: list[str] = []
    status = run_audit(str(state_dir), game_id, noted, out=lines.append)
    return status, "\n".join(lines)


@pytest.mark.parametrize("key", [game.key for game in registry.all_games()])
def test_audit_finished_game_is_fair(tmp_path, key: str) -> None:
    """Every game's finished journal passes: commitment, cut, seed, legal replay, re-deal."""
    record = _journal_game(tmp_path, key)
    status, report = _audit(tmp_path, commitment(record.key))
    assert status == 0, report
    assert "FAIL" not in report
    assert f"key:  {record.key.hex()}" in report and f"cut:  {record.cut}" in report
    assert f"seed: {record.seed.hex()}" in report
    assert f"commitment {commitment(record.key)}, the one shown before the cut" in report
    assert "every player cut once" in report
    assert "the key and the cut give the seed the game was dealt from" in report


def test_audit_wrong_commitment_fails(tmp_path) -> None:
    """A key that does not give the commitment the table noted is reported, exit 1."""
    _journal_game(tmp_path)
    status, report = _audit(tmp_path, "0" * 32)
    assert status == 1 and "FAIL" in report and f"not {'0' * 32}" in report


def test_audit_catches_a_key_chosen_after_the_cut(tmp_path) -> None:
    """A companion that picks its key once it has seen the presses (so that it likes the
    deal) writes a journal that holds together: that key, the cut and the seed they give.
    The commitment the table noted before the cut gives it away."""
    record = _journal_game(tmp_path)
    later = hashlib.sha256(b"a key picked after the presses").digest()
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("UPDATE games SET deal_key = ?, seed = ?",
                   (later, deal_seed(later, record.cut)))
    status, report = _audit(tmp_path, commitment(record.key))
    assert status == 1
    assert f"not {commitment(record.key)}: it is not the key committed to before the cut" in report


def test_audit_unfinished_game_keeps_its_key_and_seed(tmp_path) -> None:
    """A game still in play is refused and neither its key nor its seed is printed."""
    record = _journal_game(tmp_path, finished=False, upto=40)
    status, report = _audit(tmp_path, game_id=1)
    assert status == 1 and "still in play" in report
    assert record.seed.hex()[:16] not in report and record.key.hex()[:16] not in report


@pytest.mark.parametrize("key", [game.key for game in registry.all_games()])
def test_audit_gives_the_outcome_the_table_saw(tmp_path, key: str) -> None:
    """Every game's audit ends on the outcome the players saw: Staying Alive's seed 7 is
    lost to the hourglass after its last action, and is not "ended before its end"."""
    _journal_game(tmp_path, key)
    status, report = _audit(tmp_path)
    play = RandomGame(registry.get(key), 7)
    for _ in play.steps():
        pass
    assert status == 0 and f"  outcome: {play.state.result()}" in report, report


def test_audit_a_game_over_on_the_screens_is_not_still_in_play(tmp_path) -> None:
    """The journal archives a game when a seat leaves its game-over screen; while that
    screen shows the key, the audit checks the game (the default one, too)."""
    _journal_game(tmp_path, "mind-invaders")
    record = _journal_game(tmp_path, "staying-alive", finished=False)
    for game_id in (2, None):
        status, report = _audit(tmp_path, commitment(record.key), game_id)
        assert status == 0 and "still in play" not in report, report
        assert "Staying Alive" in report and "outcome: the game was ended" not in report


def test_audit_tampered_action_names_its_number(tmp_path) -> None:
    """An action changed in the journal no longer fits the seed's game: named, exit 1."""
    record = _journal_game(tmp_path)
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("UPDATE entries SET label = 'Seat 9 is lying' WHERE idx = 0")
    status, report = _audit(tmp_path, commitment(record.key))
    assert status == 1 and "action 1 " in report and "Seat 9 is lying" in report


def test_audit_tampered_key_fails(tmp_path) -> None:
    """Another key in the journal gives neither the noted commitment nor the seed."""
    record = _journal_game(tmp_path)
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("UPDATE games SET deal_key = ?", (bytes(32),))
    status, report = _audit(tmp_path, commitment(record.key))
    assert status == 1 and f"not {commitment(record.key)}" in report
    assert "not the one recorded" in report


def test_audit_tampered_cut_fails(tmp_path) -> None:
    """One press moved by a microsecond no longer gives the seed the game was dealt from."""
    record = _journal_game(tmp_path)
    (seat, moment), *rest = parse_cut(record.cut)
    moved = cut_text([(seat, moment + 1), *rest])
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("UPDATE games SET cut = ?", (moved,))
    status, report = _audit(tmp_path, commitment(record.key))
    assert status == 1 and "not the one recorded" in report


def test_audit_cut_missing_a_player_fails(tmp_path) -> None:
    """A cut without one player's press (and a seed re-derived to match) is reported."""
    record = _journal_game(tmp_path)
    short = cut_text(parse_cut(record.cut)[1:])
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("UPDATE games SET cut = ?, seed = ?", (short, deal_seed(record.key, short)))
    status, report = _audit(tmp_path, commitment(record.key))
    assert status == 1 and "is not one press from each of seats" in report


def test_audit_tampered_seed_fails(tmp_path) -> None:
    """Another seed for the same key, cut and actions is not the one they give."""
    record = _journal_game(tmp_path)
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("UPDATE games SET seed = ?", (bytes(32),))
    status, report = _audit(tmp_path, commitment(record.key))
    assert status == 1 and "not the one recorded" in report


def test_audit_without_a_journal_says_where_it_looked(tmp_path) -> None:
    """No journal: one clear line naming the path, exit 1, no traceback."""
    status, report = _audit(tmp_path / "nowhere")
    assert status == 1 and "no journal at" in report and "nowhere" in report


def test_audit_command_line_reports_and_exits_zero(tmp_path, capsys) -> None:
    """``companion audit --state-dir DIR`` prints the report and exits 0 for a fair game."""
    record = _journal_game(tmp_path)
    assert main(["audit", "--state-dir", str(tmp_path),
                 "--commitment", commitment(record.key)]) == 0
    out = capsys.readouterr().out
    assert "Fair: every shuffle and deal came from the committed key and the players' cut." in out


def test_audit_reads_a_path_with_uri_characters_and_writes_nothing(tmp_path) -> None:
    """A ``#`` or ``?`` in the state directory is part of its name, not a URI's fragment:
    the audit reads that journal, and creates no file anywhere else."""
    odd = tmp_path / "games #1 ?x=y"
    odd.mkdir()
    record = _journal_game(odd)
    status, report = _audit(odd, commitment(record.key))
    assert status == 0, report
    assert [p.name for p in tmp_path.iterdir()] == [odd.name]


def test_audit_a_game_the_table_gave_up_is_not_called_fair(tmp_path) -> None:
    """A game whose seed was damaged was archived with the reason: the audit says so."""
    record = _journal_game(tmp_path, finished=False)
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("UPDATE games SET seed = ?", (bytes(32),))
    db.close()
    assert SqliteJournal(journal_path(tmp_path)).resume() is None  # given up, archived
    status, report = _audit(tmp_path, commitment(record.key))
    assert status == 1 and "NOT VERIFIED" in report and "gave this game up" in report


def test_audit_a_cut_history_is_not_called_fair(tmp_path) -> None:
    """Actions missing from the end of a finished game: its chain's seal says so."""
    record = _journal_game(tmp_path)
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("DELETE FROM entries WHERE idx >= ?", (len(record.entries) - 2,))
    db.close()
    status, report = _audit(tmp_path, commitment(record.key))
    assert status == 1 and "history is not whole" in report


def test_audit_they_live_ended_before_every_pick_dealt_nothing(tmp_path) -> None:
    """They Live ended during the character pick: no cut, no seed, nothing dealt; the audit
    says so and checks the commitment and the picks made."""
    game = registry.get("they-live")
    key = hashlib.sha256(b"ended during the picks").digest()
    record = GameRecord(game.key, (1, 2, 3), {}, b"", key=key, cut_in_play=True)
    state = record.start()
    with SqliteJournal(journal_path(tmp_path)) as journal:
        journal.begin(record)
        action = state.legal_actions(2)[0]
        state.apply(2, action.id, 5.0)
        record.entries.append(JournaledAction(2, action.id, 5.0, True, action.label))
        journal.append(record, record.entries[-1])
        journal.finish(record)
    status, report = _audit(tmp_path, commitment(key))
    assert status == 0, report
    assert "the game ended before every player had cut: nothing was dealt" in report
    with sqlite3.connect(journal_path(tmp_path)) as db:
        db.execute("UPDATE games SET seed = ?", (bytes(32),))  # a seed with no cut behind it
    db.close()
    status, report = _audit(tmp_path, commitment(key))
    assert status == 1 and "not the one recorded" in report


def test_audit_reads_while_a_table_plays_on_the_journal(tmp_path) -> None:
    """The service holds its journal in SQLite's exclusive mode; the audit of a finished game
    reads a private copy, so it works while the table plays, and leaves the table's lock."""
    record = _journal_game(tmp_path)
    path = journal_path(tmp_path)
    with SqliteJournal(path, exclusive=True) as live:
        live.resume()  # the service's start: the journal read, and held
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True).execute(
                "SELECT count(*) FROM games").fetchone()
        status, report = _audit(tmp_path, commitment(record.key))
        assert status == 0, report
