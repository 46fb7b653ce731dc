"""The bench's table: seats on the headless hardware, an app on a fake clock, a bot.

Buttons are driven on gpiozero's mock pins and the table script runner does the tapping, so
a "press" is the real path: pin edge, queue, gestures, action, render, partial update, bus.
The runner is handed our own ``drive`` and ``pump``, which time each edge with
``perf_counter`` and count the bytes it put on each seat's bus.
"""

from __future__ import annotations

import queue
import time
from dataclasses import dataclass, field

from companion.app import App
from companion.clock import FakeClock
from companion.journal import Journal
from companion.scripts import ScriptRunner, parse
from hardware.base import ButtonName
from hardware.closing import Closing
from hardware.drivers.bus import RecordingBus
from hardware.headless import HeadlessTable

from .bot import BENCH_KEY, label_of, next_move, open_game
from .stock import StockScreen

SEATS = 8
PLAYERS = 5


@dataclass(frozen=True)
class Edge:
    """One button edge that changed screens: how long until its bytes were on the buses."""

    seconds: float
    bytes_by_seat: dict[int, int]


@dataclass
class BenchTable(Closing):
    """``stock=True`` swaps every seat's screen for luma's full-frame driver (the baseline)."""

    seats: int = SEATS
    stock: bool = False
    one_button: frozenset[int] = frozenset()  # seats with ACT alone (hold it to peek)
    record: bool = False  # time edges made while the hourglass runs
    edges: list[Edge] = field(default_factory=list)
    journal: Journal | None = None  # None: the app's own, which keeps nothing

    def __post_init__(self) -> None:
        self.events: queue.Queue = queue.Queue()
        self.clock = FakeClock()
        self.table = HeadlessTable(range(1, self.seats + 1), self.events.put, clock=self.clock,
                                   one_button=self.one_button)
        self.buses: dict[int, RecordingBus] = dict(self.table.buses)
        if self.stock:
            self._fit_stock_screens()
        self.app = App(self.table.hardware, clock=self.clock, journal=self.journal,
                       key_source=lambda n: BENCH_KEY)
        self.runner = ScriptRunner(self.app, self.clock, self._drive, self._pump)
        self._started: float | None = None
        self.app.start()

    def close(self) -> None:
        self.table.close()

    # --- playing ---------------------------------------------------------------------------

    def choose(self, seat: int, label: str) -> None:
        """Tap PEEK until ``label`` is highlighted on ``seat``, then ACT (as a player would)."""
        self.runner.run(parse(f'choose {seat} "{label}"')[1])

    def open_game(self, players: int = PLAYERS) -> None:
        """Join seats 1..players in the lobby and start the game with its default options."""
        open_game(self.choose, players)

    def play_move(self, think: float = 0.0) -> bool:
        """One move of the bot, then ``think`` seconds of table time; False if none was left."""
        move = next_move(self.app)
        if move is None:
            return False
        seat, action_id = move
        self.choose(seat, label_of(self.app, seat, action_id))
        if think:
            self.runner.wait(think)
        return True

    def play_until_glass_runs(self) -> None:
        while not self.glass_running():
            if not self.play_move():
                raise RuntimeError("the bot found no move before the hourglass ran")

    def glass_running(self) -> bool:
        if self.app.session.state is None or self.app.session.state.is_terminal():
            return False
        glass = self.app.view(None).hourglass
        return glass is not None and glass.running and glass.remaining > 0

    def bytes_sent(self) -> dict[int, int]:
        return {number: bus.bytes_sent for number, bus in self.buses.items()}

    def clear_buses(self) -> None:
        for bus in self.buses.values():
            bus.clear()

    # --- the runner's hands ----------------------------------------------------------------

    def _drive(self, seat: int, button: ButtonName, pressed: bool) -> None:
        self.clear_buses()
        self._started = time.perf_counter() if self.record and self.glass_running() else None
        self.table.drive(seat, button, pressed)

    def _pump(self) -> None:
        """What the service's loop does with the events waiting: one step takes them all,
        carries out what fell due, and composes each seat once (not once per event and
        again for the deadlines, which measured a redraw the service never does)."""
        events = []
        while not self.events.empty():
            events.append(self.events.get_nowait())
        self.app.step(*events)
        if self._started is None:
            return
        seconds = time.perf_counter() - self._started
        changed = {n: sent for n, sent in self.bytes_sent().items() if sent}
        if changed:
            self.edges.append(Edge(seconds, changed))
        self._started = None

    def _fit_stock_screens(self) -> None:
        for number, seat in self.table.hardware.seats.items():
            seat.screen.close()
            self.buses[number] = RecordingBus()
            seat.screen = StockScreen(self.buses[number])
