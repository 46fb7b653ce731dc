"""The presser first on every shipped wiring, on emulated wires the test lets go transfer by
transfer: a turn change sends the presser's whole screen before another seat's byte of it,
and a press that lands while a background redraw is on the wire waits for one call of it, no
longer on the wire than one block of RAM bytes and its window's addressing."""

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
from hardware.drivers.oled import CONTROLLERS
from hardware.drivers.planner import I2C_BLOCK

HANG = 30.0  # seconds: only a hung writer takes this long
# One block of RAM bytes and the longest window addressing (the SSD1306's six command bytes),
# each message with its address and control byte.
LONGEST_BACKGROUND_CALL = 2 + I2C_BLOCK + 2 + max(c.address_bytes for c in CONTROLLERS.values())


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

    def seats_of(self, carried: Carried) -> frozenset[int]:
        """Whose displays a transfer reached (none: a mux's channel switch): every seat at its
        address on its bus, or on any mux channel connected then."""
        transfer = carried.transfer
        if transfer.address in MUX_ADDRESSES and transfer.control is None:
            return frozenset()
        reached = frozenset(
            seat.number for seat in self.config.seats if seat.address == transfer.address
            and (seat.mux is not None and seat.mux.bus == carried.bus
                 and seat.mux.channel in carried.channels
                 or seat.mux is None and seat.bus == carried.bus))
        assert reached, f"no seat at {carried}"
        return reached

    def writers(self) -> list[BusWriter]:
        return [w for w in self.app.hardware.wires() if isinstance(w, BusWriter)]

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
            for seat in table.seats_of(carried)}


def on_wire(table: Table, carried: list[Carried], root: int) -> list[frozenset[int]]:
    """The seats each transfer on wire ``root`` reached, in the order they crossed it."""
    mine = set(map(id, table.pi.wires[root].carried))
    return [table.seats_of(c) for c in carried if id(c) in mine]


def others_than(presser: int, reached: list[frozenset[int]]) -> list[int]:
    """Where the transfers went that reached other seats and not the presser's (a transfer
    shared with the presser's screen is part of it)."""
    return [at for at, seats in enumerate(reached) if seats and presser not in seats]


def test_a_turn_change_sends_the_presser_whole_before_another_seat_s_byte(table):
    wires = wire_of_seats(table)
    if len(wired(table)) < 3:  # too few wired seats for a game: a join changes both screens
        presser, order = 1, held_press(table, 1, ButtonName.ACT)
        reached = on_wire(table, order, wires[presser])
    else:
        into_a_game(table)
        for _ in range(40):
            move = next_move(table.app)
            assert move is not None
            presser = move[0]
            highlight(table, presser, label_of(table.app, *move))
            order = held_press(table, presser, ButtonName.ACT)
            reached = on_wire(table, order, wires[presser])
            changed = frozenset().union(*reached)
            if presser in changed and len(changed) > 2 and others_than(presser, reached):
                break
        else:
            raise AssertionError("no move changed three screens on the presser's wire")
    others = others_than(presser, reached)
    assert others, "the press changed no other screen on its wire"
    assert max(at for at, seats in enumerate(reached) if presser in seats) < min(others), reached


@pytest.mark.parametrize("table", ["kitchen", "living-room", "two-buses"], indirect=True)
def test_a_press_during_a_background_redraw_waits_one_block(table):
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
    shown = [c for c in carried if table.seats_of(c)]  # no switches
    first = next(at for at, c in enumerate(shown) if presser in table.seats_of(c))
    ahead = shown[:first]  # what the press waited for: the call the tick had on the wire
    assert ahead, "the tick's first call was not on the wire when the press landed"
    assert {c.call for c in ahead} == {ahead[0].call}, [c.transfer for c in ahead]
    assert sum(c.transfer.wire_bytes for c in ahead) <= LONGEST_BACKGROUND_CALL, ahead
