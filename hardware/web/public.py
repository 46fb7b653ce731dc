"""The public screen in any browser: a TV's, a tablet's in the middle of the table.

It is one more :class:`PublicScreen`: the app hands it the same :class:`PublicPage` the HDMI
window gets, which has no field for a secret, so no private frame can reach it; it is also
the only thing it is ever handed, so anyone on the network may read it (it is not sealed).
The page (``/table``) opens one WebSocket (``/ws/table``) and the server pushes each page as
JSON when it changes, never on a timer: the browser runs the hourglass's sand on by itself
from (remaining, length, running), so a running hourglass costs no message a second. A viewer
sends nothing: any message from it closes its socket; at most MAX_VIEWERS watch at once.

The app's thread calls :meth:`BrowserPublic.show`; it only posts the encoded message to the
server's thread, where the viewers live.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable
from typing import Protocol

from ..base import Code, PublicPage, PublicScreen
from ..qr import qr_modules
from .http import Request, WebSocket

MAX_VIEWERS = 8
MAX_MESSAGE = 64  # a viewer has nothing to say
HEARTBEAT = 2.0
DRIFT = 0.05  # seconds: a running hourglass within this of where the browser has it is the same
REFUSED = 4400
FULL = 4503

Post = Callable[..., object]  # runs a call on the server's thread


class Viewer(Protocol):
    """A viewer's socket as the public screen sees it (server.py's ``PhoneSocket``): messages
    in order (pages, reveals and tunes alike: a page a few seconds old still tells what
    happened), at most its PENDING last for a viewer that lags."""

    def send(self, message: bytes) -> None: ...

    async def run(self) -> None: ...


def page_message(page: PublicPage) -> bytes:
    """The page as the browser reads it; the same page always gives the same bytes."""
    fields = dataclasses.asdict(page)
    fields["code"] = None if page.code is None else _code(page.code)
    return _encoded({"kind": "page", **fields})


def _code(code: Code) -> dict[str, object]:
    """The code with its QR matrix (made here, as the window makes it: the page has no QR
    library), one string of 0 and 1 a row."""
    rows = ["".join("1" if dark else "0" for dark in row) for row in qr_modules(code.text)]
    return {"label": code.label, "text": code.text, "qr": rows}


def _encoded(message: dict[str, object]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()


def runs_on(before: PublicPage, shown_at: float, page: PublicPage, now: float) -> bool:
    """Whether ``page`` at ``now`` is ``before`` (given at ``shown_at``) with only its sand run
    on: a browser showing ``before`` already shows it."""
    old, new = before.sand, page.sand
    if old is None or new is None or dataclasses.replace(before, sand=new) != page:
        return before == page
    same_glass = (old.length, old.running, old.shown) == (new.length, new.running, new.shown)
    return same_glass and abs(old.left(now - shown_at) - new.remaining) < DRIFT


class BrowserPublic(PublicScreen):
    """The public screen for every browser watching ``/table``."""

    def __init__(self, post: Post, viewer: Callable[[WebSocket], Viewer]) -> None:
        self._post = post
        self._viewer = viewer
        self._shown: tuple[PublicPage, float] | None = None  # the app's thread only
        self._page: bytes | None = None  # the rest: the server's thread only
        self._viewers: set[Viewer] = set()

    # --- the app's thread --------------------------------------------------------------------

    def show(self, page: PublicPage, now: float) -> None:
        if self._shown is not None and runs_on(*self._shown, page, now):
            return
        self._shown = (page, now)
        self._post(self._put_page, page_message(page))

    def reveal(self, text: str, now: float) -> None:
        self._post(self._put, _encoded({"kind": "reveal", "text": text}))

    def cue(self, tune: str, now: float) -> None:
        self._post(self._put, _encoded({"kind": "cue", "tune": tune}))

    # --- the server's thread -----------------------------------------------------------------

    def _put_page(self, message: bytes) -> None:
        self._page = message
        for viewer in self._viewers:
            viewer.send(message)

    def _put(self, message: bytes) -> None:
        for viewer in self._viewers:
            viewer.send(message)

    async def socket(self, request: Request) -> None:
        """One viewer: the current page at once, then each change; it may say nothing."""
        ws = await request.websocket(MAX_MESSAGE, HEARTBEAT)
        if len(self._viewers) >= MAX_VIEWERS:
            ws.close(FULL, "too many viewers")
            return
        viewer = self._viewer(ws)
        self._viewers.add(viewer)
        sender = asyncio.ensure_future(viewer.run())
        if self._page is not None:
            viewer.send(self._page)
        try:
            if await ws.receive() is not None:
                ws.close(REFUSED, "a viewer sends nothing")
        finally:
            self._viewers.discard(viewer)
            sender.cancel()
