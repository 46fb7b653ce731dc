"""The menus a seat opens within a phase: Hoffman Lenses, a self-reveal, a force-reveal call
and the confirmation of a death.

Each is a :class:`~engine.phases.Menu` of its phase in :mod:`.phases`: while a seat has one
open, the engine offers that seat only the menu's choices, each list with its way back
("Cancel"), and sends its presses to the menu's rules. This module has the menus' names and
verbs, their offers, the way back and the two menus whose whole work is here (the Lenses and
the self-reveal); a death is confirmed in :mod:`.turns` and a call made in
:mod:`.force_reveal`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate, Reveal, Vibrate
from engine.cues import Pattern, Tune

from .cards import INVADER
from .text import identity_phrase, seat_label

if TYPE_CHECKING:
    from .state import TheyLiveState


class MenuName(StrEnum):
    INSPECT = "inspect"  # Hoffman Lenses on a CRITICAL seat
    ACCUSE = "accuse"  # whom a force-reveal is called on
    DEATH = "death"  # no health left: confirm the death and say who killed
    REVEAL = "reveal"  # an Invader's self-reveal ...
    REVEAL_SURE = "reveal2"  # ... asked twice, since it cannot be undone


class Verb(StrEnum):
    """The verbs of the menus' actions (an action's id is its verb, then ``:`` and an arg);
    the values are journaled, so they never change."""

    CANCEL = "cancel"
    INSPECT = "inspect"
    ACCUSE = "accuse"
    DIE = "die"
    REVEAL = "reveal"
    REVEAL_SURE = "reveal2"
    REVEAL_NOW = "reveal3"


def cancel(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    """The way back out of every menu."""
    state.close_menu(seat)
    return []


def targets(state: TheyLiveState, verb: Verb, seats: list[int]) -> list[Action]:
    """One choice per seat, named by its number and character."""
    return [Action(f"{verb}:{s}", seat_label(s, state.players[s].character)) for s in seats]


def undoable_cancel() -> Action:
    return Action(Verb.CANCEL.value, "Cancel", undoable=True)


# --- Hoffman Lenses -----------------------------------------------------------------------------


def offer_lenses(state: TheyLiveState, seat: int) -> list[Action]:
    return [*targets(state, Verb.INSPECT, state.inspect_targets(seat)), undoable_cancel()]


def use_lenses(state: TheyLiveState, seat: int, target: str, now: float) -> list[Effect]:
    """"inspect:N" puts the Lenses on seat N: only the inspector's PEEK face learns the
    identity; the table learns the fact."""
    state.close_menu(seat)
    state.inspections.setdefault(seat, []).append(int(target))
    return [
        Vibrate(seat, Pattern.LONG),
        Narrate(f"Seat {seat} inspects seat {target}: discard the Hoffman Lenses"),
    ]


# --- self-reveal --------------------------------------------------------------------------------
# A self-reveal's Cancel is not undoable, like its "Sure?": a Human's "Sure?" ends the menu as
# a Cancel does, so the table's Undo must not tell the two apart either.


def offer_reveal(state: TheyLiveState, seat: int) -> list[Action]:
    return [Action(Verb.CANCEL.value, "Cancel"),
            Action(Verb.REVEAL_SURE.value, "Reveal: Invader")]


def offer_reveal_sure(state: TheyLiveState, seat: int) -> list[Action]:
    return [Action(Verb.CANCEL.value, "Cancel"),
            Action(Verb.REVEAL_NOW.value, "Sure? Reveal now")]


def self_reveal(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    """An Invader's deliberate reveal, public by the rules. A Human's "Sure?" ends the menu
    exactly as a Cancel does, with no cue at all: a buzz, or anything else only a Human
    got, would tell the neighbours what the seat is (the rules summary in __init__.py)."""
    state.close_menu(seat)
    if state.identities[seat] != INVADER:
        return []
    player = state.players[seat]
    player.revealed, player.left = True, player.max_health
    return [
        Buzz(Tune.REVEAL),
        Reveal(f"{player.character} reveals! {identity_phrase(seat, INVADER)}"),
        Narrate(f"Seat {seat} heals fully, loses the ally; enemies ignore them"),
    ]
