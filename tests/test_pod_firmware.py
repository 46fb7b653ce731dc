"""The real pod firmware under MicroPython's unix port, over a pty, against the real host code.

A table mixes a direct seat (seat 1: mock pins, luma over a recording bus) and a pod seat
(seat 2: the firmware in its own MicroPython process). The app, the link threads and the pod
all run for real; the tests wait on the event queue and on heartbeat echoes, never sleep and
never time anything: a loaded machine makes them slower, not wrong. How fast the table hears
of a pulled or hung pod is pinned down with explicit clocks in tests/test_pod_link.py; here
the log says which of the two it was.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import select
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from gpiozero.tones import Tone

from companion.app import App
from companion.render import render
from engine.api import Buzz
from engine.cues import Tune
from hardware.base import ButtonEdge, ButtonName, SeatLink
from hardware.build import build_table
from hardware.config import parse_config
from hardware.drivers.bus import RecordingBus
from hardware.drivers.planner import page_bytes
from hardware.pods.discovery import PodFinder
from hardware.pods.link import PodLink
from hardware.pods.port import PodPort, open_serial
from podproto import VERSION, wire
from tests.pod_sim.harness import (
    HANG_GUARD,
    MICROPYTHON,
    PIEZO,
    PINS,
    STAND_INS,
    SimPod,
    micropython_missing,
)

pytestmark = [
    pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning"),
    pytest.mark.skipif(micropython_missing() is not None,
                       reason=f"the pod firmware tests: {micropython_missing()}"),
]

TABLE = """\
[[seat]]
number = 1
act = 17
peek = 27
display = "ssd1306"
bus = 1

[[seat]]
number = 2
pod = "auto"
"""


class Table:
    """The app and its queue; ``until`` hands every event to the app until one matches."""

    def __init__(self, app: App, events: queue.Queue, pod: SimPod) -> None:
        self.app = app
        self.events = events
        self.pod = pod

    @property
    def link(self) -> PodLink:
        return self.app.hardware.seats[2].inputs[0]

    def until(self, wanted: Callable[[object], bool]) -> object:
        while True:
            try:
                event = self.events.get(timeout=HANG_GUARD)
            except queue.Empty:
                pytest.fail(f"the table hung: no event at all; pod stderr: {self.pod.errors()}")
            self.app.handle(event)
            if wanted(event):
                return event

    def online(self, online: bool = True) -> None:
        self.until(lambda e: isinstance(e, SeatLink) and e.seat == 2 and e.up == online)

    def pod_shows_its_face(self) -> bool:
        assert self.link.sync(HANG_GUARD), "the pod did not echo the heartbeat"
        lit, ram = self.pod.screen()
        return lit and ram == page_bytes(render(self.app.screens.faces[2]))


@contextlib.contextmanager
def pod_table(tmp_path: Path, mock_factory: MockFactory, **pod: object) -> Iterator[Table]:
    """A table whose seat 2 is a simulated pod (``pod``: its SimPod options), app started."""
    sim = SimPod(tmp_path, seat=2, **pod)
    events: queue.Queue = queue.Queue()
    hardware = build_table(parse_config(TABLE), events.put, pin_factory=mock_factory,
                           bus_factory=lambda number: RecordingBus(),
                           pod_ports=sim.ports)
    app = App(hardware)
    app.start()
    sim.plug()
    try:
        yield Table(app, events, sim)
    finally:
        hardware.close()
        sim.unplug()


@pytest.fixture
def table(tmp_path: Path, mock_factory: MockFactory) -> Iterator[Table]:
    with pod_table(tmp_path, mock_factory) as made:
        yield made


def test_pod_connects_and_shows_the_seat_screen(table: Table) -> None:
    """A plugged-in pod announces its seat and then shows exactly the face the app drew."""
    table.online()
    assert table.pod_shows_its_face()


def test_pod_press_joins_the_game(table: Table) -> None:
    """ACT pressed on the pod's button joins seat 2, and the pod's screen follows."""
    table.online()
    table.pod.press("act")
    table.until(lambda e: isinstance(e, ButtonEdge) and e.seat == 2 and e.pressed)
    table.pod.press("act", False)
    edge = table.until(lambda e: isinstance(e, ButtonEdge) and e.seat == 2 and not e.pressed)
    assert edge.button is ButtonName.ACT
    assert 2 in table.app.session.lobby.joined
    assert table.pod_shows_its_face()


def test_pod_unplug_marks_the_seat_offline_at_once(table: Table, caplog) -> None:
    """Pulling the pod's cable tells the other seats at the link's next read (at most
    READ_TIMEOUT): the port fails, no silence has to be waited out."""
    table.online()
    with caplog.at_level(logging.WARNING, logger="hardware.pods.link"):
        table.pod.unplug()
        table.online(False)
    assert " gone (" in caplog.text and "quiet for" not in caplog.text
    assert "! Seat 2 offline" in table.app.screens.faces[1].lines


def test_pod_replug_gets_the_whole_current_screen(table: Table) -> None:
    """After a replug the pod shows the app's current face (the join), not its boot screen."""
    table.online()
    table.pod.press("act")
    table.until(lambda e: isinstance(e, ButtonEdge) and e.seat == 2 and e.pressed)
    table.pod.unplug()
    table.online(False)
    table.pod.plug()
    table.online()
    assert 2 in table.app.session.lobby.joined
    assert table.pod_shows_its_face()
    assert not any("offline" in line for line in table.app.screens.faces[1].lines)


