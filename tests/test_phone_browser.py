"""Phone seats in a real browser: headless Chromium plays whole games on phone seats.

Each phone is its own Chromium (its own device); the table is the real app on a fake clock,
the real web server on 127.0.0.1, and every wait ends on an event: an edge reaching the
app's queue, or the page's state (fed by real, sealed frames) turning what it should.
"""

from __future__ import annotations

import queue
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from companion.app import App
from companion.clock import FakeClock
from companion.scripts import ScriptRunner, parse
from hardware.base import ButtonEdge, SeatLink, TableHardware
from hardware.headless import HeadlessTable
from hardware.tunes import tones
from hardware.web.seat import WebScreen
from hardware.web.server import PhoneServer
from hardware.web.table import phone_seats

from .phones import WAIT, Phone, digest, needs_chromium

pytestmark = needs_chromium
SCRIPTS = Path(__file__).parent / "scripts"


class PhoneTable:
    """An app whose seats are all phones, driven by a table script's runner."""

    def __init__(self, seats: int, key: bytes) -> None:
        self.events: queue.Queue[object] = queue.Queue()
        self.clock = FakeClock()
        self.seats = phone_seats(range(1, seats + 1), self.events.put, port=0,
                                 listen="127.0.0.1", public_host="127.0.0.1", clock=self.clock)
        self.hardware = TableHardware(seats=self.seats)
        self.app = App(self.hardware, clock=self.clock, key_source=lambda n: key)
        self.app.start()
        self.phones: dict[int, Phone] = {}

    def seat_phones(self, numbers: range) -> None:
        """A phone opens each seat's link; each is playing once its seat is up at the table."""
        with ThreadPoolExecutor(len(numbers)) as pool:
            phones = list(pool.map(lambda _: Phone(), numbers))
        for number, phone in zip(numbers, phones, strict=True):
            self.phones[number] = phone
            phone.open(self.link(number), self.clock.now)
        for number in numbers:
            self.phones[number].wait_for("state", "playing")
        self.pump(until=lambda: all(self.app.links.is_up(n) for n in numbers))

    def link(self, number: int) -> str:
        link = self.seats[number].phone_link
        assert link is not None
        return link

    def drive(self, seat: int, button, pressed: bool) -> None:
        self.phones[seat].drive(button.value, pressed, self.clock.now)

    def pump(self, until=None) -> None:
        """Wait for the phone's edge (or what ``until`` names) and hand it to the app."""
        while True:
            self.app.step(self.events.get(timeout=WAIT))
            if until is None or until():
                return

    def shows(self, seat: int) -> None:
        """The phone shows exactly the frame the app last drew on the seat."""
        screen = self.seats[seat].screen
        assert isinstance(screen, WebScreen)
        self.phones[seat].wait_for("digest", digest(screen.rows, screen.lit))

    def close(self) -> None:
        for phone in self.phones.values():
            phone.close()
        self.app.close()
        self.hardware.close()


WIN = parse((SCRIPTS / "staying_alive_win.table").read_text())


@pytest.fixture(scope="module")
def stranger():
    """Another device: a profile of its own, so a device id of its own."""
    phone = Phone()
    yield phone
    phone.close()


@pytest.fixture(scope="module")
def three_phones():
    """One table of three phones for the module (each Chromium takes a second to start):
    the whole game first, then the tests that need only seated phones."""
    table = PhoneTable(3, bytes.fromhex(WIN[0]["key"].args[0]))
    try:
        table.seat_phones(range(1, 4))
        yield table
    finally:
        table.close()


def test_staying_alive_is_played_to_its_end_on_three_phones(three_phones):
    """The whole win script (join, start, cut, turns, the Lookout's flips, the escapes) on
    three phones, then a PEEK held on a phone shows its sealed face there, and letting go
    brings the public face back."""
    table = three_phones
    runner = ScriptRunner(table.app, table.clock, table.drive, table.pump)
    runner.run(WIN[1])
    assert table.app.session.state.is_terminal()
    for seat in (1, 2, 3):
        table.shows(seat)
    public_face = table.seats[2].screen.rows
    runner.run(parse("hold 2 peek")[1])
    assert table.app.ui[2].peeking
    table.shows(2)
    assert table.seats[2].screen.rows != public_face
    runner.run(parse("release 2 peek\nwait 100ms")[1])
    assert not table.app.ui[2].peeking
    table.shows(2)


