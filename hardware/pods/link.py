"""A pod seat's link: a thread that finds the pod, keeps it alive, and turns frames into events.

Heartbeats go both ways (the Pi every BEAT_EVERY, the pod every 0.2 s and in answer to each
of the Pi's). A pod that says nothing for QUIET_LIMIT, or whose port fails (unplugged), is
dropped: its held buttons are released, ``SeatLink(seat, up=False)`` goes to the sink
(well within 1 s of the last word), and the finder looks for it again. When it is back,
``SeatLink(seat, up=True)`` tells the app to redraw it in full.

Button edges carry the pod's own clock; :class:`~hardware.remote_clock.RemoteClock` maps it
onto the Pi's monotonic clock, so a hold lasts as long as the finger held it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from podproto import wire

from ..base import ButtonEdge, ButtonName, SeatLink, Sink
from ..remote_clock import RemoteClock
from .discovery import PodFinder
from .port import PodHello, PodPort
from .screen import PodBuzzer, PodScreen, PodVibrator

log = logging.getLogger(__name__)

BEAT_EVERY = 0.25
QUIET_LIMIT = 0.6  # three missed pod beats: offline (plus one READ_TIMEOUT: still < 1 s)
RETRY_EVERY = 0.5

BUTTON_NAMES = (ButtonName.ACT, ButtonName.PEEK)  # wire.BUTTONS order

Clock = Callable[[], float]


class PodSession:
    """One connection to one pod, from HELLO to silence; no threads and no clock of its own."""

    def __init__(self, seat: int, port: PodPort, hello: PodHello, sink: Sink,
                 screen: PodScreen, now: float) -> None:
        self.seat = seat
        self.port = port
        self.hello = hello
        self.sink = sink
        self.screen = screen
        self.clock = RemoteClock()
        self.check = wire.SequenceCheck()
        self.held = 0  # bit i: button i held, as reported
        self.heard_at = now
        self.beat_at = now
        self.token = 0
        self.echoed = threading.Condition()
        self.echo = 0

    def receive(self, frames: list[tuple[int, int, bytes]], now: float) -> None:
        for seq, kind, payload in frames:
            if kind == wire.HELLO:
                self.check.reset()  # the pod restarted: its numbering too
                self.screen.resend()
            if self.check.check(seq) == wire.DUPLICATE:
                continue
            self.heard_at = now
            if kind == wire.BUTTON:
                self._button(payload, now)
            elif kind == wire.POD_BEAT:
                self._beat(payload, now)
            elif kind == wire.RESEND:
                self.screen.resend()

    def tick(self, now: float) -> bool:
        """Beat when due; False once the pod has been quiet too long."""
        if now - self.heard_at > QUIET_LIMIT:
            log.warning("seat %d: pod on %s quiet for %.1f s", self.seat, self.port.path,
                        now - self.heard_at)
            return False
        if now >= self.beat_at:
            self.token = (self.token + 1) & 0xFFFF
            self.port.send(wire.HOST_BEAT, wire.host_beat(self.token))
            self.beat_at = now + BEAT_EVERY
        return True

    def end(self, now: float) -> None:
        """Release whatever the pod held: a peek must not outlive the pod's link."""
        for index in range(len(BUTTON_NAMES)):
            if self.held & (1 << index):
                self._edge(index, False, now)

    def _button(self, payload: bytes, now: float) -> None:
        parsed = wire.parse_button(payload)
        if parsed is not None:
            index, pressed, pod_ms = parsed
            self._edge(index, pressed, self.clock.to_host(pod_ms, now))

    def _beat(self, payload: bytes, now: float) -> None:
        parsed = wire.parse_pod_beat(payload)
        if parsed is None:
            return
        pod_ms, echo, levels = parsed
        self.clock.observe(pod_ms, now)
        for index in range(len(BUTTON_NAMES)):  # an edge lost on the way: the beat knows
            if (levels ^ self.held) & (1 << index):
                self._edge(index, bool(levels & (1 << index)), now)
        with self.echoed:
            self.echo = echo
            self.echoed.notify_all()

    def _edge(self, index: int, pressed: bool, at: float) -> None:
        if pressed == bool(self.held & (1 << index)):
            return
        self.held ^= 1 << index
        self.sink(ButtonEdge(self.seat, BUTTON_NAMES[index], pressed, at))


class PodLink:
    """A pod seat: ``screen``, ``vibrator`` and ``buzzer`` for the app, events into ``sink``."""

    def __init__(self, seat: int, finder: PodFinder, sink: Sink, *,
                 clock: Clock = time.monotonic) -> None:
        self.seat = seat
        self.finder = finder
        self.sink = sink
        self.clock = clock
        self.screen = PodScreen()
        self.vibrator = PodVibrator(self.send)
        self.buzzer = PodBuzzer(self.send, self.has_piezo)
        self.session: PodSession | None = None
        self._online: bool | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"pod-seat-{seat}", daemon=True)

    def start(self) -> PodLink:
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def has_piezo(self) -> bool:
        """Whether the pod connected now said it has a piezo (its HELLO's features)."""
        session = self.session
        return session is not None and session.hello.has_piezo

    def send(self, kind: int, payload: bytes) -> bool:
        """Send to the pod if one is connected; False if not (or it just went)."""
        session = self.session
        if session is None:
            return False
        try:
            session.port.send(kind, payload)
        except OSError as error:
            log.info("seat %d: send failed (%s); the link will notice", self.seat, error)
            return False
        return True

    def sync(self, timeout: float = 1.0) -> bool:
        """Wait until the pod has carried out everything sent before this call."""
        session = self.session
        if session is None:
            return False
        token = (session.token + 1) & 0xFFFF
        session.token = token
        if not self.send(wire.HOST_BEAT, wire.host_beat(token)):
            return False
        with session.echoed:
            # Beats of the link thread may follow ours: any echo at or past the token will do.
            return session.echoed.wait_for(
                lambda: (session.echo - token) & 0xFFFF < 0x8000, timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            found = self.finder.find(self.seat)
            if found is None:
                self._report(online=False)
                self._stop.wait(RETRY_EVERY)
                continue
            self._serve(*found)

    def _serve(self, port: PodPort, hello: PodHello) -> None:
        log.info("seat %d: pod on %s (firmware %s, %s)", self.seat, port.path, hello.firmware,
                 hello.display)
        session = PodSession(self.seat, port, hello, self.sink, self.screen, self.clock())
        self.session = session
        self.screen.attach(self.send)
        self._report(online=True)
        try:
            while not self._stop.is_set() and session.tick(self.clock()):
                frames = port.receive()
                session.receive(frames, self.clock())
        except OSError as error:
            log.warning("seat %d: pod on %s gone (%s)", self.seat, port.path, error)
        finally:
            self.session = None
            self.screen.attach(None)
            session.end(self.clock())
            self.finder.release(port)
            self._report(online=False)

    def _report(self, *, online: bool) -> None:
        """Offline once per outage; online on every connect (the app then redraws in full)."""
        if online or self._online is not False:
            self.sink(SeatLink(self.seat, up=online))
        self._online = online
