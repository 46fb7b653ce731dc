"""The menus a seat opens within a phase: Hoffman Lenses, a self-reveal, a force-reveal call
and the confirmation of a death.

``state.menus`` says which menu a seat has open; while it is open the phase offers that
seat only the menu's choices, each with a way back ("Cancel").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate, Reveal, Vibrate
from engine.cues import Pattern, Tune

from .cards import INVADER
from .text import identity_phrase, seat_label

if TYPE_CHECKING:
    from .state import TheyLiveState

INSPECT = "inspect"  # Hoffman Lenses on a CRITICAL seat
ACCUSE = "accuse"  # whom a force-reveal is called on
DEATH = "death"  # no health left: confirm the death and say who killed
REVEAL = "reveal"  # an Invader's self-reveal ...
REVEAL_SURE = "reveal2"  # ... asked twice, since it cannot be undone


def offer_menu(state: TheyLiveState, seat: int) -> list[Action]:
    menu = state.menus[seat]
    cancel = Action("cancel", "Cancel", undoable=True)
    if menu == INSPECT:
        return [*_targets(state, "inspect", state.inspect_targets(seat)), cancel]
    if menu == ACCUSE:
        return [*_targets(state, "accuse", state.accusable(seat)), cancel]
    if menu == DEATH:
        return [cancel, Action("die:enemy", "By an enemy"), *_killers(state, seat)]
    # A self-reveal's Cancel is not undoable, like its "Sure?": a Human's "Sure?" ends the
    # menu as a Cancel does, so the table's Undo must not tell the two apart either.
    leave = Action("cancel", "Cancel")
    if menu == REVEAL:
        return [leave, Action("reveal2", "Reveal: Invader")]
    return [leave, Action("reveal3", "Sure? Reveal now")]


def _targets(state: TheyLiveState, verb: str, seats: list[int]) -> list[Action]:
    return [Action(f"{verb}:{s}", seat_label(s, state.players[s].character)) for s in seats]


def _killers(state: TheyLiveState, seat: int) -> list[Action]:
    """A player's kill, with the seat on turn (the usual attacker) offered first."""
    others = [s for s in state.living() if s != seat]
    others.sort(key=lambda s: s != state.on_turn)
    return [Action(f"die:{s}", "By " + seat_label(s, state.players[s].character)) for s in others]


def close_menu(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    del state.menus[seat]
    return []


# --- Hoffman Lenses -----------------------------------------------------------------------------


def inspect(state: TheyLiveState, seat: int, target: str, now: float) -> list[Effect]:
    """"Inspect..." opens the list of CRITICAL seats; "inspect:N" puts the Lenses on seat N."""
    if not target:
        state.menus[seat] = INSPECT
        return []
    del state.menus[seat]
    return _use_lenses(state, seat, int(target))


def _use_lenses(state: TheyLiveState, seat: int, target: int) -> list[Effect]:
    """Only the inspector's PEEK face learns the identity; the table learns the fact."""
    state.inspections.setdefault(seat, []).append(target)
    return [
        Vibrate(seat, Pattern.LONG),
        Narrate(f"Seat {seat} inspects seat {target}: discard the Hoffman Lenses"),
    ]


# --- self-reveal --------------------------------------------------------------------------------


def open_self_reveal(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.menus[seat] = REVEAL
    return []


def ask_again(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.menus[seat] = REVEAL_SURE
    return []


def self_reveal(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    """An Invader's deliberate reveal, public by the rules. A Human's "Sure?" ends the menu
    exactly as a Cancel does, with no cue at all: a buzz, or anything else only a Human
    got, would tell the neighbours what the seat is (the rules summary in __init__.py)."""
    if state.identities[seat] != INVADER:
        return close_menu(state, seat, arg, now)
    del state.menus[seat]
    player = state.players[seat]
    player.revealed, player.left = True, player.max_health
    return [
        Buzz(Tune.REVEAL),
        Reveal(f"{player.character} reveals! {identity_phrase(seat, INVADER)}"),
        Narrate(f"Seat {seat} heals fully, loses the ally; enemies ignore them"),
    ]
