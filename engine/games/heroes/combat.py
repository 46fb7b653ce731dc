"""Heroes Love to Lie COMBAT: a claimed fight's loot, and the Monster that takes the place of
the one defeated. A Monster whose Gems the rulebook leaves out is read off its card the first
time it is defeated, and that number counts for the rest of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Effect, Narrate

from .cards import loot_entry
from .end import check_glory
from .numbers import keep_monster_value, number_actions
from .steps import Loot
from .turns import finish_action

if TYPE_CHECKING:
    from .state import HeroesState


def fight(state: HeroesState, seat: int, index: int, now: float) -> list[Effect]:
    """COMBAT's loot; a Monster whose Gems are unknown is read off its card first."""
    monster = state.table.in_play[index]
    gems = state.table.loot[monster]
    if gems is None:
        return state.set_phase("loot_gems", now, Loot(loot_entry(monster), index))
    effects = collect(state, seat, index, 1, gems)
    if not state.is_terminal():
        effects += finish_action(state, now)
    return effects


def collect(state: HeroesState, seat: int, index: int, glory: int, gems: int) -> list[Effect]:
    monster = state.table.in_play[index]
    state.table.gain_glory(seat, glory)
    state.turn.looted = state.table.gain_gems(seat, gems)
    new = state.table.replace_monster(index)
    return [
        Narrate(f"Seat {seat} defeats the {monster}: {glory} Glory, {state.turn.looted} Gems."),
        Narrate(f"The {new} comes into play."),
        *check_glory(state, seat),
    ]


def offer_loot_number(state: HeroesState, seat: int) -> list[Action]:
    if seat != state.turn.seat:
        return []
    return number_actions(state.data_of(Loot).number, may_stay_unknown=False)


def take_loot(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    """The Gems read off the defeated Monster's card count for the rest of the game."""
    loot = state.data_of(Loot)
    keep_monster_value(state.table, loot.number)
    return fight(state, seat, loot.monster, now)
