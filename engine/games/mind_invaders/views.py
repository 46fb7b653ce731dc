"""What each Mind Invaders screen shows, built only from public facts and the seat's own card.

A seat's Character goes only into its PEEK secret; every other line here is the same whatever
the Characters are, which the tests check by swapping them.
"""

from __future__ import annotations

from functools import wraps
from typing import TYPE_CHECKING

from engine.api import SeatView, SecretFace
from engine.data import known
from engine.phases import View
from engine.text import fit, screen_lines

from .anytime import MenuName
from .cards import DATA
from .text import (
    FIRST_HIDDEN_HELP,
    LATER_HIDDEN_HELP,
    MENU_HELP,
    MOVE_HELP,
    OUT_HELP,
    WAIT_HELP,
    character_phrase,
    condition_lines,
    seat_list,
)

if TYPE_CHECKING:
    from .state import MindInvadersState


def _unless_out_or_in_a_menu(view: View) -> View:
    """A step's view, unless the seat has left the game or has a menu open: those screens
    take its place in every step."""

    @wraps(view)
    def seat_view(state: MindInvadersState, seat: int | None, now: float) -> SeatView:
        if seat in state.eliminated:
            return SeatView("Mind Invaders", banner="ELIMINATED", secret=_peek(state, seat))
        if seat is not None and seat in state.menus:
            return _menu_view(state, seat, _peek(state, seat))
        return view(state, seat, now)

    return seat_view


# --- one view per step ------------------------------------------------------------------


@_unless_out_or_in_a_menu
def view_setup(state: MindInvadersState, seat: int | None, now: float) -> SeatView:
    if seat is None:
        lines = ["Lay Characters face", "up, for reference"]
    elif seat == state.first:
        lines = ["PEEK: your Character", f"Hotel: 2 rows of {state.floor_size}"]
    else:
        lines = ["PEEK: your Character", "then press Ready"]
    return _step_view(state, seat, "Take 4 Power cards", [*lines, _initiative_line(state, seat)])


@_unless_out_or_in_a_menu
def view_block(state: MindInvadersState, seat: int | None, now: float) -> SeatView:
    actor = _actor(state)
    if seat == actor:
        lines = ["Block 1 card on the", "lower floor"]
    else:
        lines = [f"Seat {actor} blocks", "a lower-floor card"]
    return _contest_view(state, seat, "I Block", lines)


@_unless_out_or_in_a_menu
def view_hidden(state: MindInvadersState, seat: int | None, now: float) -> SeatView:
    actor = _actor(state)
    # The first play needs a Power; a later one needs a Power for each Resource.
    rule = "at least 1 Power" if state.round == 1 else "Resource needs Power"
    lines = ["Play face down,", rule] if seat == actor else [f"Seat {actor} plays", rule]
    return _contest_view(state, seat, "II Hidden Powers", lines)


@_unless_out_or_in_a_menu
def view_reveal(state: MindInvadersState, seat: int | None, now: float) -> SeatView:
    actor = _actor(state)
    if seat == actor:
        lines = ["Reveal and resolve", "your cards"]
    else:
        lines = [f"Seat {actor} reveals", "and resolves"]
    return _contest_view(state, seat, "III Reveal Powers", lines)


@_unless_out_or_in_a_menu
def view_hold(state: MindInvadersState, seat: int | None, now: float) -> SeatView:
    actor = _actor(state)
    if seat == actor:
        lines = ["Hold (red) or", "Intensify (green)?"]
    else:
        lines = [f"Seat {actor}: Hold or", "Intensify?"]
    return _contest_view(state, seat, "IV Hold/Intensify", lines)


@_unless_out_or_in_a_menu
def view_collect(state: MindInvadersState, seat: int | None, now: float) -> SeatView:
    ties = state.in_initiative_order(state.participants)
    lines = ["Highest Power first", fit(f"ties: {seat_list(ties)}")]
    return _contest_view(state, seat, "Collection", lines)


@_unless_out_or_in_a_menu
def view_cleanup(state: MindInvadersState, seat: int | None, now: float) -> SeatView:
    lines = [f"Floors: {state.floor_size} cards each", "Power cards in hand?"]
    title = fit(f"C{state.contest} Cleanup")
    return _step_view(state, seat, title, [*lines, _initiative_line(state, seat)])


