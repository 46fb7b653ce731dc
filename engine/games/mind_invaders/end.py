"""Every way a game of Mind Invaders ends, and the only calls to ``finish``.

A seat declares that its cards meet its victory condition, an Alien unmasks the Human, or one
seat is left. However it ends, every Character is shown to the table.
"""

from __future__ import annotations

from engine.api import Effect
from engine.cues import Tune

from .cards import ALIEN, HUMAN
from .state import MindInvadersState


def declared_victory(state: MindInvadersState, seat: int) -> list[Effect]:
    return _finish(state, f"Seat {seat} wins: {state.characters[seat]} victory")


def unmasked(state: MindInvadersState, seat: int, target: int) -> list[Effect]:
    """An Alien who reveals the Human wins at once; any other investigation ends nothing."""
    if state.characters[target] == HUMAN and state.characters[seat] == ALIEN:
        return _finish(state, f"Seat {seat} wins: unmasked the Human")
    return []


def last_one_standing(state: MindInvadersState) -> list[Effect]:
    alive = state.alive()
    if len(alive) == 1:
        return _finish(state, f"Seat {alive[0]} wins: last one standing")
    return []


def _finish(state: MindInvadersState, outcome: str) -> list[Effect]:
    """End the game; every Character may now be shown (the seed is revealed too)."""
    return [*state.end_reveals(), *state.finish(outcome, Tune.WIN)]
