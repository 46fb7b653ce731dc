"""``companion play``: wire a table (the terminal simulator, or real hardware) to the app."""

from __future__ import annotations

import contextlib
import queue

from engine import registry

from .app import App
from .lobby import Lobby


def play(game: str | None, players: int | None, table: str | None, seats: int = 6) -> int:
    events: queue.Queue = queue.Queue()
    if game is not None:
        registry.get(game)  # an unknown key fails here, with the list of games
    with contextlib.ExitStack() as stack:
        if table is not None:
            hardware, on_status = _real_table(table, events, stack)
        else:
            hardware, on_status = _terminal_table(max(seats, players or 0), events, stack)
        numbers = sorted(hardware.seats)
        joined = numbers[: players or 0]
        app = App(hardware, lobby=Lobby.prepared(numbers, joined, game), on_status=on_status)
        stack.callback(app.close)
        app.run(events)
    return 0


def _terminal_table(count: int, events: queue.Queue, stack: contextlib.ExitStack):
    from hardware.terminal import TerminalTable

    if not 1 <= count <= 8:
        raise ValueError(f"the simulated table has 1 to 8 seats, not {count}")
    terminal = stack.enter_context(TerminalTable(range(1, count + 1), events.put))
    return terminal.hardware(), terminal.set_status


def _real_table(path: str, events: queue.Queue, stack: contextlib.ExitStack):
    from hardware.build import build_table
    from hardware.config import load_config

    hardware = stack.enter_context(build_table(load_config(path), events.put))
    return hardware, lambda text: None
