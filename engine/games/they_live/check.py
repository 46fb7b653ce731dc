"""The Invader check: its timed scripts, the PEEK face of the silent check, and the check as
a phase that moves on by the clock alone.

Both modes run on the clock alone: no seat presses anything while the check runs, so nobody's
timing can set an Invader apart. In the narrated mode everyone hears the rulebook's four
steps with a buzzer cue for each (players have their eyes shut); in the silent mode every seat
holds PEEK during the same step and an Invader's face differs from a Human's only in its words,
never in its shape or its duration.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.api import Buzz, Effect, Narrate, SecretFace
from engine.cues import Tune
from engine.narration import Narration, NarrationRun, Step

from .cards import INVADER
from .text import identity_phrase

if TYPE_CHECKING:
    from .state import TheyLiveState

NARRATED = Narration(
    "invader-check",
    (
        Step("Invader check. Everyone hide.", 6.0, Tune.WARNING),
        Step("Invaders wake.", 8.0, Tune.TICK),
        Step("Invaders hide.", 4.0, Tune.TICK),
        Step("Everyone wake.", 2.0, Tune.START),
    ),
)

SILENT = Narration(
    "silent-invader-check",
    (
        Step("Get ready to hold PEEK", 5.0, Tune.WARNING),
        Step("Hold PEEK now", 8.0, Tune.TICK),
        Step("Release PEEK", 2.0, Tune.START),
    ),
)

# In both scripts, the step during which the Invaders learn who the others are.
MEET_STEP = 1
CHECK_TITLE = "INVADER CHECK"
PEEK_LINES = 3
HOLD_ON = "Hold until the cue"


def narration_for(mode: str) -> Narration:
    return SILENT if mode == "silent" else NARRATED


def check_face(identity: str, other_invaders: Sequence[int]) -> SecretFace:
    """What a seat sees while holding PEEK in the silent check: the same title and three
    full lines for everyone (at most two other Invaders, so the names always fit)."""
    if identity == INVADER:
        names = [identity_phrase(seat, INVADER) for seat in other_invaders] or ["None: only you"]
        lines = ["Other Invaders:", *names, HOLD_ON]
    else:
        lines = ["Nothing to see.", "Keep holding PEEK", "until the cue."]
    return SecretFace(CHECK_TITLE, tuple(lines[:PEEK_LINES]))


@dataclass
class Check:
    """The ``check`` phase's own data: the script running, and the step it is at (one past
    the last once it is over)."""

    run: NarrationRun
    step: int = 0

    def shift(self, seconds: float) -> None:
        """A pause stops the script: it goes on from where it was."""
        self.run = self.run.shifted(seconds)

    def is_over(self) -> bool:
        return self.step == len(self.run.narration.steps)

    def showing(self) -> Step:
        return self.run.narration.steps[self.step]


def in_silent_meeting(state: TheyLiveState) -> bool:
    """The step of the silent check in which every seat holds PEEK to see the check face."""
    silent = state.options["check"] == "silent"  # by value: a copied state keeps its mode
    return silent and isinstance(state.data, Check) and state.data.step == MEET_STEP


# --- the check as a phase: it runs on the clock alone --------------------------------------


def start_check(state: TheyLiveState, now: float) -> list[Effect]:
    state.data = check = Check(NarrationRun(narration_for(state.options["check"]), now))
    return _step_effects(state, check)


def check_deadline(state: TheyLiveState) -> float | None:
    """When the showing step ends."""
    check = state.data_of(Check)
    return _step_end(check.run, check.step)


def next_check_steps(state: TheyLiveState, now: float) -> list[Effect]:
    """Every step whose time has come; the phase is over after the last."""
    check = state.data_of(Check)
    effects: list[Effect] = []
    while not check.is_over() and _step_end(check.run, check.step) <= now:
        check.step += 1
        if not check.is_over():
            effects += _step_effects(state, check)
    return effects


def check_over(state: TheyLiveState) -> bool:
    return state.data_of(Check).is_over()


def wait_for_the_check(state: TheyLiveState, seat: int, action_id: str) -> str:
    return "Wait: Invader check"


def _step_end(run: NarrationRun, index: int) -> float:
    return run.started + sum(step.seconds for step in run.narration.steps[: index + 1])


def _step_effects(state: TheyLiveState, check: Check) -> list[Effect]:
    if check.step == MEET_STEP:
        state.invaders_met = True
    step = check.showing()
    cue: list[Effect] = [Buzz(Tune(step.tune))] if step.tune else []  # every step has one
    return [Narrate(step.text), *cue]
