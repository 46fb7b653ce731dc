"""``companion play``: wire a table (terminal, emulator window, or real hardware) to the app.

Signals go into the main loop as events (nobodd style: a handler only puts an event on the
queue, a ``SimpleQueue``, whose ``put`` is safe inside a handler): SIGTERM ends the loop
cleanly; SIGHUP, on a real table, ends it and the table starts again with table.toml read
anew, resuming its game from the journal exactly as after a crash. A table.toml that no
longer validates is reported and the old one kept.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from engine import registry
from hardware.base import QuitRequested, SeatHardware, Speaker, TableHardware
from hardware.textfile import read_small_text

from .app import App, ReloadRequested
from .journal_sqlite import SqliteJournal
from .lobby import Lobby
from .memory import TableMemory
from .sdnotify import Notifier
from .speaker import LateSpeaker
from .statedir import (
    choose_runtime_dir,
    choose_state_dir,
    hold_state_dir,
    journal_path,
    memory_path,
    prepare_state_dir,
)

if TYPE_CHECKING:  # imported where needed (a table.toml, pygame): here for their types only
    from hardware.config import TableConfig
    from hardware.window.public import PublicWindow

    from .table_desk import TableDesk

log = logging.getLogger(__name__)

Events = queue.SimpleQueue[object]  # the main loop's: the tables' edges, the signals' requests
Status = Callable[[str], None]  # shows a line on the simulated table (a real one has none)

MAX_DECK_LIST_BYTES = 64 * 1024  # a deck list names a few hundred cards at most


@dataclass(frozen=True)
class PlaySettings:
    """Everything ``companion play`` was asked for (see ``companion play --help``)."""

    game: str | None = None
    players: int | None = None
    table: str | None = None
    seats: int = 6
    ui: str = "terminal"
    volume: int = 80
    masking: bool = False
    public_screen: bool = False
    state_dir: str | None = None
    ack_fd: int | None = None
    deck_list: str | None = None
    phones: int = 0
    phone_port: int = 8023


def play(settings: PlaySettings) -> int:
    _check_players(settings)
    events: Events = queue.SimpleQueue()
    deck_lists = _deck_lists(settings)
    config = _load_config(settings.table) if settings.table is not None else None
    reloadable = config is not None
    where = prepare_state_dir(Path(settings.state_dir) if settings.state_dir else
                              choose_state_dir(config.state_dir if config else None))
    lock = hold_state_dir(where)  # for the process's life: reloads keep it
    if settings.table is None and settings.ui == "terminal":
        from hardware.terminal.input import check_keys_can_arrive

        check_keys_can_arrive(sys.stdin.fileno())  # before the speaker speaks of its device
    speaker = _speaker(where, settings) if settings.volume > 0 else None  # reloads keep it
    try:
        with (_signals_into(events, reloadable=reloadable), _ack_stream(settings.ack_fd) as acks,
              _table_desk(settings.table, where, events) as desk):
            while _session(settings, where, config, deck_lists, acks, events, speaker, desk):
                config = _reloaded(settings.table, config)
    finally:
        if speaker is not None:
            speaker.close()
        os.close(lock)
    return 0


def _check_players(settings: PlaySettings) -> None:
    """``--players`` outside the chosen game's range is refused before the table opens, in
    the game's own numbers: not accepted only for Start to refuse it at the table."""
    if settings.game is None or settings.players is None:
        return
    game = registry.get(settings.game)
    if not game.min_players <= settings.players <= game.max_players:
        raise ValueError(f"--players {settings.players}: {game.name} is for "
                         f"{game.min_players}-{game.max_players} players")


def _deck_lists(settings: PlaySettings) -> dict[str, tuple[str, ...]]:
    """The table's own card list for the chosen game (They Live's War Table deck)."""
    game = registry.get(settings.game) if settings.game is not None else None
    if settings.deck_list is None:
        return {}
    if game is None:
        raise ValueError("--deck-list needs the game too, e.g. companion play they-live "
                         "--deck-list FILE")
    text = read_small_text(settings.deck_list, MAX_DECK_LIST_BYTES, "deck list")
    try:
        return {game.key: game.parse_deck_list(text)}
    except ValueError as error:
        raise ValueError(f"{settings.deck_list}: {error}") from None


