"""Heroes Love to Lie in progress: the table, and the turn under way.

Only facts and small queries over them live here; what the seats may do about them is in
the phase table (``phases.py``) and the functions it names; what a single step keeps (the
open window, the number being set) is that phase's own data (``steps.py``, ``claims.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.phases import PhasedState
from engine.rng import SeededRandom
from engine.seats import Ring

from .claims import Claim, ReactionWindow, window_seconds
from .table import Table


@dataclass
class Turn:
    """A turn under way: whose it is, and what its steps tell the ones after them.

    Each turn starts afresh (the choices of the one before are forgotten); before the best
    liar starts, the first seat's empty turn stands in, and nothing reads it.
    """

    seat: int
    fight: int | None = None  # COMBAT: the index in play of the Monster fought
    discarded_strength: int = 0  # POWER: the Hero discarded face up (the Wood Spirit's bar)
    claims: list[Claim] = field(default_factory=list)  # in order; the last is answered
    announced: tuple[str, ...] = ()  # the powers of the claim that stood
    todo: list[str] = field(default_factory=list)  # those powers still to use, in order
    target: int | None = None  # the seat the power under way targets, once chosen
    looted: int = 0  # the Gems won in a fight, which a Knight may copy
    knights: list[int] = field(default_factory=list)  # Knights still to claim, clockwise

    @property
    def claim(self) -> Claim:
        """The claim the table answers now: the turn's last."""
        return self.claims[-1]

    def aimed(self) -> int:
        """The target of the power under way (asked only once one is chosen)."""
        if self.target is None:
            raise RuntimeError("no target chosen yet")
        return self.target


class HeroesState(PhasedState):
    """The table, the Mages' looks, the turn under way and, at the end, who won."""

    def __init__(self, seats: Sequence[int], options: Mapping[str, str], seed: bytes) -> None:
        super().__init__(seats, options, seed)
        self.rng = SeededRandom(seed)
        self.ring = Ring(seats)
        self.table = Table(seats, self.rng)
        self.window_length = window_seconds(options["challenge_time"])
        self.turn = Turn(self.seats[0])
        self.peeks: dict[int, tuple[int, str]] = {}  # Mage seat -> (seat, Hero it saw)
        self.winner: int | None = None
        self.reason = ""

    # --- hands ------------------------------------------------------------------------------

    def discard_hero(self, seat: int, index: int) -> str:
        self.forget_peeks_of(seat)
        return self.table.discard_hero(seat, index)

    def forget_peeks_of(self, seat: int) -> None:
        """What a Mage saw stops being true once that hand changes."""
        self.peeks = {mage: seen for mage, seen in self.peeks.items() if seen[0] != seat}

    # --- time -------------------------------------------------------------------------------

    def on_pause(self, now: float) -> None:
        if isinstance(self.data, ReactionWindow):
            self.data.pause(now)

    def on_resume(self, now: float) -> None:
        if isinstance(self.data, ReactionWindow):
            self.data.resume(now)

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
