"""Every shipped example table.toml plays every game to its end.

Each example is built as ``companion play --table`` builds it: buttons, motors and buzzer on
gpiozero mock pins, luma's display drivers on recording I2C buses (through the userspace mux
where the example has one), the real pod firmware under MicroPython for pod seats, and the
public screen (pygame) where the example says to play it with one. Seats join, pick each game
and start it in the lobby, then take random legal actions from their bars, with fake time
passing, until the game ends by its rules; then *New game* goes back to the lobby. Games are
driven only through the app and the registry.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from serial.tools.list_ports_common import ListPortInfo

from companion.app import App
from companion.cli import main
from companion.clock import FakeClock
from companion.cut import CUT
from companion.game_mode import SETTLE
from companion.render import render
from companion.shipped import example_tables
from engine import registry
from engine.rng import SeededRandom
from hardware.base import SeatLink
from hardware.build import build_table
from hardware.config import TableConfig, load_config
from hardware.drivers.bus import RecordingBus
from hardware.drivers.planner import page_bytes
from hardware.pods.link import PodLink
from tests.pod_sim.harness import HANG_GUARD, SimPod

EXAMPLES = example_tables()
PUBLIC_SCREEN = {"living-room"}  # the examples whose header says to play them --public-screen
MAX_STEPS = 5000
POD_TIMEOUT = 10.0  # MicroPython's start on a loaded machine
POD_TRIES = 3


def test_every_example_passes_check_config(capsys: pytest.CaptureFixture[str]) -> None:
    """`companion check-config` accepts every shipped example."""
    for name, example in EXAMPLES.items():
        assert main(["check-config", str(example)]) == 0, name
        assert ": ok" in capsys.readouterr().out


def test_examples_cover_every_kind_of_table() -> None:
    """Motors, a buzzer, the kernel and the userspace mux, pods and a one-button seat all
    appear in some example, and the examples that need the public screen say so."""
    configs = [load_config(str(example)) for example in EXAMPLES.values()]
    seats = [seat for config in configs for seat in config.seats]
    assert any(seat.vibrate is not None for seat in seats)
    assert any(seat.pod is not None for seat in seats)
    assert any(seat.mux is not None for seat in seats)
    assert any(seat.bus is not None and seat.bus > 1 for seat in seats)
    assert any(seat.pod is None and seat.peek is None for seat in seats)
    assert {config.buzzer.tonal for config in configs if config.buzzer} == {True, False}
    for name, example in EXAMPLES.items():
        assert ("--public-screen" in example.read_text()) == (name in PUBLIC_SCREEN), name


def test_example_table_command_prints_each_example(capsys: pytest.CaptureFixture[str]) -> None:
    """`companion example-table NAME` prints the shipped file; without NAME it lists them."""
    assert main(["example-table"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == sorted(EXAMPLES)
    for name, example in EXAMPLES.items():
        assert main(["example-table", name]) == 0
        assert capsys.readouterr().out == example.read_text()
    assert main(["example-table", "no-such-table"]) == 2
    assert "kitchen" in capsys.readouterr().err


class ExampleTable:
    """One example built on mock pins, recording buses, simulated pods and (maybe) the
    public screen, with an app on a fake clock."""

    def __init__(self, name: str, home: Path) -> None:
        self.config: TableConfig = load_config(str(EXAMPLES[name]))
        self.events: queue.Queue = queue.Queue()
        self.clock = FakeClock()
        self.factory = MockFactory(pin_class=MockPWMPin)
        self.buses: dict[int, RecordingBus] = {}
        self.pods = {seat.number: SimPod(home / f"pod{seat.number}", seat.number)
                     for seat in self.config.seats if seat.pod is not None}
        self.online: set[int] = set()
        self.hardware = build_table(self.config, self.events.put, pin_factory=self.factory,
                                    bus_factory=self._bus, pod_ports=self._ports)
        if name in PUBLIC_SCREEN:
            from hardware.window.public import PublicWindow

            self.hardware.public = PublicWindow(self.clock, fullscreen=False)
        self.app = App(self.hardware, clock=self.clock,
                       key_source=lambda size: bytes(range(size)))
        self.app.start()
        for pod in self.pods.values():
            pod.plug()
        self.wait_for_pods()

    def _bus(self, number: int) -> RecordingBus:
        return self.buses.setdefault(number, RecordingBus())

    def _ports(self) -> list[ListPortInfo]:
        """pyserial's ``list_ports`` on a Pi with this table's pods plugged in."""
        return [port for pod in self.pods.values() for port in pod.ports()]

    def wait_for_pods(self) -> None:
        """Until every pod is online: a loaded machine can make one miss its heartbeats."""
        while self.offline():
            try:  # each pod's coming online is an event: wait on those, not on a clock
                self.handle(self.events.get(timeout=HANG_GUARD))
            except queue.Empty:
                pytest.fail(f"pods of seats {sorted(self.offline())} stayed offline")

    def offline(self) -> set[int]:
        return set(self.pods) - self.online

    def handle(self, event: object) -> None:
        if isinstance(event, SeatLink):
            (self.online.add if event.up else self.online.discard)(event.seat)
        self.app.handle(event)

    def pump(self) -> None:
        while not self.events.empty():
            self.handle(self.events.get_nowait())

    def close(self) -> None:
        self.app.close()
        self.hardware.close()
        for pod in self.pods.values():
            pod.unplug()
        self.factory.reset()


@pytest.fixture
def example(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ExampleTable]:
    table = ExampleTable(request.param, tmp_path)
    try:
        yield table
    finally:
        table.close()


def lobby_start(table: ExampleTable, game_key: str, players: tuple[int, ...]) -> None:
    """The players join (the others leave), the first opens the menu, picks the game, starts;
    everyone cuts."""
    app, now = table.app, table.clock()
    assert app.session.state is None
    for seat in table.app.seat_numbers:
        offered = {action.id for action in app.actions(seat)}
        if seat in players and "join" in offered:
            app.choose(seat, "join", now)
        elif seat not in players and "leave" in offered:
            app.choose(seat, "leave", now)
    for action in ("menu", f"game:{game_key}", "start"):
        app.choose(players[0], action, now)
    for seat in players:  # every player cuts the deck: the seed comes from the cut too
        app.choose(seat, CUT, now)
    assert app.session.state is not None and app.session.state.seats == players


def back_to_the_lobby(table: ExampleTable, seat: int) -> None:
    """Once the outcome has been read (presses are ignored until then): New game, yes."""
    table.clock.advance(SETTLE)
    for action in ("sys:lobby", "sys:yes"):
        table.app.choose(seat, action, table.clock())
    assert table.app.session.state is None


def play_to_the_end(table: ExampleTable, player: SeededRandom) -> None:
    """Random seats take random actions from their bars; time passes 0-3 s a step."""
    app, clock = table.app, table.clock
    for _ in range(MAX_STEPS):
        table.pump()
        if table.offline():  # the game paused for a pod's dropped link: wait it back
            table.wait_for_pods()
        if app.session.state.is_terminal():
            return
        moves = [(seat, action.id) for seat in app.session.state.seats
                 for action in app.actions(seat) if not action.id.startswith("sys:")]
        if moves:
            seat, action = moves[player.below(len(moves))]
            app.choose(seat, action, clock())
        clock.advance(player.below(4))
        app.advance()
    raise AssertionError(f"{app.session.state!r}: no end in {MAX_STEPS} steps")


@pytest.mark.parametrize("example", sorted(EXAMPLES), indirect=True)
def test_examples_play_every_game_to_its_end(example: ExampleTable) -> None:
    """Every game, one after the other at this table, ends by its rules; every seat's display
    (its I2C bus, or its pod's screen) and the buzzer followed the game."""
    player = SeededRandom(b"random players at example tables")
    seats = example.app.seat_numbers
    for game in registry.all_games():
        players = seats[: min(len(seats), game.max_players)]
        assert len(players) >= game.min_players, game.key
        sent = {number: bus.bytes_sent for number, bus in example.buses.items()}
        lobby_start(example, game.key, players)
        play_to_the_end(example, player)
        assert example.app.session.state.result(), game.key
        assert all(bus.bytes_sent > sent[number] for number, bus in example.buses.items())
        assert_pods_show_their_seats(example)
        back_to_the_lobby(example, players[0])
    if example.config.buzzer is not None:
        assert example.hardware.buzzer.wait(timeout=5.0)
        buzzer = example.factory.pin(example.config.buzzer.pin)
        assert any(state.state for state in buzzer.states)
    if example.hardware.public is not None:
        assert example.hardware.public.capture().getbbox() is not None


def assert_pods_show_their_seats(table: ExampleTable) -> None:
    """Each pod shows its seat's face. A loaded machine can drop a pod's link for a moment
    (missed heartbeats): then it is waited for again, a few times."""
    for number, pod in table.pods.items():
        link = table.hardware.seats[number].inputs[0]
        assert isinstance(link, PodLink)
        for _ in range(POD_TRIES):
            table.wait_for_pods()
            table.app.redraw()
            if link.sync(POD_TIMEOUT):
                break
        else:
            pytest.fail(f"pod {number} never answered; its errors: {pod.errors()}")
        lit, ram = pod.screen()
        assert lit and ram == page_bytes(render(table.app.screens.faces[number])), number
