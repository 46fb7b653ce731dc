"""The garbage collector runs when the table is quiet, never inside a press: a collection in
a press is a pause on the presser's screen (up to some 27 ms on a Pi Zero 2 W)."""

from __future__ import annotations

import gc
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from companion.app import App
from companion.collector import Collector, GarbageDue
from hardware.base import ButtonName, QuitRequested, SeatScreen
from hardware.drivers.bus import BusWriter, RecordingBus
from hardware.drivers.oled import OledScreen
from hardware.headless import HeadlessTable

from .test_chorus import Blocker

SEATS = (1, 2, 3)
HANG = 30.0  # seconds: only a hung loop takes this long


class WatchedQueue(queue.Queue):
    """The app's queue, telling each time the loop comes back to wait on it."""

    def __init__(self) -> None:
        super().__init__()
        self.looked = threading.Condition()
        self.waits = 0

    def get(self, block: bool = True, timeout: float | None = None) -> object:
        with self.looked:
            self.waits += 1
            self.looked.notify_all()
        return super().get(block, timeout)


@dataclass
class Collection:
    thread: str
    stepping: bool
    wire_held: bool


@dataclass
class Table:
    """A headless table whose seats share one real bus writer, run by its own loop."""

    table: HeadlessTable
    writer: BusWriter
    events: WatchedQueue
    app: App
    stepped: list[tuple[object, ...]] = field(default_factory=list)
    collections: list[Collection] = field(default_factory=list)
    held: Blocker | None = None
    loop: threading.Thread | None = None
    garbage_per_step: int = 0
    _stepping: bool = False
    _changed: threading.Condition = field(default_factory=threading.Condition)

    def record(self, phase: str, info: dict) -> None:
        if phase == "start":
            with self._changed:
                self.collections.append(Collection(
                    threading.current_thread().name, self._stepping,
                    self.held is not None and self.held.inside.is_set()
                    and not self.held.released.is_set()))
                self._changed.notify_all()

    def step(self, *events: object) -> None:
        self._stepping = True
        try:
            App.step(self.app, *events)
            litter(self.garbage_per_step)  # last: what the step freed cannot make up for it
        finally:
            self._stepping = False
        self.stepped.append(events)

    def until(self, collections: int) -> None:
        with self._changed:
            assert self._changed.wait_for(lambda: len(self.collections) >= collections, HANG)

    def until_waiting(self, waits: int) -> None:
        """The loop has looked for work ``waits`` times (it then had nothing to do)."""
        with self.events.looked:
            assert self.events.looked.wait_for(lambda: self.events.waits >= waits, HANG)

    def hold_wire(self) -> Blocker:
        """The wire busy until the test lets the blocker go."""
        self.held = Blocker()
        self.writer.submit(self.held, lambda error: None)
        assert self.held.inside.wait(HANG)
        return self.held

    def edge(self, seat: int, pressed: bool) -> None:
        self.table.drive(seat, ButtonName.ACT, pressed)

    def stop(self) -> None:
        """Quit, and wait for the loop to end (it has taken every event before the quit)."""
        assert self.loop is not None
        self.events.put(QuitRequested("test"))
        self.loop.join(HANG)
        assert not self.loop.is_alive()


def litter(count: int) -> None:
    """``count`` objects only the collector can free (each a cycle)."""
    for _ in range(count):
        cycle: list[object] = []
        cycle.append(cycle)


@pytest.fixture
def gc_as_found() -> Iterator[None]:
    enabled, threshold = gc.isenabled(), gc.get_threshold()
    yield
    gc.set_threshold(*threshold)
    (gc.enable if enabled else gc.disable)()


@pytest.fixture
def running(gc_as_found) -> Iterator[Table]:
    """The table's loop on a thread, started, READY and settled in (frozen), nothing queued
    on its wire."""
    writer = BusWriter("i2c-1")
    events = WatchedQueue()

    def screen(number: int) -> SeatScreen:
        return OledScreen(RecordingBus(), writer=writer)

    with HeadlessTable(SEATS, events.put, screens=screen) as headless:
        app = App(headless.hardware)
        table = Table(headless, writer, events, app)
        app.step = table.step  # type: ignore[method-assign]
        settled = threading.Event()

        def ready() -> None:
            for settling in threading.enumerate():
                if settling.name == "settle-in":
                    settling.join()
            settled.set()

        loop = threading.Thread(target=app.run, args=(events, ready), name="loop")
        table.loop = loop
        loop.start()
        try:
            assert settled.wait(HANG)
            writer.call(lambda: None)  # start's frames are on the screens
            table.until_waiting(1)
            gc.collect()  # what start and settling in left: nothing is due now
            gc.callbacks.append(table.record)
            try:
                yield table
            finally:
                gc.callbacks.remove(table.record)
        finally:
            if table.held is not None:
                table.held.released.set()
            table.stop()


