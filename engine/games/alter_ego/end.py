"""Every way an Alter Ego game ends: the rulebook's four endings and the Villains' win.

The chosen ending (the option "ending") is checked when the last Arch Villain falls or a
Nemesis is defeated; a hostage needed from an empty supply ends the game at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.api import Buzz, Effect, Narrate
from engine.cues import Tune

from .state import Ending

if TYPE_CHECKING:
    from .state import AlterEgoState


def ending_on_last_arch(
    ending: Ending, seats: Sequence[int], beaten: Sequence[int]
) -> tuple[str, bool]:
    """The outcome when the last Arch Villain falls, and whether the table won."""
    saved = "Win: Crime City is saved, everybody wins"
    if ending == Ending.PERSONAL:
        personal = [str(seat) for seat in seats if seat in beaten]
        # short enough for three screen lines, the Personal Victory included
        extra = f"; Personal Victory: Seat {', '.join(personal)}" if personal else ""
        return f"Win: City saved, all win{extra}", True
    if ending == Ending.ALL_NEMESES and any(seat not in beaten for seat in seats):
        return "Lose: the Nemeses not defeated overtake Crime City", False
    return saved, True


def ending_on_nemesis(ending: Ending, seat: int) -> str | None:
    """The outcome when ``seat`` beats its Nemesis, or None if the game goes on."""
    if ending == Ending.FIRST_NEMESIS:
        return f"Seat {seat} wins: their Nemesis is defeated"
    return None


def nemesis_beaten(state: AlterEgoState, seat: int) -> list[Effect]:
    state.beaten.append(seat)
    outcome = ending_on_nemesis(state.ending, seat)
    if outcome:
        return state.finish(outcome, Tune.WIN)
    return [Buzz(Tune.WIN), Narrate(f"Seat {seat} has defeated their Nemesis.")]


def arch_defeated(state: AlterEgoState, key: str) -> list[Effect]:
    effects: list[Effect] = [Buzz(Tune.WIN), Narrate(f"Arch Villain {key[2:]} is defeated!")]
    if not state.city.all_arch_defeated():
        return effects
    outcome, won = ending_on_last_arch(state.ending, state.seats, state.beaten)
    return effects + state.finish(outcome, Tune.WIN if won else Tune.LOSE)


def villains_win(state: AlterEgoState, civ: int) -> list[Effect]:
    """A villain needed a CIV token the supply no longer holds."""
    return state.finish(f"Lose: no CIV {civ + 1} token left, the Villains win", Tune.LOSE)
