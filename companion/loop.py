"""The table's one thread: one queue, sleeping until the next input or deadline.

Events come from hardware threads through a queue. The loop never polls: it blocks on the
queue with a timeout that ends exactly at the next deadline (hourglass second, expiry, hold
time, notice, retry of a display, watchdog ping), then has the table take one step: the
event, everything that fell due, one redraw. The loop only drives: it knows the table by
:class:`Steps` alone, and the table never calls back into it (it says it is done by
``running``); the table may peek whether the queue holds an event (a redraw yields to it),
never take one. Garbage is collected between steps, when the table is quiet
(:mod:`companion.collector`), never inside one.
"""

from __future__ import annotations

import queue
import sys
from collections.abc import Callable, Iterable
from typing import Protocol

from hardware.base import Wire

from .clock import Clock
from .collector import Collector

# How long a thread may keep the GIL while another waits for it, in seconds (CPython's
# default is 5 ms). The loop and each bus's writer thread share the GIL: a writer woken for
# the presser's screen waits for the loop to finish drawing the other seats, and the loop,
# after any call that let go of the GIL (an SQLite commit, a PIL fill), waits for a writer's
# turn. At 5 ms a turn, one turn costs the presser's first byte the whole 5 ms budget.
SWITCH_INTERVAL = 0.0005


class Steps(Protocol):
    """What the loop drives (the app)."""

    running: bool

    @property
    def clock(self) -> Clock: ...

    def start(self) -> None: ...

    def ready(self) -> None: ...

    def step(self, *events: object) -> None: ...

    @property
    def behind(self) -> bool:
        """A redraw left seats for a waiting event that may bring no step."""
        ...

    def next_deadline(self) -> float | None: ...


def run_loop(table: Steps, events: queue.Queue | queue.SimpleQueue,
             on_ready: Callable[[], None] | None = None, wires: Iterable[Wire] = ()) -> None:
    """Block on the queue until the next event or deadline, until the table stops running.

    The table is READY (``table.ready()``, to systemd) only after ``table.start()``: every
    seat is blank and the journal replayed. ``on_ready`` then starts what the seats can be
    ready without. Automatic garbage collection is off meanwhile: whenever no event waits
    and none of ``wires`` (the screens' writers) has work, the loop collects what is due.
    """
    sys.setswitchinterval(SWITCH_INTERVAL)
    with Collector(wires, events.put) as collector:
        table.start()
        table.ready()
        if on_ready is not None:
            on_ready()
        while table.running:
            if events.empty():
                collector.collect()
            deadline = table.next_deadline()
            timeout = None if deadline is None else max(0.0, deadline - table.clock())
            try:
                event = events.get(timeout=timeout)
            except queue.Empty:
                event = None  # a deadline, not an event
            if collector.took(event):  # the collector's wake-up brings no step of its own,
                if not table.behind:  # unless a redraw left seats for it
                    continue
                event = None
            with collector.stepping():
                if event is None:
                    table.step()
                else:
                    table.step(event)
