"""Mind Invaders' words: the one spelling of a Character, its PEEK conditions, seat lists.

The secrecy suite looks for exactly ``character_phrase`` (``Seat 3: Alien``) on every screen,
so the views, the reveals and the secrets all name a Character through it.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.data import known
from engine.text import fit

from .cards import DATA, Character


def character_phrase(seat: int, kind: Character) -> str:
    """The one way a Character is named on any screen, so the secrecy suite can look for it."""
    return f"Seat {seat}: {kind}"


def condition_lines(kind: Character) -> tuple[str, str, str]:
    """The PEEK lines for a Character: three for every Character, so the face's shape never
    tells which. Lost icons show as '?', with a pointer to the cards if any Character has one."""
    cond = DATA["conditions"][kind]
    return (
        fit("Win: " + _icon_counts(cond["victory_icons"], cond["victory_cards"])),
        fit("Out: " + _icon_counts(cond["elimination_icons"], cond["elimination_cards"])),
        "?: on Character cards" if _icons_lost() else "Keep it to yourself",
    )


def _icons_lost() -> bool:
    """Whether the data file lost any Character's icon (the same answer for every seat)."""
    return any(known(icon) is None for cond in DATA["conditions"].values()
               for icon in cond["victory_icons"] + cond["elimination_icons"])


def _icon_counts(icons: list[str], count: int) -> str:
    return " or ".join(f"{count}x {known(icon) or '?'}" for icon in icons)


def seat_list(seats: Sequence[int]) -> str:
    return " ".join(str(seat) for seat in seats) or "none"


# --- what a step expects of a seat, from the Mind Invaders rules manual --------------------
# After the Character on the PEEK face. Public words: how many follows the step and whose
# move it is, never the Character.

MOVE_HELP = {
    "setup": ("Keep your Character", "secret until told"),
    "block": ("I Block: block 1 card", "on the lower floor"),
    "reveal": ("III: reveal; Resource", "effects must be done"),
    "hold": ("IV: Hold (red, stop)", "or Intensify (green)"),
    "collect": ("Highest Power first;", "ties: Initiative"),
    "cleanup": ("Cleanup: no Power in", "hand? Sit next out"),
}
FIRST_HIDDEN_HELP = ("II: play face down,", "at least 1 Power")
LATER_HIDDEN_HELP = ("II: play face down; a", "Resource needs Power")
WAIT_HELP = ("Not your move: any", "time, investigate")
MENU_HELP = ("Investigate: 4 icon", "cards; a Human found", "is unmasked: you win")
OUT_HELP = ("Eliminated: you are", "out of the game")
