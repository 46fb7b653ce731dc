"""The presser first on every shipped wiring, on emulated wires the test lets go transfer by
transfer: a turn change sends the presser's whole screen before another seat's byte of it,
and a press that lands while a background redraw is on the wire waits for one transfer."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from bench.bot import BENCH_KEY, label_of, next_move, open_game
from bench.realpath import KITCHEN_MUX, TABLES, table_toml
from companion.app import App
from companion.clock import FakeClock
from companion.scripts import ScriptRunner, parse
from hardware.base import ButtonName
from hardware.build import build_table
from hardware.config import TableConfig, parse_config
from hardware.drivers.bus import MUX_ADDRESSES, BusWriter, Transfer
from hardware.drivers.emulated_wire import Carried, EmulatedPi

HANG = 30.0  # seconds: only a hung writer takes this long


class HeldWire:
    """A gate that holds each transfer until the test lets it go (or opens the wire)."""

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._open = True
        self._credit = 0
        self.waiting = 0

    def __call__(self, transfer: Transfer, seconds: float) -> None:
        with self._ready:
            self.waiting += 1
            self._ready.notify_all()
            assert self._ready.wait_for(lambda: self._open or self._credit > 0, HANG)
            if not self._open:
                self._credit -= 1
            self.waiting -= 1
            self._ready.notify_all()

    def hold(self) -> None:
        with self._ready:
            self._open = False

    def open(self) -> None:
        with self._ready:
            self._open = True
            self._ready.notify_all()

    def until_waiting(self) -> None:
        """A transfer is on the wire, held."""
        with self._ready:
            assert self._ready.wait_for(lambda: self.waiting > 0, HANG)

    def let_one(self) -> None:
        with self._ready:
            self._credit += 1
            self._ready.notify_all()
            assert self._ready.wait_for(lambda: self._credit == 0 and self.waiting == 0, HANG)


@dataclass
class Table:
    config: TableConfig
    pi: EmulatedPi
    wire: HeldWire
    app: App
    runner: ScriptRunner
    factory: MockFactory
    events: queue.SimpleQueue
    clock: FakeClock

    def seat_of(self, carried: Carried) -> int | None:
        """Whose display a transfer went to (None: a mux's channel switch)."""
        transfer = carried.transfer
        if transfer.address in MUX_ADDRESSES and transfer.control is None:
            return None
        for seat in self.config.seats:
            if seat.mux is not None:
                if (seat.mux.bus, seat.mux.channel) == (carried.bus, carried.channel) \
                        and seat.address == transfer.address:
                    return seat.number
            elif seat.bus == carried.bus and seat.address == transfer.address:
                return seat.number
        raise AssertionError(f"no seat at {carried}")

    def writers(self) -> list[BusWriter]:
        found = {id(w): w for s in self.app.hardware.seats.values()
                 if isinstance(w := getattr(s.screen, "_writer", None), BusWriter)}
        return list(found.values())

    def drain(self) -> None:
        for writer in self.writers():
            writer.call(lambda: None)

    def pin(self, seat: int, button: ButtonName):
        config = next(s for s in self.config.seats if s.number == seat)
        return self.factory.pin(config.act if button is ButtonName.ACT else config.peek)

    def drive(self, seat: int, button: ButtonName, pressed: bool) -> None:
        pin = self.pin(seat, button)
        if pressed:
            pin.drive_low()
        else:
            pin.drive_high()

    def pump(self) -> None:
        while not self.events.empty():
            self.app.step(self.events.get_nowait())
        self.app.advance()

    def choose(self, seat: int, label: str) -> None:
        self.runner.run(parse(f'choose {seat} "{label}"')[1])
        self.drain()


@pytest.fixture(params=["kitchen", "living-room", "pods", "two-buses"])
def table(request, tmp_path) -> Iterator[Table]:
    if request.param == "two-buses":
        text = table_toml(8)
    else:
        text = (TABLES / f"{request.param}.toml").read_text()
    config = parse_config(text)
    wire = HeldWire()
    pi = EmulatedPi(tmp_path / "sys", KITCHEN_MUX if request.param == "kitchen" else {},
                    gate=wire)
    events: queue.SimpleQueue = queue.SimpleQueue()
    factory = MockFactory(pin_class=MockPWMPin)
    clock = FakeClock()
    hardware = build_table(config, events.put, pin_factory=factory, bus_factory=pi.open,
                           clock=clock, pod_ports=lambda: [], sysfs=pi.sysfs)
    app = App(hardware, clock=clock, key_source=lambda n: BENCH_KEY)
    made = Table(config, pi, wire, app, ScriptRunner(app, clock, lambda *a: None, lambda: None),
                 factory, events, clock)
    made.runner = ScriptRunner(app, clock, made.drive, made.pump)
    app.start()
    made.drain()
    yield made
    wire.open()
    hardware.close()
    factory.reset()


def wired(table: Table) -> list[int]:
    return [s.number for s in table.config.seats if s.wired]


def into_a_game(table: Table) -> None:
    """The bench's bot opens Staying Alive with every wired seat (up to 5) and plays until
    the hourglass runs."""
    open_game(table.choose, min(5, len(wired(table))))
    while not (glass := table.app.view(None).hourglass) or not glass.running:
        move = next_move(table.app)
        assert move is not None
        table.choose(move[0], label_of(table.app, *move))


def held_press(table: Table, seat: int, button: ButtonName) -> list[Carried]:
    """Press and release ``button`` with the wire held, then let it all go: what crossed."""
    before = len(table.pi.carried())
    table.wire.hold()
    table.drive(seat, button, True)
    table.pump()
    table.drive(seat, button, False)
    table.pump()
    table.wire.open()
    table.drain()
    return table.pi.carried()[before:]


def highlight(table: Table, seat: int, label: str) -> None:
    """Tap PEEK until ``label`` is the seat's highlighted offer."""
    for _ in range(20):
        current, _ = table.app.ui[seat].current(table.app.actions(seat))
        if current is not None and current.label == label:
            return
        table.runner.run(parse(f"tap {seat} peek")[1])
        table.drain()
    raise AssertionError(f"seat {seat} never offered {label!r}")


def wire_of_seats(table: Table) -> dict[int, int]:
    """Each seat's wire (its root bus), from what crossed the wires so far."""
    return {seat: root for root, wire in table.pi.wires.items() for carried in wire.carried
            if (seat := table.seat_of(carried)) is not None}


def on_wire(table: Table, carried: list[Carried], root: int) -> list[int | None]:
    mine = set(map(id, table.pi.wires[root].carried))
    return [table.seat_of(c) for c in carried if id(c) in mine]


def test_a_turn_change_sends_the_presser_whole_before_another_seat_s_byte(table):
    wires = wire_of_seats(table)
    if len(wired(table)) < 3:  # too few wired seats for a game: a join changes both screens
        presser, order = 1, held_press(table, 1, ButtonName.ACT)
        seats = on_wire(table, order, wires[presser])
    else:
        into_a_game(table)
        for _ in range(40):
            move = next_move(table.app)
            assert move is not None
            presser = move[0]
            highlight(table, presser, label_of(table.app, *move))
            order = held_press(table, presser, ButtonName.ACT)
            seats = on_wire(table, order, wires[presser])
            if presser in seats and len(set(seats) - {None}) > 2:
                break
        else:
            raise AssertionError("no move changed three screens on the presser's wire")
    others = [at for at, seat in enumerate(seats) if seat not in (presser, None)]
    assert others, "the press changed no other screen on its wire"
    assert max(at for at, seat in enumerate(seats) if seat == presser) < min(others), seats


@pytest.mark.parametrize("table", ["kitchen", "living-room", "two-buses"], indirect=True)
def test_a_press_during_a_background_redraw_waits_one_transfer(table):
    into_a_game(table)
    wires = wire_of_seats(table)
    presser = max(seat for seat, root in wires.items() if root == wires[1]
                  and not table.app.hardware.seats[seat].one_button)
    before = len(table.pi.wires[wires[1]].carried)
    table.wire.hold()
    table.clock.advance(1.0)  # the hourglass ticks: every seat redraws
    table.app.advance()
    table.wire.until_waiting()  # the tick's first transfer is on the wire
    table.drive(presser, ButtonName.PEEK, True)
    table.pump()
    table.clock.advance(0.06)  # past the debounce lockout, short of a hold
    table.drive(presser, ButtonName.PEEK, False)  # a tap: the highlight moves
    table.pump()
    table.wire.open()
    table.drain()
    carried = table.pi.wires[wires[1]].carried[before:]
    seats = [seat for c in carried if (seat := table.seat_of(c)) is not None]  # no switches
    assert seats[0] != presser, seats  # the tick's first transfer (with its switch) was out
    assert seats[1] == presser, seats  # and the presser's was next
