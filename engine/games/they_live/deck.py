"""The War Table deck: the table's optional deck list, and drawing from it in New Resources.

With a deck list the companion shuffles and names the cards to take; without one the players
draw from the real deck and only ask where a drawn enemy goes back. Either way, in the first
waves an enemy goes back into the deck at a random depth.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.api import Effect, Narrate
from engine.exc import SetupError

if TYPE_CHECKING:
    from .state import TheyLiveState

ENEMY_TAG = "[enemy]"
PUT_BACK_WAVES = 3  # "For the first 3 waves of the game ... placed randomly back"

_COUNTED = re.compile(r"^(\d+)\s*x\s+(.*\S)$", re.IGNORECASE)


def parse_deck_list(text: str) -> tuple[str, ...]:
    """Turn a deck list file (docs/they-live-deck-list.md) into one entry per card.

    Pure text in, cards out: the companion reads the file, the engine never does.
    """
    cards: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            cards.extend(_parse_line(line, number))
    if not cards:
        raise SetupError("the deck list has no cards")
    return tuple(cards)


def _parse_line(line: str, number: int) -> list[str]:
    count, name = 1, line
    match = _COUNTED.match(line)
    if match:
        count, name = int(match.group(1)), match.group(2)
    enemy = name.lower().endswith(ENEMY_TAG)
    if enemy:
        name = name[: -len(ENEMY_TAG)].strip()
    if not name or count < 1:
        raise SetupError(f"deck list line {number}: needs a card name and a count of 1 or more")
    return [f"{name} {ENEMY_TAG}" if enemy else name] * count


def is_enemy(card: str) -> bool:
    return card.endswith(ENEMY_TAG)


def card_name(card: str) -> str:
    return card.removesuffix(ENEMY_TAG).strip()


def wave_draw(state: TheyLiveState) -> int:
    """Cards New Resources puts out: two for each player still alive.

    "draw War Table cards equal to 2 x the number of players", and "When the last player takes
    their turn, there will only be 2 cards left in the middle": the dead take no turn, so they
    are not counted.
    """
    return 2 * len(state.living())


def draw_virtual(state: TheyLiveState, deck: list[str], count: int) -> list[str]:
    """Draw up to ``count`` named cards from ``deck`` (the state's); in the first waves an
    enemy goes back below the top, unseen. A deck used up is the real deck's from then on."""
    drawn: list[str] = []
    while len(drawn) < count and deck:
        card = deck.pop()
        if _must_put_back(state, deck, card):
            deck.insert(state.rng.below(len(deck)), card)
        else:
            drawn.append(card)
    if len(drawn) < count:
        state.deck = None
    return drawn


def drawn_told(drawn: list[str], count: int) -> Effect:
    """What the table is told of the named cards :func:`draw_virtual` drew."""
    if len(drawn) < count:
        return Narrate("Deck list used up: draw the rest from the real deck")
    return Narrate(f"Take the {len(drawn)} cards named on screen, one by one.")


def _must_put_back(state: TheyLiveState, deck: list[str], card: str) -> bool:
    return (
        state.wave <= PUT_BACK_WAVES
        and is_enemy(card)
        and any(not is_enemy(other) for other in deck)
    )


def enemy_depth(state: TheyLiveState) -> int:
    """Where an enemy from the real deck goes back: a depth below the top, uniform over the
    cards the deck should still hold."""
    remaining = max(1, state.deck_left - wave_draw(state))
    return 1 + state.rng.below(remaining)
