"""The phone seats' server against raw sockets: what a stranger sends is refused, and the
seated phone plays on."""

from __future__ import annotations

import asyncio
import os
import queue

from PIL import Image

from bench.phone_client import key_of, opened, sealed
from hardware.base import ButtonEdge
from hardware.web import wire
from hardware.web.server import NOT_THIS_SEAT, REFUSED, TOO_FAST, PhoneServer


def test_strangers_are_refused_and_the_seated_phone_plays_on():
    from aiohttp import ClientSession, WSMsgType

    events: queue.SimpleQueue = queue.SimpleQueue()
    server = PhoneServer([1], events.put, host="127.0.0.1", public_host="127.0.0.1").start()
    key = key_of(server.link(1))
    screen = server.screen(1)
    address = f"http://127.0.0.1:{server.port}/ws/seat/1"

    async def play() -> None:
        async with ClientSession() as http:
            async def refused(message: bytes) -> int | None:
                async with http.ws_connect(address) as ws:
                    await ws.send_bytes(message)
                    reply = await ws.receive(timeout=5)
                    assert reply.type in (WSMsgType.CLOSE, WSMsgType.CLOSED)  # never a frame
                    return ws.close_code
            seated = await http.ws_connect(address)
            await seated.send_bytes(sealed(key, 1, b"\x01" + bytes(16) + bytes(4)))
            assert (await seated.receive(timeout=5)).type is WSMsgType.BINARY  # welcome
            assert (await seated.receive(timeout=5)).type is WSMsgType.BINARY  # its frame
            assert await refused(b"garbage") == NOT_THIS_SEAT
            assert await refused(sealed(os.urandom(32), 1, b"\x01" + bytes(20))) == NOT_THIS_SEAT
            assert await refused(os.urandom(100_000)) == 1009  # too big
            async with http.ws_connect(address) as ws:  # another device, then a flood
                await ws.send_bytes(sealed(key, 1, b"\x01" + b"\xff" * 16 + bytes(4)))
                assert (await ws.receive(timeout=5)).type in (WSMsgType.CLOSE, WSMsgType.CLOSED)
            edge = wire.EDGE.to_bytes(1, "big") + (1).to_bytes(4, "big") + b"\x00\x01" + bytes(4)
            await seated.send_bytes(sealed(key, 1, edge))
            await seated.send_bytes(sealed(key, 1, b"\x02not an edge"))
            while (await seated.receive(timeout=5)).type is WSMsgType.BINARY:
                pass  # its ack, if it went before the refusal
            assert seated.close_code == REFUSED
            again = await http.ws_connect(address)  # the phone comes back and is seated
            await again.send_bytes(sealed(key, 1, b"\x01" + bytes(16) + bytes(4)))
            await again.receive(timeout=5)
            screen.show(Image.new("1", (128, 64), 1))
            while True:  # frames until the new one (a phone that lags skips to the latest)
                message = await again.receive(timeout=5)
                assert message.type is WSMsgType.BINARY
                plain = opened(key, 1, message.data)
                if plain[0] == wire.FRAME and plain[6:] == b"\xff" * wire.FRAME_BYTES:
                    break
            for _ in range(200):  # a flood closes its own socket
                if again.closed:
                    break
                await again.send_bytes(sealed(key, 1, edge))
            while (await again.receive(timeout=5)).type is WSMsgType.BINARY:
                pass
            assert again.close_code == TOO_FAST

    try:
        asyncio.run(asyncio.wait_for(play(), 30))
    finally:
        server.close()
    presses = []
    while not events.empty():
        event = events.get()
        if isinstance(event, ButtonEdge):
            presses.append(event)
    # The press once (the flood replayed its number), released when its socket was refused.
    assert [(e.button.value, e.pressed) for e in presses] == [("act", True), ("act", False)]
