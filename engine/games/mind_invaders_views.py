"""What each Mind Invaders screen shows, built only from public facts and the seat's own card.

A seat's Character goes only into its PEEK face; every other line here is the same whatever
the Characters are, which the tests check by swapping them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import SeatView, SecretFace
from engine.data import known
from engine.text import screen_lines

from .mind_invaders_rules import (
    DATA,
    character_phrase,
    condition_lines,
    fit,
    seat_list,
)

if TYPE_CHECKING:
    from .mind_invaders import MindInvadersState

PHASE_TITLES = {
    "setup": "Take 4 Power cards",
    "block": "I Block",
    "hidden": "II Hidden Powers",
    "reveal": "III Reveal Powers",
    "hold": "IV Hold/Intensify",
    "collect": "Collection",
    "cleanup": "Cleanup",
}


def seat_view(state: MindInvadersState, seat: int | None) -> SeatView:
    secret = None
    if seat is not None:
        kind = state.characters[seat]
        secret = SecretFace(character_phrase(seat, kind), condition_lines(kind))
    if state.is_terminal():
        lines = screen_lines(state.outcome or "", 3)  # all of it: a banner leaves one line
        return SeatView("GAME OVER", lines=lines, highlight=True, secret=secret)
    if seat in state.eliminated:
        return SeatView("Mind Invaders", banner="ELIMINATED", secret=secret)
    if seat is not None and seat in state.menus:
        return _menu_view(state, seat, secret)
    title = PHASE_TITLES[state.phase]
    if state.phase != "setup":
        title = fit(f"C{state.contest} {title}")
    lines = _phase_lines(state, seat) + [_status_line(state, seat)]
    return SeatView(title, lines=tuple(lines), secret=secret, highlight=seat in state.waiting())


def _phase_lines(state: MindInvadersState, seat: int | None) -> list[str]:
    if state.phase == "setup":
        return _setup_lines(state, seat)
    if state.phase == "collect":
        ties = [s for s in state.initiative_order() if s in state.participants]
        return ["Highest Power first", fit(f"ties: {seat_list(ties)}")]
    if state.phase == "cleanup":
        return [f"Floors: {state.floor_size} cards each", "Power cards in hand?"]
    actor = min(state.waiting())
    if seat == actor:
        return _my_turn_lines(state)
    return {
        "block": [f"Seat {actor} blocks", "a lower-floor card"],
        "hidden": [f"Seat {actor} plays", _power_rule(state)],
        "reveal": [f"Seat {actor} reveals", "and resolves"],
        "hold": [f"Seat {actor}: Hold or", "Intensify?"],
    }[state.phase]


def _my_turn_lines(state: MindInvadersState) -> list[str]:
    return {
        "block": ["Block 1 card on the", "lower floor"],
        "hidden": ["Play face down,", _power_rule(state)],
        "reveal": ["Reveal and resolve", "your cards"],
        "hold": ["Hold (red) or", "Intensify (green)?"],
    }[state.phase]


def _power_rule(state: MindInvadersState) -> str:
    """Phase II's reminder: the first play needs a Power; later a Resource needs one."""
    return "at least 1 Power" if state.round == 1 else "Resource needs Power"


def _setup_lines(state: MindInvadersState, seat: int | None) -> list[str]:
    if seat is None:
        return ["Lay Characters face", "up, for reference"]
    if seat == state.first:
        return ["PEEK: your Character", f"Hotel: 2 rows of {state.floor_size}"]
    return ["PEEK: your Character", "then press Ready"]


def _status_line(state: MindInvadersState, seat: int | None) -> str:
    if seat is None:
        return fit(f"Order: {seat_list(state.initiative_order())}")
    ordinal = state.initiative_of(seat)
    if state.phase in ("setup", "cleanup"):
        return f"Initiative: {ordinal}"
    if seat not in state.participants:
        return f"{ordinal}: no Power cards"
    return f"{ordinal}: {'GREEN' if seat in state.green else 'RED'}"


def _menu_view(state: MindInvadersState, seat: int, secret: SecretFace | None) -> SeatView:
    menu, target = state.menus[seat]
    cards = DATA["investigation"]["cards"]
    icon = known(DATA["investigation"]["icon"]) or "investigation"
    titles = {
        "investigate": "Investigate",
        "target": f"Investigate Seat {target}",
        "victory": "Victory?",
        "eliminated": "Eliminated?",
    }
    lines = {
        "investigate": [f"Discard {cards} cards", fit(f"with the {icon}"), "icon, pick a seat"],
        "target": [f"Discard {cards} cards", "first, then reveal", f"Seat {target}"],
        "victory": ["Win AND elimination", "at once: you are out", "(I am eliminated)"],
        "eliminated": ["Your cards meet an", "elimination", "condition?"],
    }
    return SeatView(titles[menu], lines=tuple(lines[menu]), secret=secret, highlight=True)
