"""What the seed decides before the first flip: the role deal, the Codes card, the deck steps.

Six of the nine role cards are unnamed in the rulebook, so the deal stays random without
inventing names: the companion decides which seats get a named role and which get "one of the
others", and the table shuffles those other cards face down so chance picks among them. The
two steps together are the same uniform deal as shuffling all nine, with the Lookout always in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.dealing import deal_one_each, deal_with_required
from engine.games.staying_alive.cards import (
    DATA,
    HAND,
    LOOKOUT,
    ROLES,
    STAMINA,
    STRONG_LOOKOUT_STAMINA,
    Role,
    base_cards,
    module_cards,
    modules_for,
)
from engine.games.staying_alive.text import Page, deck_pages
from engine.rng import SeededRandom


@dataclass(frozen=True)
class Setup:
    """What the seed decided and what the table must do before the first flip."""

    modules: tuple[int, ...]
    codes_returned: int | None  # position from the top of the shuffled Code cards
    roles: dict[int, Role | None]  # None: no role card (game 1)
    stamina: dict[int, int]
    strong_lookout: int | None  # the seat that took the 8-stamina Lookout option
    cards_in_play: int  # base + module cards, before anyone draws
    steps: tuple[Page, ...]  # deck building, spread over the seats

    @property
    def deck_after_draw(self) -> int:
        return self.cards_in_play - HAND * len(self.roles)

    def steps_for(self, seat: int) -> tuple[int, ...]:
        """Indexes of the steps shown on ``seat``: one each, round the table, as needed."""
        seats = list(self.roles)
        return tuple(i for i in range(len(self.steps)) if seats[i % len(seats)] == seat)


def plan(seats: Sequence[int], options: Mapping[str, str], rng: SeededRandom) -> Setup:
    """Draw everything the setup needs from ``rng``, in a fixed order (replays depend on it)."""
    modules = modules_for(options)
    codes = rng.between(1, DATA["modules"]["cards_each"]) if 2 in modules else None
    roles = _deal_roles(seats, options["game"] == "1", rng)
    lookout = next(seat for seat, role in roles.items() if role == LOOKOUT)
    strong = lookout if options["lookout_stamina"] == "8" else None
    stamina = {seat: STRONG_LOOKOUT_STAMINA if seat == strong else STAMINA for seat in seats}
    cards = base_cards(len(seats)) + module_cards(modules)
    steps = deck_pages(len(seats), modules, codes, cards, roles)
    return Setup(modules, codes, roles, stamina, strong, cards, steps)


def _deal_roles(
    seats: Sequence[int], lookout_only: bool, rng: SeededRandom
) -> dict[int, Role | None]:
    """Game 1 appoints one Lookout; later games deal 1 role each with the Lookout among them."""
    if lookout_only:
        lookout = deal_one_each(seats, [0], rng).hands[0]
        return {seat: LOOKOUT if seat == lookout else None for seat in seats}
    return dict(deal_with_required(ROLES, LOOKOUT, seats, rng).hands)
