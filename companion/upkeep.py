"""What a running table does on its own, at every step: ping the watchdog, journal a running
timer's moment, have the journal try again while the disk refuses its writes.

They run on the loop's thread on purpose: a loop that hangs stops pinging, and systemd
restarts it.
"""

from __future__ import annotations

from .sdnotify import Notifier
from .session import Session

REMEMBER_EVERY = 5.0  # while a timer runs: the most sand a crash can give back, in seconds
RETRY_EVERY = 2.0  # while the disk refuses writes: how often the journal tries again


class Upkeep:
    def __init__(self, notifier: Notifier, session: Session) -> None:
        self.notifier = notifier
        self.session = session
        self._ping_at: float | None = None
        self._remember_at: float | None = None
        self._retry_at: float | None = None

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
