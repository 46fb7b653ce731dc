"""Mind Invaders' setup: each seat reads its Character on PEEK and says it is ready."""

from __future__ import annotations

from engine.api import Action, Effect

from .state import MindInvadersState
from .step import carry_on


def offer_ready(state: MindInvadersState, seat: int) -> list[Action]:
    return [Action("ready", "Ready", True)] if seat in state.waiting() else []


def ready(state: MindInvadersState, seat: int, arg: str, now: float) -> list[Effect]:
    state.queue.remove(seat)
    return carry_on(state)
