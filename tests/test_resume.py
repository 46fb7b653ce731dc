"""A table that restarts comes back with the same game, paused, on one game clock."""

import logging
import os
import queue
import random
import signal
import sqlite3
from pathlib import Path

import pytest

import engine.games.staying_alive  # noqa: F401 - registers the game the tests play
from companion.app import App, ReloadRequested
from companion.clock import FakeClock
from companion.journal_digest import state_digest
from companion.journal_sqlite import SqliteJournal
from companion.lobby import Lobby
from companion.play import _reloaded, _signals_into
from companion.statedir import journal_path, prepare_state_dir
from engine import registry
from engine.rng import deal_seed
from hardware.base import ButtonName, QuitRequested
from hardware.headless import HeadlessTable

KEY = bytes(range(100, 132))
DISPLAYOFF, DISPLAYON = 0xAE, 0xAF


class Table:
    """A headless three-seat table with a durable journal; a new one is a restarted process."""

    def __init__(self, path: Path, start: float, game: str = "staying-alive") -> None:
        self.events: queue.Queue = queue.Queue()
        self.clock = FakeClock(start)
        self.headless = HeadlessTable(range(1, 4), self.events.put, clock=self.clock)
        self.journal = SqliteJournal(path)
        lobby = Lobby.prepared((1, 2, 3), (1, 2, 3), game)
        self.app = App(self.headless.hardware, clock=self.clock, journal=self.journal,
                       lobby=lobby, key_source=lambda n: KEY)
        self.app.start()

    def wait(self, seconds: float) -> None:
        """Let game time pass, firing every deadline on the way, as the real loop does."""
        end = self.app.clock() + seconds
        while (deadline := self.app.next_deadline()) is not None and deadline <= end:
            self.clock.advance(max(0.0, deadline - self.app.clock()))
            self.app.advance()
        self.clock.advance(end - self.app.clock())
        self.app.advance()

    def tap(self, seat: int) -> None:
        """ACT, pressed and released as a finger would, through the mock pins."""
        for pressed in (True, False):
            self.headless.drive(seat, ButtonName.ACT, pressed)
            while not self.events.empty():
                self.app.handle(self.events.get_nowait())
            self.wait(0.1)

    def text(self, seat: int) -> str:
        return self.app.screens.faces[seat].text()

    def sand(self) -> float:
        return self.app.session.state.hourglass.remaining(self.app.clock())

    def close(self) -> None:
        """A clean stop (SIGTERM): the app closes, then the hardware."""
        self.app.close()
        self.headless.close()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return journal_path(prepare_state_dir(tmp_path / "state"))


def start_hourglass(table: Table) -> None:
    """Start the game, every player cuts, and tap through the setup until the Lookout has
    flipped the glass."""
    for seat in (1, 1, 2, 3):  # Start, then each seat's cut
        table.tap(seat)
    for _ in range(40):
        if table.app.session.state.phase == "play":
            return
        for seat in (1, 2, 3):
            if table.app.session.state.legal_actions(seat):
                table.tap(seat)
    raise AssertionError("the setup did not reach the hourglass")


def test_resume_rebuilds_the_game_paused_on_every_seat(path):
    """After a crash every seat shows the same game, paused, and says it restarted."""
    first = Table(path, start=1000.0)
    start_hourglass(first)
    first.wait(12.0)
    played = len(first.app.session.record.entries)
    expected = state_digest(first.app.session.state)
    # The process dies here: no close. The machine restarts; monotonic time starts again.
    second = Table(path, start=3.0)
    record = second.app.session.record
    assert state_digest(record.replay(record.entries[:played])) == expected
    assert second.app.session.state.paused and second.app.session.game.restarted
    for seat in (1, 2, 3):
        assert "Restarted: paused" in second.text(seat)
        assert "PAUSED" in second.text(seat)


def test_resume_gives_back_at_most_a_few_seconds_of_sand(path):
    """The glass resumes with the sand it had at the last moment the journal saw."""
    first = Table(path, start=1000.0)
    start_hourglass(first)
    first.wait(23.0)
    left_at_crash = first.sand()
    second = Table(path, start=3.0)
    paused_sand = second.sand()
    assert left_at_crash <= paused_sand <= left_at_crash + 5.0
    second.wait(30.0)
    assert second.sand() == paused_sand  # paused until a seat resumes


def test_resume_clean_stop_loses_no_sand(path):
    """A clean stop (SIGTERM, a reload) journals the moment: not a grain is given back."""
    first = Table(path, start=1000.0)
    start_hourglass(first)
    first.wait(17.3)
    left = first.sand()
    first.close()
    second = Table(path, start=3.0)
    assert second.sand() == pytest.approx(left)


