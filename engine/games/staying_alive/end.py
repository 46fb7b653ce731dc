"""Every way a game of Staying Alive ends: the group wins together or loses together.

Everyone escaping on foot, or the Key used right, wins; the hourglass running out, a seat
having to lose stamina it does not have, a failed escape or a wrong Key loses. Whatever the
ending, the hourglass is laid down so the last screen keeps the sand where it stopped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Effect
from engine.cues import Tune

if TYPE_CHECKING:
    from engine.games.staying_alive.state import StayingAliveState


def take_stamina(state: StayingAliveState, seat: int, amount: int, now: float) -> list[Effect]:
    """Take stamina the rules cost (a flip, a card, the strain check); a seat without enough
    loses the game for everyone."""
    if state.stamina[seat] < amount:
        return _end(state, False, f"Loss: Seat {seat} had no stamina to lose", now)
    state.stamina[seat] -= amount
    state.lost[seat] += amount
    return []


def win_if_everyone_escaped(state: StayingAliveState, now: float) -> list[Effect]:
    if len(state.escaped) < len(state.seats):
        return []
    return _end(state, True, "Win: everyone escaped", now)


def escape_failed(state: StayingAliveState, seat: int, now: float) -> list[Effect]:
    """More strain than stamina: the escape fails, and with it the group."""
    return _end(state, False, f"Loss: Seat {seat}'s escape failed", now)


def key_used(state: StayingAliveState, right: bool, now: float) -> list[Effect]:
    """Module 4's Key decides the game at once, as the rulebook's example says."""
    if right:
        return _end(state, True, "Win: escaped by car", now)
    return _end(state, False, "Loss: the car key failed", now)


def hourglass_ran_out(state: StayingAliveState, now: float) -> list[Effect]:
    return _end(state, False, "Loss: the hourglass ran out", now)


def _end(state: StayingAliveState, won: bool, outcome: str, now: float) -> list[Effect]:
    state.won = won
    state.hourglass = state.hourglass.pause(now)
    return state.finish(outcome, Tune.WIN if won else Tune.LOSE)
