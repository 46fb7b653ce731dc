"""A pod seat's screen over the link: changed regions only, peeks concealed, reconnects whole."""

from __future__ import annotations

import pytest
from PIL import Image

from companion.composer import face_for
from companion.render import render
from engine.api import SeatView
from hardware.drivers.planner import FRAME_BYTES, page_bytes
from hardware.pods.screen import PodScreen, PodVibrator
from podproto import wire

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


class Pod:
    """Applies what the screen sends to a RAM image, as the firmware does, and counts bytes."""

    def __init__(self) -> None:
        self.ram = bytearray(FRAME_BYTES)
        self.lit = False
        self.sent: list[tuple[int, bytes]] = []
        self.connected = True

    def send(self, kind: int, payload: bytes) -> bool:
        if not self.connected:
            return False
        self.sent.append((kind, payload))
        flags, windows = wire.parse_screen(payload)
        if flags & wire.CLEAR:
            self.ram[:] = bytes(FRAME_BYTES)
        if flags & wire.OFF_FIRST:
            self.lit = False
        for first, last, start, end, data in windows:
            width = end - start
            for row, page in enumerate(range(first, last + 1)):
                self.ram[page * 128 + start : page * 128 + end] = data[row * width :][:width]
        self.lit = self.lit or bool(flags & wire.ON_AFTER)
        return True

    def wire_bytes(self) -> int:
        return sum(len(wire.encode(0, kind, payload)) for kind, payload in self.sent)


def clock(text: str) -> Image.Image:
    return render(face_for(SeatView(title="Staying Alive", big=text), "Flip"))


@pytest.fixture
def pod() -> Pod:
    return Pod()


@pytest.fixture
def screen(pod: Pod) -> PodScreen:
    screen = PodScreen()
    screen.attach(pod.send)
    return screen


def test_pod_screen_first_frame_is_whole_and_lit(screen: PodScreen, pod: Pod) -> None:
    """The first frame after connecting covers the whole screen and switches it on."""
    screen.show(clock("1:23"))
    assert pod.lit and bytes(pod.ram) == page_bytes(clock("1:23"))


def test_pod_screen_clock_tick_costs_a_fraction_of_a_frame(screen: PodScreen, pod: Pod) -> None:
    """A one-second tick of the big clock sends far less than a full frame over the link."""
    screen.show(clock("1:23"))
    full = pod.wire_bytes()
    pod.sent.clear()
    screen.show(clock("1:22"))
    assert bytes(pod.ram) == page_bytes(clock("1:22"))
    assert pod.wire_bytes() < 160 < full / 6


def test_pod_screen_unchanged_frame_sends_nothing(screen: PodScreen, pod: Pod) -> None:
    """Redrawing the same pixels costs no bytes at all."""
    screen.show(clock("1:23"))
    pod.sent.clear()
    screen.show(clock("1:23"))
    assert pod.sent == []


def test_pod_screen_conceal_turns_dark_before_writing(screen: PodScreen, pod: Pod) -> None:
    """Ending a peek: the pod is told to switch off first, then write, then switch on."""
    screen.show(clock("PEEK"))
    screen.conceal(clock("1:23"))
    flags, _ = wire.parse_screen(pod.sent[-1][1])
    assert flags == wire.OFF_FIRST | wire.ON_AFTER
    assert pod.lit and bytes(pod.ram) == page_bytes(clock("1:23"))


def test_pod_screen_blank_clears_and_darkens(screen: PodScreen, pod: Pod) -> None:
    """Blanking costs one tiny frame and leaves the display off and empty."""
    screen.show(clock("1:23"))
    screen.blank()
    assert not pod.lit and bytes(pod.ram) == bytes(FRAME_BYTES)
    assert len(pod.sent[-1][1]) == 2


def test_pod_screen_without_pod_never_raises(screen: PodScreen, pod: Pod) -> None:
    """While the pod is away drawing is silent (the link reports the seat offline instead)."""
    pod.connected = False
    screen.show(clock("1:23"))
    screen.conceal(clock("1:22"))
    screen.blank()


def test_pod_screen_reconnect_sends_the_whole_screen(screen: PodScreen, pod: Pod) -> None:
    """After a reconnect the next frame is whole, even where pixels did not change."""
    screen.show(clock("1:23"))
    fresh = Pod()
    screen.attach(fresh.send)
    screen.show(clock("1:22"))
    assert fresh.lit and bytes(fresh.ram) == page_bytes(clock("1:22"))


def test_pod_screen_resend_repairs_a_lost_window(screen: PodScreen, pod: Pod) -> None:
    """When the pod reports a gap, the whole wanted screen is sent again."""
    screen.show(clock("1:23"))
    pod.ram[500] ^= 0xFF  # what a lost window leaves behind
    screen.resend()
    assert bytes(pod.ram) == page_bytes(clock("1:23"))


def test_pod_vibrator_sends_the_pattern_steps() -> None:
    """A named pattern becomes on/off milliseconds for the pod's motor."""
    sent: list[tuple[int, bytes]] = []
    PodVibrator(lambda kind, payload: sent.append((kind, payload)) or True).pulse("double")
    assert sent == [(wire.VIBRATE, wire.steps([(120, 120), (120, 120)]))]
    with pytest.raises(ValueError, match="unknown vibration pattern"):
        PodVibrator(lambda kind, payload: True).pulse("buzz")


def test_pod_screen_private_faces_cross_the_link_alike() -> None:
    """Two different secrets shown and hidden again: link frames of the same kinds, flags
    and lengths (only the pixels differ), and the pod ends on the public face."""
    def frames(secret: str) -> list[tuple[int, int, int]]:
        pod = Pod()
        screen = PodScreen()
        screen.attach(pod.send)
        screen.show(clock("1:23"))
        before = len(pod.sent)
        screen.disclose(clock(secret))
        screen.disclose(clock(secret))
        screen.conceal(clock("1:23"))
        assert bytes(pod.ram) == page_bytes(clock("1:23")) and pod.lit
        return [(kind, payload[0], len(payload)) for kind, payload in pod.sent[before:]]

    assert frames("SPY") == frames("1")
