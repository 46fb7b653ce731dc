"""Hourglass expiry lateness on the real clock: many short glasses, each timed to its end.

A short glass comes from the Lookout's own move: the game starts (the glass turned over),
and ``d`` seconds later, with the app's loop running, the Lookout presses ACT on its mock pin
to flip it, leaving exactly ``d`` seconds on top. The loop (:meth:`App.run`, alone on its
thread, the real clock, the production ``SqliteJournal``) then sleeps until the expiry.
Lateness is the moment the loop's step that ran the glass out began, minus the expiry
(negative would be early); the "lose" tune follows once the moment is journaled, so the
tune's own lateness, shown beside it, adds this disk's flush.
"""

from __future__ import annotations

import queue
import random
import tempfile
import threading
import time
from pathlib import Path

from companion.app import App
from companion.journal_sqlite import SqliteJournal
from hardware.base import ButtonName, QuitRequested
from hardware.headless import HeadlessTable

from .bot import BENCH_KEY
from .loops import LOOPS, deal_to_start
from .report import Figure
from .sizes import Sizes
from .stats import spread
from .table import PLAYERS, SEATS

SHORTEST, LONGEST = 0.1, 0.2  # seconds of sand; longer than the loop takes to start
PRESS_TIME = 0.05  # how long the finger stays on a button
END_TUNE = "♪ lose"
POLL = "10 ms poll"


SCRATCH = Path(__file__).resolve().parent


def measure(sizes: Sizes) -> list[Figure]:
    trials = sizes.expiries
    woke, tune = lateness(trials, "event")
    ours = [seconds * 1000 for seconds in woke]
    poll = [seconds * 1000 for seconds in lateness(sizes.poll_expiries, "poll")[0]]
    mine, naive = spread(ours), spread(poll)
    rows = (("p50", mine.p50, naive.p50, None), ("p99", mine.p99, naive.p99, 2.0),
            ("max", mine.max, naive.max, None))
    figures = [Figure(f"expiry_late_{name}", f"hourglass expiry late {name}", value, "ms",
                      budget, baseline=base, baseline_label=POLL)
               for name, value, base, budget in rows]
    early = sum(1 for late in ours if late < 0)
    figures.append(Figure("expiry_early", f"expiries early (of {trials})", early, "", 1.0,
                          baseline=sum(1 for late in poll if late < 0), baseline_label=POLL))
    heard = spread([seconds * 1000 for seconds in tune])
    figures += [Figure(f"expiry_tune_{name}", f"hourglass expiry to its tune {name} (after "
                       "the journal's flush)", value, "ms")
                for name, value in (("p50", heard.p50), ("p99", heard.p99))]
    return figures


def lateness(trials: int, loop: str) -> tuple[list[float], list[float]]:
    """Seconds each of ``trials`` expiries was taken up after its moment on loop ``loop``,
    and seconds until its tune began."""
    with tempfile.TemporaryDirectory(prefix="expiry-", dir=SCRATCH) as folder:
        return _lateness(trials, loop, Path(folder) / "journal.sqlite3")


def _lateness(trials: int, loop: str, path: Path) -> tuple[list[float], list[float]]:
    events: queue.Queue = queue.Queue()
    ended: list[tuple[float, float]] = []
    began = [0.0]

    def on_status(text: str) -> None:
        if text == END_TUNE:
            ended.append((began[0], app.clock()))
            events.put(QuitRequested("bench"))

    pick = random.Random(trials)  # bench-side only: how long each glass is
    with HeadlessTable(range(1, SEATS + 1), events.put) as table:
        journal = SqliteJournal(path)
        # Each trial's game is started before its loop runs, and the loop's start would
        # resume it as after a crash (paused): these trials are one run, nothing to resume.
        journal.resume = lambda: None  # type: ignore[method-assign]
        app = App(table.hardware, key_source=lambda n: BENCH_KEY, on_status=on_status,
                  journal=journal)
        _stamp_steps(app, began)
        late, heard = [], []
        for _ in range(trials):
            lookout = deal_to_start(app, PLAYERS)
            started = app.clock()
            app.choose(lookout, "start", started)
            finger = threading.Thread(target=_flip_at, args=(
                table, lookout, started + pick.uniform(SHORTEST, LONGEST)))
            finger.start()
            app.running = True
            LOOPS[loop](app, events)
            finger.join()
            expiry = _expiry(app)
            late.append(ended[-1][0] - expiry)
            heard.append(ended[-1][1] - expiry)
        journal.close()
    return late, heard


def _stamp_steps(app: App, began: list[float]) -> None:
    """Note the clock as each loop step (and each poll) begins."""
    step, advance = app.step, app.advance

    def stamped_step(*events: object) -> None:
        began[0] = app.clock()
        step(*events)

    def stamped_advance() -> None:
        began[0] = app.clock()
        advance()

    app.step = stamped_step  # type: ignore[method-assign]
    app.advance = stamped_advance  # type: ignore[method-assign]


def _flip_at(table: HeadlessTable, seat: int, moment: float) -> None:
    """The Lookout's finger, on its own first turn: a PEEK tap to "Flip hourglass" (second
    there, never ACT's default), then ACT at ``moment``."""
    time.sleep(max(0.0, moment - 2 * PRESS_TIME - time.monotonic()))
    table.drive(seat, ButtonName.PEEK, True)
    time.sleep(PRESS_TIME)
    table.drive(seat, ButtonName.PEEK, False)
    time.sleep(max(0.0, moment - time.monotonic()))
    table.drive(seat, ButtonName.ACT, True)
    time.sleep(PRESS_TIME)
    table.drive(seat, ButtonName.ACT, False)


def _expiry(app: App) -> float:
    """When the flipped glass ran out, from the journaled moves (start, then flip)."""
    assert app.session.record is not None and app.session.record.entries[-1].action == "flip"
    return app.session.record.replay().hourglass.expiry()
