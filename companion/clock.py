"""Clocks: the real monotonic one, and a fake one that tests and table scripts move by hand."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def __call__(self) -> float:
        """Monotonic seconds."""


def monotonic() -> float:
    return time.monotonic()


class FakeClock:
    """A clock that only moves when told: a 90-second hourglass test runs in microseconds."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time does not run backwards")
        self.now += seconds


class GameClock:
    """The clock a game runs on: ``raw`` (monotonic) plus an offset set on resume.

    After a restart the offset makes the resumed game's time continue from its last journaled
    moment, so one game has one timeline however often the machine restarts (monotonic time
    starts again with it).
    """

    def __init__(self, raw: Clock) -> None:
        self.raw = raw
        self.offset = 0.0

    def __call__(self) -> float:
        return self.raw() + self.offset

    def continue_from(self, moment: float) -> None:
        """Make it ``moment`` now: the game goes on from where its journal left off."""
        self.offset = moment - self.raw()
