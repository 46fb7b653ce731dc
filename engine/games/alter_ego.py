"""Alter Ego (rules v2.4): a cooperative deck builder; the companion keeps the city's books.

The rules (rules/alter-ego.txt) as the companion runs them:

- Setup: one Arch Villain of each of the three types at random; each player 4 Family, 4 Job
  and 4 Community cards (display 4, hand 4); CIV tokens in three pools by type; each player
  a secret Nemesis. The end is one of the rulebook's four endings (the option "ending").
- A turn, in six phases: Income ($1 per Job card, plus $ Trophies with a Job card shown);
  Patrol (draw 1 henchman, +1 per Community card, + Community Trophies with a Community card
  shown; keep one, which takes CIV hostages; Call the Cops may remove a henchman, its hostages
  rescued); Support (draw 2 per Family card, + Family Trophies with a Family card shown;
  Teamwork with 3+ Family icons); Equip; Crime-fighting (rescue hostages; the last one freed
  defeats the villain, a henchman becomes a Trophy); Recoup. Then the next seat clockwise.
- Arch Villains come in when enough Arch Villain tokens are on them and take hostages too.
  While one is in play, hostages freed from henchmen leave the game.
- A hostage needed from an empty supply: the Villains win at once. The chosen ending is
  checked when the last Arch Villain falls or a Nemesis is defeated.

The cards stay on the table: a seat enters what the companion cannot see (its display, a
henchman's hostages, a trophy's icons) and the companion does the counting and the books.
Card names are unknown (see the data file), so the Arch Villains are drawn by position in
piles the table sorts, and the Nemeses by position in a face-down row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import registry
from engine.api import (
    Action,
    Buzz,
    Effect,
    Game,
    GameOver,
    Narrate,
    Option,
    Reveal,
    SeatView,
    State,
    resolve_options,
)
from engine.rng import SeededRandom
from engine.seats import Ring

from .alter_ego_rules import (
    ARCH_VILLAINS,
    CIV_TYPES,
    DATA,
    ENDINGS,
    WAITING,
    City,
    NumberEntry,
    ending_on_last_arch,
    ending_on_nemesis,
)
from .alter_ego_turn import TurnGuide
from .alter_ego_views import nemesis_phrase, seat_view

TROPHIES = ("$", "Community", "Family")


class AlterEgoState(State):
    """A game in progress: setup steps, then turns; the city's books live in ``self.city``."""

    def __init__(self, seats: Sequence[int], seed: bytes, ending: str) -> None:
        super().__init__(seats, seed)
        self.rng = SeededRandom(seed)
        self.ring = Ring(seats)
        self.ending = ending
        self.host: int = self.rng.choice(self.seats)  # the first player runs the table's setup
        rows = list(range(1, len(self.seats) + 1))
        self.rng.shuffle(rows)
        self.nemesis_row: dict[int, int] = dict(zip(self.seats, rows, strict=True))
        self.phase = "prepare"
        self.ready: set[int] = set()
        villains = DATA["arch_villains"]
        self.entries = [NumberEntry(villains["pile_size_default"], 1, villains["cards"])
                        for _ in range(ARCH_VILLAINS)]
        self.entry_index = 0
        self.picks: list[int] = []
        self.city = City(supply=[0] * CIV_TYPES)
        self.current = self.host
        self.turn = TurnGuide()
        self.trophies = {seat: dict.fromkeys(TROPHIES, 0) for seat in self.seats}
        self.beaten: list[int] = []
        self.outcome: str | None = None

    # --- the State API -----------------------------------------------------------------

    def active_seats(self) -> frozenset[int]:
        if self.is_terminal():
            return frozenset()
        if self.phase in ("prepare", "nemesis"):
            return frozenset(self.seats) - self.ready
        if self.phase == "turn":
            return frozenset({self.current})
        return frozenset({self.host})

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def result(self) -> str | None:
        return self.outcome

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.active_seats():
            return []
        if self.phase == "prepare":
            return [Action("ready", "Ready", True)]
        if self.phase == "nemesis":
            return [Action("ready", "Took my Nemesis", True)]
        if self.phase == "picks":
            return [Action("taken", "Villains taken", True)]
        if self.phase in ("piles", "supply"):
            return self._entry_actions()
        return self.turn.actions(self)

    def why_not(self, seat: int, action_id: str) -> str:
        if self.phase == "turn" and seat != self.current:
            return f"Seat {self.current}'s turn"
        if seat not in self.active_seats() and self.active_seats():
            return "Waiting for the others"
        return "Not now"

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        """Other seats' Nemesis rows, every number named so that no guess matches either."""
        if self.is_terminal():
            return frozenset()
        rows = range(1, len(self.seats) + 1)
        others = [s for s in self.seats if s != seat]
        return frozenset(nemesis_phrase(s, row) for s in others for row in rows)

    def view(self, seat: int | None, now: float) -> SeatView:
        return seat_view(self, seat)

    # --- setup -------------------------------------------------------------------------

    def _entry_actions(self) -> list[Action]:
        """Piles have a likely default, so OK comes first; supplies are counted up in fives."""
        entry = self.entries[self.entry_index]
        adds = [Action("add:5", "+5", True, repeat=True)] if self.phase == "supply" else []
        adds.append(Action("add:1", "+1", True, repeat=True))
        if entry.current > 0:
            adds.append(Action("add:-1", "-1", True, repeat=True))
        if not entry.acceptable():
            return adds
        last_pile = self.phase == "piles" and self.entry_index == len(self.entries) - 1
        ok = Action("ok", "OK", undoable=not last_pile)  # the last pile's OK draws the picks
        return [*adds, ok] if self.phase == "supply" else [ok, *adds]

    def _apply(self, seat: int, action: Action, now: float) -> list[Effect]:
        name, _, arg = action.id.partition(":")
        if self.phase == "turn":
            return self.turn.apply(self, name, arg)
        if name == "add":
            self.entries[self.entry_index].add(int(arg))
            return []
        if name == "ok":
            return self._entry_done()
        if name == "taken":
            return self._start_supply_entry()
        self.ready.add(seat)
        if self.ready != set(self.seats):
            return []
        return self._start_piles() if self.phase == "prepare" else self._start_turns()

    def _start_piles(self) -> list[Effect]:
        self.phase = "piles"
        text = (
            f"Sort the Arch Villains into {ARCH_VILLAINS} piles by type;"
            f" Seat {self.host} counts them."
        )
        return [Narrate(text)]

    def _entry_done(self) -> list[Effect]:
        self.entry_index += 1
        if self.entry_index < len(self.entries):
            return []
        if self.phase == "supply":
            self.city.supply = [entry.current for entry in self.entries]
            self.phase = "nemesis"
            self.ready = set()
            text = f"Lay {len(self.seats)} Nemesis cards face down in a row; PEEK: which is yours."
            return [Narrate(text)]
        self.picks = [1 + self.rng.below(entry.current) for entry in self.entries]
        self.phase = "picks"
        chosen = ", ".join(
            f"pile {i + 1}: card {pick} from the top" for i, pick in enumerate(self.picks)
        )
        return [Buzz("reveal"), Reveal(f"Arch Villains: {chosen}. The rest go back to the box.")]

    def _start_supply_entry(self) -> list[Effect]:
        self.phase = "supply"
        self.entries = [NumberEntry(0, 1, 999) for _ in range(CIV_TYPES)]
        self.entry_index = 0
        text = (
            f"Sort the CIV tokens into {CIV_TYPES} pools, left to right;"
            f" Seat {self.host} counts them."
        )
        return [Narrate(text)]

    def _start_turns(self) -> list[Effect]:
        self.phase = "turn"
        return self.turn.start(self, self.host)

    # --- what the turn guide calls back ------------------------------------------------

    def next_seat(self) -> int:
        return self.ring.left_of(self.current) or self.current

    def waiting_arch_villains(self) -> list[int]:
        return [i for i, fate in enumerate(self.city.arch) if fate == WAITING]

    def nemesis_beaten(self, seat: int) -> list[Effect]:
        self.beaten.append(seat)
        outcome = ending_on_nemesis(self.ending, seat)
        if outcome:
            return self.finish(outcome, won=True)
        return [Buzz("win"), Narrate(f"Seat {seat} has defeated their Nemesis.")]

    def arch_defeated(self, key: str) -> list[Effect]:
        effects: list[Effect] = [Buzz("win"), Narrate(f"Arch Villain {key[2:]} is defeated!")]
        if not self.city.all_arch_defeated():
            return effects
        outcome, won = ending_on_last_arch(self.ending, self.seats, self.beaten)
        return effects + self.finish(outcome, won)

    def villains_win(self, civ: int) -> list[Effect]:
        return self.finish(f"Lose: no CIV {civ + 1} token left, the Villains win", won=False)

    def finish(self, outcome: str, won: bool) -> list[Effect]:
        self.outcome = outcome
        self.phase = "over"
        return [Buzz("win" if won else "lose"), GameOver(outcome)]


class AlterEgo(Game):
    key = "alter-ego"
    name = "Alter Ego"
    min_players = DATA["players"]["derived_min"]
    max_players = DATA["players"]["derived_max"]
    options = (Option("ending", "Ending", ENDINGS),)

    def new_state(
        self, seats: Sequence[int], options: Mapping[str, str], seed: bytes
    ) -> AlterEgoState:
        self.check_players(seats)
        chosen = resolve_options(self.options, options)
        return AlterEgoState(seats, seed, chosen["ending"])


registry.register(AlterEgo())
