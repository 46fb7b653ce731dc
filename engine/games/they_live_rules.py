"""They Live rules that need no game in progress: characters, identity pools, the turn order,
the force-reveal penalty and the optional War Table deck list.

Kept apart from the state so the rulebook's worked examples (Dixon and Billy's turn order, the
force-reveal damage) are plain functions a test can call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine import data
from engine.dealing import Deal, deal_one_each
from engine.exc import SetupError
from engine.rng import SeededRandom

DATA = data.load("they_live")
HUMAN = "Human"
INVADER = "Invader"
ENEMY_TAG = "[enemy]"
WAR_TABLE_CARDS: int = DATA["war_table_cards"]
CITY_AREAS: int = DATA["city_areas"]
DIE_RESULTS: tuple[str, ...] = tuple(DATA["die"]["results"])
KICK_ASS: frozenset[str] = frozenset(DATA["die"]["kick_ass"])
DIE_FACES: dict[str, int] | None = data.known(DATA["die"]["faces"])
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


@dataclass
class Player:
    """A seat's public standing: what lies face up in front of the player."""

    seat: int
    character: str | None = None
    max_health: int | None = None
    critical: int | None = None
    hand_limit: int | None = None
    left: int = 0
    areas: int = 0
    alive: bool = True
    revealed: bool = False  # the identity is public (death, self- or force-reveal)

    @property
    def is_critical(self) -> bool:
        """Only red squares remain: the CRITICAL value or less, and still alive."""
        return self.alive and self.critical is not None and self.left <= self.critical


# --------------------------------------------------------------------------- identities


def identity_pool(players: int) -> list[str]:
    counts = DATA["identities"][str(players)]
    return [HUMAN] * counts["humans"] + [INVADER] * counts["invaders"]


def deal_identities(seats: Sequence[int], rng: SeededRandom) -> Deal[str]:
    """One Identity card each; in a 4- or 6-player game one card stays aside, unseen."""
    return deal_one_each(identity_pool(len(seats)), seats, rng)


def identity_phrase(seat: int, identity: str) -> str:
    """The one way an identity is ever written, so secrecy checks can search for it."""
    return f"Seat {seat}: {identity}"


def spare_phrase(identity: str) -> str:
    return f"Spare: {identity}"


def invaders_in_play_phrase(count: int) -> str:
    return f"Invaders in play: {count}"


# --------------------------------------------------------------------------- turn order


def turn_key(player: Player, preacher_first: bool, position: int) -> tuple[int, int, int, int]:
    """Sort key of the next turn: a Preacher's Kick Ass, then the lowest remaining health,
    then the highest starting CRITICAL value; the rulebook stops there, so a full tie goes
    to the seat listed first (clockwise from the first seat)."""
    return (0 if preacher_first else 1, player.left, -(player.critical or 0), position)


def next_to_play(
    players: Iterable[Player], preacher_first: Iterable[int], order: Sequence[int]
) -> int | None:
    """The seat that plays next among ``players`` (those who have not played this wave)."""
    first = set(preacher_first)
    ranked = sorted(players, key=lambda p: turn_key(p, p.seat in first, order.index(p.seat)))
    return ranked[0].seat if ranked else None


def force_penalty(left: int, critical: int) -> int:
    """Health after voting to reveal a Human: down to CRITICAL, and at least 3 damage."""
    return max(0, min(critical, left - 3))


# --------------------------------------------------------------------------- deck list

_COUNTED = re.compile(r"^(\d+)\s*x\s+(.*\S)$", re.IGNORECASE)


def parse_deck_list(text: str) -> tuple[str, ...]:
    """Turn a deck list file (docs/they-live-deck-list.md) into one entry per card.

    Pure text in, cards out: the companion reads the file, the engine never does.
    """
    cards: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            cards.extend(_parse_line(line, number))
    if not cards:
        raise SetupError("the deck list has no cards")
    return tuple(cards)


def _parse_line(line: str, number: int) -> list[str]:
    count, name = 1, line
    match = _COUNTED.match(line)
    if match:
        count, name = int(match.group(1)), match.group(2)
    enemy = name.lower().endswith(ENEMY_TAG)
    if enemy:
        name = name[: -len(ENEMY_TAG)].strip()
    if not name or count < 1:
        raise SetupError(f"deck list line {number}: needs a card name and a count of 1 or more")
    return [f"{name} {ENEMY_TAG}" if enemy else name] * count


def is_enemy(card: str) -> bool:
    return card.endswith(ENEMY_TAG)


def card_name(card: str) -> str:
    return card.removesuffix(ENEMY_TAG).strip()
