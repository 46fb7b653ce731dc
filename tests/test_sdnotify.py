"""sd_notify without a dependency: READY after the start, pings from the loop, none when hung."""

import queue
import socket
import threading
from pathlib import Path

import pytest

from companion.app import App
from companion.sdnotify import Notifier, socket_address, watchdog_interval
from hardware.base import ButtonName, QuitRequested
from hardware.headless import HeadlessTable

DISPLAYOFF = 0xAE
PING_EVERY = 0.05  # seconds: a WatchdogSec of 100 ms, so the test runs in a moment


@pytest.fixture
def notify_socket(tmp_path: Path):
    """A datagram socket standing in for systemd's; yields (socket, its $NOTIFY_SOCKET)."""
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(5)
        yield sock, str(path)


def test_sdnotify_sends_ready_status_and_stopping(notify_socket):
    """Each call is one datagram of KEY=value lines; STATUS stays on one line."""
    sock, address = notify_socket
    notifier = Notifier({"NOTIFY_SOCKET": address})
    assert notifier.ready("4 seats\nblank")
    assert sock.recv(4096) == b"READY=1\nSTATUS=4 seats blank"
    notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"


def test_sdnotify_abstract_socket():
    """A NOTIFY_SOCKET starting with @ names an abstract socket (a leading NUL byte)."""
    name = f"table-companion-test-{threading.get_ident()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).watchdog()
        assert sock.recv(4096) == b"WATCHDOG=1"


def test_sdnotify_outside_systemd_does_nothing():
    """Without a socket every call is a quiet no-op, so the app runs anywhere."""
    notifier = Notifier({})
    assert not notifier.enabled
    assert not notifier.ready() and not notifier.watchdog()
    assert socket_address("vsock:2:1234") is None


def test_sdnotify_unreachable_socket_is_not_fatal(tmp_path):
    """A socket that went away loses the message, never the table."""
    assert not Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")}).ready()


def test_sdnotify_a_socket_nobody_reads_never_blocks_the_table(tmp_path):
    """Once the unread queue is full a message is dropped (False), never waited on: a
    blocking send froze a companion in start-up when the reader had gone."""
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as unread:
        unread.bind(str(path))
        notifier = Notifier({"NOTIFY_SOCKET": str(path)})
        sent = [notifier.status(f"ping {n}") for n in range(5000)]
    assert sent[0] and not all(sent)


def test_sdnotify_watchdog_interval_is_half_watchdogsec():
    """Pings come twice per WatchdogSec, and only in the process the watchdog is meant for."""
    assert watchdog_interval({"WATCHDOG_USEC": "5000000"}, pid=7) == 2.5
    assert watchdog_interval({"WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "7"}, pid=7) == 2.5
    assert watchdog_interval({"WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "8"}, pid=7) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}, pid=7) is None
    assert watchdog_interval({}, pid=7) is None


class HangingScreen:
    """Wraps a seat's screen; while ``hang`` is set, drawing blocks until ``release``."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.hang = threading.Event()
        self.release = threading.Event()

    def __getattr__(self, name):
        return getattr(self.screen, name)

    def show(self, image) -> None:
        if self.hang.is_set():
            self.release.wait()
        self.screen.show(image)


def receive(sock) -> bytes:
    return sock.recv(4096)


def test_sdnotify_app_ready_after_blanking_then_pings_until_hung(notify_socket):
    """READY follows the blanked seats; the loop pings; a hung loop stops; freed, it pings."""
    sock, address = notify_socket
    events: queue.SimpleQueue = queue.SimpleQueue()
    notifier = Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": str(int(PING_EVERY * 2e6))})
    with HeadlessTable(range(1, 3), events.put) as table:
        hanging = HangingScreen(table.hardware.seats[1].screen)
        table.hardware.seats[1].screen = hanging
        app = App(table.hardware, notifier=notifier)
        loop = threading.Thread(target=app.run, args=(events,), daemon=True)
        loop.start()
        assert receive(sock).startswith(b"READY=1")
        for bus in table.buses.values():
            assert DISPLAYOFF in [b for t in bus.transfers if t.control == 0x00 for b in t.data]
        assert [receive(sock) for _ in range(3)] == [b"WATCHDOG=1"] * 3
        hanging.hang.set()
        table.drive(1, ButtonName.ACT, True)  # joining redraws seat 1: the loop hangs there
        sock.settimeout(PING_EVERY * 6)
        with pytest.raises(TimeoutError):
            for _ in range(3):  # a ping already on its way may still arrive; then silence
                receive(sock)
        hanging.hang.clear()
        hanging.release.set()
        sock.settimeout(5)
        assert receive(sock) == b"WATCHDOG=1"
        events.put(QuitRequested())
        loop.join(5)
        assert not loop.is_alive()
