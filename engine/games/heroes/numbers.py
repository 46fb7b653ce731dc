"""The +1 / -1 / OK buttons of a number a seat sets: a Monster value read off its card (at
setup, or its Gems once defeated) or the Exorcist's bet. The number is the phase's own data
(:class:`~.steps.Entering`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Effect
from engine.entry import NumberEntry

from .steps import Entering
from .table import Table

if TYPE_CHECKING:
    from .state import HeroesState


def number_actions(number: NumberEntry, may_stay_unknown: bool) -> list[Action]:
    """OK once a value shows; at setup a Monster value may also stay unknown."""
    moves = [Action("plus", "+1", undoable=True, repeat=True),
             Action("minus", "-1", undoable=True, repeat=True)]
    if number.value is not None:
        return [*moves, Action("ok", "OK")]
    if may_stay_unknown:
        return [*moves, Action("ok", "Keep unknown")]
    return moves


def raise_number(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.data_of(Entering).number.step(1)
    return []


def lower_number(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.data_of(Entering).number.step(-1)
    return []


def keep_monster_value(table: Table, number: NumberEntry) -> None:
    """Keep a value read off a card for the rest of the game (None stays unknown)."""
    field, monster = number.key.split(":")
    values = table.strengths if field == "strength" else table.loot
    values[monster] = number.value
