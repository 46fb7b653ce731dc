"""Phones for the phone seats' tests: headless Chromium, one per device, driven by Selenium as
a thumb would (pointer for ACT, keys for PEEK), or the page's protocol spoken from Python over
the real sockets; both on the table's fake clock."""

from __future__ import annotations

import asyncio
import base64
import os
import shutil
import struct
import tempfile
import threading
from collections.abc import Callable

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from hardware.web import wire

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
needs_chromium = pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="Chromium is not installed: the phone seats' browser tests did not run "
           "(apt-get install chromium chromium-driver)")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")
WAIT = 10.0  # a failing test's limit: each wait ends on a page event long before


def digest(rows: bytes, lit: bool) -> str:
    """The page's FNV-1a of what it shows (hardware/web/static/seat.js)."""
    value = 0x811C9DC5
    for byte in rows if lit else bytes(len(rows)):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{value:08x}"


class Phone:
    """One device: its own browser profile, so its own device id."""

    def __init__(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        for flag in FLAGS:
            options.add_argument(flag)
        self._profile = tempfile.TemporaryDirectory(prefix="phone-")
        options.add_argument(f"--user-data-dir={self._profile.name}")
        options.binary_location = CHROMIUM or ""
        self.driver = webdriver.Chrome(service=Service(DRIVER), options=options)

    def open(self, address: str, now: float) -> None:
        """Load the page with the phone's clock standing at ``now`` (the table's fake one);
        the public page (``/table``) reads the same clock."""
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
            "source": f"window.fakeNow = {round(now * 1000)}; "
                      "window.seatClock = () => window.fakeNow; "
                      "window.tableClock = () => window.fakeNow;"})
        self.driver.get(address)

    def state(self, name: str) -> str | None:
        return self.driver.execute_script(f"return document.body.dataset.{name}")

    def wait_for(self, name: str, value: str) -> None:
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(self.driver, WAIT, poll_frequency=0.005).until(
            lambda _: self.state(name) == value,
            f"the page's {name} never became {value!r} (it is {self.state(name)!r})")

    def wait_text(self, element: str, text: str) -> None:
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(self.driver, WAIT, poll_frequency=0.005).until(
            lambda _: self.text(element) == text,
            f"the page's {element} never said {text!r} (it says {self.text(element)!r})")

    def drive(self, button: str, pressed: bool, now: float) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        self.driver.execute_script("window.fakeNow = arguments[0]", round(now * 1000))
        actions = ActionChains(self.driver)
        if button == "act":  # a pointer (touch and mouse alike)
            element = self.driver.find_element("id", "act")
            (actions.click_and_hold(element) if pressed else actions.release(element)).perform()
        else:  # the keyboard
            (actions.key_down("p") if pressed else actions.key_up("p")).perform()

    def text(self, element: str) -> str:
        return self.driver.find_element("id", element).text

    def close(self) -> None:
        self.driver.quit()
        self._profile.cleanup()


class SocketPhones:
    """Phones without a browser: seat.js's protocol in Python (its hello, its numbered edges,
    sealed as the page seals them) over the real server's WebSockets, one device each.

    ``drive`` returns once the table acknowledged the edge, so the app's queue already holds
    whatever the press made; ``shown`` is each seat's latest frame, as the page would draw it.
    """

    def __init__(self, links: dict[int, str], clock: Callable[[], float]) -> None:
        self._clock = clock
        self._links = links
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._changed = threading.Condition()
        self.shown: dict[int, tuple[bytes, bool]] = {}
        self._acked: dict[int, int] = {}
        self._pressed: dict[int, int] = {}
        self._sockets: dict[int, object] = {}
        self._http = self._call(self._session())

    def seat_all(self) -> None:
        for seat in self._links:
            self._call(self._join(seat))

    def drive(self, seat: int, button: str, pressed: bool) -> None:
        number = self._pressed[seat] = self._pressed[seat] + 1
        plain = struct.pack(">BIBBI", wire.EDGE, number, ("act", "peek").index(button), pressed,
                            self._ms())
        self._call(self._socket(seat).send_bytes(self._seal(seat, plain)))
        self._wait(lambda: self._acked[seat] >= number, f"seat {seat}'s press {number} acked")

    def wait_shows(self, seat: int, rows: bytes, lit: bool) -> None:
        self._wait(lambda: self.shown.get(seat) == (rows, lit), f"seat {seat} shows its frame")

    def close(self) -> None:
        self._call(self._http.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def _ms(self) -> int:
        return round(self._clock() * 1000)

    def _key(self, seat: int) -> bytes:
        fragment = self._links[seat].split("#")[1]
        return base64.urlsafe_b64decode(fragment + "=" * (-len(fragment) % 4))

    def _seal(self, seat: int, plain: bytes) -> bytes:
        nonce = os.urandom(12)
        aad = b"table-companion seat %d to-table" % seat
        return nonce + ChaCha20Poly1305(self._key(seat)).encrypt(nonce, plain, aad)

    def _open(self, seat: int, sealed: bytes) -> bytes:
        aad = b"table-companion seat %d to-phone" % seat
        return ChaCha20Poly1305(self._key(seat)).decrypt(sealed[:12], sealed[12:], aad)

    def _socket(self, seat: int):
        return self._sockets[seat]

    def _call(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(WAIT)

    def _wait(self, done: Callable[[], bool], what: str) -> None:
        with self._changed:
            assert self._changed.wait_for(done, WAIT), f"never: {what}"

    async def _session(self):
        from aiohttp import ClientSession

        return ClientSession()

    async def _join(self, seat: int) -> None:
        address = self._links[seat].split("#")[0].replace("http://", "ws://").replace(
            "/seat/", "/ws/seat/")
        ws = self._sockets[seat] = await self._http.ws_connect(address)
        self._acked[seat] = self._pressed[seat] = 0
        hello = struct.pack(">B16sI", wire.HELLO, seat.to_bytes(16, "big"), self._ms())
        await ws.send_bytes(self._seal(seat, hello))
        asyncio.ensure_future(self._read(seat, ws))

    async def _read(self, seat: int, ws) -> None:
        async for message in ws:
            plain = self._open(seat, message.data)
            with self._changed:
                if plain[0] == wire.FRAME:
                    self.shown[seat] = (plain[6:], plain[5] == 1)
                elif plain[0] == wire.ACK:
                    self._acked[seat] = int.from_bytes(plain[1:5], "big")
                self._changed.notify_all()
