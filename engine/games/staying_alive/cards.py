"""Staying Alive's cards as the data file lists them: roles, modules, counts and the options.

The cards stay on the table; the companion only needs to know how many there are, which role
is the Lookout and which modules must be fulfilled before anyone escapes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.api import Option
from engine.data import known, load
from engine.exc import SetupError

DATA = load("staying_alive")


@dataclass(frozen=True)
class Role:
    """One role card; ``name`` is None for the cards the rulebook does not name. ``peek``:
    what the PEEK face says of its ability (two lines, from the rulebook)."""

    index: int
    name: str | None
    screen: str | None
    peek: tuple[str, ...]


@dataclass(frozen=True)
class Module:
    number: int
    name: str | None
    target: bool
    key_decides_game: bool = False


ROLES = tuple(
    Role(i, known(role["name"]), known(role["screen"]), tuple(role["peek"]))
    for i, role in enumerate(DATA["role"])
)
LOOKOUT = next(role for role in ROLES if role.name == "Lookout")
MODULES = {
    m["number"]: Module(
        m["number"], known(m["name"]), m["target"], m.get("key_decides_game", False)
    )
    for m in DATA["module"]
}
RECOMMENDED = {str(game["game"]): tuple(game["modules"]) for game in DATA["recommended"]}

STAMINA = DATA["stamina"]["start"]
STRONG_LOOKOUT_STAMINA = DATA["stamina"]["lookout_option"]
STRONG_LOOKOUT_LOSS = DATA["stamina"]["lookout_option_lost_before_limit"]
HAND = DATA["turn"]["draw_at_setup"]
STRAIN_LIMIT = DATA["turn"]["strain_limit"]


def _module_choices(first: int) -> tuple[str, ...]:
    """All twelve modules, starting at the default (an option's first choice is its default)."""
    numbers = sorted(MODULES)
    start = numbers.index(first)
    return tuple(str(n) for n in numbers[start:] + numbers[:start])


OPTIONS = (
    Option("game", "Game", (*sorted(RECOMMENDED), "custom")),
    Option("module_a", "Custom mod A", _module_choices(1)),
    Option("module_b", "Custom mod B", _module_choices(6)),
    Option("module_c", "Custom mod C", _module_choices(7)),
    Option("hourglass", "Hourglass s", ("90", "60", "120", "150", "180")),
    Option("lookout_stamina", "Lookout stamina", ("6", "8")),
    Option("timer_display", "Timer shown", ("exact", "bar", "none")),
    Option("warnings", "Time warnings", ("on", "off")),
)


def modules_for(options: Mapping[str, str]) -> tuple[int, ...]:
    """The modules shuffled in: a recommended game's list, or the three custom picks."""
    if options["game"] != "custom":
        return RECOMMENDED[options["game"]]
    picks = tuple(int(options[key]) for key in ("module_a", "module_b", "module_c"))
    if len(set(picks)) != len(picks):
        raise SetupError("custom game: pick 3 different modules")
    return tuple(sorted(picks))


def base_cards(players: int) -> int:
    """Base cards for the player count: the dot markers say which come out."""
    base = DATA["base"]
    cards = base["cards"]
    if players <= 4:
        cards -= base["five_dot"]
    if players <= 3:
        cards -= base["four_dot"]
    return cards


def module_cards(modules: Sequence[int]) -> int:
    each = DATA["modules"]["cards_each"]
    return sum(each - (DATA["modules"]["codes_returned"] if m == 2 else 0) for m in modules)


def target_modules(modules: Sequence[int]) -> tuple[int, ...]:
    return tuple(m for m in modules if MODULES[m].target)
