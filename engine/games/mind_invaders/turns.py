"""The contest, step by step: I block, II hidden Powers, III reveal, IV hold or intensify
(II-IV again for the seats still green), collection, then cleanup and the next contest.

Each step's rules only record what the seat did; when nobody is left to act,
:func:`~.step.carry_on` runs the step's ``then``, one of the ``start_...`` functions here.
"""

from __future__ import annotations

from engine.api import Action, Buzz, Effect, Narrate
from engine.cues import Tune

from . import anytime
from .cards import floor_size
from .state import MindInvadersState
from .step import carry_on
from .text import seat_list

# --- what a seat may do in each step ---------------------------------------------------


def offer_block(state: MindInvadersState, seat: int) -> list[Action]:
    return anytime.offer(state, seat, [Action("blocked", "Card blocked", True)])


def offer_hidden(state: MindInvadersState, seat: int) -> list[Action]:
    return anytime.offer(state, seat, [Action("played", "Cards played", True)])


def offer_reveal(state: MindInvadersState, seat: int) -> list[Action]:
    return anytime.offer(state, seat, [Action("revealed", "Revealed, resolved", True)])


def offer_hold(state: MindInvadersState, seat: int) -> list[Action]:
    return anytime.offer(state, seat, [
        Action("hold", "Hold (red)", True),
        Action("intensify", "Intensify (green)", True),
    ])


def offer_collect(state: MindInvadersState, seat: int) -> list[Action]:
    return anytime.offer(state, seat, [Action("collected", "Collected", True)])


def offer_cleanup(state: MindInvadersState, seat: int) -> list[Action]:
    return anytime.offer(state, seat, [
        Action("power:yes", "I have Power cards", True),
        Action("power:no", "No Power cards", True),
    ])


# --- what each press records -------------------------------------------------------------


def block_card(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    """The 1st Initiative's block is the whole step: nobody else acts in it."""
    state.queue.clear()
    return carry_on(state)


def play_hidden(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    return _next_in_turn(state)


def reveal_powers(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    return _next_in_turn(state)


def hold(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    state.green.discard(seat)
    return _next_in_turn(state)


def intensify(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    return _next_in_turn(state)


def collected(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    state.queue.remove(seat)
    return carry_on(state)


def power_in_hand(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    state.power_left[seat] = arg == "yes"
    state.queue.remove(seat)
    return carry_on(state)


def _next_in_turn(state: MindInvadersState) -> list[Effect]:
    state.queue.pop(0)
    return carry_on(state)


# --- what follows each step ----------------------------------------------------------------


def start_contest(state: MindInvadersState) -> list[Effect]:
    """The lowest Initiative among the seats playing blocks: a seat with no Power cards in
    hand sits the whole contest out, the block too (if the blocker leaves, the next blocks)."""
    state.contest += 1
    state.phase = "block"
    state.round = 0
    state.green = set(state.participants)
    state.queue = [s for s in state.initiative_order() if s in state.participants]
    text = f"Contest {state.contest}: Seat {state.queue[0]} blocks a card on the lower floor."
    return [Buzz(Tune.TURN), Narrate(text)]


def start_round(state: MindInvadersState) -> list[Effect]:
    state.round += 1
    state.phase = "hidden"
    state.queue = _green_in_order(state)
    if state.round == 1:
        text = "Hidden Powers in Initiative order: play face down, at least one Power."
    else:
        text = f"Intensify: Seats {seat_list(state.queue)} play again, in Initiative order."
    return [Narrate(text)]


def start_reveal(state: MindInvadersState) -> list[Effect]:
    state.phase = "reveal"
    state.queue = _green_in_order(state)
    return []


def start_hold(state: MindInvadersState) -> list[Effect]:
    state.phase = "hold"
    state.queue = _green_in_order(state)
    return []


def end_round(state: MindInvadersState) -> list[Effect]:
    """The seats still green play II-IV again; once all hold, collection follows."""
    return start_round(state) if state.green else start_collection(state)


def start_collection(state: MindInvadersState) -> list[Effect]:
    state.phase = "collect"
    state.queue = sorted(state.participants)
    ties = seat_list([s for s in state.initiative_order() if s in state.participants])
    text = f"All hold. Collect: highest Power first; ties in Initiative order: {ties}."
    return [Buzz(Tune.TURN), Narrate(text)]


def start_cleanup(state: MindInvadersState) -> list[Effect]:
    state.phase = "cleanup"
    state.queue = state.alive()
    state.power_left = {}
    state.first = state.ring.left_of(state.first, gone=state.eliminated) or state.first
    state.floor_size = floor_size(len(state.alive()))
    return [  # three notices, each one screen; the screens ask who holds Power cards
        Narrate("Cleanup: active Power cards to your discard, Resources to the general"
                " discard."),
        Narrate("Lower floor to the general discard; slide the upper floor down and refill"
                " it."),
        Narrate(f"{state.floor_size} cards per floor. Initiative cards turn green and pass"
                f" left: Seat {state.first} is 1st."),
    ]


def next_contest(state: MindInvadersState) -> list[Effect]:
    """Only seats with Power cards play next; if none has any, all take theirs back."""
    holding = {seat for seat, has in state.power_left.items() if has}
    if holding:
        state.participants = holding
        order = [s for s in state.initiative_order() if s in holding]
        recycled: list[Effect] = [Narrate(f"Next contest: Seats {seat_list(order)}.")]
    else:
        state.participants = set(state.alive())
        recycled = [Narrate("Nobody has Power cards: everyone takes back all their Power cards.")]
    return recycled + start_contest(state)


def _green_in_order(state: MindInvadersState) -> list[int]:
    return [seat for seat in state.initiative_order() if seat in state.green]