def test_resume_continues_one_game_clock(path):
    """After Resume the sand runs again from where it was, and new actions are later ones."""
    first = Table(path, start=1000.0)
    start_hourglass(first)
    first.wait(10.0)
    moment = first.app.clock()
    first.close()
    second = Table(path, start=3.0)
    paused_sand = second.sand()
    second.tap(2)  # paused: the first action on every seat is Resume
    assert not second.app.session.state.paused and not second.app.session.game.restarted
    assert second.app.session.record.entries[-1].action == "resume"
    assert second.app.session.record.entries[-1].at >= moment
    second.wait(10.0)
    assert second.sand() == pytest.approx(paused_sand - 10.2)  # the tap itself took 0.2 s
    assert "Restarted" not in second.text(1)


def test_resume_then_undo_lands_on_the_same_state(path):
    """Undo after a restart replays the journal with its pause and lands where it should."""
    first = Table(path, start=1000.0)
    start_hourglass(first)
    first.close()
    second = Table(path, start=3.0)
    second.tap(1)  # Resume
    turn = second.app.session.state.turn
    before = state_digest(second.app.session.state)
    second.app.choose(turn, "end", second.app.clock())
    second.app.choose(turn, "sys:undo", second.app.clock())
    assert state_digest(second.app.session.state) == before


def test_resume_time_ran_out_while_off_opens_the_lobby(path):
    """A game that ended while the table was off is archived; the table opens the lobby."""
    first = Table(path, start=1000.0)
    start_hourglass(first)
    first.wait(95.0)
    assert first.app.session.state.is_terminal()
    second = Table(path, start=3.0)
    assert second.app.session.state is None
    assert "Restarted: game over" in second.text(1)
    assert SqliteJournal(path).resume() is None


def test_resume_corrupt_journal_starts_in_the_lobby(path):
    """A garbage journal is set aside; the table starts anyway and every seat is told."""
    path.write_bytes(os.urandom(3000))
    table = Table(path, start=3.0)
    assert table.app.session.state is None
    for seat in (1, 2, 3):
        assert "Bad journal set aside" in table.text(seat)


def test_resume_blanks_every_seat_before_drawing(path):
    """An OLED keeps its last image: resumed or not, each seat is switched off first."""
    first = Table(path, start=1000.0)
    start_hourglass(first)
    second = Table(path, start=3.0)
    for bus in second.headless.buses.values():
        first_data = next(i for i, t in enumerate(bus.transfers) if t.control == 0x40)
        commands = [b for t in bus.transfers[:first_data] if t.control == 0x00 for b in t.data]
        assert DISPLAYOFF in commands


def random_moves(game_key: str, seed: int, path: Path) -> tuple[object, object]:
    """A game of ``game_key`` played at random through the journal, as a crash leaves it."""
    game = registry.get(game_key)
    rng = random.Random(seed)
    seats = tuple(range(1, game.min_players + 1))
    app_seed = rng.randbytes(32)
    table_journal = SqliteJournal(path)
    options = {option.key: option.default for option in game.options}
    from companion.record import GameRecord, JournaledAction

    record = GameRecord(game.key, seats, options, app_seed)
    state = game.new_state(seats, options, app_seed)
    table_journal.begin(record)
    now = 50.0
    for _ in range(rng.randrange(5, 60)):
        now += rng.uniform(0, 3)
        if (deadline := state.next_deadline()) is not None and deadline <= now:
            state.advance(now)
        active = sorted(state.active_seats())
        if state.is_terminal() or not active:
            break
        seat = rng.choice(active)
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action.id, now)
        record.entries.append(JournaledAction(seat, action.id, now, action.undoable, action.label))
        table_journal.append(record, record.entries[-1])
    return record, state


@pytest.mark.parametrize("game_key", [g.key for g in registry.all_games()])
def test_resume_says_nothing_secret(game_key, tmp_path, caplog):
    """Resuming any game logs and shows no secret and no seed, only counts and notices."""
    for seed in range(3):
        path = journal_path(prepare_state_dir(tmp_path / f"s{seed}"))
        record, _ = random_moves(game_key, seed, path)
        with caplog.at_level(logging.DEBUG):
            journal = SqliteJournal(path)
            resumed = journal.resume()
        assert resumed is not None
        secrets = resumed[1].secrets_hidden_from(None) | {record.seed.hex()}
        said = [r.getMessage() for r in caplog.records] + journal.notices
        assert not [s for s in secrets for line in said if s in line]


# --- They Live: a power cut before, during and after the picks that cut the deck ------------


def they_live(path: Path, start: float = 1000.0) -> Table:
    """They Live started (the commitment shown); every seat then picks with a tap of ACT."""
    table = Table(path, start, "they-live")
    table.tap(1)
    return table


def stored_cut(path: Path) -> tuple[str, bytes]:
    with sqlite3.connect(path) as db:
        cut, seed = db.execute("SELECT cut, seed FROM games").fetchone()
    db.close()
    return cut, bytes(seed)


