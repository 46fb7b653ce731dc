"""What a seat may do at any moment of a contest: investigate another seat, or declare that
its cards meet its victory or an elimination condition.

The companion cannot see the cards, so each of these opens a menu that says what to check
(and what to discard) before the seat confirms, with a Cancel for a press made by mistake.
"""

from __future__ import annotations

from engine.api import Action, Buzz, Effect, Narrate, Reveal
from engine.cues import Tune

from . import end
from .cards import ORDINALS
from .state import MindInvadersState
from .step import carry_on
from .text import character_phrase


def offer(state: MindInvadersState, seat: int, step_actions: list[Action]) -> list[Action]:
    """A seat's open menu; else the step's actions if the step waits for it, then these."""
    if seat not in state.alive():
        return []
    if seat in state.menus:
        return _menu_actions(state, seat)
    actions = step_actions if seat in state.waiting() else []
    anytime = [
        Action("victory", "My goal is met...", True),
        Action("eliminated", "I am eliminated...", True),
    ]
    if state.investigation_targets(seat):
        anytime.insert(0, Action("investigate", "Investigate...", True))
    return actions + anytime


def _menu_actions(state: MindInvadersState, seat: int) -> list[Action]:
    menu, target = state.menus[seat]
    cancel = Action("cancel", "Cancel", True)
    if menu == "investigate":
        targets = state.investigation_targets(seat)
        return [Action(f"target:{t}", f"Seat {t}", True) for t in targets] + [cancel]
    if menu == "target":
        return [Action(f"reveal:{target}", f"Reveal Seat {target}"), cancel]
    if menu == "victory":
        return [Action("win", "Confirm: I win"), cancel]
    return [Action("out", "Confirm: I am out", True), cancel]


# --- opening and closing the menus -----------------------------------------------------


def open_investigation(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    state.menus[seat] = ("investigate", 0)
    return []


def choose_target(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    state.menus[seat] = ("target", int(arg))
    return []


def open_victory(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    state.menus[seat] = ("victory", 0)
    return []


def open_elimination(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    state.menus[seat] = ("eliminated", 0)
    return []


def cancel_menu(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    del state.menus[seat]
    return []


# --- what a confirmed choice does --------------------------------------------------------


def reveal_character(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    """The investigated Character is shown to all; an Alien finding the Human wins."""
    del state.menus[seat]
    target = int(arg)
    kind = state.characters[target]
    state.revealed.add(target)
    effects: list[Effect] = [Buzz(Tune.REVEAL), Reveal(character_phrase(target, kind))]
    nothing_happens = [Narrate(f"Seat {target} is an Alien: nothing happens.")]
    return effects + (end.unmasked(state, seat, target) or nothing_happens)


def declare_victory(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    del state.menus[seat]
    return end.declared_victory(state, seat)


def leave_the_game(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    """The seat is out: its Initiative card goes (the highest one leaves the game), its
    place in every step is skipped, and the floors shrink at the next cleanup."""
    del state.menus[seat]
    handover = initiative_handover(state.initiative_order(), seat)
    state.eliminated.append(seat)
    if state.first == seat:
        state.first = state.ring.left_of(seat, gone=state.eliminated) or seat
    state.participants.discard(seat)
    state.power_left.pop(seat, None)  # an answer from cleanup must not seat it next contest
    state.green.discard(seat)
    state.queue = [s for s in state.queue if s != seat]
    state.menus = {s: m for s, m in state.menus.items() if m != ("target", seat)}
    text = f"Seat {seat} is out: Power cards to the box, others to the general discard."
    effects: list[Effect] = [Buzz(Tune.LOSE), Narrate(text), *map(Narrate, handover)]
    return effects + end.last_one_standing(state) + carry_on(state)


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