def test_a_tune_the_table_plays_is_played_on_every_phone(three_phones):
    """Each phone (pressed during the game, so the browser lets it sound) plays the tune's
    notes as a pod's piezo would, at once with the table's buzzer."""
    table = three_phones
    played = {seat: int(phone.state("tunes") or 0) for seat, phone in table.phones.items()}
    table.app.effects.buzz("alarm", table.clock.now)
    notes = " ".join(f"{hz}:{ms}" for hz, ms in tones("alarm"))
    for seat, phone in table.phones.items():
        phone.wait_for("tunes", str(played[seat] + 1))
        assert phone.state("tune") == notes


def test_a_second_device_on_a_taken_link_gets_a_clear_page_and_no_frame(three_phones, stranger):
    table = three_phones
    stranger.open(table.link(1), table.clock.now)
    stranger.wait_for("state", "refused")
    assert stranger.text("refused-title") == "This seat is taken"
    assert stranger.state("frame") is None
    assert table.app.links.is_up(1)  # the seat stays with its phone


def test_a_device_with_no_key_in_its_address_gets_no_frame(three_phones, stranger):
    table = three_phones
    stranger.open(table.link(2).split("#")[0], table.clock.now)
    stranger.wait_for("state", "refused")
    assert stranger.text("refused-title") == "No seat in this link"
    assert stranger.state("frame") is None


def test_a_phone_whose_network_comes_back_before_its_retry_stays_seated(three_phones):
    """The network comes back while the page waits to retry: it connects at once, and the
    retry, when its time comes, opens no second socket (which would seat the phone again,
    the table closing the first: the page would say the seat was opened elsewhere)."""
    table = three_phones
    phone = table.phones[3]
    driver = phone.driver
    driver.execute_script("""
        window.retries = [];
        window.realTimers = [window.setTimeout, window.WebSocket];
        window.setTimeout = (callback) => window.retries.push(callback);  // held, not timed
        window.sockets = 0;
        const Socket = window.WebSocket;
        window.WebSocket = function (...args) { window.sockets += 1; return new Socket(...args); };
        window.WebSocket.OPEN = Socket.OPEN;
    """)
    try:
        server = table.seats[3].inputs[0]
        seat = server.seats[3]
        server._loop.call_soon_threadsafe(seat.connection.close, 1001, "gone")
        table.pump(until=lambda: not table.app.links.is_up(3))
        phone.wait_for("state", "offline")
        assert driver.execute_script("return window.retries.length") == 1
        driver.execute_script("window.dispatchEvent(new Event('online'))")
        phone.wait_for("state", "playing")
        table.pump(until=lambda: table.app.links.is_up(3))
        driver.execute_script("for (const retry of window.retries.splice(0)) retry();")
        assert driver.execute_script("return window.sockets") == 1
        assert phone.state("state") == "playing"
        assert table.app.links.is_up(3)
    finally:
        driver.execute_script("[window.setTimeout, window.WebSocket] = window.realTimers;")


def test_a_phone_that_loses_the_network_keeps_its_seat_and_every_press(three_phones):
    """Offline on the table while away; a press made meanwhile arrives once it is back,
    exactly once, and the phone is seated again on the same seat."""
    table = three_phones
    phone = table.phones[1]
    phone.driver.execute_cdp_cmd("Network.enable", {})
    phone.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    server = table.seats[1].inputs[0]
    seat = server.seats[1]  # the Wi-Fi drops the socket (the server's end of it)
    server._loop.call_soon_threadsafe(seat.connection.close, 1001, "gone")
    table.pump(until=lambda: not table.app.links.is_up(1))
    phone.wait_for("state", "offline")
    phone.drive("act", True, table.clock.now)
    phone.drive("act", False, table.clock.now)
    phone.wait_for("unacked", "2")
    assert table.events.empty()  # nothing reaches the table while the phone is away
    phone.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    phone.wait_for("unacked", "0")
    phone.wait_for("state", "playing")
    arrived = [table.events.get(timeout=WAIT) for _ in range(3)]
    assert arrived[0] == SeatLink(1, up=True)
    assert [(e.seat, e.pressed) for e in arrived[1:] if isinstance(e, ButtonEdge)] == [
        (1, True), (1, False)]
    assert table.events.empty()
    for event in arrived:
        table.app.step(event)
    assert table.app.links.is_up(1)
    table.shows(1)


