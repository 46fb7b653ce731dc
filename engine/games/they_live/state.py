"""The facts of one game of They Live in progress, and small questions about them.

The companion holds the Identity cards and everything that touches them; the players keep
every other card and report health, city areas and deaths with their seat buttons, so a
:class:`Player` is only what lies face up in front of a player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, runtime_checkable

from engine.api import Action, Effect, Reveal
from engine.entry import NumberEntry
from engine.known import known_values
from engine.phases import PhasedState
from engine.rng import SeededRandom

from .cards import CITY_AREAS, DIE_SIDES, HUMAN, INVADER, WAR_TABLE_CARDS, deal_identities
from .text import identity_phrase, invaders_in_play_phrase, spare_phrase


class PhaseName(StrEnum):
    """The phases of :mod:`.phases`, by the names a rule or a view asks for them."""

    CHARACTER = "character"
    VALUES = "values"
    IDENTITY = "identity"
    CHECK = "check"
    RESOURCES = "resources"
    TURNS = "turns"
    FORCE = "force"
    VOTE = "vote"


@runtime_checkable
class OnTheClock(Protocol):
    """A phase's data that runs on the clock (the Invader check's): a pause stops it."""

    def shift(self, seconds: float) -> None: ...


@dataclass
class Player:
    """A seat's public standing: what lies face up in front of the player.

    ``max_health`` and ``critical`` are 0 until setup has them from the card (the lowest a
    card prints is 1); ``hand_limit`` stays None where the card is not known, since only
    the player needs it."""

    seat: int
    character: str | None = None
    max_health: int = 0
    critical: int = 0
    hand_limit: int | None = None
    left: int = 0
    areas: int = 0
    alive: bool = True
    revealed: bool = False  # the identity is public (death, self- or force-reveal)

    @property
    def picked(self) -> str:
        """The character picked (asked only once every seat has picked)."""
        if self.character is None:
            raise RuntimeError(f"seat {self.seat} has picked no character")
        return self.character

    @property
    def is_critical(self) -> bool:
        """Only red squares remain: the CRITICAL value or less, and still alive."""
        return self.alive and self.critical > 0 and self.left <= self.critical


class TheyLiveState(PhasedState):
    """One game of They Live; ``deck_list`` (one entry per card) turns on the virtual deck.

    The characters are public and picked before anything secret exists, as at the physical
    table, where the identities are dealt once the characters are chosen: so each seat's
    first pick is its cut (``Game.first_press_cuts``) and the identities and the War Table
    deck are dealt (:meth:`_deal`) once every seat has picked. A state made with a seed is
    dealt at once (a test's, or a replay's, fixed deal).
    """

    def __init__(
        self,
        seats: Sequence[int],
        options: Mapping[str, str],
        seed: bytes | None,
        *,
        deck_list: Sequence[str] | None = None,
    ) -> None:
        super().__init__(seats, options, None)
        self.known = known_values(options)  # card values the table entered before
        self.rng = SeededRandom(None)  # no draw before the deal
        self.identities: dict[int, str] = {}
        self.spare: str | None = None
        self.deck_list = tuple(deck_list or ())
        self.deck: list[str] | None = None
        self.players = {seat: Player(seat) for seat in self.seats}
        # Each seat's queue of values to enter from its cards: asked in ``values``, and asked
        # again in ``identity`` for a seat that changes them.
        self.value_entries: dict[int, list[NumberEntry]] = {seat: [] for seat in self.seats}
        self.die_sides: dict[str, int] = dict(DIE_SIDES or {})
        self.invaders_met = False
        self.paused_at = 0.0
        self.wave = 0
        self.deck_left = WAR_TABLE_CARDS
        self.preacher_first: set[int] = set()  # this wave's Kick Ass: they play first
        self.inspections: dict[int, list[int]] = {}
        self.force_locked = False  # a force-reveal showed a Human: no more this game
        self.spare_revealed = False
        if seed is not None:
            self.deal(seed)

    def _deal(self) -> None:
        """Every seat has picked: the identities (and the spare), then the War Table deck."""
        self.rng = SeededRandom(self.seed)
        deal = deal_identities(self.seats, self.rng)
        self.identities = deal.hands
        self.spare = deal.spares[0] if deal.spares else None
        if self.deck_list:
            self.deck = list(self.deck_list)
            self.rng.shuffle(self.deck)

    # --- a dead player is out of every phase ----------------------------------------------

    def end_reveals(self) -> list[Effect]:
        """However the game ends (the table's "End game" too), every identity is shown, a
        side a notice (each fits one screen); a game ended before the deal has none."""
        sides = [[s for s in self.seats if self.identities.get(s) == side]
                 for side in (INVADER, HUMAN)]
        return [Reveal(", ".join(identity_phrase(s, self.identities[s]) for s in side))
                for side in sides if side]

    def is_dead(self, seat: int | None) -> bool:
        return seat is not None and seat in self.players and not self.players[seat].alive

    def legal_actions(self, seat: int) -> list[Action]:
        """Nothing for a dead player, whatever the phase would offer."""
        return [] if self.is_dead(seat) else super().legal_actions(seat)

    def why_not(self, seat: int, action_id: str) -> str:
        """A dead player is told so before any reason the phase might give."""
        if self.is_dead(seat):
            return "You are out of the game"
        return super().why_not(seat, action_id)

    # --- the Invader check stops with the table ---------------------------------------------

    def on_pause(self, now: float) -> None:
        self.paused_at = now

    def on_resume(self, now: float) -> None:
        if isinstance(self.data, OnTheClock):
            self.data.shift(now - self.paused_at)

    # --- who is who -----------------------------------------------------------------------------

    def living(self) -> list[int]:
        return [seat for seat in self.seats if self.players[seat].alive]

    def areas_free(self) -> int:
        """City areas nobody holds: "The city is split into 9 key areas"."""
        return CITY_AREAS - sum(p.areas for p in self.players.values())

    def taken_characters(self) -> set[str]:
        return {p.character for p in self.players.values() if p.character}

    def accusable(self, seat: int) -> list[int]:
        """Living seats, other than ``seat``, whose identity is still hidden."""
        return [s for s in self.living() if s != seat and not self.players[s].revealed]

    def inspect_targets(self, seat: int) -> list[int]:
        """CRITICAL seats whose identity is still hidden: the only ones worth the Lenses."""
        return [
            s for s in self.seats
            if s != seat and self.players[s].is_critical and not self.players[s].revealed
        ]

    def other_invaders(self, seat: int | None) -> list[int]:
        return [s for s in self.seats if s != seat and self.identities[s] == INVADER]

    def known_to(self, seat: int) -> list[int]:
        """Seats whose identity ``seat`` has learned in private, most recent last."""
        known: list[int] = []
        if self.identities[seat] == INVADER and self.invaders_met:
            known += self.other_invaders(seat)
        known += [s for s in self.inspections.get(seat, []) if s not in known]
        return known

    # --- secrecy --------------------------------------------------------------------------------

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        if self.is_terminal() or not self.dealt:
            return frozenset()
        known = set() if seat is None else {seat, *self.known_to(seat)}
        hidden = {
            identity_phrase(s, self.identities[s])
            for s in self.seats
            if s not in known and not self.players[s].revealed
        }
        if self.spare is not None and not self.spare_revealed:
            hidden.add(spare_phrase(self.spare))
            if not self._knows_invader_count(seat):
                hidden.add(invaders_in_play_phrase(len(self.other_invaders(None))))
        return frozenset(hidden)

    def _knows_invader_count(self, seat: int | None) -> bool:
        """Only the Invaders, once met, know how many of them are in play."""
        return seat is not None and self.identities[seat] == INVADER and self.invaders_met
