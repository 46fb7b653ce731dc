"""A turn: one seat's six rulebook phases as steps on its own buttons.

Each step is a phase of its own with a short list of actions; the multi-step choices (which
villain, which CIV type, which trophy icons) are steps of their own, so the screen always
shows one question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate
from engine.cues import Tune
from engine.phases import Offer, Rule
from engine.text import page_of

from . import end
from .city import CIV_TYPES
from .state import ALTER_EGO_TYPES
from .text import holds

if TYPE_CHECKING:
    from .state import AlterEgoState

DISPLAY_MAX = 12  # a seat's own Alter Ego deck: more in one display is a slip of the finger
PAGE = 6  # villains a page, so a long list of henchmen still fits the buttons


def _act(action_id: str, label: str) -> Action:
    """Every turn step is bookkeeping without chance, so the table may take any back."""
    return Action(action_id, label, undoable=True)


def start_turn(state: AlterEgoState, seat: int) -> list[Effect]:
    state.current = seat
    state.phase = "display"
    state.display = dict.fromkeys(ALTER_EGO_TYPES, 0)
    state.target = ""
    state.page = 0
    return [Buzz(Tune.TURN), Narrate(f"Seat {seat}'s turn: enter your display.")]


def whose_turn(state: AlterEgoState, seat: int, action_id: str) -> str:
    return f"Seat {state.current}'s turn" if seat != state.current else "Not now"


# --------------------------------------------------------------------------- offers


def on_turn(offer: Offer) -> Offer:
    """Only the seat on turn is offered anything."""
    def offered(state: AlterEgoState, seat: int) -> list[Action]:
        return offer(state, seat) if seat == state.current else []
    return offered


def buttons(*choices: tuple[str, str]) -> Offer:
    """A step whose choices never change."""
    return on_turn(lambda state, seat: [_act(action_id, label) for action_id, label in choices])


@on_turn
def offer_display(state: AlterEgoState, seat: int) -> list[Action]:
    actions = []
    if sum(state.display.values()) < DISPLAY_MAX:
        actions = [_act(f"more:{kind}", f"{kind} +1") for kind in ALTER_EGO_TYPES]
    actions.append(_act("done", "Done"))
    if any(state.display.values()):
        actions.append(_act("clear", "Clear"))
    return actions


@on_turn
def offer_hostages(state: AlterEgoState, seat: int) -> list[Action]:
    supply = state.city.supply
    actions = [
        Action(f"take:{c}", f"+1 CIV {c + 1} ({supply[c]} left)", undoable=True,
               confirm=supply[c] == 0)  # none left: the Villains win at once
        for c in range(CIV_TYPES)
    ]
    if any(state.city.held[state.target]):
        actions.append(_act("done", "Done"))
    return actions


@on_turn
def offer_cops_pick(state: AlterEgoState, seat: int) -> list[Action]:
    keys = state.city.henchmen()
    items = [_act(f"remove:{key}", _label(state, key)) for key in keys]
    return _paged(state, items, _act("cancel", "Cancel"))


@on_turn
def offer_fight(state: AlterEgoState, seat: int) -> list[Action]:
    actions = [_act("rescue", "Rescue...")] if state.city.hostages() else []
    actions.append(_act("done", "Done fighting"))
    if state.ending != "all-win" and state.current not in state.beaten:
        actions.append(_act("nemesis", "Beat my Nemesis..."))
    return actions


@on_turn
def offer_rescue_pick(state: AlterEgoState, seat: int) -> list[Action]:
    keys = state.city.held
    items = [_act(f"pick:{key}", _label(state, key)) for key in keys]
    return _paged(state, items, _act("back", "Back"))


@on_turn
def offer_rescue_civ(state: AlterEgoState, seat: int) -> list[Action]:
    held = state.city.held[state.target]
    actions = [_act(f"free:{c}", f"Free CIV {c + 1} ({count})") for c, count in enumerate(held)
               if count]
    return [*actions, _act("back", "Back")]


@on_turn
def offer_arrive(state: AlterEgoState, seat: int) -> list[Action]:
    arrivals = [_act(f"arrive:{i}", f"Arch Villain {i + 1} in")
                for i in state.city.waiting_arch_villains()]
    return [_act("none", "None comes in"), *arrivals]


def _label(state: AlterEgoState, key: str) -> str:
    return holds(key, state.city.held[key])


def _paged(state: AlterEgoState, items: list[Action], back: Action) -> list[Action]:
    shown, more = page_of(items, state.page, PAGE)
    return [*shown, _act("more", "More..."), back] if more else [*shown, back]


# --------------------------------------------------------------------------- rules


def move(state: AlterEgoState, step: str) -> None:
    state.phase = step
    state.page = 0  # a list of villains is always shown from its first page


def go_to(step: str) -> Rule:
    """Move on (Next, Done, Back, Cancel...) to the step the rules put next."""
    def moved(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
        move(state, step)
        return []
    return moved


def hostages_taken(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    """A henchman's hostages lead on to the Cops; an Arch Villain's, back to the fight."""
    if state.target.startswith("H"):
        cops = state.display["Community"] and state.city.henchmen()
        move(state, "cops" if cops else "support")
    else:
        move(state, _arrival_or_fight(state))
    return []


def icons_counted(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    move(state, _arrival_or_fight(state))
    return []


def _arrival_or_fight(state: AlterEgoState) -> str:
    """A defeated villain's icons may have filled an Arch Villain's card."""
    return "arrive" if state.city.waiting_arch_villains() else "fight"


def add_card(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.display[arg] += 1
    return []


def clear_display(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.display = dict.fromkeys(ALTER_EGO_TYPES, 0)
    return []


def next_page(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.page += 1
    return []


def henchman_in(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.target = state.city.new_henchman()
    state.phase = "hostages"
    return [Narrate(f"{state.target} comes into play and takes hostages.")]


def take_hostage(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    civ = int(arg)
    return [] if state.city.take(state.target, civ) else end.villains_win(state, civ)


def call_the_cops(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.city.call_the_cops(arg)
    state.phase = "support"
    return [Narrate(f"The Cops take {arg} away; its hostages go back to the supply.")]


def pick_villain(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.target = arg
    state.phase = "rescue_civ"
    return []


def free_hostage(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    """The last hostage freed defeats the villain: an Arch Villain falls, a henchman is kept."""
    key = state.target
    if not state.city.rescue(key, int(arg)):
        return []
    if key.startswith("AV"):
        state.phase = "fight"
        return end.arch_defeated(state, key)
    state.phase = "trophy"
    text = f"{key} is defeated: keep it; place Arch Villain tokens for its icons."
    return [Buzz(Tune.WIN), Narrate(text)]


def add_trophy(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.trophies[state.current][arg] += 1
    return []


def arch_villain_in(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.target = state.city.arch_enters(int(arg))
    state.phase = "hostages"
    return [Buzz(Tune.ALARM), Narrate(f"Arch Villain {int(arg) + 1} comes into play!")]


def nemesis_confirmed(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.phase = "fight"
    return end.nemesis_beaten(state, state.current)


def end_turn(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    return start_turn(state, state.next_seat())
