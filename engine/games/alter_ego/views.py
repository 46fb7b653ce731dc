"""What each Alter Ego screen shows: setup instructions, the turn's steps, the city's books.

Only the Nemesis row is secret, and it goes only into the seat's own PEEK face.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.api import SeatView, SecretFace
from engine.phases import View
from engine.text import fit, screen_lines

from .city import ARCH_VILLAINS, DATA, Fate
from .state import Counting, Taking
from .text import (
    FIGHT_STEPS,
    HELP_ASKED,
    PHASE_OF_STEP,
    STEP_HELP,
    STEP_NOTES,
    STEP_TITLES,
    counts_text,
    holds,
    income_line,
    nemesis_phrase,
)

if TYPE_CHECKING:
    from .state import AlterEgoState


def nemesis_face(state: AlterEgoState, seat: int | None) -> SecretFace | None:
    """The seat's Nemesis, then what the step expects (public: the same for any Nemesis)."""
    if seat is None:
        return None
    row = state.nemesis_row[seat]
    lines = ("Your Nemesis is the", f"card by Seat {state.seats[row - 1]}", "(face down): take it")
    return SecretFace(nemesis_phrase(seat, row), (*lines, *_step_help(state, seat)))


def _step_help(state: AlterEgoState, seat: int) -> tuple[str, ...]:
    """The step's rule; while another seat fights, that it may ask this one for help."""
    if state.step() in FIGHT_STEPS and seat != state.current:
        return HELP_ASKED
    return STEP_HELP.get(state.step(), ())


def over_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    # the whole outcome in three lines: a banner would leave room for only one
    return SeatView("GAME OVER", lines=screen_lines(state.outcome or "", 3), highlight=True,
                    secret=nemesis_face(state, seat))


# --------------------------------------------------------------------------- setup


def _setup_view(state: AlterEgoState, seat: int | None, title: str,
                lines: tuple[str, ...]) -> SeatView:
    return SeatView(title, lines=lines, secret=nemesis_face(state, seat),
                    highlight=seat in state.active_seats())


def prepare_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    if seat is None:
        lines = ("Shuffle Henchmen;", "sort Hero, Equipment", "and AE piles")
    else:
        lines = ("4 Family, 4 Job, 4", "Community: shuffle,", "display 4, hand 4")
    return _setup_view(state, seat, "Alter Ego setup", lines)


def pile_count_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    cards = DATA["arch_villains"]["cards"]
    lines = (f"Sort the {cards} Arch", f"Villains: {ARCH_VILLAINS} piles", "by type")
    return _count_view(state, seat, "Arch Villains", lines)


def pool_count_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    lines = ("Sort CIV: 3 pools,", f"CIV 1 by Seat {state.seats[0]},", "then 2, 3 clockwise")
    return _count_view(state, seat, "CIV tokens", lines)


def _count_view(state: AlterEgoState, seat: int | None, title: str,
                lines: tuple[str, ...]) -> SeatView:
    """The host sees the count so far over the instructions; the others, what it is for."""
    if seat != state.host:
        return _setup_view(state, seat, title, lines)
    count = state.data_of(Counting).count()
    return _setup_view(state, seat, count.prompt, (f"Count: {count.shown()}", *lines[:2]))


def picks_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    lines = tuple(f"Pile {i + 1}: #{pick} from top" for i, pick in enumerate(state.picks))
    return _setup_view(state, seat, "Arch Villains", lines)


def deal_nemeses_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    lines = ("Shuffle the Nemeses;", "1 face down by each", "seat; PEEK: yours")
    return _setup_view(state, seat, "Nemesis", lines)


# --------------------------------------------------------------------------- turns


def _turn_view(state: AlterEgoState, seat: int | None, lines: tuple[str, ...],
               big: str | None = None) -> SeatView:
    """The seat on turn sees its step; the others, which phase it is in and the city."""
    secret = nemesis_face(state, seat)
    if seat != state.current:
        title = fit(f"Seat {state.current}: {PHASE_OF_STEP[state.step()]}")
        return SeatView(title, lines=_board_lines(state), secret=secret)
    return SeatView(STEP_TITLES[state.step()], big=big, lines=lines, secret=secret,
                    highlight=True)


def display_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    shown = state.display
    counted = f"Job {shown['Job']} Comm {shown['Community']} Fam {shown['Family']}"
    return _turn_view(state, seat, (counted, "Count your face-up", "Alter Ego cards"))


def income_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    line = income_line(state.display["Job"], state.trophies[state.current]["$"])
    return _turn_view(state, seat, (line,), big=f"${state.money()}")


def patrol_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    return _turn_view(state, seat, ("henchmen: keep 1",), big=str(state.henchmen_drawn()))


def equip_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    return _turn_view(state, seat, ("to spend on Equipment",), big=f"${state.money()}")


def hostages_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    villain = state.data_of(Taking).villain
    held = fit(holds(villain, state.city.held[villain]))
    supply = fit(f"Supply {counts_text(state.city.supply)}")
    return _turn_view(state, seat, (held, supply, "as the card shows"))


def support_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    draw = f"Draw {state.cards_drawn()} cards"
    if state.display["Family"]:
        return _turn_view(state, seat, (draw, "3+ Family icons:", "take 1 Teamwork"))
    return _turn_view(state, seat, (draw, "No Family card:", "no Teamwork token"))


def villains_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    """Two villains a line, three lines at most: the rest are on the rescue pages."""
    items = [f"{key} {counts_text(held)}" for key, held in state.city.held.items()]
    pairs = ["  ".join(items[i:i + 2]) for i in range(0, len(items), 2)]
    lines = tuple(fit(pair) for pair in pairs[:3]) or ("No hostages held",)
    return _turn_view(state, seat, lines)


def rescue_civ_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    key = state.rescuing()
    held = fit(holds(key, state.city.held[key]))
    if key.startswith("H") and state.city.arch_in_play():
        return _turn_view(state, seat, (held, "AV in play: freed", "tokens leave the game"))
    return _turn_view(state, seat, (held, "Freed tokens go back", "to the supply"))


def note_view(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
    """A step whose screen only reminds the seat of what the rulebook asks."""
    return _turn_view(state, seat, STEP_NOTES[state.step()])


def with_menus(phase_view: View, menu_views: Mapping[str, View]) -> View:
    """A step's view, or the view of the menu the seat on turn has open in it (a phase's
    menus have no views of their own)."""
    def viewed(state: AlterEgoState, seat: int | None, now: float) -> SeatView:
        return menu_views.get(state.step(), phase_view)(state, seat, now)
    return viewed


def _board_lines(state: AlterEgoState) -> tuple[str, ...]:
    city = state.city
    arrived = city.arch.count(Fate.IN_PLAY)
    down = city.arch.count(Fate.DEFEATED)
    return (
        fit(f"CIV left {counts_text(city.supply)}"),
        fit(f"{len(city.henchmen())} henchmen, {city.hostages()} held"),
        fit(f"AV: {arrived} in, {down}/{ARCH_VILLAINS} down"),
    )
