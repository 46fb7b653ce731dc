"""What each Alter Ego screen shows: setup instructions, the turn guide, the city's books.

Only the Nemesis row is secret, and it goes only into the seat's own PEEK face.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import SeatView, SecretFace
from engine.text import screen_lines

from .alter_ego_rules import ARCH_VILLAINS, DATA, DEFEATED, IN_PLAY, counts_text

if TYPE_CHECKING:
    from .alter_ego import AlterEgoState

LINE = 21
STEP_TITLES = {
    "display": "Your display?",
    "income": "1 Income",
    "patrol": "2 Patrol",
    "hostages": "Hostages taken",
    "cops": "Call the Cops?",
    "cops_pick": "Cops remove which?",
    "support": "3 Support",
    "equip": "4 Equip",
    "fight": "5 Crime-fighting",
    "rescue_pick": "Rescue from?",
    "rescue_civ": "Rescue which CIV?",
    "trophy": "Defeated! Trophies?",
    "arrive": "Arch Villain in?",
    "nemesis": "Nemesis beaten?",
    "recoup": "6 Recoup",
}

# What the other seats see of the turn: the rulebook phase a step belongs to.
PHASE_OF_STEP = {
    "display": "1 Income",
    "income": "1 Income",
    "patrol": "2 Patrol",
    "hostages": "Hostages",
    "cops": "2 Patrol",
    "cops_pick": "2 Patrol",
    "support": "3 Support",
    "equip": "4 Equip",
    "fight": "5 Fight",
    "rescue_pick": "5 Fight",
    "rescue_civ": "5 Fight",
    "trophy": "5 Fight",
    "arrive": "5 Fight",
    "nemesis": "5 Fight",
    "recoup": "6 Recoup",
}


def nemesis_phrase(seat: int, row: int) -> str:
    """The one way a seat's Nemesis is named, so the secrecy suite can look for it."""
    return f"Seat {seat} Nemesis #{row}"


def seat_view(state: AlterEgoState, seat: int | None) -> SeatView:
    secret = _secret(state, seat)
    if state.is_terminal():
        # the whole outcome in three lines: a banner would leave room for only one
        return SeatView("GAME OVER", lines=screen_lines(state.outcome or "", 3),
                        highlight=True, secret=secret)
    highlight = seat in state.active_seats()
    if state.phase == "turn":
        if seat == state.current:
            return _turn_view(state, secret)
        title = _fit(f"Seat {state.current}: {PHASE_OF_STEP[state.turn.step]}")
        return SeatView(title, lines=_board_lines(state), secret=secret)
    title, lines = _setup_face(state, seat)
    return SeatView(title, lines=tuple(lines), secret=secret, highlight=highlight)


def _secret(state: AlterEgoState, seat: int | None) -> SecretFace | None:
    if seat is None:
        return None
    row = state.nemesis_row[seat]
    lines = ("Your Nemesis is card", f"{row} from the left of", "the face-down row")
    return SecretFace(nemesis_phrase(seat, row), lines)


# --------------------------------------------------------------------------- setup


def _setup_face(state: AlterEgoState, seat: int | None) -> tuple[str, list[str]]:
    host = seat == state.host
    if state.phase == "prepare":
        if seat is None:
            return "Alter Ego setup", ["Shuffle Henchmen;", "sort Hero, Equipment", "and AE piles"]
        return "Alter Ego setup", ["4 Family, 4 Job, 4", "Community: shuffle,", "display 4, hand 4"]
    if state.phase in ("piles", "supply"):
        return _entry_face(state, host)
    if state.phase == "picks":
        lines = [f"Pile {i + 1}: #{pick} from top" for i, pick in enumerate(state.picks)]
        return "Arch Villains", lines
    count = len(state.seats)
    return "Nemesis", [f"Lay {count} Nemesis cards", "face down in a row;", "PEEK: which is yours"]


