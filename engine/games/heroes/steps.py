"""What a step of Heroes Love to Lie keeps while it lasts: each phase's own data, made as the
phase begins and gone when it ends, and the names of the menus of the seat on turn.

A menu is a choice the seat on turn may take back ("Other action", "Other Hero", "Other
target") before the table hears anything; a phase is a step the table waits on.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.entry import NumberEntry


class MenuName(StrEnum):
    """The menus of the seat on turn; the values name their help lines (``text.py``)."""

    FIGHT = "fight_monster"  # COMBAT: which Monster, with "Other action" back to the actions
    POWERS = "claim_powers"  # POWER: which powers of the claimed Hero, "Other Hero" back
    GUESS = "guess"  # UNMASK: which Hero the target holds, "Other target" back


@dataclass
class Paging:
    """A list of Heroes shown a page at a time: the page on show (``claim_hero`` and the
    ``target`` phase, whose guess menu lists every Hero)."""

    page: int = 0


@dataclass
class Entering:
    """A number a seat sets with +1 / -1 / OK (``numbers.py``)."""

    number: NumberEntry


@dataclass
class MonsterValues(Entering):
    """Setup: the Monster value being read off its card, and those still to read after it."""

    left: list[NumberEntry]


@dataclass
class Loot(Entering):
    """The Gems of a defeated Monster whose card must be read, and where it was in play."""

    monster: int


@dataclass
class Bet(Entering):
    """The Exorcist's bet, set after naming the Hero it bets on."""

    guess: str
