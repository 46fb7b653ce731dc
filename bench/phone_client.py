"""A phone seat's page, in Python: what hardware/web/static/seat.js says and reads on its socket.

The key comes from the link's ``#fragment``; every message is sealed with it as the page seals
(ChaCha20-Poly1305, a random nonce, the seat and the direction as associated data), written
here from the page's side so that a server which sealed differently would not be understood.
Used by the bench's phones (bench/phones.py) and by the server's tests.
"""

from __future__ import annotations

import asyncio
import base64
import os
import struct
import time
from urllib.parse import urlsplit

from aiohttp import ClientSession, ClientWebSocketResponse, WSMsgType
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

HELLO, EDGE = 1, 2  # to the table
FRAME = 1  # to the phone
BUTTONS = {"act": 0, "peek": 1}
FRAME_HEAD = 6  # kind, frame number, lit


def key_of(link: str) -> bytes:
    fragment = urlsplit(link).fragment
    return base64.urlsafe_b64decode(fragment + "=" * (-len(fragment) % 4))


def sealed(key: bytes, seat: int, plain: bytes) -> bytes:
    nonce = os.urandom(12)
    aad = b"table-companion seat %d to-table" % seat
    return nonce + ChaCha20Poly1305(key).encrypt(nonce, plain, aad)


def opened(key: bytes, seat: int, message: bytes) -> bytes:
    aad = b"table-companion seat %d to-phone" % seat
    return ChaCha20Poly1305(key).decrypt(message[:12], message[12:], aad)


def hello(device: bytes, ms: int) -> bytes:
    return struct.pack(">B16sI", HELLO, device, ms & 0xFFFFFFFF)


def edge(number: int, button: str, pressed: bool, ms: int) -> bytes:
    return struct.pack(">BIBBI", EDGE, number, BUTTONS[button], int(pressed), ms & 0xFFFFFFFF)


class Phone:
    """One device on one seat's link: it says hello, numbers its edges and keeps every frame
    it opens, stamped with ``perf_counter`` as it arrives."""

    def __init__(self, link: str, host: str = "127.0.0.1") -> None:
        parts = urlsplit(link)
        self.seat = int(parts.path.rsplit("/", 1)[1])
        self.address = f"ws://{host}:{parts.port}/ws/seat/{self.seat}"
        self.key = key_of(link)
        self.device = os.urandom(16)
        self.frames: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        self._next = 1
        self._ws: ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None

    async def connect(self, http: ClientSession) -> None:
        """Open the seat and wait for its first frame (the seat is then the phone's)."""
        self._ws = await http.ws_connect(self.address)
        await self._ws.send_bytes(sealed(self.key, self.seat, hello(self.device, _ms())))
        self._reader = asyncio.ensure_future(self._read())
        await self.frames.get()

    async def send_edge(self, button: str, pressed: bool) -> None:
        assert self._ws is not None
        plain = edge(self._next, button, pressed, _ms())
        self._next += 1
        await self._ws.send_bytes(sealed(self.key, self.seat, plain))

    def forget_frames(self) -> None:
        while not self.frames.empty():
            self.frames.get_nowait()

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await self._reader

    async def _read(self) -> None:
        assert self._ws is not None
        async for message in self._ws:
            if message.type is not WSMsgType.BINARY:
                break
            plain = opened(self.key, self.seat, message.data)
            if plain[0] == FRAME:
                self.frames.put_nowait((time.perf_counter(), plain))


def _ms() -> int:
    """The phone's clock (the page's ``performance.now()``), in ms."""
    return int(time.monotonic() * 1000)
