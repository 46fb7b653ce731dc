"""The garbage collector, run when the table is quiet instead of inside a press.

CPython collects wherever an allocation crosses the young generation's threshold, so mostly
in the middle of a press. Measured here (Python 3.11, ``gc.callbacks`` on a 300-press session
of the real service's path): on the bus writer thread 41 young (generation 0) collections of
some 290 us and 3 of generation 1 of some 2.7 ms; on the loop's thread 13 young and 2 of
generation 1. A Pi Zero 2 W is some ten times slower: 3 ms and 27 ms on a presser's screen.
The same session with the collector off took some 3.5 ms off the presser's p99 in the Zero
model. So while the loop runs, automatic collection is off and the loop collects what CPython
would have, once the table is quiet: its step done, no event waiting, no wire with work.

What is due follows CPython's own schedule: the allocation counts keep growing while
automatic collection is off (:func:`gc.get_count`), and the oldest generation whose count
passed its threshold is the one collected. (CPython also puts off a full pass until a quarter
of the long-lived objects are new; Python does not show that count, and a quiet table can
afford the pass: what :func:`gc.freeze` set apart is not traversed.)
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from types import TracebackType

from hardware.base import Sink, Wire


@dataclass(frozen=True)
class GarbageDue:
    """A wire ran out of work while garbage is due: the loop wakes to collect, and draws
    nothing."""


def due() -> int | None:
    """The generation CPython would collect now (None: nothing is due; a threshold of 0
    turns collection off, as in CPython)."""
    counts, thresholds = gc.get_count(), gc.get_threshold()
    if thresholds[0] == 0:
        return None
    return next((generation for generation in reversed(range(len(counts)))
                 if counts[generation] > thresholds[generation]), None)


class Collector:
    """Automatic collection off while it is entered (as it was found again on exit); the
    loop calls :meth:`collect` when it has nothing to do, and a wire that drains while
    garbage is due and every wire is quiet wakes it with one :class:`GarbageDue` on its
    queue (``wake``): never one while nothing is due, never a second before it is taken."""

    def __init__(self, wires: Iterable[Wire], wake: Sink) -> None:
        self._wires = tuple(wires)
        self._wake = wake
        self._lock = threading.Lock()
        self._waking = False  # a GarbageDue is on the queue, not yet taken
        self._stepping = False  # the loop is in a step: it looks itself once it is done
        self._was_enabled = True  # as found when entered

    def __enter__(self) -> Collector:
        self._was_enabled = gc.isenabled()
        gc.disable()
        for wire in self._wires:
            wire.when_drained(self._drained)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        for wire in self._wires:
            wire.when_drained(None)
        if self._was_enabled:
            gc.enable()

    @contextlib.contextmanager
    def stepping(self) -> Iterator[None]:
        """The loop takes a step: no wake-up meanwhile (a redraw would yield its other seats
        to it); the loop looks for garbage itself before it waits again."""
        with self._lock:
            self._stepping = True
        try:
            yield
        finally:
            with self._lock:
                self._stepping = False

    def quiet(self) -> bool:
        return all(wire.quiet for wire in self._wires)

    def collect(self) -> None:
        """The loop has nothing to do: collect what is due, unless a wire is still sending
        (then its draining wakes the loop)."""
        generation = due()
        if generation is not None and self.quiet():
            gc.collect(generation)

    def took(self, event: object) -> bool:
        """Whether ``event`` is the collector's wake-up (the loop then only collects)."""
        if not isinstance(event, GarbageDue):
            return False
        with self._lock:
            self._waking = False
        return True

    def _drained(self) -> None:
        if due() is None or not self.quiet():
            return
        with self._lock:
            if self._waking or self._stepping:
                return
            self._waking = True
        self._wake(GarbageDue())
