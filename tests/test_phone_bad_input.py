"""The phone server under a thousand connections and a phone that stops reading: the excess
is refused, the server's files stay bounded, and the seated phones play on.

Real sockets on localhost; every wait is on an event (a reply, a frame, a seat going offline),
the timeouts only stop a broken server from hanging the suite.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import fcntl
import os
import queue
import resource
import socket
import struct
import termios
from collections.abc import Iterator

import pytest
from aiohttp import ClientSession
from PIL import Image

from bench.phone_client import Phone, hello, key_of, sealed
from hardware.base import ButtonEdge, SeatLink
from hardware.web import server as web_server
from hardware.web.server import BACKLOG, MAX_CONNECTIONS, PhoneServer

FLOOD = 1000
HANG = 20.0  # seconds: only a server that never answers reaches it


@pytest.fixture
def files() -> Iterator[None]:
    """Room in this process for the thousand client sockets beside the server's own."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FLOOD + 4 * MAX_CONNECTIONS + 256
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"RLIMIT_NOFILE's hard limit {hard} < {wanted}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


async def _load_page(port: int) -> tuple[bytes, asyncio.StreamWriter]:
    """A browser asking for the front page: the status it got, and its connection, kept."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET / HTTP/1.1\r\nHost: table\r\n\r\n")
    status = (await reader.readline()).split(b" ")[1]
    return status, writer


def _image(shade: int) -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    image.putpixel((shade % 128, shade // 128 % 64), 1)
    return image


def _event(events: queue.SimpleQueue, wanted: type) -> object:
    while True:
        event = events.get(timeout=HANG)
        if isinstance(event, wanted):
            return event


def test_a_thousand_connections_are_refused_and_the_seated_phone_plays_on(files):
    events: queue.SimpleQueue = queue.SimpleQueue()
    server = PhoneServer([1], events.put, host="127.0.0.1", public_host="127.0.0.1").start()
    screen = server.screen(1)

    async def play() -> None:
        async with ClientSession() as http:
            phone = Phone(server.link(1))
            await phone.connect(http)
            before = _open_files()
            flood = await asyncio.gather(*(_load_page(server.port) for _ in range(FLOOD)))
            answers = collections.Counter(status for status, _ in flood)
            assert set(answers) == {b"200", b"503"}, answers
            assert answers[b"200"] < MAX_CONNECTIONS + BACKLOG  # the phone holds one
            # The server's files: the connections it kept (the pages' keep-alive), not one
            # per knock at the door.
            assert _open_files() - before - FLOOD <= MAX_CONNECTIONS + BACKLOG

            phone.forget_frames()
            await phone.send_edge("act", True)
            loop = asyncio.get_running_loop()
            edge = await loop.run_in_executor(None, _event, events, ButtonEdge)
            assert isinstance(edge, ButtonEdge) and edge.pressed
            screen.show(_image(1))  # what the table draws for the press
            _, frame = await asyncio.wait_for(phone.frames.get(), HANG)
            assert frame[6:] == _image(1).tobytes()
            for _, writer in flood:
                writer.close()
            await phone.close()

    try:
        asyncio.run(asyncio.wait_for(play(), 2 * HANG))
    finally:
        server.close()


def _masked(payload: bytes) -> bytes:
    """A client's binary WebSocket frame (RFC 6455: a client masks what it sends)."""
    mask = os.urandom(4)
    head = struct.pack(">BB", 0x82, 0x80 | len(payload))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def _slow_phone(port: int, link: str) -> socket.socket:
    """A phone that says hello on seat 1's socket and then never reads a byte: a receive
    buffer of a few KiB, so that the server's frames back up at once."""
    phone = socket.socket()
    phone.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    phone.connect(("127.0.0.1", port))
    nonce = base64.b64encode(os.urandom(16)).decode()
    phone.sendall(f"GET /ws/seat/1 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {nonce}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += phone.recv(1)
    assert answer.startswith(b"HTTP/1.1 101 ")
    phone.sendall(_masked(sealed(key_of(link), 1, hello(os.urandom(16), 0))))
    return phone


def _unread(phone: socket.socket) -> int:
    waiting = bytearray(4)
    fcntl.ioctl(phone, termios.FIONREAD, waiting)
    return int.from_bytes(waiting, "little")


def test_a_phone_that_stops_reading_is_dropped_and_the_others_frames_flow(monkeypatch):
    monkeypatch.setattr(web_server, "SEND_WITHIN", 1.0)  # the bound, shortened for the test
    events: queue.SimpleQueue = queue.SimpleQueue()
    server = PhoneServer([1, 2], events.put, host="127.0.0.1", public_host="127.0.0.1").start()
    slow_screen, screen = server.screen(1), server.screen(2)

    async def play() -> tuple[int, int]:
        async with ClientSession() as http:
            phone = Phone(server.link(2))
            await phone.connect(http)
            slow = _slow_phone(server.port, server.link(1))
            while _event(events, SeatLink) != SeatLink(1, up=True):
                pass  # the start's "no phone yet" and seat 2's
            dropped = False
            unread, frames, while_stuck = -1, 0, 0
            while not dropped:  # a new frame on each seat; seat 2's must come every time
                frames += 1
                slow_screen.show(_image(frames))
                screen.show(_image(frames))
                _, frame = await asyncio.wait_for(phone.frames.get(), HANG)
                assert frame[6:] == _image(frames).tobytes()
                dropped = any(isinstance(e, SeatLink) and e.seat == 1 and not e.up
                              for e in _drain(events))
                if _unread(slow) == unread and not dropped:
                    while_stuck += 1  # seat 1 took nothing more; seat 2 had its frame
                unread = _unread(slow)
            # The server let go of the slow phone's socket: it ends (a reset or an end).
            slow.settimeout(HANG)
            try:
                while slow.recv(65536):
                    pass
            except ConnectionResetError:
                pass
            slow.close()
            await phone.close()
            return frames, while_stuck

    try:
        frames, while_stuck = asyncio.run(asyncio.wait_for(play(), 2 * HANG))
    finally:
        server.close()
    # Seat 2 had its frames while seat 1's phone took none and was not yet dropped.
    assert while_stuck > 0, frames


def _drain(events: queue.SimpleQueue) -> Iterator[object]:
    while not events.empty():
        yield events.get()


def _answer(port: int, request: bytes) -> bytes:
    """What the server answers ``request`` with, to the end: it closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=HANG) as client:
        client.sendall(request)
        client.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
    return answer


def test_a_garbled_or_oversized_request_is_answered_and_its_connection_closed():
    """Not HTTP: a 400; a head over the server's bound: a 431 (it is not all read); and the
    next connection is served."""
    events: queue.SimpleQueue = queue.SimpleQueue()
    server = PhoneServer([1], events.put, host="127.0.0.1", public_host="127.0.0.1").start()
    try:
        garbled = _answer(server.port, b"\x16\x03\x01 hello\r\n\r\n")
        huge = _answer(server.port, b"GET / HTTP/1.1\r\nHost: table\r\nX-Pad: "
                       + b"x" * 100_000 + b"\r\n\r\n")
        page = _answer(server.port, b"GET /seat/1 HTTP/1.1\r\nHost: table\r\n"
                       b"Connection: close\r\n\r\n")
    finally:
        server.close()
    assert garbled.startswith(b"HTTP/1.1 400 ")
    assert huge.startswith(b"HTTP/1.1 431 ")
    assert page.startswith(b"HTTP/1.1 200 ") and b"Content-Security-Policy" in page
