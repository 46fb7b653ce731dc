"""Dealing secret cards (roles, identities, heroes) to seats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from .rng import SeededRandom

C = TypeVar("C")


@dataclass(frozen=True)
class Deal(Generic[C]):
    """Who got what, and what was left over face down (a spare identity, the excluded Alien)."""

    hands: dict[int, C]
    spares: tuple[C, ...]


def deal_one_each(pool: Sequence[C], seats: Sequence[int], rng: SeededRandom) -> Deal[C]:
    """Shuffle ``pool`` and give one card to each seat; the rest are the spares."""
    if len(pool) < len(seats):
        raise ValueError(f"{len(pool)} cards cannot go round {len(seats)} seats")
    cards = list(pool)
    rng.shuffle(cards)
    hands = {seat: cards[i] for i, seat in enumerate(seats)}
    return Deal(hands=hands, spares=tuple(cards[len(seats):]))


def deal_with_required(
    pool: Sequence[C], required: C, seats: Sequence[int], rng: SeededRandom
) -> Deal[C]:
    """One card each from ``pool`` with ``required`` always among them (Staying Alive's Lookout).

    The required card goes to a uniformly random seat; the others are drawn from the rest.
    """
    others = [card for card in pool if card != required]
    if len(others) + 1 < len(seats):
        raise ValueError("not enough cards to deal")
    rng.shuffle(others)
    cards = [required, *others[: len(seats) - 1]]
    rng.shuffle(cards)
    return Deal(hands=dict(zip(seats, cards, strict=True)), spares=tuple(others[len(seats) - 1:]))
