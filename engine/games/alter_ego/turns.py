"""A turn: one seat's six rulebook phases as steps on its own buttons.

Each step is a phase of its own with a short list of actions, waiting for the seat on turn;
a choice within a step (which villain, which CIV type, "are you sure") is a menu of that
phase, and the trophy icons and an arrival are steps of their own, so the screen always
shows one question. The table in phases.py names where each step leads; the rules here
only say a step is done, open and close its menus, or name a way out the table does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate
from engine.cues import Tune
from engine.phases import Offer, Rule, Waits
from engine.text import page_of

from . import end
from .city import CIV_TYPES
from .state import ALTER_EGO_TYPES, Ending, Listing, Taking
from .text import Step, counts_text, holds

if TYPE_CHECKING:
    from .state import AlterEgoState

DISPLAY_MAX = 12  # a seat's own Alter Ego deck: more in one display is a slip of the finger
PAGE = 6  # villains a page, so a long list of henchmen still fits the buttons


def _act(action_id: str, label: str) -> Action:
    """Every turn step is bookkeeping without chance, so the table may take any back."""
    return Action(action_id, label, undoable=True)


def seat_on_turn(state: AlterEgoState) -> Sequence[int]:
    return [state.current]


ON_TURN = Waits(seat_on_turn)  # every step of a turn waits for the seat whose turn it is


def start_turn(state: AlterEgoState, now: float) -> list[Effect]:
    state.display = dict.fromkeys(ALTER_EGO_TYPES, 0)
    return [Buzz(Tune.TURN), Narrate(f"Seat {state.current}'s turn: enter your display.")]


def pass_the_turn(state: AlterEgoState, now: float) -> list[Effect]:
    state.current = state.next_seat()
    return []


def list_villains(state: AlterEgoState, now: float) -> list[Effect]:
    state.data = Listing()
    return []


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
        Action(f"take:{c}", f"+1 CIV {c + 1} ({counts_text([supply[c]])} left)", undoable=True,
               confirm=supply[c] == 0)  # none left: the Villains win at once
        for c in range(CIV_TYPES)
    ]
    # An uncounted pool: the table says when it has run out.
    actions += [Action(f"empty:{c}", f"No CIV {c + 1} left", confirm=True)
                for c in range(CIV_TYPES) if supply[c] is None]
    if any(state.city.held[state.data_of(Taking).villain]):
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
    if state.ending != Ending.ALL_WIN and state.current not in state.beaten:
        actions.append(_act("nemesis", "Beat my Nemesis..."))
    return actions


@on_turn
def offer_rescue_pick(state: AlterEgoState, seat: int) -> list[Action]:
    keys = state.city.held
    items = [_act(f"pick:{key}", _label(state, key)) for key in keys]
    return _paged(state, items, _act("back", "Back"))


@on_turn
def offer_rescue_civ(state: AlterEgoState, seat: int) -> list[Action]:
    held = state.city.held[state.rescuing()]
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
    shown, more = page_of(items, state.data_of(Listing).page, PAGE)
    return [*shown, _act("more", "More..."), back] if more else [*shown, back]


# --------------------------------------------------------------------------- where next


def after_hostages(state: AlterEgoState) -> str:
    """A henchman's hostages lead on to the Cops; an Arch Villain's, back to the fight."""
    if state.data_of(Taking).villain.startswith("H"):
        cops = state.display["Community"] and state.city.henchmen()
        return Step.COPS if cops else Step.SUPPORT
    return arrival_or_fight(state)


def arrival_or_fight(state: AlterEgoState) -> str:
    """A defeated villain's icons may have filled an Arch Villain's card."""
    return Step.ARRIVE if state.city.waiting_arch_villains() else Step.FIGHT


# --------------------------------------------------------------------------- rules


def open_list(menu: Step) -> Rule:
    """Open a list of villains (Call the Cops..., Rescue..., Back), from its first page."""
    def opened(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
        state.data_of(Listing).page = 0
        state.open_menu(seat, menu)
        return []
    return opened


def close_menu(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    """Back, Cancel: to the step the menu was opened from."""
    state.close_menu(seat)
    return []


def add_card(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.display[arg] += 1
    return []


def clear_display(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.display = dict.fromkeys(ALTER_EGO_TYPES, 0)
    return []


def next_page(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.data_of(Listing).page += 1
    return []


def henchman_in(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    key = state.city.new_henchman()
    state.acted(seat)
    return [Narrate(f"{key} comes into play and takes hostages.")]


def hold_hostages(state: AlterEgoState, now: float) -> list[Effect]:
    state.data = Taking(state.city.newest())
    return []


def take_hostage(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    civ = int(arg)
    taken = state.city.take(state.data_of(Taking).villain, civ)
    return [] if taken else end.villains_win(state, civ)


def pool_ran_out(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    """A hostage was needed from an uncounted pool the table sees empty."""
    return end.villains_win(state, int(arg))


def call_the_cops(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.city.call_the_cops(arg)
    state.acted(seat)
    return [Narrate(f"The Cops take {arg} away; its hostages go back to the supply.")]


def pick_villain(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.open_menu(seat, Step.RESCUE_CIV, arg)
    return []


def free_hostage(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    """The last hostage freed defeats the villain: an Arch Villain falls, a henchman is kept."""
    key = state.rescuing()
    if not state.city.rescue(key, int(arg)):
        return []
    if key.startswith("AV"):
        state.close_menu(seat)
        return end.arch_defeated(state, key)
    text = f"{key} is defeated: keep it; place Arch Villain tokens for its icons."
    return [Buzz(Tune.WIN), Narrate(text), *state.set_phase(Step.TROPHY, now)]


def add_trophy(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.trophies[state.current][arg] += 1
    return []


def arch_villain_in(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.city.arch_enters(int(arg))
    arrived = [Buzz(Tune.ALARM), Narrate(f"Arch Villain {int(arg) + 1} comes into play!")]
    return arrived + state.set_phase(Step.HOSTAGES, now)


def nemesis_confirmed(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.close_menu(seat)
    return end.nemesis_beaten(state, state.current)
