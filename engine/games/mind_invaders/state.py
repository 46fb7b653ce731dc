"""The facts of one Mind Invaders game: the Characters, the Initiative ring and where the
contest stands, with the small questions the phases and the views ask of them.

Whom a step still waits for and the menus seats have open are the engine's (the phase's
``waits``, ``state.menus``); the cleanup's answers are that phase's own data (``turns``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.api import Effect, Reveal
from engine.dealing import deal_one_each
from engine.phases import PhasedState
from engine.rng import SeededRandom
from engine.seats import Ring

from .cards import ALIEN, HUMAN, ORDINALS, Character, character_pool, floor_size
from .text import character_phrase


class MindInvadersState(PhasedState):
    """A game in progress: Characters, the Initiative ring and where the contest stands."""

    def __init__(self, seats: Sequence[int], options: Mapping[str, str], seed: bytes) -> None:
        super().__init__(seats, options, seed)
        rng = SeededRandom(seed)
        self.ring = Ring(seats)
        self.characters: dict[int, Character] = deal_one_each(
            character_pool(len(seats)), self.seats, rng
        ).hands
        self.first: int = rng.choice(self.seats)  # who holds the 1st Initiative card
        self.contest = 0
        self.round = 0  # how many times phase II has run in this contest
        self.participants: set[int] = set(seats)
        self.green: set[int] = set()
        self.eliminated: list[int] = []
        self.revealed: set[int] = set()
        self.floor_size = floor_size(len(seats))

    def end_reveals(self) -> list[Effect]:
        """However the game ends (the table's "End game" too), every Character is shown."""
        everyone = ", ".join(character_phrase(s, self.characters[s]) for s in self.seats)
        return [Reveal(everyone)]

    # --- who is where ------------------------------------------------------------------

    def alive(self) -> list[int]:
        return [seat for seat in self.seats if seat not in self.eliminated]

    def initiative_order(self) -> list[int]:
        """Seats in Initiative order: clockwise from the 1st card, so passing left rotates it."""
        return self.ring.clockwise_from(self.first, gone=self.eliminated)

    def in_initiative_order(self, seats: set[int]) -> list[int]:
        """``seats``, in Initiative order."""
        return [seat for seat in self.initiative_order() if seat in seats]

    def initiative_of(self, seat: int) -> str:
        return ORDINALS[self.initiative_order().index(seat)]

    def investigation_targets(self, seat: int) -> list[int]:
        return [s for s in self.alive() if s != seat and s not in self.revealed]

    # --- secrecy -----------------------------------------------------------------------

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        """Every unrevealed Character but the seat's own, named both ways so no guess leaks."""
        if self.is_terminal():
            return frozenset()
        hidden = [s for s in self.seats if s != seat and s not in self.revealed]
        return frozenset(character_phrase(s, kind) for s in hidden for kind in (ALIEN, HUMAN))
