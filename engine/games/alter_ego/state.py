"""The facts of one Alter Ego game: whose turn and its display, the Trophies, the city; and
the data a setup phase keeps while it lasts (the host's counts, the Arch Villains drawn).

The turn's arithmetic lives here too, as pure functions of the numbers the rulebook names,
so each can be tested alone; the state only supplies the seat's display and Trophies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.entry import NumberEntry
from engine.phases import PhasedState
from engine.rng import SeededRandom
from engine.seats import Ring

from .city import ARCH_VILLAINS, CIV_TYPES, DATA, City
from .text import nemesis_phrase

TURN = DATA["turn"]
ALTER_EGO_TYPES = ("Job", "Community", "Family")
TROPHIES = ("$", "Community", "Family")


def income(job_cards: int, money_trophies: int) -> int:
    """$1 per Job card; $ Trophies count only with at least one Job card in the display."""
    return TURN["income_per_job_card"] * job_cards + (money_trophies if job_cards else 0)


def henchmen_to_draw(community_cards: int, community_trophies: int) -> int:
    """1, plus 1 per Community card, plus Community Trophies if a Community card is shown."""
    bonus = community_cards + (community_trophies if community_cards else 0)
    return TURN["henchmen_base_draw"] + bonus


def cards_to_draw(family_cards: int, family_trophies: int) -> int:
    """2 per Family card, plus Family Trophies if a Family card is shown."""
    return TURN["cards_per_family_card"] * family_cards + (family_trophies if family_cards else 0)


def pile_counts() -> list[NumberEntry]:
    """The Arch Villain piles' sizes, counted from "?" (how the box's cards split among the
    types is not given, so no size is offered): each holds one card at least, and none so
    many that another pile would be left empty."""
    most = DATA["arch_villains"]["cards"] - (ARCH_VILLAINS - 1)
    return [NumberEntry(f"pile:{i + 1}", f"AV pile {i + 1} size?", 1, most)
            for i in range(ARCH_VILLAINS)]


def share_the_box(counts: list[NumberEntry], index: int) -> None:
    """Bound pile ``index`` by what the piles before it left of the box's "9 Arch Villain
    Cards (3 types)": one card stays for each pile after it, and the last pile holds exactly
    what is left. A size the box leaves only one way to count is given, so it shows at once."""
    left = DATA["arch_villains"]["cards"] - sum(count.entered for count in counts[:index])
    after = len(counts) - 1 - index
    count = counts[index]
    count.high = left - after
    if after == 0 or count.high == count.low:
        count.low = count.value = count.high


def pool_counts() -> list[NumberEntry]:
    """The CIV pools' sizes ("XX Civilian (CIV) Tokens" in the box list), counted up from
    "?" (a pool counted empty is a slip), or left uncounted."""
    return [NumberEntry(f"civ:{i + 1}", f"CIV {i + 1} tokens?", 1, 999)
            for i in range(CIV_TYPES)]


class Ending(StrEnum):
    """The rulebook's four endings, by the names the option "ending" gives them."""

    ALL_WIN = "all-win"
    PERSONAL = "personal"
    ALL_NEMESES = "all-nemeses"
    FIRST_NEMESIS = "first-nemesis"


@dataclass
class Counting:
    """The piles or pools the host counts in a setup phase, and which one is counted now."""

    counts: list[NumberEntry]
    index: int = 0

    def count(self) -> NumberEntry:
        return self.counts[self.index]

    def on_last(self) -> bool:
        return self.index == len(self.counts) - 1

    def all_counted(self) -> bool:
        return self.index == len(self.counts)


@dataclass(frozen=True)
class Taking:
    """The villain that just came into play, whose hostages the seat on turn enters."""

    villain: str


@dataclass
class Listing:
    """The page of the villain list a turn step's menu shows (the Cops', the rescue's)."""

    page: int = 0


class AlterEgoState(PhasedState):
    """A game in progress: setup, then turns; the city's books live in ``self.city``."""

    def __init__(self, seats: Sequence[int], options: Mapping[str, str], seed: bytes) -> None:
        super().__init__(seats, options, seed)
        self.rng = SeededRandom(seed)
        self.ring = Ring(seats)
        self.ending = Ending(options["ending"])
        self.host: int = self.rng.choice(self.seats)  # the first player runs the table's setup
        rows = list(range(1, len(self.seats) + 1))
        self.rng.shuffle(rows)
        self.nemesis_row: dict[int, int] = dict(zip(self.seats, rows, strict=True))
        self.picks: list[int] = []  # the Arch Villains drawn, by position atop each pile
        self.city = City(supply=[0] * CIV_TYPES)
        self.trophies = {seat: dict.fromkeys(TROPHIES, 0) for seat in self.seats}
        self.beaten: list[int] = []
        # the turn: whose it is (the host's first), and the display that seat entered
        self.current = self.host
        self.display = dict.fromkeys(ALTER_EGO_TYPES, 0)

    def step(self) -> str:
        """The step of the turn the screens show: the menu the seat on turn has open, or
        else the phase."""
        opened = self.menus.get(self.current)
        return self.phase if opened is None else opened.name

    def rescuing(self) -> str:
        """The villain the seat on turn frees hostages from (its rescue menu's)."""
        return self.menus[self.current].arg

    def next_seat(self) -> int:
        return self.ring.left_of(self.current) or self.current

    def money(self) -> int:
        return income(self.display["Job"], self.trophies[self.current]["$"])

    def henchmen_drawn(self) -> int:
        return henchmen_to_draw(self.display["Community"],
                                self.trophies[self.current]["Community"])

    def cards_drawn(self) -> int:
        return cards_to_draw(self.display["Family"], self.trophies[self.current]["Family"])

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        """Other seats' Nemesis rows, every number named so that no guess matches either."""
        if self.is_terminal():
            return frozenset()
        rows = range(1, len(self.seats) + 1)
        others = [s for s in self.seats if s != seat]
        return frozenset(nemesis_phrase(s, row) for s in others for row in rows)
