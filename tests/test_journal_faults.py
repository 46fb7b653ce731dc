"""A full disk keeps the table playing: every seat is told, nothing in memory is lost, and
saving resumes by itself when there is room again. The disk is a real small tmpfs."""

import contextlib
import sqlite3
from pathlib import Path

import pytest

import engine.games.staying_alive  # noqa: F401 - registers the game the tests play
from bench.disk import small_disk, small_ext4
from companion.journal_digest import state_digest
from companion.journal_sqlite import SqliteJournal
from companion.record import GameRecord, JournaledAction
from companion.statedir import journal_path, prepare_state_dir
from companion.upkeep import RETRY_EVERY
from tests.disks import mounted_or_skip
from tests.test_journal import next_move
from tests.test_resume import Table, start_hourglass

FULL = "Not saving: disk full"


@pytest.fixture
def disk(tmp_path: Path):
    yield from mounted_or_skip(small_disk, tmp_path / "disk",
                               "a small tmpfs cannot be mounted here")


@pytest.fixture
def path(disk) -> Path:
    return journal_path(prepare_state_dir(disk.root / "state"))


def end_turn(table: Table) -> None:
    """One move of the seat on turn (not a flip): one action journaled, the game goes on."""
    played = len(table.app.session.record.entries)
    seat, action = next_move(table.app.session.state)
    table.app.choose(seat, action.id, table.app.clock())
    assert len(table.app.session.record.entries) == played + 1
    table.wait(0.5)


def seen_on_every_seat(table: Table, text: str) -> bool:
    return all(text in table.text(seat) for seat in (1, 2, 3))


def wait_until(table: Table, text: str) -> None:
    """Let the notices run until ``text`` shows on every seat (it may wait behind others)."""
    for _ in range(40):
        if seen_on_every_seat(table, text):
            return
        table.wait(0.5)
    raise AssertionError(f"{text!r} never reached every seat")


def test_full_disk_mid_game_the_game_goes_on_and_saving_comes_back(path, disk):
    table = Table(path, start=1000.0)
    start_hourglass(table)
    disk.fill()
    end_turn(table)
    wait_until(table, FULL)
    for _ in range(4):  # the game goes on while nothing is saved
        end_turn(table)
    assert table.app.session.journal.behind
    played = list(table.app.session.record.entries)
    expected = state_digest(table.app.session.state)
    disk.free()
    wait_until(table, "Saving again")  # no press needed: the app tries every few seconds
    assert not table.app.session.journal.behind
    # Everything that was in memory is in the file: a restart (no clean stop) has it all.
    restarted = Table(path, start=5.0)
    record = restarted.app.session.record
    assert record.entries[: len(played)] == played
    assert state_digest(record.replay(played)) == expected
    assert not any("Unsaved" in restarted.text(seat) for seat in (1, 2, 3))


def test_full_disk_then_killed_the_restart_says_what_was_lost(path, disk):
    """Died while behind: the restart resumes what was saved and says the rest is lost
    (not "Torn write": the mark the journal left says what really happened)."""
    table = Table(path, start=1000.0)
    start_hourglass(table)
    saved = len(table.app.session.record.entries)
    disk.fill()
    end_turn(table)
    end_turn(table)
    assert table.app.session.journal.behind
    disk.free()  # the process dies before its next try
    restarted = Table(path, start=5.0)
    assert restarted.app.session.record.entries[-1].action == "pause"
    assert len(restarted.app.session.record.entries) == saved + 1
    wait_until(restarted, "Unsaved actions lost")
    assert not any("Torn" in restarted.text(seat) for seat in (1, 2, 3))


def test_starting_on_a_full_disk_is_no_crash_loop(path, disk):
    """The restart's pause cannot be written: the table starts, resumed, and says so."""
    table = Table(path, start=1000.0)
    start_hourglass(table)
    table.wait(3.0)
    expected = state_digest(table.app.session.state)
    disk.fill()
    restarted = Table(path, start=5.0)  # no exception: the seats are lit, the game is there
    assert restarted.app.session.state.paused
    record = restarted.app.session.record
    assert state_digest(record.replay(record.entries[:-1])) == expected
    wait_until(restarted, FULL)
    restarted.tap(1)  # Resume: the game is played on while nothing is saved
    assert not restarted.app.session.state.paused
    disk.free()
    restarted.wait(RETRY_EVERY * 2)
    assert not restarted.app.session.journal.behind
    assert SqliteJournal(path).resume()[0].entries[: len(restarted.app.session.record.entries)] == \
        restarted.app.session.record.entries


def test_closing_twice_while_behind_keeps_the_mark(path, disk):
    """The app closes the journal and so does its caller: the second close must not open
    the file again (reading its own mark as a past run's, and clearing it)."""
    table = Table(path, start=1000.0)
    start_hourglass(table)
    disk.fill()
    end_turn(table)
    assert table.app.session.journal.behind
    table.close()
    table.app.session.journal.close()
    disk.free()
    restarted = Table(path, start=5.0)
    wait_until(restarted, "Unsaved actions lost")


@pytest.fixture
def card(tmp_path: Path):
    yield from mounted_or_skip(small_ext4, tmp_path / "card", "needs root to loop-mount an ext4")


def test_a_full_card_saves_while_its_log_has_room_then_says_so_and_loses_nothing(card):
    """The service's journal gives its log its length at open, so on an ext4 filled mid-game
    the commits go on (they overwrite the log's own blocks); once the checkpoints cannot grow
    the main file and the log must outgrow its length, every seat is told, the writes are
    held, and once there is room they are all saved: the file has every one."""
    path = card.root / "journal.sqlite3"
    journal = SqliteJournal(path, exclusive=True)
    record = GameRecord("staying-alive", (1, 2, 3), {}, bytes(32))
    journal.begin(record)
    card.fill()
    appended = 0
    while not journal.notices:
        entry = JournaledAction(1, "end", float(appended))
        record.entries.append(entry)
        journal.append(record, entry)
        journal.settle()
        appended += 1
        assert appended < 2000, "a full card never stopped the journal"
    assert journal.notices == [FULL]
    assert appended > 10  # the log's own blocks took the first commits
    card.free()
    assert journal.catch_up() and journal.settle()
    assert journal.notices[-1] == "Saving again"
    journal.close()
    with contextlib.closing(sqlite3.connect(path)) as db:  # what a restart would read
        stored = db.execute("SELECT idx, action, at FROM entries ORDER BY idx").fetchall()
    assert stored == [(i, e.action, e.at) for i, e in enumerate(record.entries)]
