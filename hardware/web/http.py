"""HTTP/1.1 and WebSockets for the phone seats' server: h11 and wsproto on asyncio streams.

h11 and wsproto only parse and frame bytes (they do no I/O; each costs the service well under
a MiB, where aiohttp's import, client and all, cost about 12); this module reads and writes the
connections, and every byte a client can make it hold is bounded:

- at most ``max_connections`` at once: the rest get a 503 as they come, before a byte of
  theirs is read (:class:`Refusal`);
- a connection's unread bytes: asyncio stops reading it while more than twice BUFFER wait
  (one read of the socket adds at most asyncio's 256 KiB to that);
- a request's line and headers: HEAD_BYTES (h11 refuses more: a 400, and the connection
  closes); its body: read only as far as its handler's limit (:meth:`Request.body`);
- a connection that sends no whole request within IDLE_WITHIN is closed (keep-alive too);
- a WebSocket message over the socket's ``max_message``: that socket is closed (1009), and
  nothing else; a peer that stops answering the socket's pings is cut.

Timers over CEILING seconds are rounded up to a whole second of the loop's clock
(:func:`due`), so that the timers set within one second fall due together: one wake-up
pings every phone.

There is no access log: a request's path may hold a seat's number, and nothing here logs it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import math
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus

import h11
from wsproto import ConnectionType, WSConnection
from wsproto.connection import ConnectionState
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    Message,
    Ping,
    TextMessage,
)
from wsproto.utilities import RemoteProtocolError

from ..exc import RequestRefused

log = logging.getLogger(__name__)

HEAD_BYTES = 8 * 1024  # a request's line and headers (a browser's are a few hundred bytes)
BUFFER = 16 * 1024
IDLE_WITHIN = 15.0
CLOSING_WITHIN = 5.0  # a peer that does not answer our close (or end its request) is cut
CEILING = 1.0
TOO_BIG = 1009  # RFC 6455's "message too big"

HEADERS = {  # on every response: the pages load only their own files, talk only to this server
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "connect-src 'self'; img-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}
TEXT = "text/plain; charset=utf-8"


def due(delay: float, since: float | None = None) -> float:
    """When, on the running loop's clock, a timer of ``delay`` seconds from ``since`` (from
    now if None) falls due."""
    when = (asyncio.get_running_loop().time() if since is None else since) + delay
    return math.ceil(when) if delay > CEILING else when


@dataclass
class Response:
    body: bytes = b""
    content_type: str | None = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)  # beside HEADERS


def refusal(status: int, text: str = "") -> Response:
    """A request's refusal: ``text`` (the status's phrase if none) as plain text."""
    return Response((text or HTTPStatus(status).phrase).encode(), TEXT, status)


# A request's answer; None: the handler took the connection over (Request.websocket).
Handler = Callable[["Request"], Awaitable["Response | None"]]


class Routes:
    """Which handler answers a request: the first whose method and pattern (a regular
    expression the whole path must match; its named groups become ``Request.match``) fit."""

    def __init__(self) -> None:
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []

    def add(self, method: str, pattern: str, handler: Handler) -> None:
        self._routes.append((method, re.compile(pattern), handler))

    def find(self, method: str, path: str) -> tuple[Handler, dict[str, str]]:
        known = False
        for route_method, pattern, handler in self._routes:
            found = pattern.fullmatch(path)
            if found is not None:
                if route_method == method:
                    return handler, found.groupdict()
                known = True
        raise RequestRefused(405 if known else 404)


class Request:
    """A request's head, read; its body is read only when its handler asks for it."""

    def __init__(self, head: h11.Request, connection: Connection) -> None:
        self.method = head.method.decode("ascii")
        self.path = head.target.decode("ascii", "replace").partition("?")[0]
        self.headers: dict[str, str] = {}
        for name, value in head.headers:
            key = name.decode("ascii")
            text = value.decode("latin-1")
            self.headers[key] = f"{self.headers[key]}, {text}" if key in self.headers else text
        self.match: dict[str, str] = {}
        self._head = head
        self._connection = connection
        self.socket: WebSocket | None = None

    @property
    def cookies(self) -> dict[str, str]:
        pairs = (part.strip().partition("=") for part in self.headers.get("cookie", "").split(";"))
        return {name: value for name, _, value in pairs if name}

    async def body(self, limit: int) -> bytes:
        """The body, refused (413) past ``limit`` bytes before more of it is read."""
        declared = self.headers.get("content-length")
        if declared is not None and int(declared) > limit:  # h11 has checked it is a number
            raise RequestRefused(413, f"at most {limit} bytes")
        body = bytearray()
        async with asyncio.timeout_at(due(IDLE_WITHIN)):
            while isinstance(event := await self._connection.next_event(), h11.Data):
                body += event.data
                if len(body) > limit:
                    raise RequestRefused(413, f"at most {limit} bytes")
        return bytes(body)

    async def websocket(self, max_message: int, heartbeat: float) -> WebSocket:
        """Take the connection over as a WebSocket (a 400 if the request is not one's)."""
        upgrade = WSConnection(ConnectionType.SERVER)
        try:
            upgrade.initiate_upgrade_connection(list(self._head.headers), self._head.target)
        except RemoteProtocolError:
            raise RequestRefused(400, "not a WebSocket request") from None
        self._connection.write(upgrade.send(AcceptConnection()))
        self.socket = WebSocket(upgrade, self._connection, max_message, heartbeat)
        return self.socket


