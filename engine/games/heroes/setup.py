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
from engine.known import Learned, known_values

from .cards import monster_entries, within_data
from .numbers import keep_monster_value, number_actions
from .state import Turn
from .steps import MonsterValues
from .table import Table

if TYPE_CHECKING:
    from .state import HeroesState


def values_to_ask(table: Table, known: dict[str, int | None]) -> list[NumberEntry]:
    """Keep the known Monster values (None: left unknown before); return the others, and any
    remembered value the card data does not allow (a strength below the least), asked again."""
    asked = []
    for entry in monster_entries():
        if entry.key in known and within_data(entry, known[entry.key]):
            entry.value = known[entry.key]
            keep_monster_value(table, entry)
        else:
            asked.append(entry)
    return asked


def entering_values(state: HeroesState) -> bool:
    """Whether the table chose to read the Monster values off the cards."""
    return state.options["monster_values"] == "enter"


def ask_unknown_values(state: HeroesState, now: float) -> list[Effect]:
    """The game opens on the Monster values no earlier game entered; with none to read (or
    the table leaving them unknown), it goes straight on to who starts."""
    if not entering_values(state):
        return state.end_phase(now)
    return ask_values(state, values_to_ask(state.table, known_values(state.options)), now)


def ask_values_again(state: HeroesState, now: float) -> list[Effect]:
    """Enter the Monster values again, each showing the value in use ("?" if unknown)."""
    entries = monster_entries()
    for entry in entries:
        field, monster = entry.key.split(":")
        entry.value = (state.table.strengths if field == "strength" else state.table.loot)[monster]
    return ask_values(state, entries, now)


def ask_values(state: HeroesState, entries: list[NumberEntry], now: float) -> list[Effect]:
    """Ask ``entries`` one by one, or end the phase at once when there are none."""
    if not entries:
        return state.end_phase(now)
    state.data = MonsterValues(entries[0], entries[1:])
    return []


def offer_monster_value(state: HeroesState, seat: int) -> list[Action]:
    """Only the first seat enters the values, one Monster value at a time, from "?": no
    value is offered that the card data does not give."""
    if seat != state.seats[0]:
        return []
    return number_actions(state.data_of(MonsterValues).number, may_stay_unknown=True)


def enter_monster_value(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    """Keep the value and ask the next; after the last, the table picks who starts."""
    values = state.data_of(MonsterValues)
    learned = Learned({values.number.key: values.number.value})
    keep_monster_value(state.table, values.number)
    if values.left:
        values.number = values.left.pop(0)
        return [learned]
    return [learned, *state.end_phase(now)]


def offer_start(state: HeroesState, seat: int) -> list[Action]:
    start = Action("start", "I lie best: I start")
    if seat == state.seats[0] and entering_values(state):
        return [start, Action("change", "Change values")]
    return [start]


def change_values(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    return state.set_phase("change_values", now)


def start_as_best_liar(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.turn = Turn(seat)
    return [Buzz(Tune.START), Narrate(f"Seat {seat} lies best and starts."),
            *state.end_phase(now)]