def test_resume_they_live_before_the_picks_keeps_the_commitment(path):
    """Power cut after Start: the same key (the commitment the table noted) comes back, and
    the picks made after the restart are the cut."""
    first = they_live(path)
    assert first.app.session.record.key == KEY and not first.app.session.state.dealt
    second = Table(path, start=3.0, game="they-live")
    assert second.app.session.record.key == KEY and not second.app.session.state.dealt
    assert "Restarted: paused" in second.text(1)
    for seat in (1, 1, 2, 3):  # Resume, then each seat's pick
        second.tap(seat)
    record = second.app.session.record
    assert second.app.session.state.dealt and record.cut == record.played_cut()
    assert record.seed == deal_seed(KEY, record.cut) == second.app.session.state.seed
    assert stored_cut(path) == (record.cut, record.seed)


def test_resume_they_live_during_the_picks_keeps_the_presses_made(path):
    """Power cut after two picks: they stay those seats' cuts, at their moments; the journal
    holds no cut and no seed yet; the third pick after the restart deals."""
    first = they_live(path)
    first.tap(1)
    first.tap(2)
    made = first.app.session.record.first_presses()
    assert list(made) == [1, 2] and stored_cut(path) == ("", b"")
    second = Table(path, start=3.0, game="they-live")
    assert second.app.session.record.first_presses() == made and not second.app.session.state.dealt
    second.tap(3)  # Resume
    second.tap(3)
    record = second.app.session.record
    assert record.cut.startswith(f"1@{made[1]} 2@{made[2]} 3@") and second.app.session.state.dealt
    assert record.cut == record.played_cut() and stored_cut(path) == (record.cut, record.seed)


def test_resume_they_live_after_the_picks_keeps_the_deal(path):
    """Power cut after every pick: the same cut, the same seed, the same identities."""
    first = they_live(path)
    for seat in (1, 2, 3):
        first.tap(seat)
    record, identities = first.app.session.record, dict(first.app.session.state.identities)
    assert first.app.session.state.dealt and stored_cut(path) == (record.cut, record.seed)
    second = Table(path, start=3.0, game="they-live")
    assert second.app.session.state.identities == identities
    resumed = second.app.session.record
    assert (resumed.cut, resumed.seed) == (record.cut, record.seed)


def test_resume_signals_become_events():
    """SIGTERM and SIGHUP only put an event on the queue; the loop does the rest."""
    events: queue.SimpleQueue = queue.SimpleQueue()
    with _signals_into(events, reloadable=True):
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGHUP)
        received = [events.get(timeout=5), events.get(timeout=5)]
    assert received == [QuitRequested("SIGTERM"), ReloadRequested()]


def test_resume_reload_ends_the_loop_for_a_fresh_start(path):
    """A reload request stops this run of the table so it starts again with the new config."""
    table = Table(path, start=3.0)
    table.app.handle(ReloadRequested())
    assert not table.app.running and table.app.reload_requested


def test_resume_reload_keeps_the_old_config_when_the_new_one_is_wrong(tmp_path, caplog):
    """A table.toml broken while the table runs is reported; the one in use stays."""
    bad = tmp_path / "table.toml"
    bad.write_text("[[seat]]\nnumber = 1\n")
    old = object()
    with caplog.at_level(logging.ERROR):
        assert _reloaded(str(bad), old) is old
    assert "keeping the table.toml" in caplog.text


def test_resume_clean_stop_blanks_every_seat(path):
    """SIGTERM's clean stop switches every display off last: no secret stays lit."""
    table = Table(path, start=1000.0)
    start_hourglass(table)
    table.app.close()
    for bus in table.headless.buses.values():
        off = [i for i, t in enumerate(bus.transfers) if t.control == 0 and DISPLAYOFF in t.data]
        after = bus.transfers[off[-1] + 1:]
        assert not [t for t in after if t.control == 0x00 and DISPLAYON in t.data]
        assert not [t for t in after if t.control == 0x40 and any(t.data)]  # only dark pixels
    table.headless.close()


def test_resume_a_press_stamped_after_an_expiry_replays_as_played(path):
    """A press read in the same step as the hourglass running out, stamped after it: live
    play lets the glass run out first, as the journal's replay does, so a restart rebuilds
    the same game instead of refusing the press and cutting the game back."""
    table = Table(path, start=1000.0)
    start_hourglass(table)
    deadline = table.app.session.state.next_deadline()
    seat = min(table.app.session.state.active_seats())
    action = next(a for a in table.app.session.state.legal_actions(seat) if a.id != "flip")
    table.app.choose(seat, action.id, deadline + 0.01)  # the loop has not woken for it yet
    record = table.app.session.record
    assert state_digest(record.replay()) == state_digest(table.app.session.state)
    restarted = Table(path, start=5.0)
    assert not any("Cut back" in restarted.text(s) for s in (1, 2, 3))