def view_over(state: MindInvadersState, seat: int | None, now: float) -> SeatView:
    lines = screen_lines(state.outcome or "", 3)  # all of it: a banner leaves one line
    return SeatView("GAME OVER", lines=lines, highlight=True, secret=_peek(state, seat))


def refusal(state: MindInvadersState, seat: int, action_id: str) -> str:
    """Why a press is refused: it names whom the table waits for, never a Character."""
    if seat in state.eliminated:
        return "You are eliminated"
    waiting = sorted(state.awaited())
    if waiting and seat not in waiting:
        return f"Waiting for Seat {waiting[0]}"
    return "Not now"


# --- the parts every step's view shares ---------------------------------------------------


def _contest_view(
    state: MindInvadersState, seat: int | None, title: str, lines: list[str]
) -> SeatView:
    """A contest step: its title after the contest's number, then the seat's colour."""
    title = fit(f"C{state.contest} {title}")
    return _step_view(state, seat, title, [*lines, _colour_line(state, seat)])


def _step_view(
    state: MindInvadersState, seat: int | None, title: str, lines: list[str]
) -> SeatView:
    highlight = seat in state.awaited()
    return SeatView(title, lines=tuple(lines), secret=_peek(state, seat), highlight=highlight)


def _peek(state: MindInvadersState, seat: int | None) -> SecretFace | None:
    """The seat's own Character and its conditions, shown only while it holds PEEK, then
    what the step expects of the seat."""
    if seat is None:
        return None
    kind = state.characters[seat]
    return SecretFace(character_phrase(seat, kind),
                      (*condition_lines(kind), *phase_help(state, seat)))


def _actor(state: MindInvadersState) -> int:
    """The seat a one-at-a-time step waits for."""
    return state.awaited()[0]


def _initiative_line(state: MindInvadersState, seat: int | None) -> str:
    if seat is None:
        return _order_line(state)
    return f"Initiative: {state.initiative_of(seat)}"


def _colour_line(state: MindInvadersState, seat: int | None) -> str:
    """Whether the seat is still green (playing on), red (holding) or sits this contest out."""
    if seat is None:
        return _order_line(state)
    ordinal = state.initiative_of(seat)
    if seat not in state.participants:
        return f"{ordinal}: no Power cards"
    return f"{ordinal}: {'GREEN' if seat in state.green else 'RED'}"


def _order_line(state: MindInvadersState) -> str:
    return fit(f"Order: {seat_list(state.initiative_order())}")


def _menu_view(state: MindInvadersState, seat: int, secret: SecretFace | None) -> SeatView:
    menu, target = state.menus[seat].name, state.menus[seat].arg
    cards = DATA["investigation"]["cards"]
    icon = known(DATA["investigation"]["icon"])
    titles = {
        MenuName.INVESTIGATE: "Investigate",
        MenuName.TARGET: f"Investigate Seat {target}",
        MenuName.VICTORY: "Victory?",
        MenuName.ELIMINATED: "Eliminated?",
    }
    lines = {
        MenuName.INVESTIGATE: [f"Discard {cards} cards with",
                               fit(f"the {icon} icon", "its icon") if icon
                               else "the investigation",
                               "icon; pick a seat" if not icon else "then pick a seat"],
        MenuName.TARGET: [f"Discard {cards} cards", "first, then reveal", f"Seat {target}"],
        MenuName.VICTORY: ["Win AND elimination", "at once: you are out", "(I am eliminated)"],
        MenuName.ELIMINATED: ["Your cards meet an", "elimination", "condition?"],
    }
    return SeatView(titles[MenuName(menu)], lines=tuple(lines[MenuName(menu)]), secret=secret,
                    highlight=True)


def phase_help(state: MindInvadersState, seat: int) -> tuple[str, ...]:
    """What the step under way expects of ``seat``, in two or three lines."""
    if seat in state.eliminated:
        return OUT_HELP
    if seat in state.menus:
        return MENU_HELP
    if seat not in state.awaited() and state.phase != "setup":
        return WAIT_HELP
    if state.phase == "hidden":
        return FIRST_HIDDEN_HELP if state.round == 1 else LATER_HIDDEN_HELP
    return MOVE_HELP.get(state.phase, ())
