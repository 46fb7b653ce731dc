"""The setup phases: the seats build the deck step by step, get ready, and the Lookout starts
the hourglass (a free flip: it is part of the setup)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate
from engine.cues import Tune
from engine.games.staying_alive.turns import begin_turn

if TYPE_CHECKING:
    from engine.games.staying_alive.state import StayingAliveState


def offer_deck(state: StayingAliveState, seat: int) -> list[Action]:
    """A seat first does its deck steps; once the deck is built it confirms its role card."""
    if state.pending_setup_steps(seat):
        return [Action("done", "Done")]
    if len(state.steps_done) == len(state.setup.steps) and seat not in state.ready:
        return [Action("ready", "Ready")]
    return []


def mark_step_done(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.steps_done.add(state.pending_setup_steps(seat)[0])
    return []


def mark_ready(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.ready.add(seat)
    if len(state.ready) < len(state.seats):
        return []
    state.phase = "start"
    return [Narrate(f"Seat {state.lookout()}, the Lookout, flips to start")]


def offer_start(state: StayingAliveState, seat: int) -> list[Action]:
    return [Action("start", "Flip to start")] if seat == state.lookout() else []


def start_hourglass(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    """The free first flip; the Lookout takes the first turn."""
    state.hourglass = state.hourglass.flip(now)
    return [Buzz(Tune.START), *begin_turn(state, seat)]
