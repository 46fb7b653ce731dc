"""Narrations: timed steps read to the table (The Invader check, setup prompts).

A narration is data; a :class:`NarrationRun` is its progress as of a moment, so the app loop
can sleep until the next step and the same run replays identically in tests on a fake clock.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    text: str
    seconds: float  # how long this step stays before the next one
    tune: str | None = None  # a buzzer cue that starts the step (the same for every seat)


@dataclass(frozen=True)
class Narration:
    name: str
    steps: tuple[Step, ...]

    @property
    def duration(self) -> float:
        return sum(step.seconds for step in self.steps)


@dataclass(frozen=True)
class NarrationRun:
    narration: Narration
    started: float

    def index_at(self, now: float) -> int:
        """The step showing at ``now``; ``len(steps)`` once the narration has finished."""
        elapsed = now - self.started
        for index, step in enumerate(self.narration.steps):
            if elapsed < step.seconds:
                return index
            elapsed -= step.seconds
        return len(self.narration.steps)

    def current(self, now: float) -> Step | None:
        index = self.index_at(now)
        steps = self.narration.steps
        return steps[index] if index < len(steps) else None

    def is_done(self, now: float) -> bool:
        return self.index_at(now) >= len(self.narration.steps)

    def shifted(self, by: float) -> NarrationRun:
        """The same run delayed by ``by`` seconds (used when the table pauses mid-narration)."""
        return NarrationRun(self.narration, self.started + by)
