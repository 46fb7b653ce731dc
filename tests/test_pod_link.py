"""The host's side of a pod link: button times, heartbeats, silence, and finding the pod."""

from __future__ import annotations

import logging
import os
import pty
import select
import threading
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial
from serial.tools.list_ports_common import ListPortInfo

from hardware.base import ButtonEdge, ButtonName
from hardware.pods.discovery import PodFinder, pod_paths
from hardware.pods.link import QUIET_LIMIT, PodSession
from hardware.pods.port import READ_TIMEOUT, PodHello, PodPort, open_serial
from hardware.pods.screen import PodScreen
from podproto import VERSION, wire
from tests.pod_sim.harness import HANG_GUARD, usb_port

HELLO = PodHello(wire.PROTOCOL_VERSION, 2, "ssd1306", wire.HAS_PEEK, VERSION)


class Pod:
    """Frames as a pod would number them."""

    def __init__(self) -> None:
        self.sequencer = wire.Sequencer()

    def frame(self, kind: int, payload: bytes = b"") -> tuple[int, int, bytes]:
        (frame,) = wire.Decoder().feed(self.sequencer.frame(kind, payload))
        return frame

    def press(self, index: int, pressed: bool, pod_ms: int) -> tuple[int, int, bytes]:
        return self.frame(wire.BUTTON, wire.button(index, pressed, pod_ms))

    def beat(self, pod_ms: int, levels: int = 0) -> tuple[int, int, bytes]:
        return self.frame(wire.POD_BEAT, wire.pod_beat(pod_ms, 0, levels))


@pytest.fixture
def session() -> Iterator[tuple[PodSession, list[object]]]:
    events: list[object] = []
    port = PodPort(serial.serial_for_url("loop://", timeout=0.05), "loop://")
    yield PodSession(2, port, HELLO, events.append, PodScreen(), now=100.0), events
    port.close()


def edges(events: list[object]) -> list[tuple[ButtonName, bool, float]]:
    return [(e.button, e.pressed, round(e.at, 3)) for e in events if isinstance(e, ButtonEdge)]


def test_link_press_keeps_the_pods_timing(session) -> None:
    """A hold lasts as long as the finger held it, however late each edge crossed the USB."""
    link, events = session
    pod = Pod()
    link.receive([pod.beat(1000)], now=100.0)
    link.receive([pod.press(1, True, 1100)], now=100.4)  # 0.3 s late
    link.receive([pod.press(1, False, 1600)], now=100.62)  # 0.02 s late
    assert edges(events) == [(ButtonName.PEEK, True, 100.1), (ButtonName.PEEK, False, 100.6)]


def test_link_duplicate_frame_is_one_press(session) -> None:
    """A frame that arrives twice presses once."""
    link, events = session
    press = Pod().press(0, True, 10)
    link.receive([press, press], now=100.0)
    assert len(edges(events)) == 1


def test_link_lost_release_is_repaired_by_the_next_beat(session) -> None:
    """If a release frame is lost, the pod's next heartbeat (buttons up) releases the button."""
    link, events = session
    pod = Pod()
    link.receive([pod.press(1, True, 10)], now=100.0)
    pod.press(1, False, 200)  # numbered, never delivered
    link.receive([pod.beat(300, levels=0)], now=100.3)
    assert edges(events)[-1] == (ButtonName.PEEK, False, 100.3)


def test_link_quiet_pod_is_dropped_and_its_peek_released(session) -> None:
    """Silence past QUIET_LIMIT ends the session, and a held PEEK is released with it."""
    link, events = session
    link.receive([Pod().press(1, True, 10)], now=100.0)
    assert link.tick(100.0 + QUIET_LIMIT - 0.01)
    assert not link.tick(100.0 + QUIET_LIMIT + 0.01)
    link.end(100.7)
    assert edges(events)[-1] == (ButtonName.PEEK, False, 100.7)
    assert QUIET_LIMIT + READ_TIMEOUT < 1.0  # + one read: offline within the promised second


