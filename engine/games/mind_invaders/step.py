"""A step of Mind Invaders: a phase that waits for some seats and ends once all have acted.

Setup waits for every seat at once, block and phases II-IV for one seat at a time in
Initiative order, collection and cleanup for all of theirs at once. A step ends when the
last seat it waits for acts, or leaves the game: so what follows a step is part of the step
(``then``), and :func:`carry_on` is the one place a step gives way to the next.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.api import Effect
from engine.phases import Phase

if TYPE_CHECKING:
    from .state import MindInvadersState


@dataclass(frozen=True, kw_only=True)
class Step(Phase):
    """``then`` starts what follows once nobody is left to act; with ``in_turn`` the seats
    still to act do so one at a time, in the order of ``state.queue``."""

    then: Callable[[MindInvadersState], list[Effect]]
    in_turn: bool = False


def carry_on(state: MindInvadersState) -> list[Effect]:
    """Close every step nobody is left to act in: the next may have nobody to wait for too
    (when every seat still playing the contest has left)."""
    effects: list[Effect] = []
    while (step := state.step()) is not None and not state.waiting():
        effects += step.then(state)
    return effects
