"""Crime City's books: the CIV supplies, the villains holding hostages, the Arch Villains' fates.

The city is the one thing the companion counts for the whole table; each rule of the rulebook
about hostages is a method here, so it can be tested alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from engine.data import load

DATA = load("alter_ego")
CIV_TYPES = DATA["civilians"]["types"]
ARCH_VILLAINS = DATA["arch_villains"]["types"]


class Fate(StrEnum):
    """Where an Arch Villain stands: waiting for its tokens, in play, or defeated."""

    WAITING = "waiting"
    IN_PLAY = "in play"
    DEFEATED = "defeated"


@dataclass
class City:
    """CIV supplies by type, the villains holding hostages, and the Arch Villains' fates.

    Villains are keyed ``H1``, ``H2``... in the order the henchmen came in, and ``AV1``..``AV3``
    by setup pile; the cards have no names the companion knows.
    """

    supply: list[int | None]  # None: a pool the host left uncounted
    held: dict[str, list[int]] = field(default_factory=dict)
    arch: list[Fate] = field(default_factory=lambda: [Fate.WAITING] * ARCH_VILLAINS)
    henchmen_seen: int = 0
    removed: int = 0  # tokens that left the game

    def new_henchman(self) -> str:
        self.henchmen_seen += 1
        key = f"H{self.henchmen_seen}"
        self.held[key] = [0] * CIV_TYPES
        return key

    def arch_enters(self, index: int) -> str:
        self.arch[index] = Fate.IN_PLAY
        key = f"AV{index + 1}"
        self.held[key] = [0] * CIV_TYPES
        return key

    def newest(self) -> str:
        """The villain that came into play last (the held villains keep the order they came in)."""
        return next(reversed(self.held))

    def arch_in_play(self) -> bool:
        return Fate.IN_PLAY in self.arch

    def all_arch_defeated(self) -> bool:
        return all(fate == Fate.DEFEATED for fate in self.arch)

    def waiting_arch_villains(self) -> list[int]:
        return [i for i, fate in enumerate(self.arch) if fate == Fate.WAITING]

    def take(self, key: str, civ: int) -> bool:
        """A villain takes one hostage; False means the supply was empty (the Villains win).
        From an uncounted pool the table sees the last token go; the companion cannot."""
        supply = self.supply[civ]
        if supply == 0:
            return False
        if supply is not None:
            self.supply[civ] = supply - 1
        self.held[key][civ] += 1
        return True

    def give_back(self, civ: int, count: int = 1) -> None:
        """Tokens return to their pool (an uncounted one stays uncounted)."""
        supply = self.supply[civ]
        if supply is not None:
            self.supply[civ] = supply + count

    def rescue(self, key: str, civ: int) -> bool:
        """Free one hostage; True if that was the villain's last (it is defeated).

        While an Arch Villain is in play, tokens freed from henchmen leave the game; tokens
        freed from an Arch Villain go back to the supply as normal.
        """
        self.held[key][civ] -= 1
        if key.startswith("H") and self.arch_in_play():
            self.removed += 1
        else:
            self.give_back(civ)
        if any(self.held[key]):
            return False
        del self.held[key]
        if key.startswith("AV"):
            self.arch[int(key[2:]) - 1] = Fate.DEFEATED
        return True

    def call_the_cops(self, key: str) -> None:
        """The henchman leaves the game; its hostages are rescued back to their supplies."""
        for civ, count in enumerate(self.held.pop(key)):
            self.give_back(civ, count)

    def henchmen(self) -> list[str]:
        return [key for key in self.held if key.startswith("H")]

    def hostages(self) -> int:
        return sum(sum(counts) for counts in self.held.values())
