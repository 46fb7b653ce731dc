"""Setup, as the rulebook orders it: everyone deals their own cards; the host counts the
Arch Villain piles (the companion picks one card from each) and the CIV pools; each seat
learns its Nemesis on PEEK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate, Reveal
from engine.cues import Tune
from engine.entry import NumberEntry

from .city import ARCH_VILLAINS, CIV_TYPES
from .state import pool_counts, share_the_box
from .turns import start_turn

if TYPE_CHECKING:
    from .state import AlterEgoState


def waiting_for_others(state: AlterEgoState, seat: int, action_id: str) -> str:
    if seat not in state.active_seats() and state.active_seats():
        return "Waiting for the others"
    return "Not now"


# --------------------------------------------------------------------------- everyone ready


def offer_prepare(state: AlterEgoState, seat: int) -> list[Action]:
    return [] if seat in state.ready else [Action("ready", "Ready", True)]


def offer_deal_nemeses(state: AlterEgoState, seat: int) -> list[Action]:
    return [] if seat in state.ready else [Action("ready", "Took my Nemesis", True)]


def cards_dealt(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    """Once everyone has dealt their Alter Ego cards, the host counts the Arch Villains."""
    state.ready.add(seat)
    if state.ready != set(state.seats):
        return []
    state.phase = "piles"
    text = (
        f"Sort the Arch Villains into {ARCH_VILLAINS} piles by type;"
        f" Seat {state.host} counts them."
    )
    return [Narrate(text)]


def nemesis_taken(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    """Once everyone knows their Nemesis, the host takes the first turn."""
    state.ready.add(seat)
    if state.ready != set(state.seats):
        return []
    return start_turn(state, state.host)


# --------------------------------------------------------------------------- the host counts


def acceptable(count: NumberEntry) -> bool:
    """A pile or pool counted empty is a slip: OK is offered only from one up."""
    return 1 <= count.current <= count.high


def offer_pile_count(state: AlterEgoState, seat: int) -> list[Action]:
    """Piles have a likely default, so OK comes first."""
    if seat != state.host:
        return []
    buttons = _count_buttons(state.count())
    last_pile = state.count_index == len(state.counts) - 1
    ok = Action("ok", "OK", undoable=not last_pile)  # the last pile's OK draws the picks
    return [ok, *buttons] if acceptable(state.count()) else buttons


def offer_pool_count(state: AlterEgoState, seat: int) -> list[Action]:
    """Pools are counted up in fives, and OK comes last."""
    if seat != state.host:
        return []
    buttons = [Action("add:5", "+5", True, repeat=True), *_count_buttons(state.count())]
    return [*buttons, Action("ok", "OK", True)] if acceptable(state.count()) else buttons


def _count_buttons(count: NumberEntry) -> list[Action]:
    buttons = [Action("add:1", "+1", True, repeat=True)]
    if count.current > 0:
        buttons.append(Action("add:-1", "-1", True, repeat=True))
    return buttons


def count_by(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    """Move the count; unlike a card's number, the first press moves it from the default too."""
    count = state.count()
    count.value = count.current
    count.step(int(arg))
    return []


def pile_counted(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    """After the last pile, one card of each is drawn: its position from the top."""
    state.count_index += 1
    if state.count_index < len(state.counts):
        share_the_box(state.counts, state.count_index)
        return []
    state.picks = [1 + state.rng.below(count.current) for count in state.counts]
    state.phase = "picks"
    chosen = ", ".join(f"pile {i + 1}: card {pick}" for i, pick in enumerate(state.picks))
    return [Buzz(Tune.REVEAL),
            Reveal(f"Take Arch Villains from the top, {chosen}.")]


def offer_picks(state: AlterEgoState, seat: int) -> list[Action]:
    return [Action("taken", "Villains taken", True)] if seat == state.host else []


def villains_taken(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.phase = "supply"
    state.counts = pool_counts()
    state.count_index = 0
    text = (
        f"Sort the CIV tokens into {CIV_TYPES} pools, left to right;"
        f" Seat {state.host} counts them."
    )
    return [Narrate(text)]


def pool_counted(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    state.count_index += 1
    if state.count_index < len(state.counts):
        return []
    state.city.supply = [count.current for count in state.counts]
    state.phase = "deal_nemeses"
    state.ready = set()
    text = (f"Shuffle the Nemesis cards, then lay {len(state.seats)} face down in a row;"
            " PEEK: which is yours.")
    return [Narrate(text)]
