"""The table's one thread: one queue, sleeping until the next input or deadline.

Events come from hardware threads through a queue. The loop never polls: it blocks on the
queue with a timeout that ends exactly at the next deadline (hourglass second, expiry, hold
time, notice, retry of a display, watchdog ping), then has the table take one step: the
event, everything that fell due, one redraw.

The watchdog ping and the periodic journaling of a running timer's moment come from this
loop on purpose: a loop that hangs stops pinging, and systemd restarts it.
"""

from __future__ import annotations

import queue
import sys
from collections.abc import Callable
from typing import Protocol

from .clock import Clock
from .sdnotify import Notifier
from .session import Session

# How long a thread may keep the GIL while another waits for it, in seconds (CPython's
# default is 5 ms). The loop and each bus's writer thread share the GIL: a writer woken for
# the presser's screen waits for the loop to finish drawing the other seats, and the loop,
# after any call that let go of the GIL (an SQLite commit, a PIL fill), waits for a writer's
# turn. At 5 ms a turn, one turn costs the presser's first byte the whole 5 ms budget.
SWITCH_INTERVAL = 0.0005
REMEMBER_EVERY = 5.0  # while a timer runs: the most sand a crash can give back, in seconds
RETRY_EVERY = 2.0  # while the disk refuses writes: how often the journal tries again


class Steps(Protocol):
    """What the loop drives (the app)."""

    clock: Clock
    seat_numbers: tuple[int, ...]

    def start(self) -> None: ...

    def step(self, *events: object) -> None: ...

    def next_deadline(self) -> float | None: ...


class Loop:
    def __init__(self, notifier: Notifier, session: Session) -> None:
        self.notifier = notifier
        self.session = session
        self.running = True
        self.reload_requested = False
        self._ping_at: float | None = None
        self._remember_at: float | None = None
        self._retry_at: float | None = None

    def run(self, table: Steps, events: queue.Queue | queue.SimpleQueue,
            on_ready: Callable[[], None] | None = None) -> None:
        """Block on the queue until the next event or deadline, forever (until stopped).

        READY goes to systemd only after ``table.start()``: every seat is blank and the
        journal replayed. ``on_ready`` then starts what the seats can be ready without.
        """
        sys.setswitchinterval(SWITCH_INTERVAL)
        table.start()
        self.notifier.ready(f"{len(table.seat_numbers)} seats")
        if on_ready is not None:
            on_ready()
        self.keep_alive(table.clock())
        while self.running:
            deadline = table.next_deadline()
            timeout = None if deadline is None else max(0.0, deadline - table.clock())
            try:
                event = events.get(timeout=timeout)
            except queue.Empty:
                table.step()  # a deadline, not an event
                continue
            table.step(event)

    def stop(self, *, reload: bool = False) -> None:
        """End the loop after this step; ``reload``: read table.toml again and start anew."""
        self.running = False
        if reload:
            self.reload_requested = True

    def next_deadline(self) -> float | None:
        moments = (self._ping_at, self._remember_at, self._retry_at)
        return min((m for m in moments if m is not None), default=None)

    def keep_alive(self, now: float) -> None:
        """Ping the watchdog when due, journal the game's moment while a timer runs, and
        have the journal try again while the disk refuses its writes."""
        every = self.notifier.watchdog_every
        if every is not None and (self._ping_at is None or now >= self._ping_at):
            self.notifier.watchdog()
            self._ping_at = now + every
        if not self.session.timer_running():
            self._remember_at = None
        elif self._remember_at is None:
            self._remember_at = now + REMEMBER_EVERY
        elif now >= self._remember_at:
            self.session.remember(now)
            self._remember_at = now + REMEMBER_EVERY
        self._retry_journal(now)

    def _retry_journal(self, now: float) -> None:
        """The game goes on while nothing is saved; saving resumes by itself once there is
        room, every few seconds, press or no press."""
        journal = self.session.journal
        if not journal.behind:
            self._retry_at = None
        elif self._retry_at is None:
            self._retry_at = now + RETRY_EVERY
        elif now >= self._retry_at:
            self._retry_at = None if journal.catch_up() else now + RETRY_EVERY
