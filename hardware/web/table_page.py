"""The table's page (``/settings``): its seats, doctor, settings, games and log in a browser.

Served by the phone seats' server (its ``Pages``); what it shows and changes comes from a
:class:`Desk` the companion gives it, so this module knows pages, not tables. What is public
and what needs the code shown at the table is in docs/table-page.md: the seat list is
public; everything else needs a session (:mod:`hardware.web.table_access`). A change is a
POST carrying the session's cookie and its CSRF token in a header, from this page's own
origin; typing in the code (asked for on a seat's menu, never here) is the only POST without
a session. A body over
MAX_BODY bytes is refused before it is read. The desk's work (a file, the journal, the
doctor) runs on a worker thread, so the phone seats' sockets never wait for it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Protocol, TypeVar

from ..exc import RequestRefused
from .http import TEXT, Request, Response, Routes
from .server import STATIC
from .table_access import Access, Session

COOKIE = "table_session"
CSRF_HEADER = "X-Table-Token"
MAX_BODY = 16 * 1024 + 256  # a table.toml's limit (hardware/config.py MAX_BYTES), and a little
PAGE = "settings.html"

T = TypeVar("T")


class Desk(Protocol):
    """The table as its page sees it (companion/table_desk.py); each call may block."""

    def seats(self) -> list[dict[str, object]]:
        """Each seat: its number, its kind (wired, pod, phone) and its link's state."""

    def doctor(self) -> list[dict[str, object]]:
        """The doctor's findings that need none of what the running table holds."""

    def settings(self) -> str:
        """table.toml as it is on disk."""

    def save(self, text: str) -> str | None:
        """Check ``text`` as check-config does; save it and reload (None), or its message."""

    def games(self) -> list[dict[str, object]]:
        """The journal's finished games, newest first."""

    def audit(self, game: int) -> str:
        """The audit of finished game ``game`` (``companion audit``'s report)."""

    def log(self) -> list[str]:
        """The service's recent log lines, oldest first."""


class TablePage:
    """The page's routes, on the server's thread and event loop."""

    def __init__(self, desk: Desk, access: Access) -> None:
        self._desk = desk
        self._access = access
        self._page = (STATIC / PAGE).read_bytes()

    def add_routes(self, routes: Routes) -> None:
        routes.add("GET", "/settings", self._show_page)
        routes.add("GET", "/settings/api/seats", self._public(self._desk.seats))
        routes.add("POST", "/settings/api/unlock", self._unlock)
        routes.add("GET", "/settings/api/session", self._session)
        routes.add("GET", "/settings/api/doctor", self._private(self._desk.doctor))
        routes.add("GET", "/settings/api/settings", self._private(self._desk.settings))
        routes.add("GET", "/settings/api/games", self._private(self._desk.games))
        routes.add("GET", "/settings/api/log", self._private(self._desk.log))
        routes.add("GET", r"/settings/api/games/(?P<game>\d{1,9})/audit", self._audit)
        routes.add("POST", "/settings/api/settings", self._save)

    async def _show_page(self, request: Request) -> Response:
        return Response(self._page, "text/html")

    def _public(self, read: Callable[[], object]):
        async def serve(request: Request) -> Response:
            return _json(await _off_loop(read))
        return serve

    def _private(self, read: Callable[[], object]):
        async def serve(request: Request) -> Response:
            self._need_session(request)
            return _json(await _off_loop(read))
        return serve

    async def _unlock(self, request: Request) -> Response:
        _same_origin(request)
        guess = (await _body(request, 64)).strip()
        session = self._access.unlock(guess)
        if session is None:
            raise RequestRefused(403, "not the code shown at the table (or it ran out): "
                          "ask a seat for a new one")
        response = _json({"csrf": session.csrf})
        # A browser session's cookie (no expiry: the server ends the session).
        response.headers["Set-Cookie"] = (f"{COOKIE}={session.token}; HttpOnly; "
                                          "Path=/settings; SameSite=Strict")
        return response

    async def _session(self, request: Request) -> Response:
        session = self._need_session(request)
        return _json({"csrf": session.csrf})

    async def _audit(self, request: Request) -> Response:
        self._need_session(request)
        game = int(request.match["game"])
        try:
            text = await _off_loop(lambda: self._desk.audit(game))
        except LookupError as error:
            raise RequestRefused(404, str(error)) from None
        return Response(text.encode(), TEXT, headers={
            "Content-Disposition": f'attachment; filename="game-{game}-audit.txt"'})

    async def _save(self, request: Request) -> Response:
        _same_origin(request)
        if not self._access.allows(request.cookies.get(COOKIE), request.headers.get(
                CSRF_HEADER.lower())):
            raise RequestRefused(403, "type the code shown at the table first")
        text = await _body(request, MAX_BODY)
        refusal = await _off_loop(lambda: self._desk.save(text))
        if refusal is not None:
            return _json({"saved": False, "message": refusal}, status=422)
        return _json({"saved": True})

    def _need_session(self, request: Request) -> Session:
        session = self._access.session(request.cookies.get(COOKIE))
        if session is None:
            raise RequestRefused(403, "type the code shown at the table first")
        return session


async def _off_loop(work: Callable[[], T]) -> T:
    return await asyncio.get_running_loop().run_in_executor(None, work)


async def _body(request: Request, limit: int) -> str:
    """The request's UTF-8 body, refused past ``limit`` bytes before more is read."""
    try:
        return (await request.body(limit)).decode("utf-8")
    except UnicodeDecodeError:
        raise RequestRefused(400, "not UTF-8 text") from None


def _same_origin(request: Request) -> None:
    """A POST from this page, not another site's: its Origin, when sent, is this server."""
    origin = request.headers.get("origin")
    if origin is not None and origin != f"http://{request.headers.get('host')}":
        raise RequestRefused(403, "not from the table's page")


def _json(value: object, status: int = 200) -> Response:
    return Response(json.dumps(value).encode(), "application/json; charset=utf-8", status)
