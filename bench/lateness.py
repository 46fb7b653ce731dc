"""Hourglass expiry lateness on the real clock: many short glasses, each timed to its end.

A short glass comes from the Lookout's own move: the game starts (the glass turned over),
and ``d`` seconds later, with the app's loop running, the Lookout presses ACT on its mock pin
to flip it, leaving exactly ``d`` seconds on top. The loop then sleeps until the expiry; the
moment the "lose" tune starts, minus the expiry, is the lateness (negative would be early).
"""

from __future__ import annotations

import queue
import random
import threading
import time

from companion.app import App
from hardware.base import ButtonName, QuitRequested
from hardware.headless import HeadlessTable

from .bot import BENCH_KEY
from .loops import LOOPS, deal_to_start
from .report import Figure
from .sizes import Sizes
from .stats import spread
from .table import PLAYERS, SEATS

SHORTEST, LONGEST = 0.3, 0.6  # seconds of sand; longer than the loop takes to start
PRESS_TIME = 0.05  # how long the finger stays on ACT
END_TUNE = "♪ lose"
POLL = "10 ms poll"


def measure(sizes: Sizes) -> list[Figure]:
    trials = sizes.expiries
    ours = [seconds * 1000 for seconds in lateness(trials, "event")]
    poll = [seconds * 1000 for seconds in lateness(trials, "poll")]
    mine, naive = spread(ours), spread(poll)
    rows = (("p50", mine.p50, naive.p50, None), ("p99", mine.p99, naive.p99, 2.0),
            ("max", mine.max, naive.max, None))
    figures = [Figure(f"expiry_late_{name}", f"hourglass expiry late {name}", value, "ms",
                      budget, baseline=base, baseline_label=POLL)
               for name, value, base, budget in rows]
    early = sum(1 for late in ours if late < 0)
    figures.append(Figure("expiry_early", f"expiries early (of {trials})", early, "", 1.0,
                          baseline=sum(1 for late in poll if late < 0), baseline_label=POLL))
    return figures


def lateness(trials: int, loop: str) -> list[float]:
    """Seconds each of ``trials`` expiries was handled after its moment, on loop ``loop``."""
    events: queue.Queue = queue.Queue()
    ended: list[float] = []

    def on_status(text: str) -> None:
        if text == END_TUNE:
            ended.append(app.clock())
            events.put(QuitRequested("bench"))

    pick = random.Random(trials)  # bench-side only: how long each glass is
    with HeadlessTable(range(1, SEATS + 1), events.put) as table:
        app = App(table.hardware, key_source=lambda n: BENCH_KEY, on_status=on_status)
        late = []
        for _ in range(trials):
            lookout = deal_to_start(app, PLAYERS)
            started = app.clock()
            app.choose(lookout, "start", started)
            finger = threading.Thread(target=_flip_at, args=(
                table, lookout, started + pick.uniform(SHORTEST, LONGEST)))
            finger.start()
            app.loop.running = True
            LOOPS[loop](app, events)
            finger.join()
            late.append(ended[-1] - _expiry(app))
    return late


def _flip_at(table: HeadlessTable, seat: int, moment: float) -> None:
    """The Lookout's finger: ACT (the first action, "Flip hourglass") at ``moment``."""
    time.sleep(max(0.0, moment - time.monotonic()))
    table.drive(seat, ButtonName.ACT, True)
    time.sleep(PRESS_TIME)
    table.drive(seat, ButtonName.ACT, False)


def _expiry(app: App) -> float:
    """When the flipped glass ran out, from the journaled moves (start, then flip)."""
    assert app.record is not None and app.record.entries[-1].action == "flip"
    return app.record.replay().hourglass.expiry()