def test_a_link_from_before_a_restart_gets_a_clear_page_not_the_seat(stranger):
    """Keys are made anew at every start and reload: the page of an old link, reconnecting
    to the new table on the same port, says its link is old and shows no frame."""
    events: queue.SimpleQueue[object] = queue.SimpleQueue()
    before = PhoneServer([1], events.put, host="127.0.0.1", public_host="127.0.0.1").start()
    old_link = before.link(1)
    stranger.open(old_link, 0.0)
    stranger.wait_for("state", "playing")
    before.close()
    after = PhoneServer([1], events.put, host="127.0.0.1", port=before.port,
                        public_host="127.0.0.1").start()
    try:
        assert after.link(1) != old_link
        stranger.wait_for("state", "refused")
        assert stranger.text("refused-title") == "This link is old"
        assert after.seats[1].connection is None
    finally:
        after.close()


SILENT_CHECK = parse((SCRIPTS / "they_live_silent_check.table").read_text())


def test_they_live_through_the_invader_check_on_two_wired_seats_and_two_phones():
    """Seats 1 and 4 on mock pins and real luma drivers, seats 2 and 3 on phones in Chromium:
    the silent Invader check, PEEK held on every seat at once; the Invader's phone (seat 2)
    shows the face naming the other Invader, the Human's phone (3) its own."""
    events: queue.Queue[object] = queue.Queue()
    clock = FakeClock()
    wired = HeadlessTable([1, 4], events.put, clock=clock)
    phones = phone_seats([2, 3], events.put, port=0, listen="127.0.0.1", clock=clock)
    hardware = TableHardware(seats=dict(sorted({**wired.hardware.seats, **phones}.items())),
                             buzzer=wired.hardware.buzzer)
    app = App(hardware, clock=clock, key_source=lambda n: bytes.fromhex(
        SILENT_CHECK[0]["key"].args[0]))
    app.start()
    devices: dict[int, Phone] = {}
    try:
        for number in (2, 3):
            devices[number] = Phone()
            devices[number].open(phones[number].phone_link or "", clock.now)
            devices[number].wait_for("state", "playing")
        up: set[int] = set()
        while up != {2, 3}:  # each phone's seat down at the start, then up
            event = events.get(timeout=WAIT)
            if isinstance(event, SeatLink) and event.up:
                up.add(event.seat)
            app.step(event)

        def drive(seat: int, button, pressed: bool) -> None:
            if seat in devices:
                devices[seat].drive(button.value, pressed, clock.now)
            else:
                wired.drive(seat, button, pressed)

        def pump() -> None:
            app.step(events.get(timeout=WAIT))

        def shows(seat: int) -> None:
            screen = hardware.seats[seat].screen
            assert isinstance(screen, WebScreen)
            devices[seat].wait_for("digest", digest(screen.rows, screen.lit))

        commands = SILENT_CHECK[1]
        runner = ScriptRunner(app, clock, drive, pump)
        check_at = next(i for i, c in enumerate(commands) if c.args == ("all", "INVADER CHECK"))
        runner.run(commands[:check_at + 1])
        for seat in (2, 3):
            shows(seat)  # the phones show the faces the script just read
        assert hardware.seats[2].screen.rows != hardware.seats[3].screen.rows
        runner.run(commands[check_at + 1:])
        assert app.session.state is not None and not app.session.state.is_terminal()
        for seat in (2, 3):
            shows(seat)
    finally:
        for device in devices.values():
            device.close()
        app.close()
        hardware.close()
        wired.factory.reset()
