"""A redraw yields to a waiting event: a press that lands while the loop draws a background
step (the hourglass ticking) waits for one seat's screen, not for every seat's, and its own
step draws the rest, its presser first; a press step yields to a waiting press as well, but
never two redraws in a row, so no seat is left behind for more than one step.

The loop itself runs (``App.run``, its queue fed by gpiozero mock pins) on the headless
table and a fake clock. Each seat's screen is luma's on a recording bus that notes, on one
list, which seat each transfer went to, and a finger presses (or the hourglass's next second
comes) while a given seat's screen is on its bus: what is waiting on the queue at each moment
of a redraw is the test's, not the threads'.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator, Sequence

import pytest
from smbus2 import i2c_msg

from companion.app import App
from companion.clock import FakeClock
from companion.composer import clock_text
from companion.lobby import StartGame
from engine.api import HourglassView, SeatView, State
from hardware.base import ButtonName, QuitRequested
from hardware.drivers.bus import RecordingBus
from hardware.drivers.oled import OledScreen
from hardware.headless import HeadlessTable
from tests.dealing import deal
from tests.test_pipeline import CountingGame, CountingState

SEATS = (1, 2, 3, 4)
RUNS_OUT = 2000.0  # the hourglass's end on the fake clock (it starts at 1000): never reached


class TickingState(CountingState):
    """The counting game with its hourglass on every screen: each second all seats change."""

    def view(self, seat: int | None, now: float) -> SeatView:
        counted = super().view(seat, now)
        return SeatView(counted.title, counted.lines,
                        hourglass=HourglassView(RUNS_OUT - now, RUNS_OUT, True))


class TickingGame(CountingGame):
    def new_state(self, seats, options, seed) -> State:
        return TickingState(seats, seed, ())


class Wire:
    """Every seat's bus, noting on :attr:`written` the seat of each transfer, in order (a step
    the loop begins notes ``None``); :meth:`when` plans what happens as a seat's screen is
    next sent."""

    def __init__(self) -> None:
        self.written: list[int | None] = []
        self._planned: dict[int, Callable[[], None]] = {}

    def screen(self, number: int) -> OledScreen:
        return OledScreen(NotedBus(self, number))

    def when(self, seat: int, then: Callable[[], None]) -> None:
        self._planned[seat] = then

    def noted(self, seat: int) -> None:
        self.written.append(seat)
        planned = self._planned.pop(seat, None)
        if planned is not None:
            planned()

    def steps(self) -> list[list[int]]:
        """The seats each step wrote, in the order it first wrote to them."""
        steps: list[list[int]] = []
        for seat in self.written:
            if seat is None:
                steps.append([])
            elif steps and seat not in steps[-1]:
                steps[-1].append(seat)
        return steps


class NotedBus(RecordingBus):
    def __init__(self, wire: Wire, seat: int) -> None:
        super().__init__()
        self._wire, self._seat = wire, seat

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int]) -> None:
        super().write_i2c_block_data(i2c_addr, register, data)
        self._wire.noted(self._seat)

    def i2c_rdwr(self, *i2c_msgs: i2c_msg) -> None:
        super().i2c_rdwr(*i2c_msgs)
        self._wire.noted(self._seat)

    def write_byte(self, i2c_addr: int, value: int) -> None:
        super().write_byte(i2c_addr, value)
        self._wire.noted(self._seat)


class Table:
    """A ticking game on the headless table, its buttons feeding the loop's queue."""

    def __init__(self, headless: HeadlessTable, clock: FakeClock, wire: Wire,
                 events: queue.Queue) -> None:
        self.headless, self.clock, self.wire, self.events = headless, clock, wire, events
        self.app = App(headless.hardware, clock=clock, key_source=bytes)
        self.app.start()
        deal(self.app, StartGame(TickingGame(), SEATS, {}))
        self.app.redraw()
        self.starting: Callable[[], None] | None = None  # as the loop's next step begins

    def press(self, seat: int) -> Callable[[], None]:
        """A finger on ``seat``'s ACT (it acts on the press: the count goes up)."""
        return lambda: self.headless.drive(seat, ButtonName.ACT, True)

    def tick(self) -> None:
        """The hourglass's next shown second comes due."""
        self.clock.advance(1.0)

    def quit(self) -> None:
        self.events.put(QuitRequested("test"))

    def run(self, monkeypatch: pytest.MonkeyPatch, ready: Callable[[], None]) -> None:
        """Run the loop; ``ready`` once it is ready (from then on each step is noted)."""
        step = self.app.step

        def noted(*events: object) -> None:
            self.wire.written.append(None)
            starting, self.starting = self.starting, None
            if starting is not None:
                starting()
            step(*events)

        def started() -> None:
            self.wire.written.clear()
            monkeypatch.setattr(self.app, "step", noted)
            ready()

        self.app.run(self.events, on_ready=started)

    def shown(self, seat: int) -> str:
        return self.app.screens.faces[seat].text()


