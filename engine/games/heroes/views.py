"""Heroes Love to Lie screens: what each seat, and the table, may see right now.

A seat's Hero appears only on its own PEEK face (``secret``), as does what its Mage saw;
everything else is public: tokens, the Monsters in play, claims, and the cards the rules
turn face up. The discard pile is never shown, because the rules forbid looking at it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.api import SeatView, SecretFace
from engine.text import fit

from .cards import HEROES
from .claims import ReactionWindow, Window
from .steps import Entering, MonsterValues
from .text import (
    claim_lines,
    glory_line,
    hero_lines,
    life_line,
    monsters_line,
    phase_help,
    stats_line,
    theft_lines,
)

if TYPE_CHECKING:
    from .state import HeroesState

# The line on the step under way, for a seat (the one acting, or another) or the table.
Headline = Callable[["HeroesState", "int | None"], str]


# --- setup ----------------------------------------------------------------------------------


def monster_values_view(state: HeroesState, seat: int | None, now: float) -> SeatView:
    if seat == state.seats[0]:
        number = state.data_of(MonsterValues).number
        return SeatView("Monster cards", (number.prompt,), big=number.shown(),
                        highlight=True, secret=peek_face(state, seat))
    lines = (f"Seat {state.seats[0]} enters", "Monster values", "from the cards")
    return SeatView("Setup", lines, secret=peek_face(state, seat))


def who_starts_view(state: HeroesState, seat: int | None, now: float) -> SeatView:
    lines = ("The best liar starts:", "press ACT.", "Hold PEEK: your Hero")
    return SeatView("Who lies best?", lines, highlight=seat is not None,
                    secret=peek_face(state, seat))


# --- play -----------------------------------------------------------------------------------


def play_view(state: HeroesState, seat: int | None, now: float, headline: Headline) -> SeatView:
    """The screen of a step of the turn: the seat's tokens, the Monsters, the headline."""
    if seat is None:
        lines = (life_line(state), glory_line(state), monsters_line(state))
        return SeatView(headline(state, None), lines)
    if not state.table.alive(seat):
        return out_view(seat, headline(state, None))
    turn = state.turn.seat
    title = "Your turn" if seat == turn else f"Seat {turn}'s turn"
    lines = (stats_line(state, seat), monsters_line(state), headline(state, seat))
    return SeatView(title, lines, secret=peek_face(state, seat),
                    highlight=seat in state.active_seats())


def number_view(state: HeroesState, seat: int | None, now: float,
                headline: Headline) -> SeatView:
    """The seat on turn sets a number (a Monster's Gems, a bet); the others see the turn."""
    if seat is not None and seat == state.turn.seat:
        number = state.data_of(Entering).number
        return SeatView("Your turn", (number.prompt,), big=number.shown(),
                        highlight=True, secret=peek_face(state, seat))
    return play_view(state, seat, now, headline)


def window_view(state: HeroesState, seat: int | None, now: float) -> SeatView:
    """A reaction window: the claim or the theft, and the time left as a bar."""
    glass = state.data_of(ReactionWindow).sand(now)
    if seat is None:
        title, lines = window_situation(state, None)
        return SeatView(title, lines, hourglass=glass)
    if not state.table.alive(seat):
        return out_view(seat, window_situation(state, None)[0])
    title, lines = window_situation(state, seat)
    return SeatView(title, lines, hourglass=glass, secret=peek_face(state, seat),
                    highlight=seat in state.active_seats())


def window_situation(state: HeroesState, seat: int | None) -> tuple[str, tuple[str, ...]]:
    asked = seat in state.awaited()
    if state.phase == Window.CHALLENGE:
        claim = state.turn.claim
        title = f"Seat {claim.seat}: {claim.hero}?"
        return fit(title, f"S{claim.seat}: {claim.hero}?"), claim_lines(state, claim)
    theft = theft_lines(state, seat)
    if state.phase == Window.GIANT:
        title = "Cancel as Giant?" if asked else f"Seat {state.turn.target} may react"
        return title, theft
    title = "Knight? Copy Gems" if asked else "Any Knight?"
    return title, (f"Seat {state.turn.seat} gained {state.turn.looted}", "Gems in the fight")


def out_view(seat: int, public_title: str) -> SeatView:
    """A seat out of the game follows it by the public screen's title."""
    return SeatView(f"Seat {seat}: out", (public_title,), banner="OUT")


def final_view(state: HeroesState, seat: int | None, now: float) -> SeatView:
    if state.winner is None:  # the table ended it: the outcome says so
        return SeatView("Game over", (state.outcome or "",), banner="ENDED")
    banner = "YOU WIN" if seat == state.winner else "GAME OVER"
    return SeatView(f"Seat {state.winner} wins", (state.reason,), banner=banner)


# --- the PEEK face --------------------------------------------------------------------------


def peek_face(state: HeroesState, seat: int | None) -> SecretFace | None:
    """Each Hero in hand with its powers (three lines a Hero), what a Mage saw, then what
    the step expects of the seat.

    How many lines there are follows only what the table saw: the draws, the discards, the
    Mage's look and the step, never which Heroes they are.
    """
    if seat is None or not state.table.alive(seat):
        return None
    hand = state.table.hand(seat)
    seen = []
    if seat in state.peeks:
        target, hero = state.peeks[seat]
        seen = [f"Seat {target} is {hero}"]
    if len(hand) == 2:  # both names first, for the choice; then a page for each Hero
        old, new = (HEROES[hero].label for hero in hand)
        lines = [f"Old: {old}", f"New: {new}", *(seen or ["Powers: next pages"]),
                 *hero_lines(hand[0]), *hero_lines(hand[1])]
    elif hand:
        lines = [*hero_lines(hand[0]), *seen]
    else:
        lines = ["None until your", "action ends: then", "you draw a Hero", *seen]
    return SecretFace("Your Hero", (*lines, *phase_help(state, seat)))
