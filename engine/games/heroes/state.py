"""Heroes Love to Lie in progress: the table, whose turn it is, the open reaction window, and
the choices of the turn under way.

Only facts and small queries over them live here; what the seats may do about them is in
the phase table (``phases.py``) and the functions it names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.entry import NumberEntry
from engine.known import known_values
from engine.phases import PhasedState
from engine.rng import SeededRandom
from engine.seats import Ring

from .claims import ReactionWindow, window_seconds
from .setup import values_to_ask
from .table import Table


class HeroesState(PhasedState):
    def __init__(self, seats: Sequence[int], options: Mapping[str, str], seed: bytes) -> None:
        super().__init__(seats, options, seed)
        self.rng = SeededRandom(seed)
        self.ring = Ring(seats)
        self.table = Table(seats, self.rng)
        self.window_length = window_seconds(options["challenge_time"])
        self.window: ReactionWindow | None = None
        self.turn_seat: int | None = None
        self.peeks: dict[int, tuple[int, str]] = {}  # Mage seat -> (seat, Hero it saw)
        self.winner: int | None = None
        self.reason = ""
        self.reset_turn()
        # The Monster values to read off the cards after the one being set (those the table
        # entered before are known); with none to read, the table goes straight to choosing
        # who starts. ``asked_values`` is None when the table chose to leave them unknown.
        self.monster_values: list[NumberEntry] = []
        self.asked_values: list[NumberEntry] | None = None
        if options["monster_values"] == "enter":
            self.asked_values = values_to_ask(self, known_values(options))

    def reset_turn(self) -> None:
        """Forget the choices of the turn that ended."""
        self.mode = ""  # "power", "combat" or "unmask"
        self.page = 0
        self.claimed = ""
        self.monster: int | None = None
        self.todo: list[str] = []
        self.announced: tuple[str, ...] = ()
        self.target: int | None = None
        self.guess = ""
        # The number a seat is setting: a Monster value, a Monster's Gems or a bet.
        self.number: NumberEntry | None = None
        self.discarded_strength = 0
        self.looted = 0
        self.knights: list[int] = []

    # --- hands ------------------------------------------------------------------------------

    def discard_hero(self, seat: int, index: int) -> str:
        self.forget_peeks_of(seat)
        return self.table.discard_hero(seat, index)

    def forget_peeks_of(self, seat: int) -> None:
        """What a Mage saw stops being true once that hand changes."""
        self.peeks = {mage: seen for mage, seen in self.peeks.items() if seen[0] != seat}

    # --- time -------------------------------------------------------------------------------

    def on_pause(self, now: float) -> None:
        if self.window is not None:
            self.window.pause(now)

    def on_resume(self, now: float) -> None:
        if self.window is not None:
            self.window.resume(now)

    # --- secrecy ----------------------------------------------------------------------------

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        """Each other seat's card as "Seat 4 is Troll", unless this seat's Mage saw it,
        and the face-down cards: the set-aside ones and the top of the pile."""
        hidden = set()
        for other in self.seats:
            if other == seat:
                continue
            for hero in self.table.hand(other):
                if seat is None or self.peeks.get(seat) != (other, hero):
                    hidden.add(f"Seat {other} is {hero}")
        hidden.update(f"Set aside: {hero}" for hero in self.table.heroes.aside)
        if self.table.heroes.cards:
            hidden.add(f"Next Hero: {self.table.heroes.cards[-1]}")
        return frozenset(hidden)
