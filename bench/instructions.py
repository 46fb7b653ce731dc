"""The table's own work against the factor's loop, in instructions: what seconds hide.

The Zero 2 W model's CPU factor (:mod:`bench.cortex_a53`) is the published loop's time on
the Zero's core over its time here, applied to the service's own work. That holds only if
this host runs the two at the same rate, and hosts differ: on one the loop took 55.5 s and
on the next 21.5 s, while the service's traces ran much the same. Part of that is how cold
the traced steps run here (:mod:`bench.warmth`: a warm loop shows a core's speed, a cold
step its memory's); part is the work itself: the loop is a few lines whose instructions stay
in the first-level caches and whose branches repeat, the service's are the interpreter's
dispatch over many functions, dicts, PIL and SQLite.

valgrind's cachegrind (no cache simulation) counts every instruction a process executes:
the same for the same binary and inputs on any host of its kind, whatever its speed. Each
work is counted and timed over the same stretch (a child that does ``before`` units and then
``before`` more: the second half's count is the difference of two children's, its time the
second half's own ``process_time``), so this host's rate on each is known, and:

- ``ratio``: this host's instructions a second on the table's work over on the loop's;
- the factor the loop's reading gives times ``ratio``: the Zero's time for the table's work
  *if the Zero ran it at the loop's rate*. Both are counted and timed warm (the table plays
  its moves back to back on a fake clock), so the model applies it to the traces made warm
  (:mod:`bench.warmth`). An in-order core is likely slower on the interpreter's branches and
  memory than on the loop's, so that product is a floor of the factor, and the loop's own
  factor is no ceiling: the truth lies between or above, and only a Zero can tell
  (:mod:`bench.zero` shows the model at both).

The table's work: the bench's table (:class:`bench.table.BenchTable`, 8 seats on the
headless hardware, a fake clock) with the service's SQLite journal on a RAM disk, the bot
playing its moves half a table second apart (the hourglass ticking meanwhile).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .report import Figure
from .sizes import Sizes

ROOT = Path(__file__).resolve().parent.parent
TIMINGS = 5  # native timings of each, their median taken
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def _table(before: int, timed: int) -> float:
    from companion.journal_sqlite import SqliteJournal

    from .presses import THINK
    from .table import BenchTable

    def move(table: BenchTable) -> None:
        if not table.play_move(THINK):
            raise RuntimeError("the bot's game ended before the instructions were counted")

    ram = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=ram if ram.is_dir() else None) as folder:
        journal = SqliteJournal(Path(folder) / "journal.sqlite3", exclusive=True)
        with BenchTable(journal=journal) as table:
            table.open_game()
            for _ in range(before):
                move(table)
            started = time.process_time()
            for _ in range(timed):
                move(table)
            spent = time.process_time() - started
        journal.close()
    return spent


def _loop(before: int, timed: int) -> float:
    from .cortex_a53 import READINGS

    loop = READINGS[0].loop  # the shape of the reading the model runs at
    loop(before)
    started = time.process_time()
    loop(timed)
    return time.process_time() - started


WORKS = {"table": _table, "loop": _loop}


@dataclass(frozen=True)
class Rate:
    """One work here: its instructions and seconds for the units counted."""

    instructions: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.instructions / self.seconds


def _child(work: str, before: int, timed: int) -> list[str]:
    return [sys.executable, "-m", "bench.instructions", work, str(before), str(timed)]


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    """``command`` with one hash seed: string hashes decide how dict lookups collide, which
    moved the loop's count by a tenth between two runs of the same child."""
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONHASHSEED": "0"})


def _instructions(command: list[str]) -> int:
    result = _run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                   "--cachegrind-out-file=/dev/null", *command])
    found = _REFS.search(result.stderr)
    if found is None:
        raise RuntimeError(f"cachegrind printed no instruction count: {result.stderr[-300:]}")
    return int(found.group(1).replace(",", ""))


def rate(work: str, units: int) -> Rate:
    """``work``'s ``units`` (after as many) counted under cachegrind and timed here."""
    counted = _instructions(_child(work, 2 * units, 0)) - _instructions(_child(work, units, 0))
    seconds = [float(_run(_child(work, units, units)).stdout) for _ in range(TIMINGS)]
    return Rate(counted, statistics.median(seconds))


@dataclass(frozen=True)
class Rates:
    moves: int
    table: Rate
    rounds: int
    loop: Rate

    @property
    def ratio(self) -> float:
        """This host's rate on the table's work over its rate on the loop's."""
        return self.table.per_second / self.loop.per_second

    def floor(self, loop_factor: float) -> float:
        """The Zero's factor for the table's work if it ran it at the loop's rate."""
        return loop_factor * self.ratio


def measure(sizes: Sizes) -> Rates | None:
    """Both works' rates here, or None where valgrind is not installed (or nothing is to be
    counted)."""
    if shutil.which("valgrind") is None or not sizes.counted_moves:
        return None
    return Rates(sizes.counted_moves, rate("table", sizes.counted_moves),
                 sizes.counted_rounds, rate("loop", sizes.counted_rounds))


def figures(rates: Rates, loop_factor: float) -> list[Figure]:
    return [
        Figure("ips_table", f"instructions a second here, the table's work ({rates.moves} moves: "
               f"{rates.table.instructions / 1e6:.0f} M in {rates.table.seconds * 1000:.0f} ms)",
               rates.table.per_second / 1e9, "G/s"),
        Figure("ips_loop", f"instructions a second here, the factor's loop ({rates.rounds} rounds: "
               f"{rates.loop.instructions / 1e6:.0f} M in {rates.loop.seconds * 1000:.0f} ms)",
               rates.loop.per_second / 1e9, "G/s"),
        Figure("ips_ratio", "... the table's rate over the loop's", rates.ratio, "x"),
        Figure("zero_cpu_factor_floor", "Zero 2 W CPU factor if the Zero ran the table's "
               "work at the loop's rate (the factor x that ratio)", rates.floor(loop_factor), "x"),
    ]


if __name__ == "__main__":  # a child: one work, its first units untimed, the rest timed
    name, before, timed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    print(WORKS[name](before, timed))