def test_link_beats_the_pod(session) -> None:
    """The host beats every BEAT_EVERY, so the pod knows the table is alive."""
    link, _ = session
    link.tick(100.0)
    link.tick(100.1)
    link.tick(100.3)
    kinds = [kind for _, kind, _ in link.port.receive()]
    assert kinds == [wire.HOST_BEAT, wire.HOST_BEAT]


class FakePod(threading.Thread):
    """Answers WHO with a HELLO on a pty, like a pod of any protocol version."""

    def __init__(self, master: int, hello: bytes) -> None:
        super().__init__(daemon=True)
        self.master, self.hello = master, hello
        self.received: list[int] = []
        self.stop = threading.Event()
        self._arrived = threading.Condition()

    def wait_for(self, kind: int) -> bool:
        """Wait until a frame of ``kind`` has arrived (the host writes before we read)."""
        with self._arrived:
            return self._arrived.wait_for(lambda: kind in self.received, HANG_GUARD)

    def run(self) -> None:
        decoder, sequencer = wire.Decoder(), wire.Sequencer()
        while not self.stop.is_set():
            if not select.select([self.master], [], [], 0.05)[0]:
                continue
            for _seq, kind, _payload in decoder.feed(os.read(self.master, 4096)):
                with self._arrived:
                    self.received.append(kind)
                    self._arrived.notify_all()
                if kind == wire.WHO:
                    os.write(self.master, sequencer.frame(wire.HELLO, self.hello))


def listing(*links: Path) -> Callable[[], list[ListPortInfo]]:
    """pyserial's ``list_ports`` on a machine with pods at ``links``."""
    return lambda: [usb_port(str(link)) for link in links]


@pytest.fixture
def pty_pod(tmp_path: Path):
    """One pod's port (a symlink to a pty); the test says what the pod answers."""
    master, slave = pty.openpty()
    tty.setraw(slave)
    (tmp_path / "usb-pod").symlink_to(os.ttyname(slave))
    pods: list[FakePod] = []

    def start(hello: bytes) -> FakePod:
        pods.append(FakePod(master, hello))
        pods[-1].start()
        return pods[-1]

    yield tmp_path / "usb-pod", start
    for pod in pods:
        pod.stop.set()
        pod.join()
    os.close(master)
    os.close(slave)


def test_link_auto_seat_finds_its_pod_by_hello(pty_pod) -> None:
    """An auto seat gets the pod whose HELLO names it."""
    link, start = pty_pod
    start(wire.hello(2, "sh1106", 0, VERSION))
    finder = PodFinder({2: "auto", 3: "auto"}, list_ports=listing(link))
    found = finder.find(2)
    assert found is not None and found[1].display == "sh1106"
    finder.release(found[0])


def test_link_other_seats_pod_waits_for_that_seat(pty_pod) -> None:
    """A pod found while seat 3 searched is handed to seat 2 when seat 2 asks."""
    link, start = pty_pod
    start(wire.hello(2, "ssd1306", 0, VERSION))
    finder = PodFinder({2: "auto", 3: "auto"}, list_ports=listing(link))
    assert finder.find(3) is None
    found = finder.find(2)
    assert found is not None and found[1].seat == 2
    finder.close()
    finder.release(found[0])


def test_link_wrong_protocol_is_refused_clearly(pty_pod, caplog) -> None:
    """A pod with other firmware is refused with what to do, and told so on its screen."""
    link, start = pty_pod
    pod = start(bytes((wire.PROTOCOL_VERSION + 1, 2, 1, 0)) + b"9.9.9")
    finder = PodFinder({2: "auto"}, list_ports=listing(link))
    with caplog.at_level(logging.ERROR):
        assert finder.find(2) is None
    ours = wire.PROTOCOL_VERSION
    assert f"speaks pod protocol {ours + 1}, newer than this companion's protocol {ours}" \
        in caplog.text
    assert "firmware/README.md" in caplog.text
    assert pod.wait_for(wire.REJECT)


