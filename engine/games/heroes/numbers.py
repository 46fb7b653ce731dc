"""The +1 / -1 / OK buttons of a number a seat sets: a Monster value read off its card (at
setup, or its Gems once defeated) or the Exorcist's bet. The number is the phase's own data
(:class:`~.steps.Entering`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Effect
from engine.entry import FIVE, NumberEntry, entry_buttons

from .steps import Entering
from .table import Table

if TYPE_CHECKING:
    from .state import HeroesState


def number_actions(number: NumberEntry, may_stay_unknown: bool) -> list[Action]:
    """+1 (and +5 where the range is wide, Gems) from "?", whose first press shows the least
    the data allows; OK once a value shows; at setup a Monster value may stay unknown."""
    ups = [Action("plus", "+1", undoable=True, repeat=True, counts=True)]
    if number.wide:
        ups.append(Action(f"plus:{FIVE}", f"+{FIVE}", undoable=True, repeat=True, counts=True))
    down = Action("minus", "-1", undoable=True, repeat=True, counts=True)
    buttons = entry_buttons(number, ups, Action("ok", "OK"), down)
    if number.value is None and may_stay_unknown:
        return [*buttons, Action("ok", "Keep unknown")]
    return buttons


def raise_number(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    """+1, or +5 (the argument)."""
    state.data_of(Entering).number.step(int(arg) if arg else 1)
    return []


def lower_number(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.data_of(Entering).number.step(-1)
    return []


def keep_monster_value(table: Table, number: NumberEntry) -> None:
    """Keep a value read off a card for the rest of the game (None stays unknown)."""
    field, monster = number.key.split(":")
    values = table.strengths if field == "strength" else table.loot
    values[monster] = number.value
