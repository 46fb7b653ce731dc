"""What each seat sees: its own card on PEEK only; everyone sees whose turn it is."""

from __future__ import annotations

from engine.api import SeatView, SecretFace

from .state import HighCardState
from .text import card_phrase


def view_play(state: HighCardState, seat: int | None, now: float) -> SeatView:
    title = "Look at your card" if state.phase == "look" else f"Seat {state.deciding()} decides"
    folded = ", ".join(str(s) for s in sorted(state.folded)) or "none"
    return SeatView(title, (f"Folded: {folded}",), secret=_secret(state, seat))


def view_over(state: HighCardState, seat: int | None, now: float) -> SeatView:
    return SeatView("Game over", (state.outcome or "",), secret=_secret(state, seat))


def _secret(state: HighCardState, seat: int | None) -> SecretFace | None:
    if seat is None:
        return None
    return SecretFace("YOUR CARD", (card_phrase(seat, state.cards[seat]),))