def test_link_configured_port_with_other_seat_is_refused(pty_pod, caplog) -> None:
    """A port named in table.toml whose pod says another seat is a clear error, not a swap."""
    link, start = pty_pod
    start(wire.hello(5, "ssd1306", 0, VERSION))
    finder = PodFinder({2: str(link)}, list_ports=listing(link))
    with caplog.at_level(logging.ERROR):
        assert finder.find(2) is None
    assert "says it is seat 5, table.toml puts it at seat 2" in caplog.text


GPS = (0x1546, 0x01A7)  # a u-blox receiver: a WHO frame is junk to it
ARDUINO = (0x2341, 0x0043)  # an Uno: merely opening its port resets it


def test_link_auto_seat_opens_only_ports_with_a_pods_usb_id(pty_pod) -> None:
    """A GPS, an Arduino and the Pi's own UART never see a byte: only the pod's port opens."""
    link, start = pty_pod
    start(wire.hello(2, "ssd1306", 0, VERSION))
    others = [usb_port("/dev/ttyACM1", GPS), usb_port("/dev/ttyACM2", ARDUINO),
              ListPortInfo("/dev/ttyAMA0", skip_link_detection=True)]
    opened: list[str] = []

    def opener(path: str) -> serial.SerialBase:
        opened.append(path)
        return open_serial(path)

    finder = PodFinder({2: "auto"}, list_ports=lambda: [*others, usb_port(str(link))],
                       opener=opener)
    found = finder.find(2)
    assert found is not None and found[1].seat == 2
    assert opened == [str(link)]
    finder.release(found[0])


def test_link_pod_goes_by_its_udev_name(pty_pod, tmp_path: Path) -> None:
    """A pod udev named /dev/table-pod-<serial> is opened (and logged) under that name."""
    link, start = pty_pod
    start(wire.hello(2, "ssd1306", 0, VERSION))
    device = os.path.realpath(link)
    named = tmp_path / "table-pod-e6614c311b7e6f35"
    named.symlink_to(device)
    finder = PodFinder({2: "auto"}, list_ports=lambda: [usb_port(device)],
                       udev_names=str(tmp_path / "table-pod-*"))
    found = finder.find(2)
    assert found is not None and found[0].path == str(named)
    finder.release(found[0])


def test_link_pod_paths_one_name_per_pod() -> None:
    """Each pod once, under its udev name where it has one; other USB devices not at all."""
    ports = [usb_port("/dev/ttyACM0"), usb_port("/dev/ttyACM1"), usb_port("/dev/ttyUSB0", GPS)]
    assert pod_paths(ports) == ["/dev/ttyACM0", "/dev/ttyACM1"]


def test_link_pod_of_another_version_is_accepted_with_a_warning(pty_pod, caplog) -> None:
    """Same protocol, older firmware: the seat plays, and the log says to reflash."""
    link, start = pty_pod
    start(wire.hello(2, "ssd1306", 0, "0.0.9"))
    finder = PodFinder({2: "auto"}, list_ports=listing(link))
    with caplog.at_level(logging.WARNING):
        found = finder.find(2)
    assert found is not None
    assert f"runs firmware 0.0.9, this companion is {VERSION}" in caplog.text
    finder.release(found[0])


def test_link_pod_replugged_on_the_same_tty_is_found_again(pty_pod) -> None:
    """udev removes a pod's name as the cable comes out, often before its seat lets go of the
    port; the pod plugged back in on the same tty is still found."""
    link, start = pty_pod
    start(wire.hello(2, "ssd1306", 0, VERSION))
    device = os.path.realpath(link)
    finder = PodFinder({2: "auto"}, list_ports=listing(link))
    found = finder.find(2)
    assert found is not None
    link.unlink()  # unplugged: the name goes first
    finder.release(found[0])
    link.symlink_to(device)  # plugged back in, on the same tty
    again = finder.find(2)
    assert again is not None and again[1].seat == 2
    finder.release(again[0])
