"""They Live: The Card Game, with the companion holding the Identity cards.

Rules summary (shared/rules/they-live.txt). Three to six players each play a character; in
secret some are Humans and some Invaders (3: 2H+1I; 4: 3H+2I, one card aside; 5: 3H+2I;
6: 4H+3I, one aside). With four or more players the Invaders learn each other in an Invader
check. Each wave: New Resources (2 x players cards; in waves 1-3 drawn enemies go back at a
random depth), player turns (lowest remaining health first, ties to the higher starting
CRITICAL value, a Preacher's Kick Ass first), then an optional force-reveal vote. CRITICAL
players may be inspected with Hoffman Lenses. Death reveals the identity (and, for an Invader
in a 4- or 6-player game, the spare card). Humans win when every Invader in play is dead;
Invaders win when every Human is dead or when they hold as many city areas as there are
players.

The companion runs the identities and everything that touches them; the players keep every
other card and report health, city areas and deaths with their seat buttons. The state is
split by phase into mixins: setup (:mod:`.they_live_setup`), waves (:mod:`.they_live_waves`),
reveals (:mod:`.they_live_reveals`); pure rules live in :mod:`.they_live_rules`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import replace

from engine.api import (
    Action,
    Effect,
    Game,
    Option,
    SeatView,
    SecretFace,
    State,
    resolve_options,
)
from engine.registry import register
from engine.rng import SeededRandom

from .they_live_check import MEET_STEP, SILENT, check_face
from .they_live_reveals import RevealPhases
from .they_live_rules import (
    DIE_FACES,
    INVADER,
    WAR_TABLE_CARDS,
    Player,
    deal_identities,
    identity_phrase,
    invaders_in_play_phrase,
    parse_deck_list,
    spare_phrase,
)
from .they_live_setup import SetupPhases
from .they_live_waves import WavePhases

LINE_WIDTH = 21
MAX_LINES = 3
SETUP_PHASES = ("character", "values", "identity", "check")
TURN_ONLY = ("end", "heal", "area", "unarea", "inspect", "reveal")


class TheyLiveState(SetupPhases, WavePhases, RevealPhases, State):
    """One game of They Live; ``deck_list`` (one entry per card) turns on the virtual deck."""

    def __init__(
        self,
        seats: Sequence[int],
        options: Mapping[str, str],
        seed: bytes,
        *,
        deck_list: Sequence[str] | None = None,
    ) -> None:
        super().__init__(seats, seed)
        self.options = dict(options)
        self.rng = SeededRandom(seed)
        deal = deal_identities(self.seats, self.rng)
        self.identities: dict[int, str] = deal.hands
        self.spare: str | None = deal.spares[0] if deal.spares else None
        self.deck: list[str] | None = None
        if deck_list:
            self.deck = list(deck_list)
            self.rng.shuffle(self.deck)
        self.players = {seat: Player(seat) for seat in self.seats}
        self.phase = "character"
        self._init_bookkeeping()

    def _init_bookkeeping(self) -> None:
        self.entries: dict[int, list] = {seat: [] for seat in self.seats}
        self.die_faces: dict[str, int] = dict(DIE_FACES or {})
        self.ready: set[int] = set()
        self.check_run = None
        self.check_step = 0
        self.invaders_met = False
        self.paused_at = 0.0
        self.wave = 0
        self.deck_left = WAR_TABLE_CARDS
        self.drawn: list[str] = []
        self.shown_card = 0
        self.enemy_note: str | None = None
        self.preacher_rolled: set[int] = set()
        self.preacher_first: set[int] = set()
        self.to_play: set[int] = set()
        self.current: int | None = None
        self.menus: dict[int, str] = {}
        self.inspections: dict[int, list[int]] = {}
        self.force_locked = False
        self.passed: set[int] = set()
        self.vote = None
        self.accused: int | None = None
        self.caller: int | None = None
        self.spare_revealed = False
        self.outcome: str | None = None

    # --- the State API -----------------------------------------------------------------------

    def _living(self) -> list[int]:
        return [seat for seat in self.seats if self.players[seat].alive]

    def active_seats(self) -> frozenset[int]:
        return frozenset(seat for seat in self.seats if self.legal_actions(seat))

    def legal_actions(self, seat: int) -> list[Action]:
        if self.is_terminal() or seat not in self.players or not self.players[seat].alive:
            return []
        if seat in self.menus:
            return self._actions_menu(seat)
        actions = getattr(self, f"_actions_{self.phase}", None)
        return actions(seat) if actions else []

    def _apply(self, seat: int, action: Action, now: float) -> list[Effect]:
        if seat in self.menus:
            return self._apply_menu(seat, action.id, now)
        return getattr(self, f"_apply_{self.phase}")(seat, action.id, now)

    def why_not(self, seat: int, action_id: str) -> str:
        if seat not in self.players:
            return "That seat is not playing"
        if not self.players[seat].alive:
            return "You are out of the game"
        if self.phase == "check":
            return "Wait: Invader check"
        if self.phase == "turns" and action_id in TURN_ONLY and seat != self.current:
            return f"Seat {self.current}'s turn"
        if self.phase == "vote" and seat in self.vote.ballots:
            return "You have voted"
        return "Not now"

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def result(self) -> str | None:
        return self.outcome

    # --- time --------------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        if self.phase != "check" or self.paused:
            return None
        return self._check_deadline()

    def advance(self, now: float) -> list[Effect]:
        if self.phase != "check" or self.paused:
            return []
        return self._advance_check(now)

    def on_pause(self, now: float) -> None:
        self.paused_at = now

    def on_resume(self, now: float) -> None:
        if self.check_run is not None:
            self.check_run = self.check_run.shifted(now - self.paused_at)

    # --- views -------------------------------------------------------------------------------

    def view(self, seat: int | None, now: float) -> SeatView:
        face = self._face(seat)
        lines = [part for line in face.lines for part in textwrap.wrap(line, LINE_WIDTH)]
        face = replace(face, title=face.title[:LINE_WIDTH], lines=tuple(lines[:MAX_LINES]))
        if seat is None or seat not in self.players:
            return face
        return replace(face, secret=self._secret_face(seat))

    def _face(self, seat: int | None) -> SeatView:
        if self.phase == "over":
            return self._view_over(seat)
        if seat is not None and seat in self.players and not self.players[seat].alive:
            phrase = identity_phrase(seat, self.identities[seat])
            return SeatView("You are dead", (phrase, f"Wave {self.wave}"))
        if self.phase in SETUP_PHASES:
            return self._view_setup(seat)
        return getattr(self, f"_view_{self.phase}")(seat)

    def _secret_face(self, seat: int) -> SecretFace:
        """The identity, the other Invaders once met, and this seat's inspection results."""
        if self.phase in ("character", "values"):
            return SecretFace("YOUR IDENTITY", ("Dealt after setup",))
        if self._in_silent_meeting():
            return check_face(self.identities[seat], self._other_invaders(seat))
        lines = [identity_phrase(seat, self.identities[seat])]
        lines += [identity_phrase(s, self.identities[s]) for s in self._known_others(seat)]
        return SecretFace("YOUR IDENTITY", tuple(lines))

    def _in_silent_meeting(self) -> bool:
        return (
            self.phase == "check"
            and self.check_run.script is SILENT
            and self.check_step == MEET_STEP
        )

    def _other_invaders(self, seat: int | None) -> list[int]:
        return [s for s in self.seats if s != seat and self.identities[s] == INVADER]

    def _known_others(self, seat: int) -> list[int]:
        """Seats whose identity ``seat`` has learned in private, most recent last."""
        known: list[int] = []
        if self.identities[seat] == INVADER and self.invaders_met:
            known += self._other_invaders(seat)
        known += [s for s in self.inspections.get(seat, []) if s not in known]
        return known

    # --- secrecy -----------------------------------------------------------------------------

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        if self.is_terminal():
            return frozenset()
        known = set() if seat is None else {seat, *self._known_others(seat)}
        hidden = {
            identity_phrase(s, self.identities[s])
            for s in self.seats
            if s not in known and not self.players[s].revealed
        }
        if self.spare is not None and not self.spare_revealed:
            hidden.add(spare_phrase(self.spare))
            if not self._knows_invader_count(seat):
                hidden.add(invaders_in_play_phrase(len(self._other_invaders(None))))
        return frozenset(hidden)

    def _knows_invader_count(self, seat: int | None) -> bool:
        """Only the Invaders, once met, know how many of them are in play."""
        return seat is not None and self.identities[seat] == INVADER and self.invaders_met


class TheyLive(Game):
    key = "they-live"
    name = "They Live"
    min_players = 3
    max_players = 6
    options = (
        Option("check", "Check", ("narrated", "silent")),
        Option("die", "Die", ("physical", "virtual")),
    )

    def new_state(self, seats: Sequence[int], options: Mapping[str, str], seed: bytes) -> State:
        return self.new_state_with_deck(seats, options, seed, None)

    def parse_deck_list(self, text: str) -> tuple[str, ...]:
        return parse_deck_list(text)

    def new_state_with_deck(
        self,
        seats: Sequence[int],
        options: Mapping[str, str],
        seed: bytes,
        deck_list: Sequence[str] | None,
    ) -> TheyLiveState:
        """The hook for a table-supplied War Table deck list (see parse_deck_list)."""
        self.check_players(seats)
        resolved = resolve_options(self.options, options)
        return TheyLiveState(seats, resolved, seed, deck_list=deck_list)


register(TheyLive())
