"""Fairness of shuffles and deals with the production generator, by chi-square.

Every sample gets a fresh 32-byte seed from ``secrets``, as every game does. Shuffles: how
often each of the 120 orders of 5 cards comes out. Deals: how often each seat is dealt each of
Staying Alive's 9 role cards (the Lookout always among the 5 dealt). The baseline is the
classic naive shuffle (swap each card with *any* position) on the same generator, whose bias
a fair test must catch. No budget: a p-value is fine unless it is tiny, and one in a hundred
runs of a fair generator will show p < 0.01.
"""

from __future__ import annotations

import itertools
import secrets
from collections import Counter
from collections.abc import MutableSequence
from typing import TypeVar

from engine.api import resolve_options
from engine.games.staying_alive.cards import LOOKOUT, OPTIONS, ROLES
from engine.games.staying_alive.deal import plan
from engine.rng import SEED_BYTES, SeededRandom

from .report import Figure
from .sizes import Sizes
from .stats import chi_square

T = TypeVar("T")
CARDS = 5
DEAL_SEATS = (1, 2, 3, 4, 5)
ROLE_GAME = "2"  # the first recommended game with role cards
NAIVE = "naive shuffle"
FAIR_P = 0.001


class NaiveRandom(SeededRandom):
    """The production generator with the textbook mistake in its shuffle."""

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items)):
            j = self.below(len(items))
            items[i], items[j] = items[j], items[i]


def fresh(kind: type[SeededRandom] = SeededRandom) -> SeededRandom:
    return kind(secrets.token_bytes(SEED_BYTES))


def measure(sizes: Sizes) -> list[Figure]:
    shuffles, deals = sizes.shuffles, sizes.deals
    return [
        Figure("shuffle_p", f"5-card shuffle, 120 orders, n={shuffles} (p)",
               permutation_p(shuffles, SeededRandom), "", FAIR_P, at_least=True,
               baseline=permutation_p(shuffles, NaiveRandom), baseline_label=NAIVE),
        Figure("deal_p", f"role deal, 5 seats x 9 roles, n={deals} (min p)",
               role_deal_p(deals, SeededRandom), "", FAIR_P, at_least=True,
               baseline=role_deal_p(deals, NaiveRandom), baseline_label=NAIVE),
    ]


def permutation_p(samples: int, kind: type[SeededRandom]) -> float:
    orders = list(itertools.permutations(range(CARDS)))
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(samples):
        cards = list(range(CARDS))
        fresh(kind).shuffle(cards)
        counts[tuple(cards)] += 1
    expected = samples / len(orders)
    return chi_square([counts[order] for order in orders], [expected] * len(orders)).p


def role_deal_p(samples: int, kind: type[SeededRandom]) -> float:
    """The smallest p over the seats, each seat's 9 role frequencies tested on its own."""
    options = resolve_options(OPTIONS, {"game": ROLE_GAME})
    dealt = {seat: Counter() for seat in DEAL_SEATS}
    for _ in range(samples):
        for seat, role in plan(DEAL_SEATS, options, fresh(kind)).roles.items():
            dealt[seat][role.index] += 1
    expected = [samples * role_chance(role.index) for role in ROLES]
    return min(chi_square([dealt[seat][role.index] for role in ROLES], expected).p
               for seat in DEAL_SEATS)


def role_chance(index: int) -> float:
    """A seat's chance of one role: the Lookout is always dealt, 4 of the other 8 with it."""
    seats, others = len(DEAL_SEATS), len(ROLES) - 1
    if index == LOOKOUT.index:
        return 1 / seats
    return (seats - 1) / others / seats
