"""The running table as its page (hardware/web/table_page.py) sees it: one :class:`TableDesk`.

It lives as long as ``companion play`` (a reload keeps it, and with it the page's sessions):
each run of the table attaches its app and table.toml. The page calls it on the server's
worker threads; what it reads of the app is the seat links, a copy taken under the GIL.
A save's reload goes through the loop's own queue, as SIGHUP's does (``ReloadRequested``);
the page's code is drawn on the loop, when a seat asks for it (:meth:`new_code`).
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from engine import registry
from hardware.config import MAX_BYTES, SeatConfig, TableConfig
from hardware.exc import ConfigError, UnreadableFile
from hardware.textfile import read_small_text
from hardware.web.table_access import Access, Clock

from . import doctor
from .app import App, ReloadRequested
from .atomic_file import write_atomically
from .audit import finished_games, run_audit
from .config_cli import checked_text
from .exc import AuditError
from .recent_log import RecentLog
from .statedir import journal_path

if TYPE_CHECKING:
    from hardware.web.table_page import TablePage

Put = Callable[[object], None]


class TableDesk:
    """table.toml at ``path``, the games in ``state_dir``, the loop's queue (``put``)."""

    def __init__(self, path: Path, state_dir: Path, put: Put, recent: RecentLog,
                 clock: Clock = time.monotonic) -> None:
        self.path = path
        self._access = Access(clock)  # the page's sessions: they outlive a reload
        self._journal = journal_path(state_dir)
        self._put = put
        self._recent = recent
        self._config: TableConfig | None = None
        self._app: App | None = None

    @cached_property
    def page(self) -> TablePage:
        """The page's routes, made when a table.toml first serves the page: a table without
        it never imports the web server (asyncio and all: BENCHMARKS.md's phone seats)."""
        from hardware.web.table_page import TablePage

        return TablePage(self, self._access)

    def attach(self, config: TableConfig, app: App) -> None:
        """This run of the table (after a reload, the new one)."""
        self._config, self._app = config, app

    def seats(self) -> list[dict[str, object]]:
        if self._config is None or self._app is None:
            return []
        down = set(self._app.links.down())
        return [{"number": seat.number, "kind": _kind(seat),
                 "link": _link(seat, seat.number not in down)} for seat in self._config.seats]

    def doctor(self) -> list[dict[str, object]]:
        if self._config is None:
            return []
        return [{"level": finding.level.value, "where": finding.where, "says": finding.says,
                 "fix": finding.fix} for finding in doctor.while_running(self._config)]

    def settings(self) -> str:
        try:
            return read_small_text(self.path, MAX_BYTES, "table.toml")
        except UnreadableFile as error:
            return f"# {error}\n"

    def save(self, text: str) -> str | None:
        try:
            checked_text(text, str(self.path))
        except ConfigError as error:
            return str(error)
        try:
            mode = stat.S_IMODE(os.stat(self.path).st_mode)
            write_atomically(self.path, text, mode)
        except OSError as error:
            return f"{self.path}: cannot save it ({error.strerror or error}); nothing changed"
        self._put(ReloadRequested())
        return None

    def games(self) -> list[dict[str, object]]:
        try:
            found = finished_games(self._journal)
        except AuditError:
            return []
        return [{"number": number, "name": _name(key), "seats": seats.replace(",", " ")}
                for number, key, seats in found]

    def audit(self, game: int) -> str:
        lines: list[str] = []
        if game not in {number for number, _, _ in finished_games(self._journal)}:
            raise LookupError(f"no finished game {game}")
        run_audit(str(self._journal.parent), game, None, lines.append)
        return "\n".join(lines) + "\n"

    def log(self) -> list[str]:
        return self._recent.lines()

    def new_code(self) -> str:
        """A code for the page, asked for on a seat's menu (the one before is void)."""
        return self._access.new_code()


def _kind(seat: SeatConfig) -> str:
    return "phone" if seat.phone else "pod" if seat.pod is not None else "wired"


def _link(seat: SeatConfig, up: bool) -> str:
    if seat.phone:
        return "held by a phone" if up else "free"
    if seat.pod is not None:
        return "pod online" if up else "pod offline"
    return "display answers" if up else "display down"


def _name(key: str) -> str:
    known = {game.key: game.name for game in registry.all_games()}
    return known.get(key, key)
