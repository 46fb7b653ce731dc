"""The steps of a Staying Alive game by name, and the data a step keeps while it lasts.

The names are the keys of the phase table (``phases.py``) and of its menus; the screens and
the PEEK help ask for them, so they sit here, below every module that needs them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Step(StrEnum):
    """The phases before the end (the engine's ``OVER`` is the last)."""

    DECK = "deck"  # the table builds the deck, step by step, and every seat says ready
    START = "start"  # the Lookout's free first flip
    PLAY = "play"  # the seat on turn has drawn and takes its actions
    CHECK = "check"  # the strain check, or once the deck is empty stay or escape


class TurnMenu(StrEnum):
    """The seat on turn's sub-choices, each with a "Back"."""

    MORE = "more"  # in PLAY: the rare corrections, the target modules and the Key
    ESCAPE = "escape"  # in CHECK: how much strain the escaper holds


@dataclass
class DeckData:
    """The deck step's own fact: which deck-building steps the table has done."""

    steps_done: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class PlayData:
    """The play step's own fact: whether the turn's draw took a card (the deck had one)."""

    drew: bool