def _entry_face(state: AlterEgoState, host: bool) -> tuple[str, list[str]]:
    index = state.entry_index
    entry = state.entries[index]
    if state.phase == "piles":
        title = f"AV pile {index + 1} size?" if host else "Arch Villains"
        cards = DATA["arch_villains"]["cards"]
        lines = [f"Sort the {cards} Arch", f"Villains: {ARCH_VILLAINS} piles", "by type"]
    else:
        title = f"CIV {index + 1} tokens?" if host else "CIV tokens"
        lines = ["Sort CIV tokens into", "3 pools: left to", "right = CIV 1, 2, 3"]
    if host:
        lines = [f"Count: {entry.shown()}", *lines[:2]]
    return title, lines


# --------------------------------------------------------------------------- turns


def _turn_view(state: AlterEgoState, secret: SecretFace | None) -> SeatView:
    turn = state.turn
    step = turn.step
    title = STEP_TITLES[step]
    if step == "income":
        return SeatView(title, big=f"${turn.money(state)}", lines=(_income_line(state),),
                        secret=secret, highlight=True)
    if step == "patrol":
        return SeatView(title, big=str(turn.henchmen(state)), lines=("henchmen: keep 1",),
                        secret=secret, highlight=True)
    if step == "equip":
        return SeatView(title, big=f"${turn.money(state)}", lines=("to spend on Equipment",),
                        secret=secret, highlight=True)
    return SeatView(title, lines=tuple(_step_lines(state)), secret=secret, highlight=True)


def _income_line(state: AlterEgoState) -> str:
    jobs = state.turn.display["Job"]
    if not jobs:
        return "No Job card: no $"
    return _fit(f"{jobs} Job + {state.trophies[state.current]['$']} $ trophies")


def _step_lines(state: AlterEgoState) -> list[str]:
    turn = state.turn
    step = turn.step
    if step == "display":
        shown = turn.display
        return [f"Job {shown['Job']} Comm {shown['Community']} Fam {shown['Family']}",
                "Count your face-up", "Alter Ego cards"]
    if step == "hostages":
        held = counts_text(state.city.held[turn.target])
        supply = counts_text(state.city.supply)
        return [_fit(f"{turn.target} holds {held}"), _fit(f"Supply {supply}"), "as the card shows"]
    if step == "support":
        return _support_lines(state)
    if step == "rescue_civ":
        return _rescue_lines(state)
    if step in ("fight", "rescue_pick", "cops_pick"):
        return _villain_lines(state) or ["No hostages held"]
    return {
        "cops": ["3+ Community icons", "and a Community card:", "remove a henchman"],
        "trophy": ["Keep it. Add its $,", "Community and Family", "icons as Trophies"],
        "arrive": ["Place AV tokens for", "its icons; a full AV", "card comes into play"],
        "nemesis": ["You defeated your", "Nemesis? The table", "will know"],
        "recoup": ["Discard display; play", "4 (+Display icons)", "+1 card; draw 4+"],
    }[step]


def _support_lines(state: AlterEgoState) -> list[str]:
    lines = [f"Draw {state.turn.draws(state)} cards"]
    if state.turn.display["Family"]:
        return [*lines, "3+ Family icons:", "take 1 Teamwork"]
    return [*lines, "No Family card:", "no Teamwork token"]


def _rescue_lines(state: AlterEgoState) -> list[str]:
    key = state.turn.target
    lines = [_fit(f"{key} holds {counts_text(state.city.held[key])}")]
    if key.startswith("H") and state.city.arch_in_play():
        return [*lines, "AV in play: freed", "tokens leave the game"]
    return [*lines, "Freed tokens go back", "to the supply"]


def _villain_lines(state: AlterEgoState) -> list[str]:
    """Two villains a line, three lines at most: the rest are on the rescue pages."""
    items = [f"{key} {counts_text(held)}" for key, held in state.city.held.items()]
    pairs = ["  ".join(items[i:i + 2]) for i in range(0, len(items), 2)]
    return [_fit(pair) for pair in pairs[:3]]


def _board_lines(state: AlterEgoState) -> tuple[str, ...]:
    city = state.city
    arrived = city.arch.count(IN_PLAY)
    down = city.arch.count(DEFEATED)
    return (
        _fit(f"CIV left {counts_text(city.supply)}"),
        _fit(f"{len(city.henchmen())} henchmen, {city.hostages()} held"),
        _fit(f"AV: {arrived} in, {down}/{ARCH_VILLAINS} down"),
    )


def _fit(text: str) -> str:
    return text[:LINE]


