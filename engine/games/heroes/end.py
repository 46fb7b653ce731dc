"""How a game of Heroes Love to Lie ends: a seat reaches 4 Glory, or is the last one standing.

Every way to lose a Life Point or gain Glory passes through here, so the end is checked the
moment it can happen, and :func:`win` is the only call to ``state.finish``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Buzz, Effect, Narrate
from engine.cues import Tune

from .cards import COMPONENTS

if TYPE_CHECKING:
    from .state import HeroesState


def lose_life(state: HeroesState, seat: int) -> list[Effect]:
    """One Life Point lost; the seat's last one puts it out, and may leave one seat alone."""
    effects: list[Effect] = [Narrate(f"Seat {seat} loses a Life Point.")]
    if not state.table.lose_life(seat):
        return effects
    state.forget_peeks_of(seat)
    state.peeks.pop(seat, None)
    effects += [Buzz(Tune.LOSE), Narrate(f"Seat {seat} is out of the game.")]
    living = state.table.living()
    if len(living) == 1:
        effects += win(state, living[0], "last one standing")
    return effects


def check_glory(state: HeroesState, seat: int) -> list[Effect]:
    """Called after every gain of Glory: the fourth one wins at once."""
    if state.table.purses[seat].glory >= COMPONENTS.glory_to_win:
        return win(state, seat, f"{COMPONENTS.glory_to_win} Glory")
    return []


def win(state: HeroesState, winner: int, reason: str) -> list[Effect]:
    state.winner, state.reason = winner, reason
    outcome = f"Seat {winner} wins: {reason}"
    return [Narrate(outcome + "."), *state.finish(outcome, Tune.WIN)]
