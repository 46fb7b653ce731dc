"""The two ways to run the app on the real clock: its own loop, and the naive baseline.

:meth:`App.run` blocks on the event queue until the next deadline. The naive loop is what one
writes first: look at the queue and the clock every ``POLL`` seconds. Both start the app the
same way and stop on :class:`hardware.base.QuitRequested`.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable

from companion.app import App
from companion.lobby import StartGame
from engine import registry

from .bot import GAME

POLL = 0.010
SETUP_IDS = ("done", "ready")  # everything before the Lookout's first flip

Loop = Callable[[App, queue.Queue], None]


def event_loop(app: App, events: queue.Queue) -> None:
    app.run(events)


def poll_loop(app: App, events: queue.Queue) -> None:
    app.start()
    while app.running:
        while not events.empty():
            app.handle(events.get_nowait())
        app.advance()
        time.sleep(POLL)


LOOPS: dict[str, Loop] = {"event": event_loop, "poll": poll_loop}


def deal_to_start(app: App, players: int, options: dict[str, str] | None = None) -> int:
    """Start a game on ``app``'s clock, every player cuts, and do its setup; returns the
    Lookout's seat."""
    game = registry.get(GAME)
    seats = tuple(range(1, players + 1))
    app.start_game(StartGame(game, seats, dict(options or {})), app.clock())
    for seat in seats:
        app.choose(seat, "cut", app.clock())
    while True:
        offered = {seat: [a.id for a in app.actions(seat)] for seat in seats}
        lookout = next((seat for seat, ids in offered.items() if "start" in ids), None)
        if lookout is not None:
            return lookout
        seat, action_id = next((s, i) for s, ids in offered.items() for i in ids
                               if i in SETUP_IDS)
        app.choose(seat, action_id, app.clock())
