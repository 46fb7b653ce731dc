"""Staying Alive's words: the setup pages and the lines under the hourglass.

Every line fits a seat screen (21 characters); setup pages are wrapped by
:func:`engine.text.screen_lines`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.games.staying_alive.cards import DATA, HAND, ROLES, STRAIN_LIMIT, Role, base_cards
from engine.text import screen_lines

STRAIN_NOTE = f"Check strain: {STRAIN_LIMIT}+ = -1"
MORE_PROMPT = "Corrections, goals"
ESCAPE_PROMPT = "Strain in your hand?"


@dataclass(frozen=True)
class Page:
    """One setup instruction as it fits a seat screen."""

    title: str
    lines: tuple[str, ...]


# --- setup pages -----------------------------------------------------------------------------


def deck_pages(
    players: int,
    modules: Sequence[int],
    codes: int | None,
    cards: int,
    roles: Mapping[int, Role | None],
) -> tuple[Page, ...]:
    """The deck-building steps, numbered "1/4 ...", to be spread over the seats."""
    steps = [Page("Base cards", _base_text(players))]
    if modules:
        numbers = ", ".join(str(m) for m in modules)
        plural = "s" if len(modules) > 1 else ""
        steps.append(Page("Modules", (f"Add module{plural} {numbers}", "(5 cards each)")))
    if codes is not None:
        steps.append(Page("Codes (module 2)", (
            "Shuffle 5 face down,", f"return card {codes} from", "the top to box unseen")))
    steps.append(Page("Shuffle the deck", (
        f"Shuffle the {cards} cards,", "face down onto the", "face-up escape card")))
    unnamed = sum(1 for role in ROLES if role.name is None)
    if any(role is not None and role.name is None for role in roles.values()):
        named = ", ".join(role.screen or "" for role in ROLES if role.name)
        steps.append(Page(f"Shuffle {unnamed} roles", screen_lines(f"face down: all but {named}.")))
    return tuple(
        Page(f"{i}/{len(steps)} {page.title}", page.lines) for i, page in enumerate(steps, 1)
    )


def _base_text(players: int) -> tuple[str, ...]:
    base = DATA["base"]
    if players >= 5:
        return screen_lines(f"Take all {base['cards']} base cards.")
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


# --- lines in play ---------------------------------------------------------------------------


# --- the PEEK face: nothing is secret, so it is help -----------------------------------------
# The seat's role and what it does, then what the step expects of the seat, from the Staying
# Alive rulebook.

NO_ROLE = ("No role cards in", "this game")
DECK_HELP = ("Build the deck, then", "stamina and 3 cards")
LOOKOUT_START_HELP = ("Turn the hourglass", "over, take 1st turn")
START_HELP = ("The Lookout turns the", "hourglass and starts")
TURN_HELP = ("Draw 1, then up to 2", "actions; speak freely")
# Each line whole on its own: a page may end after the first, and must not then say the
# opposite of the rule ("Radio silence: no").
SILENCE_HELP = ("Off turn: stay silent", "no talk, nods, signs")
STRAIN_HELP = (f"{STRAIN_LIMIT}+ strain in hand:", "lose 1 stamina")
STAY_OR_ESCAPE_HELP = ("Stay: -1 stamina, or", "escape: -1 a strain")
ESCAPE_HELP = ("Escape: -1 stamina", "per strain in hand")
ESCAPED_HELP = ("You escaped: you no", "longer take part")


