"""What a seat may do at any moment of a contest: investigate another seat, or declare that
its cards meet its victory or an elimination condition.

The companion cannot see the cards, so each of these opens a menu (:data:`MENUS`) that says
what to check (and what to discard) before the seat confirms, with a Cancel for a press made
by mistake. The menu is the seat's, not the step's: one left open as the table moves to the
next step stays open there (the contest's steps keep menus: ``Phase.keeps_menus``).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate, Reveal
from engine.cues import Tune
from engine.phases import Menu, OpenMenu, Rule, opens

from . import end
from .cards import ORDINALS
from .text import character_phrase

if TYPE_CHECKING:
    from .state import MindInvadersState


class MenuName(StrEnum):
    """The anytime menus, each named after the press that opens it."""

    INVESTIGATE = "investigate"
    TARGET = "target"  # opened on the seat to investigate
    VICTORY = "victory"
    ELIMINATED = "eliminated"


def offer(state: MindInvadersState, seat: int, step_actions: list[Action]) -> list[Action]:
    """The step's actions if the step waits for the seat, then the anytime presses."""
    if seat not in state.alive():
        return []
    actions = step_actions if seat in state.awaited() else []
    anytime = [
        Action("victory", "My goal is met...", True),
        Action("eliminated", "I am eliminated...", True),
    ]
    if state.investigation_targets(seat):
        anytime.insert(0, Action("investigate", "Investigate...", True))
    return actions + anytime


# --- what each menu offers: its choices, then Cancel ----------------------------------------

_CANCEL = Action("cancel", "Cancel", True)


def _offer_targets(state: MindInvadersState, seat: int) -> list[Action]:
    targets = state.investigation_targets(seat)
    return [Action(f"target:{t}", f"Seat {t}", True) for t in targets] + [_CANCEL]


def _offer_reveal(state: MindInvadersState, seat: int) -> list[Action]:
    return [Action(f"reveal:{state.menus[seat].arg}", f"Reveal Seat {state.menus[seat].arg}"),
            _CANCEL]


def _offer_win(state: MindInvadersState, seat: int) -> list[Action]:
    return [Action("win", "Confirm: I win"), _CANCEL]


def _offer_out(state: MindInvadersState, seat: int) -> list[Action]:
    return [Action("out", "Confirm: I am out", True), _CANCEL]


# --- opening and closing the menus -----------------------------------------------------


def cancel_menu(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    state.close_menu(seat)
    return []


# --- what a confirmed choice does --------------------------------------------------------


def reveal_character(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    """The investigated Character is shown to all; an Alien finding the Human wins."""
    state.close_menu(seat)
    target = int(arg)
    kind = state.characters[target]
    state.revealed.add(target)
    effects: list[Effect] = [Buzz(Tune.REVEAL), Reveal(character_phrase(target, kind))]
    nothing_happens = [Narrate(f"Seat {target} is an Alien: nothing happens.")]
    return effects + (end.unmasked(state, seat, target) or nothing_happens)


def declare_victory(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    state.close_menu(seat)
    return end.declared_victory(state, seat)


def leave_the_game(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    """The seat is out: its Initiative card goes (the highest one leaves the game), no step
    waits for it, nobody is left investigating it, and the floors shrink at the next cleanup."""
    state.close_menu(seat)
    handover = initiative_handover(state.initiative_order(), seat)
    state.eliminated.append(seat)
    if state.first == seat:
        state.first = state.ring.left_of(seat, gone=state.eliminated) or seat
    state.participants.discard(seat)
    state.green.discard(seat)
    state.stop_waiting_for(seat)
    for other in [s for s, opened in state.menus.items() if opened == _investigating(seat)]:
        state.close_menu(other)
    text = f"Seat {seat} is out: Power cards to the box, others to the general discard."
    effects: list[Effect] = [Buzz(Tune.LOSE), Narrate(text), *map(Narrate, handover)]
    return effects + end.last_one_standing(state)


def _investigating(seat: int) -> OpenMenu:
    return OpenMenu(MenuName.TARGET, str(seat))


def initiative_handover(order: list[int], seat: int) -> list[str]:
    """Which Initiative card each seat takes when ``seat`` leaves an ``order`` (Initiative
    order, before it leaves): the seats after it close the gap, so their order and the cards
    in their hands stay as the screens show them, and the highest card is left for the box.
    Two notices when cards pass (how, then who takes which), so each fits one screen."""
    at = order.index(seat)
    highest = ORDINALS[len(order) - 1]
    takers = order[at + 1:]
    if not takers:
        return [f"Seat {seat}: the {highest} Initiative card goes back to the box."]
    takes = [f"Seat {takers[0]} takes the {ORDINALS[at]}",
             *(f"Seat {s} the {ORDINALS[n]}" for n, s in enumerate(takers[1:], at + 1))]
    return [f"Pass Initiative cards down, same side up; the {highest} goes back to the box.",
            ", ".join(takes) + "."]


# --- the anytime presses and their menus, as every contest step's table entry holds them ----

OPENERS: dict[str, Rule] = {
    "investigate": opens(MenuName.INVESTIGATE),
    "victory": opens(MenuName.VICTORY),
    "eliminated": opens(MenuName.ELIMINATED),
}

MENUS: dict[str, Menu] = {
    MenuName.INVESTIGATE: Menu(_offer_targets,
                               {"target": opens(MenuName.TARGET), "cancel": cancel_menu}),
    MenuName.TARGET: Menu(_offer_reveal, {"reveal": reveal_character, "cancel": cancel_menu}),
    MenuName.VICTORY: Menu(_offer_win, {"win": declare_victory, "cancel": cancel_menu}),
    MenuName.ELIMINATED: Menu(_offer_out, {"out": leave_the_game, "cancel": cancel_menu}),
}
