"""Mind Invaders' cards as the companion knows them: the Characters, the Initiative cards
and the hotel floors, from the data file (what the rulebook lost stays unknown there)."""

from __future__ import annotations

from enum import StrEnum

from engine.data import load

DATA = load("mind_invaders")


class Character(StrEnum):
    """The two kinds of Character, spelled as the data file and the outcomes spell them."""

    ALIEN = "Alien"
    HUMAN = "Human"


ALIEN, HUMAN = Character.ALIEN, Character.HUMAN
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")  # the Initiative cards, dealt clockwise


def character_pool(players: int) -> list[Character]:
    """The Characters dealt from: below five players one Alien stays in the box."""
    chars = DATA["characters"]
    excluded = 1 if players < chars["exclude_alien_below"] else 0
    return [ALIEN] * (chars["aliens"] - excluded) + [HUMAN] * chars["humans"]


def floor_size(players_left: int) -> int:
    """Cards on each hotel floor: one more than the players still in the game."""
    return players_left + DATA["components"]["floor_extra_cards"]
