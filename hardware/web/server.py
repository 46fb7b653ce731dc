"""The phone seats' web server: h11 and wsproto (``http``) on its own thread and asyncio loop,
in the companion's process.

It serves the seat page and the public page (``public``: the public screen in a browser;
static files read once at start: no CDN, no build step) and one
WebSocket per phone. Everything a stranger can send is bounded and refused cleanly, and none
of it reaches the table's loop: a message over MAX_MESSAGE bytes, anything whose seal does
not open with the seat's key, more than RATE messages a second, a hello that does not come
within HELLO_WITHIN, more than MAX_SOCKETS sockets or MAX_CONNECTIONS connections at once
(the rest get a 503 and are closed as they come, so the server's files stay bounded), a
connection that sends no request within ``http.IDLE_WITHIN``, a phone that does not take a
frame within SEND_WITHIN (its socket is cut, not left to flush forever). Only a seated phone's
well-formed edges reach the app's queue.

A sleeping phone stops answering the heartbeat's pings and is dropped within HEARTBEAT and a
half (more at most a second, see HEARTBEAT); it shows offline on the other seats, and its page
connects again when it wakes.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import resource
import socket
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from ..base import SeatLink, Sink
from ..closing import Closing
from ..exc import RequestRefused
from . import wire
from .http import Request, Response, Routes, Server, WebSocket
from .public import BrowserPublic
from .seat import Clock, WebBuzzer, WebScreen, WebSeat, WebVibrator, Written

log = logging.getLogger(__name__)

MAX_MESSAGE = 256  # a phone's messages are under 60 bytes
MAX_SOCKETS = 64
# The sockets and the pages being loaded beside them. The connections over it are refused as
# they come, and one batch that asyncio takes from the kernel at once (up to BACKLOG) holds
# its files until the loop closes them: MAX_CONNECTIONS + BACKLOG bounds the server's files.
MAX_CONNECTIONS = 128
BACKLOG = 128
FILES = 1024  # the process's open files: the bound above, the table's own, a wide margin
HELLO_WITHIN = 5.0
SEND_WITHIN = 5.0
# hardware/web/http.py rounds its timers over http.CEILING seconds up to a whole second of
# the loop's clock, so all phones' pings fall due at the same instant: one wake-up pings them
# all, and each phone's pong is one more. A ping goes 1.5 to 2.5 s after the phone was
# last heard (the rounding), its pong is awaited 0.75 s: a lost phone is offline within
# 2.75 s of its last pong, 3.25 s at worst of its last press.
HEARTBEAT = 1.5
RATE = 40.0  # messages a second a phone may send (a thumb makes a few edges a second)
BURST = 80
PENDING = 64  # small messages waiting for a slow phone; past that the oldest go

NOT_THIS_SEAT = 4401  # the hello did not open with the seat's key
TAKEN = 4409  # another device holds the seat
REFUSED = 4400  # a message that is not one of ours
TOO_FAST = 4429
TOO_SLOW = 4408

STATIC = Path(__file__).parent / "static"
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}


class Pages(Protocol):
    """More pages on the same server (the table's page: hardware/web/table_page.py)."""

    def add_routes(self, routes: Routes) -> None: ...


class PhoneSocket:
    """One phone's WebSocket, written by its own sender task: small messages in order, and
    of the frames only the latest (a phone that lags skips to the current screen)."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self._pending: collections.deque[bytes] = collections.deque(maxlen=PENDING)
        self._frame: bytes | None = None
        self._written: Written | None = None  # the app's thread waits for this frame
        self._wake = asyncio.Event()

    def send(self, sealed: bytes) -> None:
        self._pending.append(sealed)
        self._wake.set()

    def send_frame(self, sealed: bytes, written: Written | None = None) -> None:
        _tell(self._written)  # its frame, superseded, will not go
        self._frame, self._written = sealed, written
        self._wake.set()

    def close(self, code: int, why: str) -> None:
        self.ws.close(code, why)

    async def run(self) -> None:
        try:
            while not self.ws.closed:
                await self._wake.wait()
                self._wake.clear()
                while self._pending:
                    await asyncio.wait_for(self.ws.send_bytes(self._pending.popleft()),
                                           SEND_WITHIN)
                if self._frame is not None:
                    frame, self._frame = self._frame, None
                    written, self._written = self._written, None
                    try:
                        await asyncio.wait_for(self.ws.send_bytes(frame), SEND_WITHIN)
                    finally:
                        _tell(written)
        except TimeoutError:
            # A phone that does not read: a close frame would wait behind the frames it has
            # not taken, and so would a close of the transport. The connection is cut, its
            # file freed now.
            self.ws.abort()
        except ConnectionError:
            pass  # the socket is closing already (a refusal, the phone gone): left to close
        finally:
            _tell(self._written)


def _tell(written: Written | None) -> None:
    if written is not None:
        written()


class Bucket:
    """RATE messages a second, BURST at once: a flood closes its own socket, nothing else."""

    def __init__(self, now: float) -> None:
        self.tokens, self.at = float(BURST), now

    def take(self, now: float) -> bool:
        self.tokens = min(BURST, self.tokens + (now - self.at) * RATE)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class PhoneServer(Closing):
    """The server and its seats; ``start`` returns once it listens (on ``port``)."""

    def __init__(self, numbers: Iterable[int], sink: Sink, *, host: str = "0.0.0.0",
                 port: int = 0, public_host: str | None = None,
                 clock: Clock = time.monotonic, page: Pages | None = None) -> None:
        self._sink = sink
        self._page = page
        self._host = host
        self.port = port
        self.public_host = public_host or lan_address()
        self._clock = clock  # the seats' presses and the flood limit alike
        self.seats = {n: WebSeat(n, sink, clock) for n in numbers}
        self._files = {name: path.read_bytes() for name, path in _static_files()}
        self._sockets = 0
        self._loop = asyncio.new_event_loop()
        self.public = BrowserPublic(self._loop.call_soon_threadsafe, PhoneSocket)
        self._server: Server | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, name="phone-server",
                                        daemon=True)

    def start(self) -> PhoneServer:
        _enough_files()
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result()
        for number in self.seats:  # no phone has opened the seat yet
            self._sink(SeatLink(number, up=False))
        return self

    def link(self, seat: int) -> str:
        """The seat's address, its key in the ``#fragment`` (never sent by the browser)."""
        key = self.seats[seat].key.fragment()
        return f"{self._origin()}/seat/{seat}#{key}"

    def public_link(self) -> str:
        """The public page's address: it holds no key, anyone may open it."""
        return f"{self._origin()}/table"

    def _origin(self) -> str:
        host = f"[{self.public_host}]" if ":" in self.public_host else self.public_host
        return f"http://{host}:{self.port}"

    def free(self, seat: int) -> None:
        """Let go of the device that holds ``seat`` (called from the app's thread)."""
        self._loop.call_soon_threadsafe(self.seats[seat].free)

    def screen(self, seat: int) -> WebScreen:
        return WebScreen(self.seats[seat], self._loop.call_soon_threadsafe)

    def vibrator(self, seat: int) -> WebVibrator:
        return WebVibrator(self.seats[seat], self._loop.call_soon_threadsafe)

    def buzzer(self, seat: int) -> WebBuzzer:
        return WebBuzzer(self.seats[seat], self._loop.call_soon_threadsafe)

    def close(self) -> None:
        """Stop listening, close every socket, end the thread (closing twice is harmless)."""
        if not self._thread.is_alive():
            return
        if self._server is not None:
            asyncio.run_coroutine_threadsafe(self._server.close(), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    async def _listen(self) -> None:
        routes = Routes()
        routes.add("GET", "/", self._file("index.html"))
        routes.add("GET", r"/seat/(?P<seat>\d{1,2})", self._seat_page)
        routes.add("GET", r"/ws/seat/(?P<seat>\d{1,2})", self._socket)
        routes.add("GET", "/static/(?P<name>.+)", self._static)
        routes.add("GET", "/table", self._file("table.html"))
        routes.add("GET", "/ws/table", self.public.socket)
        routes.add("GET", "/favicon.ico", _no_icon)
        if self._page is not None:
            self._page.add_routes(routes)
        self._server = Server(routes, MAX_CONNECTIONS)
        self.port = await self._server.listen(self._host, self.port, BACKLOG)

    def _file(self, name: str):
        async def serve(request: Request) -> Response:
            return self._respond(name)
        return serve

    def _respond(self, name: str) -> Response:
        body = self._files.get(name)
        if body is None:
            raise RequestRefused(404)
        return Response(body, TYPES[Path(name).suffix])

    async def _static(self, request: Request) -> Response:
        name = request.match["name"]
        if name.endswith(".html"):
            raise RequestRefused(404)
        return self._respond(name)

    async def _seat_page(self, request: Request) -> Response:
        if int(request.match["seat"]) not in self.seats:
            raise RequestRefused(404)
        return self._respond("seat.html")

    async def _socket(self, request: Request) -> None:
        seat = self.seats.get(int(request.match["seat"]))
        if seat is None:
            raise RequestRefused(404)
        if self._sockets >= MAX_SOCKETS:
            raise RequestRefused(503, "too many connections")
        ws = await request.websocket(MAX_MESSAGE, HEARTBEAT)
        self._sockets += 1
        try:
            await self._serve(seat, ws)
        finally:
            self._sockets -= 1

    async def _serve(self, seat: WebSeat, ws: WebSocket) -> None:
        try:
            first = await asyncio.wait_for(ws.receive(), HELLO_WITHIN)
        except TimeoutError:
            ws.close(TOO_SLOW, "no hello")
            return
        hello = _opened(seat, first)
        if not isinstance(hello, wire.Hello):
            ws.close(NOT_THIS_SEAT, "not this seat's link")
            return
        phone = PhoneSocket(ws)
        if not seat.join(hello, phone):
            ws.close(TAKEN, "taken")
            return
        sender = asyncio.ensure_future(phone.run())
        bucket = Bucket(self._clock())
        try:
            while (message := await ws.receive()) is not None:
                edge = _opened(seat, message)
                if not bucket.take(self._clock()):
                    ws.close(TOO_FAST, "too fast")
                elif not isinstance(edge, wire.Edge):
                    ws.close(REFUSED, "not a seat message")
                else:
                    seat.edge(phone, edge)
        finally:
            seat.left(phone)
            sender.cancel()


def _enough_files() -> None:
    """Raise the soft limit on open files to the hard one if it is under FILES (systemd gives
    a service 1024, a shell may give less)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < FILES:
        log.info("open files: soft limit %d raised to %s", soft, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def _no_icon(request: Request) -> Response:
    return Response(status=204)


def _opened(seat: WebSeat, message: bytes | str | None) -> wire.Hello | wire.Edge | None:
    """A binary message sealed with the seat's key and well formed, or None."""
    if not isinstance(message, bytes):
        return None
    plain = seat.key.open(message)
    return None if plain is None else wire.parse(plain)


def _static_files() -> list[tuple[str, Path]]:
    return [(path.relative_to(STATIC).as_posix(), path)
            for path in sorted(STATIC.rglob("*")) if path.suffix in TYPES]


def lan_address() -> str:
    """This machine's address on its local network (no packet is sent), else loopback."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        return str(probe.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()
