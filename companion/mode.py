"""What the table is doing, as one interface: the lobby, the cut, or a game under its menu.

The session holds exactly one :class:`Mode` and delegates to it: what each seat is offered,
what a press does, what each seat's screen shows (for the composer), the question a seat is
answering and the code on the public screen. A mode never switches the table itself: a press
that ends it says what comes next (:data:`Switch`) in the :class:`Applied` it returns, and the
session, which owns the journal's games and the companion's key, carries it out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engine.api import Action, Effect, Game, SeatView
from hardware.base import Code

from .record import JournaledAction


@dataclass(frozen=True)
class StartGame:
    """A game chosen, with its seats and options: the session draws the key and shows its
    commitment (the lobby's Start, the menu's Play again)."""

    game: Game
    seats: tuple[int, ...]
    options: dict[str, str]
    deck_list: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Deal:
    """Every player has cut before the game: deal it from the key and the cut."""

    request: StartGame
    key: bytes
    cut: str


@dataclass(frozen=True)
class ToLobby:
    """The game is left (ended, or over and a new one asked for): a fresh lobby."""


Switch = StartGame | Deal | ToLobby


@dataclass(frozen=True)
class Applied:
    """What one change did: the journal lines it wrote, what the table is to hear and see,
    and the mode the table switches to next, if it does."""

    journaled: tuple[JournaledAction, ...] = ()
    effects: tuple[Effect, ...] = ()
    then: Switch | None = None

    def __add__(self, other: Applied) -> Applied:
        return Applied(self.journaled + other.journaled, self.effects + other.effects,
                       other.then or self.then)


class Mode(Protocol):
    """One thing the table can be doing; every seat drives it with the same two buttons."""

    def offers(self, seat: int) -> list[Action]:
        """What the seat's bottom bar offers, most urgent first."""
        ...

    def apply(self, seat: int, action: Action, at: float) -> Applied:
        """Carry out ``action`` for ``seat``; a refusal raises the engine's error."""
        ...

    def view(self, seat: int | None, now: float) -> SeatView:
        """What ``seat`` (None: the public screen) is shown, with the table's own lines."""
        ...

    def question(self, seat: int) -> str | None:
        """The question the seat is answering, for its title bar."""
        ...

    def public_code(self) -> Code | None:
        """What the public screen shows whole and as a QR code."""
        ...
