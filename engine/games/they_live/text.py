"""They Live's words: how an identity is written, the outcomes, and shared labels.

An identity is only ever written through :func:`identity_phrase` (and the spare through
:func:`spare_phrase`), so the secrecy checks can search every screen, effect and log line for
exactly the phrases that are still secret.
"""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """Every way a game ends, in the words the last screen shows (its banner is the part
    before the ``:``)."""

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


# What each step expects of a seat, from the They Live rulebook, after the identity on the
# PEEK face: public words, so how many lines there are follows the phase and the seat's
# public situation (its turn, a menu it opened), never its identity.
CHARACTER_HELP = ("Pick a character card", "and put it face up")
VALUES_HELP = ("Enter the values", "printed on your card")
IDENTITY_HELP = ("Check it discreetly:", "tell no one what", "you are")
NARRATED_CHECK_HELP = ("Invader check: eyes", "shut and covered", "until Everyone wake")
SILENT_CHECK_HELP = ("Silent check: hold", "PEEK at the cue, let", "go at the next cue")
TURN_HELP = ("Take 2 cards, merge,", "equip, attack once,", "Lenses, discard")
WAITING_TURN_HELP = ("Not your turn: press", "-1 health when hurt")
FORCE_HELP = ("Force-reveal: call a", "vote (Hoffman Lenses)", "or pass")
VOTE_HELP = ("More than half yes:", "revealed. A Human?", "every yes is hurt")
LENSES_HELP = ("Lenses: a CRITICAL", "seat's card. Tell", "what you saw, or not")
ACCUSE_HELP = ("Force-reveal: accuse", "a seat; a vote", "follows")
DEATH_HELP = ("No health: you die.", "Killed by a player?", "They take your cards")
DEAD_HELP = ("You are dead:", "no more turns")
# The self-reveal menu: the same three lines' worth for both sides (see __init__.py).
INVADER_REVEAL_HELP = ("Reveal: full health,", "no ally, and enemies", "cannot hurt you")
HUMAN_REVEAL_HELP = ("Only Invaders can:", "Sure? ends it like", "a Cancel, unseen")


def resources_help(count: int, enemies_back: bool) -> tuple[str, ...]:
    """New Resources: the table draws ``count`` cards; in waves 1-3 enemies go back."""
    lines = ("New Resources: draw", f"{count} cards face up")
    return (*lines, "Waves 1-3: enemy back") if enemies_back else lines


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
