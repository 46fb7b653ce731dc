"""One phone seat: its screen, motor and sound for the app, its presses from the server.

The app's thread calls :class:`WebScreen`, :class:`WebVibrator` and :class:`WebBuzzer`; they
only post the frame, the pattern or the tune to the server's thread, where :class:`WebSeat`
lives and where every one of its fields is read and written, so it needs no lock. A seat is held
by one device at a time (the first whose hello opened with the seat's key); the same device
coming back after a sleep gets the same seat, and another device gets a clear refusal. While the
seat's device is not connected the seat is offline, as a pod's is when its cable is out: its
held buttons are released, and when it is back the app redraws it in full.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Protocol

from PIL import Image

from ..base import (
    SCREEN_SIZE,
    ButtonEdge,
    ButtonName,
    Buzzer,
    SeatLink,
    SeatScreen,
    Sink,
    Vibrator,
)
from ..remote_clock import RemoteClock
from ..tunes import level, tones, vibration
from . import wire
from .sealing import SeatKey

log = logging.getLogger(__name__)

BLANK_ROWS = bytes(wire.FRAME_BYTES)

Clock = Callable[[], float]
Post = Callable[..., object]  # runs a call on the server's thread (loop.call_soon_threadsafe)
Written = Callable[[], None]  # told once a frame has gone to the socket, or will not go

# The longest the app's thread waits for a presser's frame to leave (hardware/web/server.py
# waits SEND_WITHIN for a phone that does not read; the table must not).
HANDOVER_WITHIN = 0.02


class Connection(Protocol):
    """A phone's socket as the seat sees it (hardware/web/server.py's ``PhoneSocket``)."""

    def send(self, sealed: bytes) -> None: ...

    def send_frame(self, sealed: bytes, written: Written | None = None) -> None: ...

    def close(self, code: int, why: str) -> None: ...


REPLACED = 4000  # the same device opened the seat again (a reload): the old page stops
FREED = 4001  # a player at the table freed the seat: its link opens on another device now


class WebSeat:
    """A phone seat on the server's thread: who holds it, what it shows, what it pressed."""

    def __init__(self, number: int, sink: Sink, clock: Clock, key: SeatKey | None = None) -> None:
        self.number = number
        self.key = key or SeatKey(number)
        self._sink = sink
        self._clock = clock
        self.device: bytes | None = None  # the device that holds the seat
        self.connection: Connection | None = None
        self.last_press = 0  # the highest press number the table has
        self._held: set[ButtonName] = set()
        self._remote = RemoteClock()
        self._frame_number = 0
        self._rows, self._lit = BLANK_ROWS, False

    def join(self, hello: wire.Hello, connection: Connection) -> bool:
        """A device's hello opened with our key: seat it, unless another device holds the seat."""
        if self.device is not None and self.device != hello.device:
            return False
        self.device = hello.device
        if self.connection is not None:
            previous, self.connection = self.connection, None
            previous.close(REPLACED, "opened again")
            self._release_held()
        self.connection = connection
        self._remote = RemoteClock()  # a new page may have a new clock
        self._remote.observe(hello.ms, self._clock())
        connection.send(self.key.seal(wire.welcome(self.last_press, self.number)))
        self._send_frame()
        self._sink(SeatLink(self.number, up=True))
        return True

    def edge(self, connection: Connection, edge: wire.Edge) -> None:
        """A numbered edge: a number the table already has is acknowledged and dropped."""
        if connection is not self.connection:
            return
        if edge.number > self.last_press:
            self.last_press = edge.number
            at = self._remote.to_host(edge.ms, self._clock())
            self._set(edge.button, edge.pressed, at)
        connection.send(self.key.seal(wire.ack(edge.number)))

    def left(self, connection: Connection) -> None:
        """The socket closed: the seat is offline until its device is back."""
        if connection is not self.connection:
            return
        self.connection = None
        self._release_held()
        self._sink(SeatLink(self.number, up=False))

    def free(self) -> None:
        """A player at the table let go of this seat's device (a lost phone, the wrong
        person): the device's page stops, and the link seats the next device to open it."""
        self.device = None
        if self.connection is not None:
            previous, self.connection = self.connection, None
            previous.close(FREED, "freed at the table")
            self._release_held()
            self._sink(SeatLink(self.number, up=False))

    def put_frame(self, rows: bytes, lit: bool, written: Written | None = None) -> None:
        self._rows, self._lit = rows, lit
        self._send_frame(written)

    def vibrate(self, on_ms: int, off_ms: int, repeats: int) -> None:
        if self.connection is None:
            log.info("seat %d: vibration not sent: the phone is not connected", self.number)
            return
        self.connection.send(self.key.seal(wire.vibrate(on_ms, off_ms, repeats)))

    def play(self, message: bytes) -> None:
        """A tune: public, sent to every phone seat as the table's buzzer plays it."""
        if self.connection is not None:
            self.connection.send(self.key.seal(message))

    def _send_frame(self, written: Written | None = None) -> None:
        self._frame_number += 1
        if self.connection is not None:
            message = wire.frame(self._frame_number, self._rows, self._lit)
            self.connection.send_frame(self.key.seal(message), written)
        elif written is not None:
            written()

    def _release_held(self) -> None:
        """A peek must not outlive the phone's link."""
        now = self._clock()
        for button in sorted(self._held, key=lambda b: b.value):
            self._set(button, False, now)

    def _set(self, button: ButtonName, pressed: bool, at: float) -> None:
        if pressed == (button in self._held):
            return
        if pressed:
            self._held.add(button)
        else:
            self._held.discard(button)
        self._sink(ButtonEdge(self.number, button, pressed, at))


