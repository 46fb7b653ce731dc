"""How many times slower the Zero 2 W runs Python than this machine: published timings.

The Zero 2 W model (:mod:`bench.zero`) stretches every CPU time the traces recorded here by
this factor, so the factor decides its figures. No Python benchmark run on a Zero 2 W is
among our sources; two run on its core are. alexdedyura/cpu-benchmark times one Python loop:
10,000 rounds of three inner loops (a float times a power of two, 999 of them; each integer
as a float over a constant, 9,999; a constant made a float over each integer, 9,999).

- Its issue 20 (April 2024): 245 s on a Raspberry Pi 3B+ under Python 3.11.2 (Raspberry Pi
  OS Bookworm's, as on a Zero 2 W today), with the script of that March, whose loop runs at
  the module's top level (every name a dictionary lookup). The 3B+'s BCM2837B0 has the Zero
  2 W's core (four Cortex-A53, in order, 512 KB of L2) at 1.4 GHz; under load it drops to
  1.2 GHz unless ``temp_soft_limit`` is raised (Thomas Kaiser, geerlingguy/sbc-reviews
  issue 16), so 1.4 GHz is the slow end of what it means on the Zero.
- Its issue 37 (October 2025): 149.6 s, ten runs within 0.4%, on a Snapdragon 625 (eight
  Cortex-A53, 2.0 GHz at most) under Python 3.12.11 on postmarketOS, with the script of
  2025, whose loop runs in a function (names in the frame's fast slots).

The Zero 2 W's cores run at 1 GHz (its ``lscpu``: ``CPU max MHz: 1000``, argos-translate
issue 472). Each reading is scaled to it by the clocks, which overstates the Zero's time
where the work waits on memory (that does not stretch with the clock). :class:`Timings`
times the same loop here in the same shape as each reading, at moments spread over the run
whose traces it scales, on the thread's CPU clock as the traces are (a shared machine's
waits for a core do not count, its changes of speed during the run do).

The model runs at the Raspberry Pi's reading: the Zero's own family of chip, under the
Python a Zero runs (Raspberry Pi OS's build, on glibc). The Snapdragon's is the other
core's, under another build of Python on another C library (postmarketOS is Alpine's musl)
at a clock its reader did not give, and it says 1.4 to 2 times slower; the bench shows
the model at that factor and at 12 beside it. The loop is arithmetic in the interpreter, in
the core's first-level cache; the service's steps also run C (PIL, SQLite) over more
memory, which an in-order core with a smaller cache may run slower than the loop says.
Nor does a host run the two at one rate: :mod:`bench.instructions` counts how far apart. And
both readings, like the timings here, are of the loop run warm, for minutes or tenths of a
second on end, while a press's step comes seconds after the last: :mod:`bench.warmth` times
how much that costs here, and the model takes the factor on the warm basis.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .report import Figure

PUBLISHED_ROUNDS = 10_000
ZERO_2W_HZ = 1.0e9
ROUNDS = 100

# The published loop as its 2024 script ran it, at a module's top level: run by ``exec``
# with a fresh dictionary for its globals, so that every name is looked up as it was there.
_TOP_LEVEL = compile("""
for i in range(0, rounds):
    for x in range(1, 1000):
        3.141592 * 2**x
    for x in range(1, 10000):
        float(x) / 3.141592
    for x in range(1, 10000):
        float(3.141592) / x
""", "<cpu-benchmark's loop>", "exec")


def _at_top_level(rounds: int) -> None:
    exec(_TOP_LEVEL, {"rounds": rounds})


def _in_function(rounds: int) -> None:
    """The published loop as its 2025 script runs it, in a function, operation for operation
    (constants in place, ``float`` called as it is there)."""
    for _ in range(rounds):
        for x in range(1, 1000):
            3.141592 * 2**x
        for x in range(1, 10000):
            float(x) / 3.141592
        for x in range(1, 10000):
            float(3.141592) / x  # noqa: UP018 (the published loop calls it)


@dataclass(frozen=True)
class Reading:
    """One published time of the loop on a Cortex-A53, and the shape it ran in."""

    key: str
    what: str
    seconds: float
    hz: float
    loop: Callable[[int], None]

    @property
    def zero_seconds(self) -> float:
        """The loop's time on a Zero 2 W, by the clocks."""
        return self.seconds * self.hz / ZERO_2W_HZ


READINGS = (
    Reading("pi3b_plus", "Raspberry Pi 3B+ at 1.4 GHz, Python 3.11.2", 245.0, 1.4e9,
            _at_top_level),
    Reading("snapdragon625", "Snapdragon 625 at 2.0 GHz, Python 3.12.11", 149.585, 2.0e9,
            _in_function),
)


@dataclass
class Timings:
    """The published loop timed here, each reading's shape, at the moments :meth:`take` is
    called: a run takes them between the parts whose CPU the factor scales."""

    repeats: int = 1
    seconds: dict[str, list[float]] = field(default_factory=dict)

    def take(self) -> None:
        """Time each shape ``repeats`` times, the shapes in turn, each scaled to the
        published 10,000 rounds (this machine's speed moves within seconds: many short
        timings spread over the run give a median the traces' CPU can be set against)."""
        for _ in range(self.repeats):
            for reading in READINGS:
                started = time.thread_time()
                reading.loop(ROUNDS)
                spent = time.thread_time() - started
                self.seconds.setdefault(reading.key, []).append(
                    spent * PUBLISHED_ROUNDS / ROUNDS)

    def here(self, reading: Reading) -> float:
        """The median of this run's timings of ``reading``'s shape."""
        return statistics.median(self.seconds[reading.key])

    def factor(self, reading: Reading) -> float:
        return reading.zero_seconds / self.here(reading)

    def cpu_factor(self) -> float:
        """How many times as long Python takes on a Zero 2 W as here: the Raspberry Pi's
        reading."""
        return self.factor(READINGS[0])

    def figures(self) -> list[Figure]:
        """The factor the model runs at, and each reading's, with the timings behind it."""
        taken = len(self.seconds[READINGS[0].key])
        rows = [Figure("zero_cpu_factor", "Zero 2 W CPU factor, from the published Cortex-A53 "
                       "readings", self.cpu_factor(), "x")]
        for reading in READINGS:
            rows.append(Figure(f"zero_cpu_factor_{reading.key}", f"... {reading.what}: "
                               f"{reading.zero_seconds:.0f} s at 1 GHz over "
                               f"{self.here(reading):.1f} s here ({taken} timings)",
                               self.factor(reading), "x"))
        return rows
