"""A deck of cards the companion holds: shuffle, draw, discard, reshuffle, set aside.

Cards are plain values (usually names from a game's data file). The deck draws from the end
of its list, so "top" is the last element.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from .rng import SeededRandom

C = TypeVar("C")


class EmptyDeck(LookupError):
    """A draw from a pile with no cards; games decide what that means."""


@dataclass
class Deck(Generic[C]):
    cards: list[C] = field(default_factory=list)
    discards: list[C] = field(default_factory=list)
    aside: list[C] = field(default_factory=list)

    @classmethod
    def shuffled(cls, cards: Iterable[C], rng: SeededRandom) -> Deck[C]:
        deck = cls(list(cards))
        deck.shuffle(rng)
        return deck

    def __len__(self) -> int:
        return len(self.cards)

    def shuffle(self, rng: SeededRandom) -> None:
        rng.shuffle(self.cards)

    def draw(self) -> C:
        if not self.cards:
            raise EmptyDeck("the pile is empty")
        return self.cards.pop()

    def draw_many(self, count: int) -> list[C]:
        if count > len(self.cards):
            raise EmptyDeck(f"only {len(self.cards)} cards left")
        return [self.draw() for _ in range(count)]

    def discard(self, card: C) -> None:
        self.discards.append(card)

    def set_aside(self) -> C:
        """Take the top card out of play, face down (Heroes Love to Lie's hidden card)."""
        card = self.draw()
        self.aside.append(card)
        return card

    def reshuffle(self, rng: SeededRandom, include_aside: bool = False) -> None:
        """The discards (and the set-aside cards, if asked) go back in, and all is shuffled."""
        self.cards.extend(self.discards)
        self.discards.clear()
        if include_aside:
            self.cards.extend(self.aside)
            self.aside.clear()
        self.shuffle(rng)
