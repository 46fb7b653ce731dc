"""Mind Invaders' words: the one spelling of a Character, its PEEK conditions, seat lists.

The secrecy suite looks for exactly ``character_phrase`` (``Seat 3: Alien``) on every screen,
so the views, the reveals and the secrets all name a Character through it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.data import known
from engine.text import fit

from .cards import DATA


def character_phrase(seat: int, kind: str) -> str:
    """The one way a Character is named on any screen, so the secrecy suite can look for it."""
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


def seat_list(seats: Sequence[int]) -> str:
    return " ".join(str(seat) for seat in seats) or "none"
