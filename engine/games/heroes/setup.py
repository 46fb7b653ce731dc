"""Heroes Love to Lie setup: Monster values read off the physical cards, then the first player.

The rulebook prints only some Monster strengths and Gem rewards; the first seat enters the
others from the cards (or keeps them unknown), and then the table picks who starts ("the one
who best knows how to lie").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate
from engine.cues import Tune

from .numbers import keep_monster_value, number_actions

if TYPE_CHECKING:
    from .state import HeroesState


def offer_monster_value(state: HeroesState, seat: int) -> list[Action]:
    """Only the first seat enters the values, one Monster value at a time."""
    if seat != state.seats[0]:
        return []
    return number_actions(state.number, may_stay_unknown=True)


def enter_monster_value(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    keep_monster_value(state)
    if state.monster_values:
        state.number = state.monster_values.pop(0)
    else:
        state.phase = "who_starts"
    return []


def offer_start(state: HeroesState, seat: int) -> list[Action]:
    return [Action("start", "I lie best: I start")]


def start_as_best_liar(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.turn_seat = seat
    state.phase = "turn"
    return [Buzz(Tune.START), Narrate(f"Seat {seat} lies best and starts.")]
