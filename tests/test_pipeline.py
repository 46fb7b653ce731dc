"""The app as a pipeline: one press is one step, one look at each seat, one redraw; the
Action a seat saw is the one the rules apply; and no failing output takes the table down."""

from __future__ import annotations

import logging
import queue
from collections import Counter
from collections.abc import Iterator

import pytest

from companion.app import App
from companion.clock import FakeClock
from companion.lobby import StartGame
from engine.api import (
    Action,
    Buzz,
    Effect,
    Game,
    Narrate,
    Reveal,
    SeatView,
    State,
    Vibrate,
)
from engine.cues import Pattern, Tune
from hardware.base import (
    ButtonEdge,
    ButtonName,
    Buzzer,
    PublicScreen,
    QuitRequested,
    Speaker,
    Vibrator,
)
from hardware.drivers.gpio import GpioVibrator
from hardware.headless import HeadlessTable
from tests.dealing import deal

SEATS = (1, 2, 3)
MOTOR_PIN = 26  # a pin the headless table leaves free


class CountingState(State):
    """A counter every seat may add to; each addition plays ``cues``. It counts how often the
    app asks for actions and views, and keeps what ``apply`` was handed."""

    def __init__(self, seats, seed, cues: tuple[Effect, ...]) -> None:
        super().__init__(seats, {}, seed)
        self.cues = cues
        self.count = 0
        self.asked: Counter[str] = Counter()
        self.handed: list[Action | str] = []

    def active_seats(self) -> frozenset[int]:
        return frozenset(self.seats)

    def legal_actions(self, seat: int) -> list[Action]:
        self.asked["legal_actions"] += 1
        return [Action("add", "Add one"), Action("wait", "Wait")]

    def apply(self, seat, action, now):
        self.handed.append(action)
        return super().apply(seat, action, now)

    def _apply(self, seat: int, action: Action, now: float) -> list[Effect]:
        if action.id != "add":
            return []
        self.count += 1
        return list(self.cues)

    def view(self, seat: int | None, now: float) -> SeatView:
        self.asked["view"] += 1
        return SeatView("Counting", (f"Count {self.count}",))

    def is_terminal(self) -> bool:
        return False

    def result(self) -> str | None:
        return None


class CountingGame(Game):
    key, name, min_players, max_players = "counting", "Counting", 1, 8

    def __init__(self, cues: tuple[Effect, ...] = ()) -> None:
        self.cues = cues

    def new_state(self, seats, options, seed) -> State:
        return CountingState(seats, seed, self.cues)


class Table:
    """A started counting game on the headless table, on a fake clock."""

    def __init__(self, headless: HeadlessTable, clock: FakeClock, cues: tuple[Effect, ...]):
        self.headless, self.clock = headless, clock
        self.app = App(headless.hardware, clock=clock, key_source=bytes)
        self.app.start()
        deal(self.app, StartGame(CountingGame(cues), SEATS, {}))
        self.app.redraw()
        state = self.app.session.state
        assert isinstance(state, CountingState)
        self.state = state

    def act(self, seat: int) -> ButtonEdge:
        return ButtonEdge(seat, ButtonName.ACT, True, self.clock())


@pytest.fixture
def headless() -> Iterator[tuple[HeadlessTable, FakeClock]]:
    clock = FakeClock()
    with HeadlessTable(SEATS, lambda event: None, clock=clock) as table:
        yield table, clock


def test_one_act_press_is_one_redraw_with_one_look_at_each_seat(headless, monkeypatch):
    """An ACT press composes and draws each seat once, the presser's first, and asks the rules
    for each seat's actions and view once (plus the rules' own check of the press, and the
    public view)."""
    table = Table(*headless, cues=())
    app = table.app
    composed: list[int] = []
    drawn: list[int] = []
    compose, frame = app.composer.face, app.screens.frame
    monkeypatch.setattr(app.composer, "face",
                        lambda seat, now: composed.append(seat) or compose(seat, now))
    monkeypatch.setattr(app.screens, "frame",
                        lambda seat, *a, **k: drawn.append(seat) or frame(seat, *a, **k))
    table.state.asked.clear()

    app.step(table.act(2))

    assert table.state.count == 1
    assert "Count 1" in app.screens.faces[1].text()
    presser_first = [2, *(seat for seat in SEATS if seat != 2)]
    assert composed == presser_first and drawn == presser_first
    assert table.state.asked["legal_actions"] <= len(SEATS) + 1
    assert table.state.asked["view"] <= len(SEATS) + 1


