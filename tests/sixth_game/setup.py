"""Setup: every player looks at their card (PEEK) and says Ready."""

from __future__ import annotations

from engine.api import Action, Effect, Narrate

from .state import HighCardState
from .text import READY


def offer_look(state: HighCardState, seat: int) -> list[Action]:
    return [] if seat in state.ready else [Action("ready", READY)]


def say_ready(state: HighCardState, seat: int, arg: str, now: float) -> list[Effect]:
    state.ready.add(seat)
    if len(state.ready) < len(state.seats):
        return []
    state.phase = "decide"
    return [Narrate(f"Seat {state.deciding()} decides first")]