def test_presses_never_collect_while_collections_happen_between_them(running):
    """Over many presses that each leave twice the garbage CPython collects after, no
    collection runs during a step, on any thread; each is collected once the screens are
    sent, on the loop's thread."""
    running.garbage_per_step = 2 * gc.get_threshold()[0]
    for press in range(30):
        for pressed in (True, False):
            collected = len(running.collections)
            running.edge(SEATS[press % len(SEATS)], pressed)
            running.until(collected + 1)  # this edge's garbage, at the latest

    assert len(running.stepped) >= 60 and len(running.collections) >= 30
    assert not [c for c in running.collections if c.stepping]
    assert {c.thread for c in running.collections} == {"loop"}


def test_a_drained_wire_wakes_the_loop_to_collect_once_and_draw_nothing(running):
    """Garbage due while the wire sends: once it drains the loop wakes, collects once, and
    takes no step (no screen is drawn again)."""
    held = running.hold_wire()
    litter(2 * gc.get_threshold()[0])
    drawn = len(running.stepped)

    held.released.set()
    running.until(1)
    running.writer.call(lambda: None)  # the wire drained again: nothing more is due
    running.stop()

    assert len(running.collections) == 1 and not running.collections[0].wire_held
    assert running.stepped[drawn:] == [(QuitRequested("test"),)]
    assert not any(isinstance(e, GarbageDue) for events in running.stepped for e in events)


def test_a_redraw_that_yielded_to_the_wake_up_is_finished_by_a_step(running):
    """A wake-up that came with a press (put as the loop took the edge) makes the press's
    redraw yield its other seats; the wake-up brings no step of its own, so the loop steps
    once more for them: no seat is left behind until the next deadline."""
    gate, inside = threading.Event(), threading.Event()
    step = running.step

    def gated(*events: object) -> None:
        if events:
            inside.set()
            assert gate.wait(HANG)
        step(*events)

    running.app.step = gated  # type: ignore[method-assign]
    taken = len(running.stepped)
    running.edge(SEATS[0], True)
    assert inside.wait(HANG)
    running.events.put(GarbageDue())  # as a wire would, between the loop's get and its step
    waits = running.events.waits  # the press's get counted; the loop is inside its step
    gate.set()
    running.until_waiting(waits + 2)  # took the wake-up, then (stepped or not) waits again
    running.writer.call(lambda: None)
    assert running.stepped[taken:] == [running.stepped[taken], ()]
    assert not running.app.behind


def test_nothing_is_collected_while_a_writer_has_queued_work(running):
    """Presses while a screen's bytes are on the wire leave their garbage for later: the
    loop, quiet between them, collects only once the wire is free."""
    held = running.hold_wire()
    running.garbage_per_step = 2 * gc.get_threshold()[0]
    for pressed in (True, False, True, False):
        waits = running.events.waits
        running.edge(1, pressed)
        running.until_waiting(waits + 1)  # stepped, looked at the garbage, waiting again
    assert running.collections == []

    held.released.set()
    running.until(1)
    assert not [c for c in running.collections if c.wire_held or c.stepping]


@pytest.mark.parametrize("enabled", [True, False])
def test_the_loop_leaves_automatic_collection_as_it_found_it(gc_as_found, enabled):
    """Off while the loop runs, and as it was once it stops, so a table run in-process
    (a test, a reload) leaves the collector as it found it."""
    (gc.enable if enabled else gc.disable)()
    during: list[bool] = []
    events: queue.Queue = queue.Queue()
    with HeadlessTable(SEATS, events.put) as headless:
        events.put(QuitRequested("test"))
        App(headless.hardware).run(events, on_ready=lambda: during.append(gc.isenabled()))

    assert during == [False]
    assert gc.isenabled() is enabled


def test_a_wire_wakes_the_loop_only_when_garbage_is_due_and_once_until_it_is_taken(gc_as_found):
    """A wire that drains with nothing due wakes nobody; with garbage due it wakes the loop
    once, however often it drains before the loop takes the wake-up, and again after."""
    writer = BusWriter("i2c-test")
    writer.attach()
    woken: list[object] = []

    def drain() -> None:
        writer.call(lambda: None)
        writer.call(lambda: None)  # the first call's drain has told the collector

    try:
        with Collector([writer], woken.append) as collector:
            gc.collect()
            drain()
            assert woken == []
            litter(2 * gc.get_threshold()[0])
            drain()
            drain()
            assert woken == [GarbageDue()]
            assert collector.took(woken[0])
            drain()
            assert woken == [GarbageDue(), GarbageDue()]
    finally:
        writer.release()
