"""Staying Alive setup: the data file, the options, and the deal a game starts from.

Six of the nine role cards are unnamed in the rulebook, so the deal stays random without
inventing names: the companion decides which seats get a named role and which get "one of the
others", and the table shuffles those other cards face down so chance picks among them. The
two steps together are the same uniform deal as shuffling all nine, with the Lookout always in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.api import Option
from engine.data import known, load
from engine.dealing import deal_one_each, deal_with_required
from engine.exc import SetupError
from engine.rng import SeededRandom
from engine.text import screen_lines

DATA = load("staying_alive")
LINE = 21  # characters on one line of a seat screen


@dataclass(frozen=True)
class Role:
    """One role card; ``name`` is None for the cards the rulebook does not name."""

    index: int
    name: str | None
    screen: str | None


@dataclass(frozen=True)
class Module:
    number: int
    name: str | None
    target: bool
    key_decides_game: bool = False


@dataclass(frozen=True)
class Page:
    """One setup instruction as it fits a seat screen."""

    title: str
    lines: tuple[str, ...]


ROLES = tuple(
    Role(i, known(role["name"]), known(role["screen"])) for i, role in enumerate(DATA["role"])
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
HAND = DATA["turn"]["draw_at_setup"]


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


def wrap(text: str) -> tuple[str, ...]:
    return screen_lines(text)


# --------------------------------------------------------------------------- the deal


@dataclass(frozen=True)
class Setup:
    """What the seed decided and what the table must do before the first flip."""

    modules: tuple[int, ...]
    codes_returned: int | None  # position from the top of the shuffled Code cards
    roles: dict[int, Role | None]  # None: no role card (game 1)
    stamina: dict[int, int]
    strong_lookout: int | None  # the seat that took the 8-stamina Lookout option
    cards_in_play: int  # base + module cards, before anyone draws
    steps: tuple[Page, ...]  # deck building, spread over the seats

    @property
    def deck_after_draw(self) -> int:
        return self.cards_in_play - HAND * len(self.roles)

    def steps_for(self, seat: int) -> tuple[int, ...]:
        """Indexes of the steps shown on ``seat``: one each, round the table, as needed."""
        seats = list(self.roles)
        return tuple(i for i in range(len(self.steps)) if seats[i % len(seats)] == seat)


def plan(seats: Sequence[int], options: Mapping[str, str], rng: SeededRandom) -> Setup:
    """Draw everything the setup needs from ``rng``, in a fixed order (replays depend on it)."""
    modules = modules_for(options)
    codes = rng.between(1, DATA["modules"]["cards_each"]) if 2 in modules else None
    roles = _deal_roles(seats, options["game"] == "1", rng)
    lookout = next(seat for seat, role in roles.items() if role == LOOKOUT)
    strong = lookout if options["lookout_stamina"] == "8" else None
    stamina = {seat: DATA["stamina"]["lookout_option"] if seat == strong else STAMINA
               for seat in seats}
    cards = base_cards(len(seats)) + module_cards(modules)
    steps = _deck_steps(len(seats), modules, codes, cards, roles)
    return Setup(modules, codes, roles, stamina, strong, cards, steps)


def _deal_roles(
    seats: Sequence[int], lookout_only: bool, rng: SeededRandom
) -> dict[int, Role | None]:
    """Game 1 appoints one Lookout; later games deal 1 role each with the Lookout among them."""
    if lookout_only:
        lookout = deal_one_each(seats, [0], rng).hands[0]
        return {seat: LOOKOUT if seat == lookout else None for seat in seats}
    return dict(deal_with_required(ROLES, LOOKOUT, seats, rng).hands)


def _deck_steps(
    players: int,
    modules: Sequence[int],
    codes: int | None,
    cards: int,
    roles: Mapping[int, Role | None],
) -> tuple[Page, ...]:
    steps = [Page("Base cards", _base_text(players))]
    if modules:
        numbers = ", ".join(str(m) for m in modules)
        plural = "s" if len(modules) > 1 else ""
        steps.append(Page("Modules", (f"Add module{plural} {numbers}", "(5 cards each)")))
    if codes is not None:
        steps.append(Page("Codes (module 2)", (
            "Shuffle 5 face down,", f"return card {codes} from", "the top to box unseen")))
    steps.append(Page("Shuffle the deck", (
        f"Shuffle the {cards} cards,", "put them on the", "escape card (face up)")))
    unnamed = sum(1 for role in ROLES if role.name is None)
    if any(role is not None and role.name is None for role in roles.values()):
        named = ", ".join(role.screen or "" for role in ROLES if role.name)
        steps.append(Page(f"Shuffle {unnamed} roles", wrap(f"face down: all but {named}.")))
    return tuple(
        Page(f"{i}/{len(steps)} {page.title}", page.lines) for i, page in enumerate(steps, 1)
    )


def _base_text(players: int) -> tuple[str, ...]:
    base = DATA["base"]
    if players >= 5:
        return wrap(f"Take all {base['cards']} base cards.")
    if players == 4:
        return (f"{base['cards']} base cards: remove", f"the {base['five_dot']} with 5 dots",
                f"({base_cards(4)} left)")
    return (f"{base['cards']} base cards: remove", f"the {base['five_dot']} with 5 dots and",
            f"{base['four_dot']} with 4 dots ({base_cards(3)})")


def role_page(role: Role | None, stamina: int) -> Page:
    """What a seat takes before play: its role card (public), stamina and 3 cards."""
    take = (f"Take {stamina} stamina,", f"draw {HAND} cards.")
    if role is None:
        return Page("No role card", ("Lookout-only game.", *take))
    if role.name is None:
        return Page("Your role: any other", ("Take 1 face-down role", *take))
    return Page(f"Your role: {role.screen}", ("Take it, face up.", *take))
