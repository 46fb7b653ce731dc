"""High Card's words."""

from __future__ import annotations

READY = "Ready"
STAY = "Stay in"
FOLD = "Fold"


def card_phrase(seat: int, card: int) -> str:
    return f"Seat {seat} holds {card}"