def _session(settings: PlaySettings, where: Path, config: TableConfig | None,
             deck_lists: dict[str, tuple[str, ...]], acks: TextIO | None,
             events: Events, speaker: LateSpeaker | None, desk: TableDesk | None) -> bool:
    """One run of the table, until quit (False) or a reload is asked for (True)."""
    with contextlib.ExitStack() as stack:
        count = max(settings.seats, settings.players or 0)
        if speaker is not None and config is None:
            # The audio library may print to the terminal while it looks for a sound card:
            # open the speaker before the simulated table takes the screen.
            speaker.open_now()
        if settings.phones and config is not None:
            raise ValueError("--phones is for the simulated table; a real table's phone seats "
                             "are [[seat]] sections with phone = true in table.toml")
        phones = _phones(count, settings, events, stack) if config is None else {}
        if config is not None:
            hardware, on_status = _real_table(config, events, stack, desk)
            if settings.public_screen:
                hardware.public = _public_window()  # closed with the hardware
        elif settings.ui == "window":
            hardware, on_status = _window_table(count, events, stack)
        else:
            hardware, on_status = _terminal_table(count, events, stack)
        hardware.seats.update(phones)
        if config is not None:
            _print_phone_links(hardware.seats)
        _public_in_browser(hardware)
        if hardware.public is not None:  # only a screen at the table draws them (base.py)
            hardware.public.give_links({n: seat.phone_link for n, seat in hardware.seats.items()
                                        if seat.phone_link})
        hardware.speaker = speaker
        stack.callback(setattr, hardware, "speaker", None)  # the speaker outlives the table
        if config is None:  # log lines would scribble over the simulated table
            stack.enter_context(_logging_to(on_status))
        numbers = sorted(hardware.seats)
        memory = TableMemory(memory_path(where))
        lobby = Lobby.prepared(numbers, numbers[: settings.players or 0], settings.game,
                               memory=memory,
                               has_speaker=speaker is not None and speaker.available())
        journal = SqliteJournal(journal_path(where), acks=acks, runtime=choose_runtime_dir(),
                                exclusive=True)
        stack.callback(journal.close)
        page = desk is not None and config is not None and config.page
        app = App(hardware, lobby=lobby, on_status=on_status, journal=journal,
                  notifier=Notifier(), deck_lists=deck_lists,
                  page_code=desk.new_code if desk is not None and page else None)
        stack.callback(app.close)
        if desk is not None and config is not None:
            desk.attach(config, app)
        app.run(events, on_ready=speaker.open_soon if speaker is not None else None)
    return app.reload_requested


def _load_config(path: str) -> TableConfig:
    from hardware.config import load_config

    return load_config(path)


def _reloaded(path: str | None, config: TableConfig | None) -> TableConfig | None:
    """table.toml read again; when it no longer validates, the one in use is kept."""
    from hardware.exc import ConfigError

    assert path is not None
    try:
        return _load_config(path)
    except ConfigError as error:
        log.error("SIGHUP: %s; keeping the table.toml loaded before", error)
        return config


@contextlib.contextmanager
def _signals_into(events: Events, *, reloadable: bool) -> Iterator[None]:
    handlers = {signal.SIGTERM: lambda *_: events.put(QuitRequested("SIGTERM"))}
    if reloadable:
        handlers[signal.SIGHUP] = lambda *_: events.put(ReloadRequested())
    previous = {number: signal.signal(number, handler) for number, handler in handlers.items()}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def _table_desk(table: str | None, where: Path, events: Events) -> Iterator[TableDesk | None]:
    """A real table's desk for its page (served when table.toml says page = true), kept
    across reloads with the page's sessions; it keeps the recent log while it lasts."""
    if table is None:
        yield None
        return
    from .recent_log import RecentLog
    from .table_desk import TableDesk

    recent = RecentLog()
    root = logging.getLogger()
    root.addHandler(recent)
    try:
        yield TableDesk(Path(table), where, events.put, recent)
    finally:
        root.removeHandler(recent)