@pytest.fixture
def table() -> Iterator[Table]:
    clock, wire, events = FakeClock(), Wire(), queue.Queue()
    with HeadlessTable(SEATS, events.put, clock=clock, screens=wire.screen) as headless:
        yield Table(headless, clock, wire, events)


def test_a_press_that_lands_in_a_tick_waits_for_one_screen_and_its_step_draws_the_rest(
        table, monkeypatch):
    """The hourglass ticks: with nothing waiting every seat is drawn, in seat order. At the
    next tick seat 3 presses while seat 1's screen is sent: the tick draws no other seat, and
    the press's step draws seat 3 first, then every other seat (the count and the second
    the tick left undrawn)."""
    def second_tick() -> None:
        table.tick()
        table.wire.when(1, lambda: (table.press(3)(), table.quit()))

    def ready() -> None:
        table.tick()
        table.wire.when(4, second_tick)  # as the first tick's last screen goes out

    table.run(monkeypatch, ready)

    first, second, press, stop = table.wire.steps()
    assert first == [1, 2, 3, 4]
    assert second == [1]
    assert press[0] == 3 and sorted(press) == [1, 2, 3, 4]
    assert stop == []
    glass = table.app.view(None).hourglass
    assert glass is not None
    shown = clock_text(glass.remaining)
    assert all(shown in table.shown(seat) and "Count 1" in table.shown(seat) for seat in SEATS)


def test_a_press_that_lands_as_a_tick_begins_waits_for_none_of_its_screens(table, monkeypatch):
    """Seat 3 presses as the tick's step begins (the loop carrying out what fell due): the
    tick draws no seat, not even its first, whom nobody waits for; the press's step draws
    seat 3 first, then every other seat, each with the second the tick left undrawn."""
    def ready() -> None:
        table.starting = lambda: (table.press(3)(), table.quit())
        table.tick()

    table.run(monkeypatch, ready)

    tick, press, stop = table.wire.steps()
    assert tick == []
    assert press[0] == 3 and sorted(press) == [1, 2, 3, 4]
    assert stop == []
    glass = table.app.view(None).hourglass
    assert glass is not None
    shown = clock_text(glass.remaining)
    assert all(shown in table.shown(seat) and "Count 1" in table.shown(seat) for seat in SEATS)


def test_a_press_yields_to_the_next_press_but_never_two_redraws_in_a_row(table, monkeypatch):
    """Seat 2 presses, seat 3 while seat 2's screen is sent, seat 4 while seat 3's is: seat
    2's step draws seat 2 alone and seat 3's comes at once, seat 3 first; seat 3's step
    draws every seat though seat 4 is waiting (the one before it yielded), seat 4's screen
    after all of them."""
    def ready() -> None:
        table.wire.when(2, lambda: table.press(3)())
        table.wire.when(3, lambda: (table.press(4)(), table.quit()))
        table.press(2)()

    table.run(monkeypatch, ready)

    by_two, by_three, by_four, *_ = table.wire.steps()
    assert by_two == [2]
    assert by_three[0] == 3 and sorted(by_three) == [1, 2, 3, 4]
    assert by_four[0] == 4
    assert all("Count 3" in table.shown(seat) for seat in SEATS)