class Connection:
    """One client's connection: h11's parser over the stream, with its bounds."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.http = h11.Connection(h11.SERVER, max_incomplete_event_size=HEAD_BYTES)

    async def read(self) -> bytes:
        """The next bytes the client sent; b"" once it has ended or gone."""
        try:
            return await self.reader.read(BUFFER)
        except ConnectionError:
            return b""

    def write(self, data: bytes) -> None:
        if not self.writer.transport.is_closing():
            self.writer.write(data)

    async def next_event(self) -> object:
        while (event := self.http.next_event()) is h11.NEED_DATA:
            self.http.receive_data(await self.read())
        return event

    async def serve(self, routes: Routes) -> None:
        """Requests in turn until the client ends, idles or errs (then it is closed)."""
        while True:
            try:
                async with asyncio.timeout_at(due(IDLE_WITHIN)):
                    head = await self.next_event()
            except TimeoutError:
                return
            except h11.RemoteProtocolError as error:  # a garbled or oversized head
                await self._answer(refusal(error.error_status_hint))
                await self._linger()
                return
            if not isinstance(head, h11.Request):
                return  # the client ended its side
            request = Request(head, self)
            try:
                response = await self._handle(routes, request)
                if request.socket is not None:
                    await request.socket.finish()
                    return
            finally:
                if request.socket is not None:
                    request.socket.stop()
            if response is None:
                return
            await self._answer(response)
            if not await self._next_cycle():
                return

    async def _handle(self, routes: Routes, request: Request) -> Response | None:
        try:
            handler, request.match = routes.find(request.method, request.path)
            return await handler(request)
        except RequestRefused as refused:
            return refusal(refused.status, refused.text)
        except (TimeoutError, h11.RemoteProtocolError):
            return refusal(400)  # a body that did not come whole in time
        except Exception:
            log.exception("a request's handler failed")  # no path: it may name a seat
            return refusal(500)

    async def _answer(self, response: Response) -> None:
        self.write(_encoded(self.http, response))
        async with asyncio.timeout(CLOSING_WITHIN):
            await self.writer.drain()

    async def _next_cycle(self) -> bool:
        """Whether the connection takes another request: the whole of this one was read
        (a body its handler did not want is dropped if it is here already)."""
        try:
            while self.http.their_state is h11.SEND_BODY:
                if self.http.next_event() is h11.NEED_DATA:
                    await self._linger()
                    return False
        except h11.RemoteProtocolError:
            return False
        if self.http.our_state is not h11.DONE or self.http.their_state is not h11.DONE:
            return False
        self.http.start_next_cycle()
        return True

    async def _linger(self) -> None:
        """Close our side and drop what the client still sends, until it ends (at most
        CLOSING_WITHIN): closed with its bytes unread, the connection would be reset, and
        the client could lose the answer it has not read yet."""
        with contextlib.suppress(OSError, RuntimeError):
            self.writer.write_eof()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(CLOSING_WITHIN):
                while await self.read():
                    pass


class WebSocket:
    """A WebSocket on a connection: messages in, binary messages out, pings on a heartbeat.

    Closed (:attr:`closed`) once either side has said close or the connection is gone; its
    handler then returns, and :meth:`finish` reads on to the peer's close."""

    def __init__(self, protocol: WSConnection, connection: Connection, max_message: int,
                 heartbeat: float) -> None:
        self._ws = protocol
        self._connection = connection
        self._max_message = max_message
        self._heartbeat = heartbeat
        self._loop = asyncio.get_running_loop()
        self._received: collections.deque[bytes | str] = collections.deque()
        self._message = bytearray()  # the message coming in, so far
        self._skipping = False  # the rest of a message over max_message
        self._heard = self._loop.time()
        self._pinged = False
        self._beat_at = 0.0  # when the heartbeat's timer falls due
        self._timer: asyncio.TimerHandle
        self._beat_later()
        self._lost = False
        trailing, _ = connection.http.trailing_data  # sent after the request's head
        if trailing:
            self._take(trailing)

    @property
    def closed(self) -> bool:
        return self._lost or self._ws.state is not ConnectionState.OPEN

    async def receive(self) -> bytes | str | None:
        """The next whole message (bytes if binary), or None once the socket is closed."""
        while not self._received:
            if self.closed:
                return None
            self._take(await self._connection.read())
        return None if self.closed else self._received.popleft()

    async def send_bytes(self, data: bytes) -> None:
        """Write one binary message; return once the connection has room for more."""
        if self.closed:
            raise ConnectionResetError("the WebSocket is closed")
        self._connection.write(self._ws.send(BytesMessage(data=data)))
        await self._connection.writer.drain()

    def close(self, code: int, reason: str) -> None:
        """Say close; the peer has CLOSING_WITHIN to answer it, or it is cut."""
        if self.closed:
            return
        self._connection.write(self._ws.send(CloseConnection(code=code, reason=reason)))
        self._timer.cancel()
        self._pinged = False
        self._timer = self._loop.call_at(due(CLOSING_WITHIN), self.abort)

    def abort(self) -> None:
        """Cut the connection now (its unsent bytes are dropped)."""
        self._lost = True
        self._connection.writer.transport.abort()

    async def finish(self) -> None:
        """Close (if the handler did not) and read on until the peer's close or its end."""
        self.close(1000, "")
        while not self._lost and self._ws.state is not ConnectionState.CLOSED:
            self._take(await self._connection.read())

    def stop(self) -> None:
        """No more timers: the connection is done with."""
        self._timer.cancel()

    def _take(self, data: bytes) -> None:
        if not data:
            self._lost = True
            return
        self._heard = self._loop.time()
        if self._pinged:  # any word from the peer answers a ping
            self._pinged = False
            self._timer.cancel()
            self._beat_later()
        self._ws.receive_data(data)
        for event in self._ws.events():
            if isinstance(event, Message):
                self._part(event)
            elif isinstance(event, Ping) and self._answers_pings():
                self._connection.write(self._ws.send(event.response()))
            elif isinstance(event, CloseConnection):
                self._closing(event)

    def _answers_pings(self) -> bool:
        """Open, and not behind with what it was sent: a peer that pings and does not read
        is not answered (its pongs would pile up unsent)."""
        transport = self._connection.writer.transport
        return self._ws.state is ConnectionState.OPEN and (
            transport.get_write_buffer_size() < BUFFER)

    def _part(self, event: Message) -> None:
        if self._skipping or self.closed:
            self._skipping = not event.message_finished
            return
        self._message += event.data.encode() if isinstance(event, TextMessage) else event.data
        if len(self._message) > self._max_message:
            self._message.clear()
            self._skipping = not event.message_finished
            self.close(TOO_BIG, "message too big")
        elif event.message_finished:
            whole = bytes(self._message)
            self._received.append(whole.decode() if isinstance(event, TextMessage) else whole)
            self._message.clear()

    def _closing(self, event: CloseConnection) -> None:
        if self._ws.state is ConnectionState.REMOTE_CLOSING:  # the peer said close: answer
            self._connection.write(self._ws.send(event.response()))
        elif self._ws.state is ConnectionState.OPEN:  # what it sent is not WebSocket framing
            self._connection.write(self._ws.send(CloseConnection(event.code, event.reason)))
            self._lost = True
            self._connection.writer.close()

    def _beat_later(self) -> None:
        self._beat_at = due(self._heartbeat, self._heard)
        self._timer = self._loop.call_at(self._beat_at, self._beat)

    def _beat(self) -> None:
        """A ping once the peer has said nothing for the heartbeat (it spoke since this
        timer was set: a later one); cut if no word follows within half of it."""
        if due(self._heartbeat, self._heard) > self._beat_at:
            self._beat_later()
            return
        if not self.closed:
            self._connection.write(self._ws.send(Ping()))
        self._pinged = True
        self._timer = self._loop.call_at(due(self._heartbeat / 2), self.abort)


