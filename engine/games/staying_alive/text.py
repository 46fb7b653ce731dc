"""Staying Alive's words: the setup pages and the lines under the hourglass.

Every line fits a seat screen (21 characters); setup pages are wrapped by
:func:`engine.text.screen_lines`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.api import SecretFace
from engine.games.staying_alive.cards import DATA, HAND, ROLES, STRAIN_LIMIT, Role, base_cards
from engine.games.staying_alive.steps import PlayData, Step, TurnMenu
from engine.text import screen_lines

if TYPE_CHECKING:
    from engine.games.staying_alive.state import StayingAliveState

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


def role_line(state: StayingAliveState, seat: int) -> str:
    """``"Lookout    Stamina 5"``: the public role and the stamina tokens."""
    role = state.roles[seat]
    name = "No role" if role is None else role.screen or "Other role"
    return f"{name:<11}Stamina {state.stamina[seat]}"


def deck_line(state: StayingAliveState) -> str:
    """``"Deck 12 Goal 1,3"``: cards left and the target modules still to fulfil."""
    deck = f"Deck {state.deck}" if state.deck else "Deck EMPTY"
    if not state.goals():
        return deck
    left = state.goals_left()
    return f"{deck} Goal {','.join(map(str, left))}" if left else f"{deck} Goals done"


def escaped_line(state: StayingAliveState) -> str:
    if not state.escaped:
        return ""
    return "Escaped: " + ", ".join(map(str, state.escaped))


def lookout_line(state: StayingAliveState) -> str:
    lookout = state.lookout()
    return f"Lookout: Seat {lookout}" if lookout is not None else "Lookout escaped"


def draw_prompt(state: StayingAliveState) -> str:
    """Under the big digits only this line shows: the seat on turn sees its stamina here."""
    stamina = state.stamina[state.turn]
    drew = state.data_of(PlayData).drew
    return f"Draw 1, stamina {stamina}" if drew else f"No draw, stamina {stamina}"


def check_prompt(state: StayingAliveState) -> str:
    return STRAIN_NOTE if state.deck else state.escape_blocker() or "Stay -1 or escape"


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


def role_face(state: StayingAliveState, seat: int) -> SecretFace:
    """The seat's role card and its ability, then the step's help: all of it public."""
    role = state.roles[seat]
    title = "No role card" if role is None else f"Role: {role.screen or 'other'}"
    ability = NO_ROLE if role is None else role.peek
    return SecretFace(title, (*ability, *step_help(state, seat)))


def step_help(state: StayingAliveState, seat: int) -> tuple[str, ...]:
    if seat in state.escaped:
        return ESCAPED_HELP
    if state.phase == Step.DECK:
        return DECK_HELP
    if state.phase == Step.START:
        return LOOKOUT_START_HELP if seat == state.lookout() else START_HELP
    if seat != state.turn:
        return SILENCE_HELP
    if state.has_open(seat, TurnMenu.ESCAPE):
        return ESCAPE_HELP
    if state.phase == Step.CHECK:
        return STRAIN_HELP if state.deck else STAY_OR_ESCAPE_HELP
    return TURN_HELP if state.phase == Step.PLAY else ()
