"""The setup phases: the seats build the deck step by step, get ready, and the Lookout starts
the hourglass (a free flip: it is part of the setup)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate
from engine.cues import Tune
from engine.games.staying_alive.steps import DeckData

if TYPE_CHECKING:
    from engine.games.staying_alive.state import StayingAliveState


def begin_deck(state: StayingAliveState, now: float) -> list[Effect]:
    state.data = DeckData()
    return []


def offer_deck(state: StayingAliveState, seat: int) -> list[Action]:
    """A seat first does its deck steps; once the deck is built it confirms its role card."""
    if state.pending_setup_steps(seat):
        return [Action("done", "Done")]
    built = len(state.data_of(DeckData).steps_done) == len(state.setup.steps)
    if built and seat in state.waiting_for:
        return [Action("ready", "Ready")]
    return []


def mark_step_done(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.data_of(DeckData).steps_done.add(state.pending_setup_steps(seat)[0])
    return []


def call_the_lookout(state: StayingAliveState, now: float) -> list[Effect]:
    return [Narrate(f"Seat {state.lookout()}, the Lookout, flips to start")]


def offer_start(state: StayingAliveState, seat: int) -> list[Action]:
    return [Action("start", "Flip to start")] if seat == state.lookout() else []


def start_hourglass(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    """The free first flip; the Lookout's first turn follows."""
    state.hourglass = state.hourglass.flip(now)
    state.acted(seat)
    return [Buzz(Tune.START)]
