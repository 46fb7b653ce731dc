"""The facts of one game of High Card: who holds which card, who is still in, whose turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.dealing import deal_one_each
from engine.phases import Phase, PhasedState
from engine.rng import SeededRandom

from .text import card_phrase

CARDS = tuple(range(1, 10))


class HighCardState(PhasedState):
    def __init__(
        self,
        seats: Sequence[int],
        options: Mapping[str, str],
        seed: bytes,
        phases: Mapping[str, Phase],
    ) -> None:
        super().__init__(seats, seed, phases)
        self.cards: dict[int, int] = deal_one_each(CARDS, seats, SeededRandom(seed)).hands
        self.ready: set[int] = set()
        self.turn = 0  # index into seats of the seat deciding now
        self.folded: set[int] = set()

    def deciding(self) -> int:
        return self.seats[self.turn]

    def staying(self) -> list[int]:
        return [seat for seat in self.seats if seat not in self.folded]

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        """Every card but the seat's own, until the cards are shown at the end."""
        if self.is_terminal():
            return frozenset()
        return frozenset(card_phrase(s, c) for s, c in self.cards.items() if s != seat)
