"""Mind Invaders' fixed rules and wording: the Character pool, the conditions, the names.

Kept apart from the state so the views and the tests share one spelling of a Character
(``Seat 3: Alien``): the secrecy suite looks for exactly that text on every face.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.data import known, load

DATA = load("mind_invaders")
ALIEN, HUMAN = "Alien", "Human"
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")
LINE = 21


def character_pool(players: int) -> list[str]:
    """The Characters dealt from: below five players one Alien stays in the box."""
    chars = DATA["characters"]
    excluded = 1 if players < chars["exclude_alien_below"] else 0
    return [ALIEN] * (chars["aliens"] - excluded) + [HUMAN] * chars["humans"]


def character_phrase(seat: int, kind: str) -> str:
    """The one way a Character is named on any face, so the secrecy suite can look for it."""
    return f"Seat {seat}: {kind}"


def condition_lines(kind: str) -> tuple[str, ...]:
    """The PEEK lines for a Character; lost icons show as '?' with a pointer to the cards."""
    cond = DATA["conditions"][kind]
    icons = cond["victory_icons"] + cond["elimination_icons"]
    lines = [
        fit("Win: " + _icon_counts(cond["victory_icons"], cond["victory_cards"])),
        fit("Out: " + _icon_counts(cond["elimination_icons"], cond["elimination_cards"])),
    ]
    if any(known(icon) is None for icon in icons):
        lines.append("?: on Character cards")
    return tuple(lines)


def _icon_counts(icons: list[str], count: int) -> str:
    return " or ".join(f"{count}x {known(icon) or '?'}" for icon in icons)


def fit(text: str) -> str:
    return text[:LINE]


def seat_list(seats: Sequence[int]) -> str:
    return " ".join(str(seat) for seat in seats) or "none"


