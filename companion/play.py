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
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from engine import registry
from hardware.base import QuitRequested

from .app import App, ReloadRequested
from .journal_sqlite import SqliteJournal
from .lobby import Lobby
from .sdnotify import Notifier
from .statedir import choose_state_dir, journal_path, prepare_state_dir

log = logging.getLogger(__name__)


def play(game: str | None, players: int | None, table: str | None, seats: int = 6, *,
         ui: str = "terminal", volume: int = 80, masking: bool = False,
         public_screen: bool = False, state_dir: str | None = None,
         ack_fd: int | None = None) -> int:
    events: queue.SimpleQueue = queue.SimpleQueue()
    if game is not None:
        registry.get(game)  # an unknown key fails here, with the list of games
    config = _load_config(table) if table is not None else None
    with _signals_into(events, reloadable=config is not None), _ack_stream(ack_fd) as acks:
        while _session(game, players, seats, ui=ui, volume=volume, masking=masking,
                       public_screen=public_screen, state_dir=state_dir, acks=acks,
                       events=events, config=config):
            config = _reloaded(table, config)
    return 0


def _session(game: str | None, players: int | None, seats: int, *,
             ui: str, volume: int, masking: bool, public_screen: bool, state_dir: str | None,
             acks: TextIO | None, events: queue.SimpleQueue, config) -> bool:
    """One run of the table, until quit (False) or a reload is asked for (True)."""
    with contextlib.ExitStack() as stack:
        if config is not None:
            hardware, on_status = _real_table(config, events, stack)
            if public_screen:
                hardware.public = _public_window()  # closed with the hardware
        elif ui == "window":
            hardware, on_status = _window_table(max(seats, players or 0), events, stack)
        else:
            hardware, on_status = _terminal_table(max(seats, players or 0), events, stack)
        # volume 0 is text only: not even the audio library is loaded (a faster start)
        hardware.speaker = _speaker(volume, masking, stack) if volume > 0 else None
        numbers = sorted(hardware.seats)
        joined = numbers[: players or 0]
        where = Path(state_dir) if state_dir else choose_state_dir(
            config.state_dir if config is not None else None)
        journal = SqliteJournal(journal_path(prepare_state_dir(where)), acks=acks)
        stack.callback(journal.close)
        app = App(hardware, lobby=Lobby.prepared(numbers, joined, game), on_status=on_status,
                  journal=journal, notifier=Notifier())
        stack.callback(app.close)
        app.run(events)
    return app.reload_requested


def _load_config(path: str):
    from hardware.config import load_config

    return load_config(path)


def _reloaded(path: str | None, config):
    """table.toml read again; when it no longer validates, the one in use is kept."""
    from hardware.config import ConfigError

    assert path is not None
    try:
        return _load_config(path)
    except ConfigError as error:
        log.error("SIGHUP: %s; keeping the table.toml loaded before", error)
        return config


@contextlib.contextmanager
def _signals_into(events: queue.SimpleQueue, *, reloadable: bool) -> Iterator[None]:
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
def _ack_stream(fd: int | None) -> Iterator[TextIO | None]:
    if fd is None:
        yield None
        return
    with os.fdopen(fd, "w", buffering=1) as stream:
        yield stream


def _terminal_table(count: int, events: queue.Queue, stack: contextlib.ExitStack):
    from hardware.terminal import TerminalTable

    if not 1 <= count <= 8:
        raise ValueError(f"the simulated table has 1 to 8 seats, not {count}")
    terminal = stack.enter_context(TerminalTable(range(1, count + 1), events.put))
    return terminal.hardware(), terminal.set_status


def _real_table(config, events: queue.SimpleQueue, stack: contextlib.ExitStack):
    from hardware.build import build_table

    hardware = stack.enter_context(build_table(config, events.put))
    return hardware, lambda text: None


def _window_table(count: int, events: queue.Queue, stack: contextlib.ExitStack):
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from hardware.pygame_window import WindowTable

    window = stack.enter_context(WindowTable(range(1, count + 1), events.put))
    return window.hardware(), window.set_status


def _public_window():
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from hardware.pygame_public import PublicWindow

    return PublicWindow(time.monotonic)


def _speaker(volume: int, masking: bool, stack: contextlib.ExitStack):
    """The loudspeaker, or None: then narration is text on the screens, at the same moments."""
    from .voices import table_speaker

    speaker = table_speaker(None, volume, masking)
    if speaker is not None:
        stack.callback(speaker.close)
    return speaker
