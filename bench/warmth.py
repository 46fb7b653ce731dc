"""How much slower the loop thread's steps run here than the same work run warm.

The Zero 2 W model (:mod:`bench.zero`) stretches the loop thread's CPU, as the traces took it
here, by the factor the published loop gives (:mod:`bench.cortex_a53`). That factor compares
two warm runs: the loop ran for minutes on the Raspberry Pi and runs for tenths of a second
here, its few lines of code and data in the caches and its branches learnt. A press's step is
not warm here. This host is a KVM guest, and whatever the host does meanwhile leaves our
caches, TLBs and branch predictors cold within milliseconds, even while our thread computes
something else: a loop of 100 additions in Python took 3.7 us run back to back and 22 us
5 ms after its last run (the thread spinning or asleep meanwhile); a SHA-256 of 64 bytes
0.8 against 38 us. A press comes seconds after the last step, so the traces time it cold.

A Zero 2 W runs on bare metal: its four cores are started by spin table and idle in WFI
(``bcm2837.dtsi``: ``enable-method = "spin-table"``, no idle states that lose a cache), with
32 KiB of L1 each and 512 KiB of L2 shared, and between two presses the service's own ticks
run the same code (compose, render, plan) every second. What it loses between presses no
source of ours gives; this host's loss is measured here, so that the model can take the
factor on the basis it was read on (warm) as well as on the traces as timed (cold as this
host).

:class:`Probe` measures it in the service itself, in a session of its own (its repeats would
lengthen the traced steps): in each press's step, the first call on the loop thread of each of
three pure functions of the presser's path is timed, then made twice more with the same
arguments, the quicker of those two being the warm time. The parts lie early, midway and late
on the path (the journal append's hashes, the presser's frame as controller RAM, its windows
planned); a later part runs warmer (what ran before it warmed code they share), so the ratio
the model divides by is the least of the three: the step's colder parts are not counted
colder than that.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from . import zero
from .report import Figure
from .stats import spread

# (module, function, what it is on the presser's path): each looked up by its callers there.
PARTS = (
    ("companion.journal_chain", "_digest", "the journal append's hashes"),
    ("hardware.drivers.oled", "page_bytes", "the presser's frame as controller RAM"),
    ("hardware.drivers.chorus", "plan", "the presser's windows planned"),
)
REPEATS = 2

if TYPE_CHECKING:
    from .realpath import Tracer


@dataclass
class Timed:
    """One part's first call in each press's step (``cold``) and the same call at once
    again (``warm``), seconds of the loop thread's CPU."""

    module: str
    name: str
    what: str
    cold: list[float] = field(default_factory=list)
    warm: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        """Cold over warm, of their sums (None: no step called it)."""
        return sum(self.cold) / sum(self.warm) if self.warm else None


class Probe:
    """While entered, the parts are timed as the module says; :meth:`watch` is given the
    session's tracer (its loop thread, its current step)."""

    def __init__(self) -> None:
        self.parts = [Timed(module, name, what) for module, name, what in PARTS]
        self._tracer: Tracer | None = None
        self._saved: list[tuple[ModuleType, str, Callable[..., Any]]] = []

    def watch(self, tracer: Tracer) -> None:
        self._tracer = tracer

    def __enter__(self) -> Probe:
        for part in self.parts:
            module = importlib.import_module(part.module)
            function = getattr(module, part.name)
            self._saved.append((module, part.name, function))
            setattr(module, part.name, self._timed(part, function))
        return self

    def __exit__(self, *exc: object) -> None:
        for module, name, function in self._saved:
            setattr(module, name, function)
        self._saved.clear()

    def _timed(self, part: Timed, function: Callable[..., Any]) -> Callable[..., Any]:
        seen: set[int] = set()

        def timed(*args: Any) -> Any:
            step = self._step()
            if step is None or id(step) in seen:
                return function(*args)
            seen.add(id(step))
            started = time.thread_time()
            result = function(*args)
            part.cold.append(time.thread_time() - started)
            again = []
            for _ in range(REPEATS):
                started = time.thread_time()
                function(*args)
                again.append(time.thread_time() - started)
            part.warm.append(min(again))
            return result

        return timed

    def _step(self) -> zero.Trace | None:
        """The press's step the loop thread is in, if this is the loop thread and it is in one."""
        tracer = self._tracer
        if tracer is None or threading.current_thread() is not tracer.loop_thread:
            return None
        step = tracer.current
        return step if step is not None and step.seat is not None else None

    @property
    def ratio(self) -> float:
        """The least part's cold over warm: what the model divides the traced CPU by."""
        ratios = [ratio for part in self.parts if (ratio := part.ratio) is not None]
        if not ratios:
            raise RuntimeError("no press's step called the probed parts")
        return min(ratios)


def figures(probe: Probe) -> list[Figure]:
    result = []
    for part in probe.parts:
        ratio = part.ratio
        if ratio is None:
            continue
        cold, warm = spread([s * 1e6 for s in part.cold]), spread([s * 1e6 for s in part.warm])
        result += [
            Figure(f"cold_{part.name.strip('_')}_p50", f"{part.what}: first call in a press's "
                   f"step, here ({cold.count} steps) p50", cold.p50, "us"),
            Figure(f"warm_{part.name.strip('_')}_p50", f"{part.what}: the same call at once "
                   "again p50", warm.p50, "us"),
            Figure(f"cold_ratio_{part.name.strip('_')}", f"{part.what}: cold over warm (sums)",
                   ratio, "x"),
        ]
    result.append(Figure("cold_ratio", "the loop thread's steps cold over warm here (the "
                         "least part's)", probe.ratio, "x"))
    return result
