"""Start to ready (journal replayed, the first frame on every seat), ``companion --help``, and
resident memory after a whole game.

Each is a fresh process, timed from just before it is launched; the floor beside them is a
bare interpreter, ``python -c pass``, measured the same way.
"""

from __future__ import annotations

import queue
import statistics
import tempfile
import time
from pathlib import Path

from companion.app import App
from companion.clock import FakeClock
from companion.journal_sqlite import SqliteJournal
from hardware.headless import HeadlessTable

from .bot import BENCH_KEY, next_move
from .loops import deal_to_start
from .processes import PYTHON, companion_command, run_child, run_quietly
from .report import Figure
from .sizes import Sizes
from .table import PLAYERS, SEATS

FLOOR = "python -c pass"
BARE = "bare interpreter"
SCRATCH = Path(__file__).resolve().parent
MOVE_EVERY = 1.0  # table seconds between the journaled game's moves


def measure_start(sizes: Sizes) -> list[Figure]:
    ready, replayed = [], 0
    with tempfile.TemporaryDirectory(prefix="ready-", dir=SCRATCH) as folder:
        path = Path(folder) / "journal.sqlite3"
        _journal_a_game(path, sizes.resume_moves)
        for _ in range(sizes.launches):
            launched = time.monotonic()
            answer = run_child("ready", str(path))
            ready.append(answer["ready_at"] - launched)
            replayed = answer["replayed"]
    help_seconds = [_timed(companion_command() + ["--help"]) for _ in range(sizes.launches)]
    floor = statistics.median(_timed([PYTHON, "-c", "pass"]) for _ in range(sizes.launches))
    return [
        Figure("start_to_ready", f"start to ready in-process (no CLI), {SEATS} seats, "
               f"{replayed} actions replayed",
               statistics.median(ready), "s", 1.0, baseline=floor, baseline_label=FLOOR),
        Figure("help", "companion --help", statistics.median(help_seconds), "s",
               baseline=floor, baseline_label=FLOOR),
    ]


def measure_memory(sizes: Sizes) -> list[Figure]:
    game = run_child("memory", str(sizes.seats), str(sizes.players), str(sizes.think))
    bare = run_child("bare")
    label = f"resident memory after a {sizes.players}-player game"
    return [
        Figure("rss_after_game", label, game["rss_kib"] / 1024, "MiB", 64.0,
               baseline=bare["rss_kib"] / 1024, baseline_label=BARE),
        Figure("rss_peak", "peak resident memory (VmHWM)", game["peak_kib"] / 1024, "MiB",
               64.0, baseline=bare["peak_kib"] / 1024, baseline_label=BARE),
    ]


def _journal_a_game(path: Path, moves: int) -> None:
    """An unfinished game, ``moves`` moves past the first flip, journaled by the app itself."""
    clock = FakeClock()
    with HeadlessTable(range(1, SEATS + 1), queue.Queue().put, clock=clock) as table:
        app = App(table.hardware, clock=clock, journal=SqliteJournal(path),
                  key_source=lambda n: BENCH_KEY)
        lookout = deal_to_start(app, PLAYERS)
        app.choose(lookout, "start", clock())
        for _ in range(moves):
            clock.advance(MOVE_EVERY)
            move = next_move(app)
            if move is None:
                raise RuntimeError("the bot found no move in the journaled game")
            app.choose(*move, clock())
        app.session.journal.close()


def _timed(command: list[str]) -> float:
    started = time.monotonic()
    run_quietly(command)
    return time.monotonic() - started
