"""Setup, as the rulebook orders it: everyone deals their own cards; the host counts the
Arch Villain piles (the companion picks one card from each) and the CIV pools; each seat
learns its Nemesis on PEEK.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate, Reveal
from engine.cues import Tune
from engine.entry import NumberEntry, entry_buttons
from engine.phases import Waits

from .city import ARCH_VILLAINS, CIV_TYPES
from .state import Counting, pile_counts, pool_counts, share_the_box

if TYPE_CHECKING:
    from .state import AlterEgoState


def the_host(state: AlterEgoState) -> Sequence[int]:
    return [state.host]


HOST = Waits(the_host)


def waiting_for_others(state: AlterEgoState, seat: int, action_id: str) -> str:
    if seat not in state.active_seats() and state.active_seats():
        return "Waiting for the others"
    return "Not now"


# --------------------------------------------------------------------------- everyone ready


def offer_prepare(state: AlterEgoState, seat: int) -> list[Action]:
    return [Action("ready", "Ready", True)] if seat in state.waiting_for else []


def offer_deal_nemeses(state: AlterEgoState, seat: int) -> list[Action]:
    return [Action("ready", "Took my Nemesis", True)] if seat in state.waiting_for else []


def lay_out_nemeses(state: AlterEgoState, now: float) -> list[Effect]:
    text = "Shuffle the Nemesis cards; lay one face down by each seat. PEEK: yours."
    return [Narrate(text)]


# --------------------------------------------------------------------------- the host counts


def all_counted(state: AlterEgoState) -> bool:
    return state.data_of(Counting).all_counted()


def count_piles(state: AlterEgoState, now: float) -> list[Effect]:
    return _host_counts(state, pile_counts(),
                        f"Sort the Arch Villains into {ARCH_VILLAINS} piles by type")


def count_pools(state: AlterEgoState, now: float) -> list[Effect]:
    first = state.seats[0]
    return _host_counts(state, pool_counts(),
                        f"Sort CIV into {CIV_TYPES} pools, clockwise from Seat {first}")


def _host_counts(state: AlterEgoState, counts: list[NumberEntry], sort: str) -> list[Effect]:
    state.data = Counting(counts)
    return [Narrate(f"{sort}; Seat {state.host} counts them.")]


def offer_pile_count(state: AlterEgoState, seat: int) -> list[Action]:
    """+1 counts a pile from "?", OK beside it once a size shows; the last pile's size is
    what the box leaves, so it has only OK."""
    if seat != state.host:
        return []
    counting = state.data_of(Counting)
    count = counting.count()
    ok = Action("ok", "OK", undoable=not counting.on_last())  # the last pile's OK draws the picks
    if count.low == count.high:
        return [ok]
    return entry_buttons(count, [Action("add:1", "+1", True, repeat=True, counts=True)], ok, _DOWN)


def offer_pool_count(state: AlterEgoState, seat: int) -> list[Action]:
    """Pools are counted up in fives (a pool of 10 is two presses, two PEEKs and OK), or
    left uncounted: the companion then never says on its own that the pool is empty."""
    if seat != state.host:
        return []
    count = state.data_of(Counting).count()
    ups = [Action("add:5", "+5", True, repeat=True, counts=True),
           Action("add:1", "+1", True, repeat=True, counts=True)]
    buttons = entry_buttons(count, ups, Action("ok", "OK", True), _DOWN)
    return [*buttons, Action("skip", "Not counted", True)] if count.value is None else buttons


_DOWN = Action("add:-1", "-1", True, repeat=True, counts=True)


def count_by(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    """Move the count; from "?" the first +1 shows 1, the first +5 shows 5."""
    state.data_of(Counting).count().step(int(arg))
    return []


def pile_counted(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    """Each pile after the first is bounded by what the ones before it left of the box."""
    counting = state.data_of(Counting)
    counting.index += 1
    if not counting.all_counted():
        share_the_box(counting.counts, counting.index)
    return []


def pool_counted(state: AlterEgoState, seat: int, arg: str, now: float) -> list[Effect]:
    """OK, or "Not counted" (the pool stays "?")."""
    state.data_of(Counting).index += 1
    return []


def fill_supply(state: AlterEgoState, now: float) -> list[Effect]:
    state.city.supply = [count.value for count in state.data_of(Counting).counts]
    return []


def draw_picks(state: AlterEgoState, now: float) -> list[Effect]:
    """Once the last pile is counted, one card of each is drawn: its position from the top."""
    piles = state.data_of(Counting).counts
    state.picks = [1 + state.rng.below(count.entered) for count in piles]
    chosen = ", ".join(f"pile {i + 1}: card {pick}" for i, pick in enumerate(state.picks))
    return [Buzz(Tune.REVEAL),
            Reveal(f"Take Arch Villains from the top, {chosen}.")]


def offer_picks(state: AlterEgoState, seat: int) -> list[Action]:
    return [Action("taken", "Villains taken", True)] if seat in state.waiting_for else []