def test_the_loop_takes_one_step_per_event(headless, monkeypatch):
    """Run by the loop, each event (a press, the quit) is followed by exactly one redraw."""
    table = Table(*headless, cues=())
    app = table.app
    redraws: list[float] = []
    redraw = app.redraw
    monkeypatch.setattr(app, "redraw",
                        lambda **seats: redraws.append(app.clock()) or redraw(**seats))
    events: queue.Queue = queue.Queue()
    for event in (table.act(1), table.act(3), QuitRequested("test")):
        events.put(event)

    app.run(events)

    assert table.state.count == 2
    assert len(redraws) == 1 + 3  # the start, then one per event


def test_the_action_a_seat_saw_is_the_one_the_rules_apply(headless):
    """The press hands the rules the Action object on the seat's bar, not its id."""
    table = Table(*headless, cues=())
    offered = table.app.actions(1)[0]

    table.app.step(table.act(1))

    assert table.state.handed == [offered] and table.state.handed[0] is offered


class BrokenBuzzer(Buzzer):
    def play(self, tune: str, volume: float = 1.0) -> None:
        raise RuntimeError("buzzer pin gone")


class BrokenMotor(Vibrator):
    def pulse(self, pattern: str) -> None:
        raise OSError("motor driver gone")


class BrokenSpeaker(Speaker):
    def say(self, text: str, volume: float = 1.0) -> None:
        raise RuntimeError("no sound card")

    def play(self, tune: str, volume: float = 1.0) -> None:
        raise RuntimeError("no sound card")


class BrokenPublicScreen(PublicScreen):
    def show(self, view: SeatView, now: float) -> None:
        raise RuntimeError("HDMI unplugged")

    def reveal(self, text: str, now: float) -> None:
        raise RuntimeError("HDMI unplugged")

    def cue(self, tune: str, now: float) -> None:
        raise RuntimeError("HDMI unplugged")


def test_failing_outputs_are_logged_and_skipped_while_the_game_goes_on(headless, caplog):
    """A buzzer, motors, a speaker and a public screen that raise, and a vibration pattern
    the motor cannot render: each is logged and skipped, and the loop plays on."""
    table_hw, clock = headless
    hardware = table_hw.hardware
    hardware.buzzer = BrokenBuzzer()
    hardware.speaker = BrokenSpeaker()
    hardware.public = BrokenPublicScreen()
    hardware.seats[1].vibrator = BrokenMotor()
    hardware.seats[2].vibrator = GpioVibrator(MOTOR_PIN, pin_factory=table_hw.factory)
    cues = (Buzz(Tune.TURN), Vibrate(1, Pattern.LONG), Vibrate(2, "no-such-pattern"),
            Narrate("The count goes up"), Reveal("Seat 3 counted"))
    with caplog.at_level(logging.WARNING):
        table = Table(table_hw, clock, cues)
        events: queue.Queue = queue.Queue()
        for event in (table.act(1), table.act(2), QuitRequested("test")):
            events.put(event)
        table.app.run(events)

    assert table.state.count == 2
    assert table.app.effects.tunes.count(Tune.TURN) == 2
    assert "Count 2" in table.app.screens.faces[3].text()
    logged = caplog.text
    for output in ("the buzzer playing 'turn'", "a seat's vibration motor", "the speaker",
                   "the public screen's reveal", "the public screen failed"):
        assert output in logged
    motor_lines = [r.getMessage() for r in caplog.records if "vibration motor" in r.getMessage()]
    assert len(motor_lines) == 4  # two seats, two presses
    assert not any("no-such-pattern" in line or "long" in line for line in motor_lines)


def test_a_running_table_keeps_its_objects_out_of_full_collections(headless):
    """Once READY, what the table is made of is frozen out of the collector's full passes
    (a 30 ms pause here, some 0.3 s on a Zero, at whatever press it fell on); when the loop
    stops it is unfrozen, so a reloaded table's old objects are still collected."""
    import gc
    import threading

    table = Table(*headless, cues=())
    frozen: list[int] = []

    def ready() -> None:
        for settling in threading.enumerate():  # gone already: it has frozen them
            if settling.name == "settle-in":
                settling.join()
        frozen.append(gc.get_freeze_count())

    events: queue.Queue = queue.Queue()
    events.put(QuitRequested("test"))
    table.app.run(events, on_ready=ready)

    assert frozen and frozen[0] > 1000
    assert gc.get_freeze_count() == 0
