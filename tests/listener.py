"""A viewer of the public page (/ws/table) for tests, on a real WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading

import aiohttp

from .phones import WAIT


class Listener:
    """A viewer on a real WebSocket (aiohttp's client on a thread of its own), keeping every
    message the public page is sent, as bytes."""

    def __init__(self, address: str) -> None:
        self.received: queue.Queue[bytes] = queue.Queue()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._task = asyncio.run_coroutine_threadsafe(self._start(address), self._loop).result()

    async def _start(self, address: str) -> asyncio.Task:
        return asyncio.ensure_future(self._listen(address))

    async def _stop(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    async def _listen(self, address: str) -> None:
        async with aiohttp.ClientSession() as client, client.ws_connect(address) as ws:
            async for message in ws:
                self.received.put(message.data)

    def until(self, marker: bytes) -> list[bytes]:
        """Every message up to ``marker`` (not included)."""
        messages = []
        while (message := self.received.get(timeout=WAIT)) != marker:
            messages.append(message)
        return messages

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()
