"""Mind Invaders' setup: each seat reads its Character on PEEK and says it is ready."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action

if TYPE_CHECKING:
    from .state import MindInvadersState


def offer_ready(state: MindInvadersState, seat: int) -> list[Action]:
    return [Action("ready", "Ready", True)] if seat in state.awaited() else []