class WebScreen(SeatScreen):
    """A phone seat's screen: every frame goes whole (1 KiB, sealed), the same length whatever
    it shows. ``rows`` is the frame the app last drew, as the phone will show it.

    The frame that answers a press is handed over: the app's thread waits (HANDOVER_WITHIN at
    most) until the server's thread has written it. Posted and left, it waited for the GIL
    while the app drew every other seat (a switch interval, companion/loop.py, each time the
    server's thread asked for it): about half a millisecond of a press's two, four at the
    99th percentile."""

    def __init__(self, seat: WebSeat, post: Post) -> None:
        self._seat = seat
        self._post = post
        self.rows, self.lit = BLANK_ROWS, False
        self._awaited = False

    def awaited(self) -> None:
        self._awaited = True

    def show(self, image: Image.Image) -> None:
        rows = _rows(image)
        if rows != self.rows or not self.lit:
            self._put(rows, True)
        self._awaited = False

    def disclose(self, image: Image.Image) -> None:
        self._put(_rows(image), True)

    def conceal(self, image: Image.Image) -> None:
        self._put(_rows(image), True)

    def blank(self) -> None:
        self._put(BLANK_ROWS, False)

    def _put(self, rows: bytes, lit: bool) -> None:
        self.rows, self.lit = rows, lit
        if not self._awaited:
            self._post(self._seat.put_frame, rows, lit)
            return
        self._awaited = False
        written = threading.Event()
        self._post(self._seat.put_frame, rows, lit, written.set)
        written.wait(HANDOVER_WITHIN)


class WebVibrator(Vibrator):
    """The phone's own vibration (the Vibration API, where the phone has one)."""

    def __init__(self, seat: WebSeat, post: Post) -> None:
        self._seat = seat
        self._post = post

    def pulse(self, pattern: str) -> None:
        on_time, off_time, repeats = vibration(pattern)
        self._post(self._seat.vibrate, round(on_time * 1000), round(off_time * 1000), repeats)


class WebBuzzer(Buzzer):
    """The phone's own sound (WebAudio, once a press has let the page make sound): the seat's
    tunes at the seat's volume. A tune is public, played on every seat at once, so a phone
    hearing it tells no one anything a wired buzzer would not."""

    def __init__(self, seat: WebSeat, post: Post) -> None:
        self._seat = seat
        self._post = post

    def play(self, tune: str, volume: float = 1.0) -> None:
        steps, loudness = tones(tune), level(volume)
        if loudness:
            self._post(self._seat.play, wire.tune(loudness, steps))


def _rows(image: Image.Image) -> bytes:
    if image.mode != "1" or image.size != SCREEN_SIZE:
        raise ValueError(f"a seat screen shows 128x64 mode-1 images, not {image!r}")
    return image.tobytes()