@contextlib.contextmanager
def _logging_to(show: Status) -> Iterator[None]:
    """While a simulated table owns the terminal, warnings go to its message line."""

    class StatusHandler(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            show(f"{record.levelname.lower()}: {record.getMessage()}")

    root = logging.getLogger()
    handler = StatusHandler(logging.WARNING)
    saved, root.handlers = root.handlers, [handler]
    try:
        yield
    finally:
        root.handlers = saved


@contextlib.contextmanager
def _ack_stream(fd: int | None) -> Iterator[TextIO | None]:
    if fd is None:
        yield None
        return
    with os.fdopen(fd, "w", buffering=1) as stream:
        yield stream


def _terminal_table(count: int, events: Events,
                    stack: contextlib.ExitStack) -> tuple[TableHardware, Status]:
    from hardware.terminal.table import TerminalTable

    if not 1 <= count <= 8:
        raise ValueError(f"the simulated table has 1 to 8 seats, not {count}")
    terminal = stack.enter_context(TerminalTable(range(1, count + 1), events.put))
    return terminal.hardware(), terminal.set_status


def _real_table(config: TableConfig, events: Events, stack: contextlib.ExitStack,
                desk: TableDesk | None) -> tuple[TableHardware, Status]:
    from gpiozero.exc import BadPinFactory

    from hardware.build import build_table

    page = desk.page if desk is not None and config.page else None
    try:
        hardware = stack.enter_context(build_table(config, events.put, page=page))
    except BadPinFactory as error:
        raise RuntimeError(
            f"no GPIO on this machine ({error}): on a Raspberry Pi install lgpio (sudo apt "
            "install python3-lgpio, seen by a venv made with --system-site-packages, as "
            "systemd/install.sh does); elsewhere leave out --table to play on "
            "the simulated table") from None
    return hardware, lambda text: None


def _window_table(count: int, events: Events,
                  stack: contextlib.ExitStack) -> tuple[TableHardware, Status]:
    from hardware.window.table import WindowTable

    window = stack.enter_context(WindowTable(range(1, count + 1), events.put))
    return window.hardware(), window.set_status


def _phones(count: int, settings: PlaySettings, events: Events,
            stack: contextlib.ExitStack) -> dict[int, SeatHardware]:
    """``--phones N``: phone seats after the simulated ones, their links printed before the
    simulated table takes the terminal; the server stops with the session."""
    if not settings.phones:
        return {}
    from hardware.web.table import phone_seats

    if count + settings.phones > 8:
        raise ValueError(f"a table has at most 8 seats: {count} simulated and "
                         f"{settings.phones} phones are too many (lower --seats or --phones)")
    seats = phone_seats(range(count + 1, count + 1 + settings.phones), events.put,
                        port=settings.phone_port)
    stack.callback(next(iter(seats.values())).inputs[0].close)  # type: ignore[attr-defined]
    _print_phone_links(seats)
    if settings.ui == "terminal" and sys.stdin.isatty() and sys.stdout.isatty():
        # The simulated table takes the whole terminal: the links stay readable until the
        # person here has them (the server already answers, so phones may open them later).
        input("Open each link on its phone (any time), then press Enter for the table: ")
    return seats


def _print_phone_links(seats: dict[int, SeatHardware]) -> None:
    """Each phone seat's link, for the person at this terminal only: it holds the seat's key,
    so it never goes to a log (a service's output is its journal)."""
    links = [(n, seat.phone_link) for n, seat in seats.items() if seat.phone_link]
    if links and sys.stdout.isatty():
        from hardware.web.table import phone_server

        for number, link in links:
            print(f"Phone seat {number}: {link}")
        server = phone_server(seats)
        if server is not None:
            print(f"Public screen (any browser): {server.public_link()}")


def _public_in_browser(hardware: TableHardware) -> None:
    """Where the web server runs (phone seats, or the table's page), it serves the public
    screen too (``/table``); its address holds no key, so it may be printed and logged."""
    if hardware.server is None and not any(seat.phone_link for seat in hardware.seats.values()):
        return  # no server: nor its imports
    from hardware.web.table import with_browser_public

    server = with_browser_public(hardware)
    if server is not None:
        log.info("public screen in a browser: %s", server.public_link())


def _public_window() -> PublicWindow:
    from hardware.window.public import PublicWindow

    return PublicWindow(time.monotonic)


def _speaker(where: Path, settings: PlaySettings) -> LateSpeaker:
    """The loudspeaker (opened later); where it cannot open, narration is text on the
    screens, at the same moments. Its prompts are cached in the same state directory as the
    journal. Volume 0 is text only."""

    def open_speaker() -> Speaker | None:
        from .voices import table_speaker

        return table_speaker(where, settings.volume, settings.masking)

    return LateSpeaker(open_speaker)
