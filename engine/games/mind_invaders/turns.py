"""The contest, step by step: I block, II hidden Powers, III reveal, IV hold or intensify
(II-IV again for the seats still green), collection, then cleanup and the next contest.

Each step's rules only record what the seat did (``state.acted``); the phase table says
whom each step waits for and what follows, and the ``begin`` and ``end`` hooks here tell
the table what a step's start and end mean.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate
from engine.cues import Tune

from . import anytime
from .cards import floor_size
from .text import seat_list

if TYPE_CHECKING:
    from .state import MindInvadersState


@dataclass
class Cleanup:
    """The cleanup's own data: each seat's answer, does it hold Power cards in hand?"""

    power_left: dict[int, bool] = field(default_factory=dict)


# --- whom each step waits for ------------------------------------------------------------


def blockers(state: MindInvadersState) -> list[int]:
    """The seats playing the contest, in Initiative order: the first blocks, the others are
    there in case it leaves the game before it does."""
    return state.in_initiative_order(state.participants)


def green_in_order(state: MindInvadersState) -> list[int]:
    return state.in_initiative_order(state.green)


def participants(state: MindInvadersState) -> list[int]:
    return sorted(state.participants)


def alive(state: MindInvadersState) -> list[int]:
    return state.alive()


def after_hold(state: MindInvadersState) -> str:
    """The seats still green play II-IV again; once all hold, collection follows."""
    return "hidden" if state.green else "collect"


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
    """The first blocker's block is the whole step: nobody after it is waited for."""
    state.stop_waiting()
    return []


def hold(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    state.green.discard(seat)
    state.acted(seat)
    return []


def power_in_hand(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    state.data_of(Cleanup).power_left[seat] = arg == "yes"
    state.acted(seat)
    return []


# --- how each step begins and ends ---------------------------------------------------------


def start_contest(state: MindInvadersState, now: float) -> list[Effect]:
    """The lowest Initiative among the seats playing blocks: a seat with no Power cards in
    hand sits the whole contest out, the block too (if the blocker leaves, the next blocks)."""
    state.contest += 1
    state.round = 0
    state.green = set(state.participants)
    text = f"Contest {state.contest}: Seat {state.awaited()[0]} blocks a card on the lower floor."
    return [Buzz(Tune.TURN), Narrate(text)]


def start_round(state: MindInvadersState, now: float) -> list[Effect]:
    state.round += 1
    if state.round == 1:
        text = "Hidden Powers in Initiative order: play face down, at least one Power."
    else:
        text = f"Intensify: Seats {seat_list(state.waiting_for)} play again, in Initiative order."
    return [Narrate(text)]


def start_collection(state: MindInvadersState, now: float) -> list[Effect]:
    ties = seat_list(state.in_initiative_order(state.participants))
    text = f"All hold. Collect: highest Power first; ties in Initiative order: {ties}."
    return [Buzz(Tune.TURN), Narrate(text)]


def start_cleanup(state: MindInvadersState, now: float) -> list[Effect]:
    state.data = Cleanup()
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


def end_cleanup(state: MindInvadersState, now: float) -> list[Effect]:
    """Only seats with Power cards play next (an answer from a seat eliminated since does
    not count); if none has any, all take theirs back."""
    answers = state.data_of(Cleanup).power_left
    holding = {seat for seat, has in answers.items() if has and seat not in state.eliminated}
    if holding:
        state.participants = holding
        return [Narrate(f"Next contest: Seats {seat_list(state.in_initiative_order(holding))}.")]
    state.participants = set(state.alive())
    return [Narrate("Nobody has Power cards: everyone takes back all their Power cards.")]
