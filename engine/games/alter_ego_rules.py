"""Alter Ego's arithmetic: the turn guide's counts, the city's hostages and the four endings.

Pure functions and small values, so each rule the rulebook states can be tested alone; the
state in :mod:`engine.games.alter_ego` only decides when to call them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.data import load

DATA = load("alter_ego")
CIV_TYPES = DATA["civilians"]["types"]
ARCH_VILLAINS = DATA["arch_villains"]["types"]
ENDINGS = tuple(DATA["endings"])
TURN = DATA["turn"]
WAITING, IN_PLAY, DEFEATED = "waiting", "in play", "defeated"


# --------------------------------------------------------------------------- the turn guide


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


# --------------------------------------------------------------------------- numbers entered


@dataclass
class NumberEntry:
    """A number a seat sets from a physical card or pile: ``None`` (shown "?") until touched."""

    default: int
    low: int
    high: int
    value: int | None = None

    @property
    def current(self) -> int:
        return self.default if self.value is None else self.value

    def shown(self) -> str:
        return "?" if self.value is None else str(self.value)

    def add(self, amount: int) -> None:
        self.value = max(0, min(self.high, self.current + amount))

    def acceptable(self) -> bool:
        return self.low <= self.current <= self.high


# --------------------------------------------------------------------------- the city


@dataclass
class City:
    """CIV supplies by type, the villains holding hostages, and the Arch Villains' fates.

    Villains are keyed ``H1``, ``H2``... in the order the henchmen came in, and ``AV1``..``AV3``
    by setup pile; the cards have no names the companion knows.
    """

    supply: list[int]
    held: dict[str, list[int]] = field(default_factory=dict)
    arch: list[str] = field(default_factory=lambda: [WAITING] * ARCH_VILLAINS)
    henchmen_seen: int = 0
    removed: int = 0  # tokens that left the game

    def new_henchman(self) -> str:
        self.henchmen_seen += 1
        key = f"H{self.henchmen_seen}"
        self.held[key] = [0] * CIV_TYPES
        return key

    def arch_enters(self, index: int) -> str:
        self.arch[index] = IN_PLAY
        key = f"AV{index + 1}"
        self.held[key] = [0] * CIV_TYPES
        return key

    def arch_in_play(self) -> bool:
        return IN_PLAY in self.arch

    def all_arch_defeated(self) -> bool:
        return all(fate == DEFEATED for fate in self.arch)

    def take(self, key: str, civ: int) -> bool:
        """A villain takes one hostage; False means the supply was empty (the Villains win)."""
        if self.supply[civ] == 0:
            return False
        self.supply[civ] -= 1
        self.held[key][civ] += 1
        return True

    def rescue(self, key: str, civ: int) -> bool:
        """Free one hostage; True if that was the villain's last (it is defeated).

        While an Arch Villain is in play, tokens freed from henchmen leave the game; tokens
        freed from an Arch Villain go back to the supply as normal.
        """
        self.held[key][civ] -= 1
        if key.startswith("H") and self.arch_in_play():
            self.removed += 1
        else:
            self.supply[civ] += 1
        if any(self.held[key]):
            return False
        del self.held[key]
        if key.startswith("AV"):
            self.arch[int(key[2:]) - 1] = DEFEATED
        return True

    def call_the_cops(self, key: str) -> None:
        """The henchman leaves the game; its hostages are rescued back to their supplies."""
        for civ, count in enumerate(self.held.pop(key)):
            self.supply[civ] += count

    def henchmen(self) -> list[str]:
        return [key for key in self.held if key.startswith("H")]

    def hostages(self) -> int:
        return sum(sum(counts) for counts in self.held.values())


def counts_text(counts: Sequence[int]) -> str:
    return "/".join(str(count) for count in counts)


# --------------------------------------------------------------------------- the endings


def ending_on_last_arch(
    ending: str, seats: Sequence[int], beaten: Sequence[int]
) -> tuple[str, bool]:
    """The outcome when the last Arch Villain falls, and whether the table won."""
    saved = "Win: Crime City is saved, everybody wins"
    if ending == "personal":
        personal = [str(seat) for seat in seats if seat in beaten]
        # short enough for three screen lines, the Personal Victory included
        extra = f"; Personal Victory: Seat {', '.join(personal)}" if personal else ""
        return f"Win: City saved, all win{extra}", True
    if ending == "all-nemeses" and any(seat not in beaten for seat in seats):
        return "Lose: the Nemeses not defeated overtake Crime City", False
    return saved, True


def ending_on_nemesis(ending: str, seat: int) -> str | None:
    """The outcome when ``seat`` beats its Nemesis, or None if the game goes on."""
    if ending == "first-nemesis":
        return f"Seat {seat} wins: their Nemesis is defeated"
    return None