def test_pod_hung_firmware_goes_offline_and_comes_back(table: Table, caplog) -> None:
    """A pod that stops beating (frozen CPU, port still open) is dropped for its silence
    (QUIET_LIMIT: within 1 s), and is back with its screen when it runs again."""
    table.online()
    with caplog.at_level(logging.WARNING, logger="hardware.pods.link"):
        table.pod.freeze(True)
        table.online(False)
    assert "quiet for" in caplog.text
    assert "! Seat 2 offline" in table.app.screens.faces[1].lines
    table.pod.freeze(False)
    table.online()
    assert table.pod_shows_its_face()


def test_pod_vibrates_on_its_own_motor(table: Table) -> None:
    """A private cue reaches the pod's motor pin, on then off."""
    table.online()
    table.app.hardware.seats[2].vibrator.pulse("short")
    assert table.link.sync(HANG_GUARD)
    assert "16 1" in table.pod.outputs()


def test_pod_piezo_plays_the_tunes_at_the_seats_volume(tmp_path: Path,
                                                      mock_factory: MockFactory) -> None:
    """A pod with a piezo is offered "My volume"; a tune reaches its piezo pin as the tune's
    notes, at a narrower duty cycle once the seat turned its volume down."""
    with pod_table(tmp_path, mock_factory, piezo=True) as table:
        app, pod = table.app, table.pod
        table.online()
        app.choose(2, "join", app.clock())
        duties = []
        for label in ("My volume: high", "My volume: low"):
            before = len(pod.outputs())
            app.effects.play([Buzz(Tune.JOIN)], app.clock())
            app.effects.release()
            assert table.link.sync(HANG_GUARD)
            played = pod.outputs()[before:]
            assert f"{PIEZO} {round(Tone('E6').frequency)}" in played
            duties.append({line for line in played if "duty=" in line})
            app.choose(2, next(a for a in app.actions(2) if a.label == label), app.clock())
        assert duties == [{f"{PIEZO} duty=32768"}, {f"{PIEZO} duty=6553"}]


def test_pod_one_button_sh1106_hold_is_peek(tmp_path: Path, mock_factory: MockFactory) -> None:
    """A one-button pod on an SH1106: holding ACT arrives as PEEK, and the screen still fits."""
    with pod_table(tmp_path, mock_factory, display="sh1106", one_button=True) as table:
        table.online()
        assert table.pod_shows_its_face()
        table.pod.press("act")
        edge = table.until(lambda e: isinstance(e, ButtonEdge) and e.seat == 2)
        assert (edge.button, edge.pressed) == (ButtonName.PEEK, True)


def test_pod_other_protocol_is_refused_on_its_screen(tmp_path: Path, caplog) -> None:
    """Firmware of another protocol version is refused, and its own screen says to update."""
    pod = SimPod(tmp_path, seat=2, protocol=wire.PROTOCOL_VERSION + 1)
    pod.plug()
    finder = PodFinder({2: "auto"}, list_ports=pod.ports)
    try:
        with caplog.at_level(logging.ERROR):
            assert finder.find(2) is None
        assert "install the firmware of this companion on the pod" in caplog.text
        raw = open_serial(str(pod.link))
        port = PodPort(raw, str(pod.link))
        port.send(wire.HOST_BEAT, wire.host_beat(7))  # answered once all before is done
        while not any(kind == wire.POD_BEAT and wire.parse_pod_beat(p)[1] == 7
                      for _, kind, p in port.receive()):
            arrived = select.select([raw.fileno()], [], [], HANG_GUARD)[0]  # bytes: an event
            assert arrived, "the pod hung: it never echoed the heartbeat"
        port.close()
        lit, ram = pod.screen()
        assert lit and ram != bytes(len(ram))
    finally:
        pod.unplug()


def test_pod_hello_says_the_companions_version(table: Table) -> None:
    """Host and firmware share one version number: the pod says the companion's own."""
    table.online()
    session = table.link.session
    assert session is not None and session.hello.firmware == VERSION


# A stand-in for MicroPython's built-in ``micropython`` module that logs each kbd_intr call
# with the firmware modules loaded by then; sys.modules lets a test put it in place.
RECORD_KBD_INTR = """
import sys
FIRMWARE = ("machine", "settings", "buttons", "oled", "pod", "pulses", "usb_link", "podproto")
class Recorder:
    def kbd_intr(self, char):
        loaded = [name for name in FIRMWARE if name in sys.modules]
        print("kbd_intr", char, *loaded, file=sys.stderr)
sys.modules["micropython"] = Recorder()
import main
"""


def test_pod_ctrl_c_is_off_before_anything_else(tmp_path: Path) -> None:
    """main.py turns Ctrl-C off before it imports any firmware (a WHO may hold 0x03), and a
    pod whose ACT is held at power-up gives the REPL back (Ctrl-C on) instead of running."""
    pod = SimPod(tmp_path, seat=2)
    pins = tmp_path / "pins"
    pins.write_text(f"{PINS['act']} 0\n")  # ACT held while plugging in
    env = dict(os.environ, MICROPYPATH=f"{STAND_INS}:.frozen", POD_SIM_PINS=str(pins),
               POD_SIM_SCREEN=str(tmp_path / "screen.bin"))
    done = subprocess.run([str(MICROPYTHON), "-c", RECORD_KBD_INTR], cwd=pod.flash, env=env,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    first, last = done.stderr.splitlines()
    assert first == "kbd_intr -1"  # nothing of the firmware loaded yet
    assert last.split()[:2] == ["kbd_intr", "3"]
    assert "REPL" in done.stdout and "\x00" not in done.stdout  # not a frame sent