class Refusal(asyncio.Protocol):
    """A connection over the server's limit: told so and closed as it comes, before it is
    read."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(REFUSAL)
        transport.close()


def _encoded(http: h11.Connection, response: Response) -> bytes:
    """``response`` whole, as ``http`` (where its request was read) sends it."""
    headers = [*HEADERS.items(), *response.headers.items(),
               ("Content-Length", str(len(response.body)))]
    if response.content_type is not None:
        headers.append(("Content-Type", response.content_type))
    status = HTTPStatus(response.status)
    events = (h11.Response(status_code=status.value, headers=headers, reason=status.phrase),
              h11.Data(data=response.body), h11.EndOfMessage())
    return b"".join(http.send(event) or b"" for event in events)


REFUSAL = _encoded(h11.Connection(h11.SERVER), Response(status=503,
                                                        headers={"Connection": "close"}))


class Server:
    """``routes`` served on a listening socket, at most ``max_connections`` at once."""

    def __init__(self, routes: Routes, max_connections: int) -> None:
        self._routes = routes
        self._max_connections = max_connections
        self._open = 0  # connections made and not yet closed
        self._served: dict[asyncio.Task[None], asyncio.StreamWriter] = {}
        self._listener: asyncio.Server | None = None

    async def listen(self, host: str, port: int, backlog: int) -> int:
        """Listen on ``host``:``port`` (0: any free one); the port listened on."""
        loop = asyncio.get_running_loop()
        self._listener = await loop.create_server(self._connection, host, port, backlog=backlog)
        return int(self._listener.sockets[0].getsockname()[1])

    async def close(self) -> None:
        """Stop listening, cut every connection, and wait for their handlers to end (cut,
        not cancelled: each ends as its client's end, and closes what it holds)."""
        if self._listener is not None:
            self._listener.close()
        for writer in self._served.values():
            writer.transport.abort()
        await asyncio.gather(*self._served, return_exceptions=True)

    def _connection(self) -> asyncio.BaseProtocol:
        if self._open >= self._max_connections:
            return Refusal()
        self._open += 1
        return asyncio.StreamReaderProtocol(asyncio.StreamReader(BUFFER), self._serve)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._served[task] = writer
        cut = True  # the client went, did not take its answer in time, or the server closes
        try:
            await Connection(reader, writer).serve(self._routes)
            cut = False
        except (ConnectionError, TimeoutError):
            pass
        finally:
            self._open -= 1
            del self._served[task]
            if cut:
                writer.transport.abort()
            else:
                writer.close()
