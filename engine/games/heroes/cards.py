"""Heroes Love to Lie card data: Heroes, their powers, Monsters and the component counts.

Read once from ``engine/data/heroes.toml``. Claims are built from this data alone, never from
the Hero a seat really holds, so what a seat may announce can never hint at its card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.data import known, load
from engine.entry import NumberEntry

VARIABLE_COST = "?"

# How far a Monster strength read off a card may be set where the rulebook implies no most:
# no Hero is stronger than 9, so a printed strength is well within it. Gems are bounded by
# the box's 30.
STRENGTH_REACH = 15


@dataclass(frozen=True)
class Power:
    id: str
    label: str
    cost: int | str  # Gems; VARIABLE_COST for the Exorcist's bet
    needs_first: bool = False
    lightning: bool = False
    gems: int = 0  # Gems gained (Dwarf) or looted (Troll's fight)
    glory: int = 0  # Glory gained by the Troll's fight
    glory_cost: int = 0  # the Elf pays Glory, not Gems
    min_gems: int = 0  # the Elf needs a Gem to swap
    monster: str | None = None  # the only Monster the Troll's power may fight
    summary: str = ""  # the rulebook's words where the label hides them (PEEK face)

    @property
    def gem_cost(self) -> int:
        """Gems paid up front; the bet is chosen later, so it costs nothing before then."""
        return 0 if self.cost == VARIABLE_COST else int(self.cost)

    @property
    def cost_text(self) -> str:
        return "" if self.cost == 0 else f" ({self.cost})"


@dataclass(frozen=True)
class Hero:
    name: str
    strength: int
    count: int
    powers: tuple[Power, ...]
    only_fights: str | None = None  # the rulebook's "can only fight": the one Monster it may

    def may_fight(self, monster: str, strength: int) -> bool:
        """Strong enough for the Monster (its strength, or its least while unknown), and not
        barred by the Hero's "can only fight"."""
        if self.only_fights is not None and monster != self.only_fights:
            return False
        return self.strength >= strength

    @property
    def turn_powers(self) -> tuple[Power, ...]:
        """The powers announced on one's own turn (lightning powers are reactions)."""
        return tuple(p for p in self.powers if not p.lightning)

    def combos(self) -> list[tuple[Power, ...]]:
        """Every set of turn powers that may be announced together, in the printed order."""
        first, *rest = self.turn_powers
        combos: list[tuple[Power, ...]] = [(first,)]
        for second in rest:
            if not second.needs_first:
                combos.append((second,))
            combos.append((first, second))
        return combos

    @property
    def label(self) -> str:
        return f"{self.name} ({self.strength})"


@dataclass(frozen=True)
class Monster:
    name: str
    count: int
    strength: int | None
    gems: int | None
    least: int = 0  # the strength the rulebook implies at the least, while it is unknown
    most: int = 0  # and at the most (the reach of an entry where it implies none)


@dataclass(frozen=True)
class Components:
    life_tokens: int
    glory_tokens: int
    gems: int
    life_start: int
    life_start_two_players: int
    monsters_in_play: int
    monsters_in_play_two_players: int
    glory_to_win: int
    unmask_cost: int


def _power(raw: dict[str, Any]) -> Power:
    return Power(**raw)


def _hero(raw: dict[str, Any]) -> Hero:
    powers = tuple(_power(p) for p in raw["powers"])
    return Hero(raw["name"], raw["strength"], raw["count"], powers, raw.get("only_fights"))


def _monster(raw: dict[str, Any]) -> Monster:
    """A strength the rulebook bounds to one value is given, not asked."""
    least = raw.get("strength_at_least", 0)
    most = raw.get("strength_at_most", STRENGTH_REACH)
    strength = known(raw["strength"])
    if strength is None and least == most:
        strength = least
    return Monster(raw["name"], raw["count"], strength, known(raw["gems"]), least, most)


_DATA = load("heroes")
HEROES: dict[str, Hero] = {h["name"]: _hero(h) for h in _DATA["heroes"]}
MONSTERS: dict[str, Monster] = {m["name"]: _monster(m) for m in _DATA["monsters"]}
COMPONENTS = Components(**_DATA["components"])
POWERS: dict[str, Power] = {p.id: p for hero in HEROES.values() for p in hero.powers}
HERO_ORDER: tuple[str, ...] = tuple(sorted(HEROES, key=lambda name: HEROES[name].strength))


def hero_deck() -> list[str]:
    """All 19 Hero cards by name, in a fixed order (the shuffle happens in the state)."""
    return [name for name in HERO_ORDER for _ in range(HEROES[name].count)]


def monster_deck() -> list[str]:
    return [name for name in MONSTERS for _ in range(MONSTERS[name].count)]


def combo_id(combo: tuple[Power, ...]) -> str:
    return "+".join(p.id for p in combo)


def combo_label(combo: tuple[Power, ...]) -> str:
    """One button label: a single power, or "Both" with the total cost."""
    if len(combo) == 1:
        return combo[0].label + combo[0].cost_text
    costs = [p.cost for p in combo if p.cost != 0]
    if VARIABLE_COST in costs:
        return "Both (bet)"
    total = sum(int(c) for c in costs)
    return f"Both ({total})" if total else "Both"


def monster_entries() -> list[NumberEntry]:
    """The values the rulebook leaves out, Monster by Monster, to read off the cards: a
    strength from the least the rulebook implies for it (no default is invented)."""
    entries = []
    for name, monster in MONSTERS.items():
        if monster.strength is None:
            entries.append(NumberEntry(f"strength:{name}", f"{name} strength", monster.least,
                                       monster.most))
        if monster.gems is None:
            entries.append(loot_entry(name))
    return entries


def loot_entry(monster: str) -> NumberEntry:
    """A Monster's Gems: at setup, or when a Monster still unknown is defeated."""
    return NumberEntry(f"gems:{monster}", f"{monster} Gems", 0, COMPONENTS.gems)


def within_data(entry: NumberEntry, value: int | None) -> bool:
    """Whether a remembered value is one the data allows (None: left unknown)."""
    return value is None or entry.low <= value <= entry.high
