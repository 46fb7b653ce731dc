"""They Live's cards as data: the characters, the Identity cards and the Bubblegum die.

Read from the data file once; a value the rulebook does not print is ``None`` here, and the
table enters it at setup from the card in front of the player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import data
from engine.dealing import Deal, deal_one_each
from engine.rng import SeededRandom

DATA = data.load("they_live")
HUMAN = "Human"
INVADER = "Invader"
WAR_TABLE_CARDS: int = DATA["war_table_cards"]
CITY_AREAS: int = DATA["city_areas"]
DIE_RESULTS: tuple[str, ...] = tuple(DATA["die"]["results"])
KICK_ASS: frozenset[str] = frozenset(DATA["die"]["kick_ass"])
# How many sides of the die show each result (the data file calls them its faces).
DIE_SIDES: dict[str, int] | None = data.known(DATA["die"]["faces"])
SPARE_COUNTS = (4, 6)  # player counts that leave one Identity card aside


@dataclass(frozen=True)
class Character:
    """One Character card; ``None`` where the rulebook does not print the value."""

    name: str
    health: int | None
    critical: int | None
    hand_limit: int | None


CHARACTERS: dict[str, Character] = {
    name: Character(
        name,
        data.known(card["health"]),
        data.known(card["critical"]),
        data.known(card["hand_limit"]),
    )
    for name, card in DATA["characters"].items()
}


def identity_pool(players: int) -> list[str]:
    counts = DATA["identities"][str(players)]
    return [HUMAN] * counts["humans"] + [INVADER] * counts["invaders"]


def deal_identities(seats: Sequence[int], rng: SeededRandom) -> Deal[str]:
    """One Identity card each; in a 4- or 6-player game one card stays aside, unseen."""
    return deal_one_each(identity_pool(len(seats)), seats, rng)
