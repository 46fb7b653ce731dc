"""Heroes Love to Lie setup: Monster values read off the physical cards, then the first player.

The rulebook prints only some Monster strengths and Gem rewards; the first seat enters the
others from the cards (or keeps them unknown), and then the table picks who starts ("the one
who best knows how to lie"). Values the table entered in an earlier game come in as known
(:mod:`engine.known`) and are not asked again; the first seat may still change them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate
from engine.cues import Tune
from engine.entry import NumberEntry
from engine.known import Learned

from .cards import monster_entries
from .numbers import keep_monster_value, number_actions

if TYPE_CHECKING:
    from .state import HeroesState


def values_to_ask(state: HeroesState, known: dict[str, int | None]) -> list[NumberEntry]:
    """Keep the known Monster values (None: left unknown before); return the others."""
    asked = []
    for entry in monster_entries():
        if entry.key in known:
            state.number = entry
            entry.value = known[entry.key]
            keep_monster_value(state)
        else:
            asked.append(entry)
    return asked


def ask_values(state: HeroesState, now: float) -> list[Effect]:
    """The game opens on the Monster values to read off the cards, or on who starts."""
    begin_values(state, list(state.asked_values or []))
    return []


def begin_values(state: HeroesState, entries: list[NumberEntry]) -> None:
    """Ask ``entries`` one by one, or go straight to who starts when there are none."""
    state.monster_values = entries
    if entries:
        state.number = state.monster_values.pop(0)
        state.phase = "monster_values"
    else:
        state.phase = "who_starts"


def offer_monster_value(state: HeroesState, seat: int) -> list[Action]:
    """Only the first seat enters the values, one Monster value at a time; until it has
    looked, ACT takes the usual value named on the button ("Card says 7")."""
    if seat != state.seats[0]:
        return []
    actions = number_actions(state.number, may_stay_unknown=True)
    if state.number.value is None:
        return [Action("card", f"Card says {state.number.default}"), *actions]
    return actions


def take_card_value(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.number.value = state.number.default
    return enter_monster_value(state, seat, arg, now)


def enter_monster_value(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    learned = Learned({state.number.key: state.number.value})
    keep_monster_value(state)
    begin_values(state, state.monster_values)
    return [learned]


def offer_start(state: HeroesState, seat: int) -> list[Action]:
    start = Action("start", "I lie best: I start")
    if seat == state.seats[0] and state.asked_values is not None:
        return [start, Action("change", "Change values")]
    return [start]


def change_values(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    """Enter the Monster values again, each starting from the value in use."""
    entries = monster_entries()
    for entry in entries:
        field, monster = entry.key.split(":")
        in_use = (state.table.strengths if field == "strength" else state.table.loot)[monster]
        if in_use is not None:
            entry.default = in_use
    begin_values(state, entries)
    return []


def start_as_best_liar(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.turn_seat = seat
    state.phase = "turn"
    return [Buzz(Tune.START), Narrate(f"Seat {seat} lies best and starts.")]
