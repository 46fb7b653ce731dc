"""They Live's words: how an identity is written, the outcomes, and shared labels.

An identity is only ever written through :func:`identity_phrase` (and the spare through
:func:`spare_phrase`), so the secrecy checks can search every screen, effect and log line for
exactly the phrases that are still secret.
"""

from __future__ import annotations

HUMANS_WIN = "Humans win: every Invader is dead"
INVADERS_WIN_CITY = "Invaders win: the city is taken"
INVADERS_WIN_KILLS = "Invaders win: every Human is dead"
NOBODY_WINS = "Nobody wins: no one is left"

SETUP_TITLE = "They Live: setup"
WAITING = "Waiting for others"


# What a seat's PEEK face tells of its own side, from the rulebook's objectives: two lines.
HUMAN_GOAL = ("Win: every Invader", "dead; keep the city")
NO_OTHER_INVADER = "No other Invader"
SELF_REVEAL = "Self-reveal: own turn"


def invader_goal(players: int) -> str:
    """The Invaders win when together they hold as many city areas as there are players."""
    return f"Win: hold {players} areas"


def identity_phrase(seat: int, identity: str) -> str:
    """The one way an identity is ever written, so secrecy checks can search for it."""
    return f"Seat {seat}: {identity}"


def spare_phrase(identity: str) -> str:
    return f"Spare: {identity}"


def invaders_in_play_phrase(count: int) -> str:
    return f"Invaders in play: {count}"


def seat_label(seat: int, character: str | None) -> str:
    """A seat as a menu item names it: the number and the character in front of it."""
    return f"Seat {seat} {character}"
