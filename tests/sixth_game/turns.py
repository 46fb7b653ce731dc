"""Turns: each player in turn stays in or folds; after the last one, the cards are shown."""

from __future__ import annotations

from engine.api import Action, Effect

from .end import show_cards
from .state import HighCardState
from .text import FOLD, STAY


def offer_decide(state: HighCardState, seat: int) -> list[Action]:
    return [Action("stay", STAY), Action("fold", FOLD)] if seat == state.deciding() else []


def stay(state: HighCardState, seat: int, arg: str, now: float) -> list[Effect]:
    return _next(state)


def fold(state: HighCardState, seat: int, arg: str, now: float) -> list[Effect]:
    state.folded.add(seat)
    return _next(state)


def _next(state: HighCardState) -> list[Effect]:
    state.turn += 1
    return show_cards(state) if state.turn == len(state.seats) else []
