"""The facts of one Mind Invaders game: the Characters, the Initiative ring and where the
contest stands, with the small questions the steps and the views ask of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.dealing import deal_one_each
from engine.phases import PhasedState
from engine.rng import SeededRandom
from engine.seats import Ring

from .cards import ALIEN, HUMAN, ORDINALS, character_pool, floor_size
from .step import Step
from .text import character_phrase


class MindInvadersState(PhasedState):
    """A game in progress: Characters, the Initiative ring and where the contest stands."""

    def __init__(
        self,
        seats: Sequence[int],
        options: Mapping[str, str],
        seed: bytes,
    ) -> None:
        super().__init__(seats, options, seed)
        rng = SeededRandom(seed)
        self.ring = Ring(seats)
        self.characters: dict[int, str] = deal_one_each(
            character_pool(len(seats)), self.seats, rng
        ).hands
        self.first: int = rng.choice(self.seats)  # who holds the 1st Initiative card
        self.contest = 0
        self.round = 0  # how many times phase II has run in this contest
        self.queue: list[int] = list(self.seats)  # the seats the current step still waits for
        self.power_left: dict[int, bool] = {}  # cleanup's answers: Power cards in hand?
        self.participants: set[int] = set(seats)
        self.green: set[int] = set()
        self.eliminated: list[int] = []
        self.revealed: set[int] = set()
        self.menus: dict[int, tuple[str, int]] = {}  # a seat's open sub-choice
        self.floor_size = floor_size(len(seats))

    # --- who is where ------------------------------------------------------------------

    def step(self) -> Step | None:
        """The current step, or None once the game is over."""
        phase = self.current_phase()
        return phase if isinstance(phase, Step) else None

    def alive(self) -> list[int]:
        return [seat for seat in self.seats if seat not in self.eliminated]

    def initiative_order(self) -> list[int]:
        """Seats in Initiative order: clockwise from the 1st card, so passing left rotates it."""
        return self.ring.clockwise_from(self.first, gone=self.eliminated)

    def initiative_of(self, seat: int) -> str:
        return ORDINALS[self.initiative_order().index(seat)]

    def waiting(self) -> set[int]:
        """The seats the current step waits for (their screens are highlighted)."""
        step = self.step()
        if step is None:
            return set()
        return set(self.queue[:1] if step.in_turn else self.queue)

    def investigation_targets(self, seat: int) -> list[int]:
        return [s for s in self.alive() if s != seat and s not in self.revealed]

    # --- secrecy -----------------------------------------------------------------------

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        """Every unrevealed Character but the seat's own, named both ways so no guess leaks."""
        if self.is_terminal():
            return frozenset()
        hidden = [s for s in self.seats if s != seat and s not in self.revealed]
        return frozenset(character_phrase(s, kind) for s in hidden for kind in (ALIEN, HUMAN))
