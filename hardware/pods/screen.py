"""A pod seat's screen, motor and piezo, as the companion sees them: changed regions over the link.

:class:`PodScreen` keeps the frame the app wants and the frame the pod is known to hold, and
sends the cheapest windows between them (hardware/drivers/oled.py's plan, costed for the link: 4
header bytes a window). A 1-second clock tick is a few dozen bytes, not 1 KiB. While no pod
is attached, drawing changes nothing on the link and never raises: the link reports the seat
offline, and when the pod is back the pod's RAM counts as unknown, so the app's redraw after
``SeatLink(up=True)`` sends the whole current screen.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from podproto import wire

from ..base import SCREEN_SIZE, Buzzer, SeatScreen, Vibrator
from ..drivers.planner import BLANK_FRAME, Addressing, page_bytes, plan
from ..tunes import level, tones, vibration

log = logging.getLogger(__name__)

WINDOW_HEADER = 4  # first page, last page, start column, end column

Send = Callable[[int, bytes], bool]  # (kind, payload) -> sent


@dataclass(frozen=True)
class _LinkCost(Addressing):
    """Windows priced in link bytes: the window header and its data."""

    def size_cost(self, size: int) -> int:
        return WINDOW_HEADER + size


LINK = _LinkCost("pod-link", address_bytes=WINDOW_HEADER, multi_page=True)


class PodScreen(SeatScreen):
    """Called from the app's thread; :meth:`forget` and :meth:`resend` from the link's."""

    def __init__(self) -> None:
        self._send: Send | None = None
        self._lock = threading.Lock()
        self._wanted: bytes | None = None
        self._known: bytes | None = None  # the pod's RAM as far as we know; None: unknown
        self._lit = False

    def attach(self, send: Send | None) -> None:
        """A pod came (``send`` reaches it) or went (None); its RAM is unknown either way."""
        with self._lock:
            self._send = send
            self._known, self._lit = None, False

    def show(self, image: Image.Image) -> None:
        frame = _frame(image)
        with self._lock:
            self._put(frame, 0 if self._lit else wire.ON_AFTER)

    def disclose(self, image: Image.Image) -> None:
        frame = _frame(image)
        with self._lock:
            self._put(frame, 0 if self._lit else wire.ON_AFTER, whole=True)

    def conceal(self, image: Image.Image) -> None:
        frame = _frame(image)
        with self._lock:
            self._put(frame, wire.OFF_FIRST | wire.ON_AFTER, whole=True)

    def blank(self) -> None:
        with self._lock:
            self._wanted = BLANK_FRAME
            if self._transmit(wire.screen(wire.OFF_FIRST | wire.CLEAR, [])):
                self._known, self._lit = BLANK_FRAME, False

    def resend(self) -> None:
        """The pod lost a frame (a sequence gap): send it the whole wanted screen again."""
        with self._lock:
            self._known = None
            if self._wanted is not None:
                self._put(self._wanted, wire.ON_AFTER if self._lit else 0)

    def _put(self, frame: bytes, flags: int, *, whole: bool = False) -> None:
        """Send what changed (``whole``: every byte, the same windows whatever the frame)."""
        self._wanted = frame
        windows = plan(None if whole else self._known, frame, LINK)
        if not windows and not flags:
            return
        parts = [(w.first_page, w.last_page, w.start, w.end, w.cut(frame)) for w in windows]
        if self._transmit(wire.screen(flags, parts)):
            self._known = frame
            self._lit = self._lit or bool(flags & wire.ON_AFTER)

    def _transmit(self, payload: bytes) -> bool:
        if self._send is None or not self._send(wire.SCREEN, payload):
            self._known, self._lit = None, False
            return False
        return True


class PodVibrator(Vibrator):
    """The pod's motor: a named pattern becomes ``(on_ms, off_ms)`` steps for the pod."""

    def __init__(self, send: Send) -> None:
        self._send = send

    def pulse(self, pattern: str) -> None:
        on_time, off_time, repeats = vibration(pattern)
        steps = [(round(on_time * 1000), round(off_time * 1000))] * repeats
        if not self._send(wire.VIBRATE, wire.steps(steps)):
            log.info("vibration %r not sent: the pod is not connected", pattern)


class PodBuzzer(Buzzer):
    """The pod's own piezo: a named tune becomes ``(hz, ms)`` steps, at the seat's volume."""

    def __init__(self, send: Send, has_piezo: Callable[[], bool]) -> None:
        self._send = send
        self._has_piezo = has_piezo

    def sounds(self) -> bool:
        return self._has_piezo()

    def play(self, tune_name: str, volume: float = 1.0) -> None:
        steps, loudness = list(tones(tune_name)), level(volume)
        if loudness and self.sounds() and not self._send(wire.BUZZ, wire.buzz(loudness, steps)):
            log.info("tune %r not sent: the pod is not connected", tune_name)


def _frame(image: Image.Image) -> bytes:
    if image.mode != "1" or image.size != SCREEN_SIZE:
        raise ValueError(f"a seat screen shows 128x64 mode-1 images, not {image!r}")
    return page_bytes(image)
