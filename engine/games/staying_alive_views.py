"""What each Staying Alive screen shows: three short lines under the hourglass.

Nothing in this game is secret (roles lie face up, stamina tokens are in plain sight), so
every seat sees the same facts; the seat on turn also sees its next step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import HourglassFace, SeatView
from engine.games.staying_alive_setup import DATA, role_page, wrap

if TYPE_CHECKING:
    from engine.games.staying_alive import StayingAliveState

STRAIN_NOTE = f"Check strain: {DATA['turn']['strain_limit']}+ = -1"


def seat_view(state: StayingAliveState, seat: int, now: float) -> SeatView:
    if state.phase == "deck":
        return _setup_view(state, seat)
    if state.phase == "start":
        return _start_view(state, seat)
    if state.phase == "over":
        return _over_view(state, now)
    if seat == state.turn:
        return SeatView("Your turn", _turn_lines(state), hourglass=_glass(state, now),
                        highlight=True)
    first = "You escaped" if seat in state.escaped else role_line(state, seat)
    lines = (first, deck_line(state), escaped_line(state))
    return SeatView(f"Seat {state.turn}'s turn", _present(lines), hourglass=_glass(state, now))


def public_view(state: StayingAliveState, now: float) -> SeatView:
    lookout = state.lookout()
    lookout_line = f"Lookout: Seat {lookout}" if lookout is not None else "Lookout escaped"
    if state.phase == "deck":
        steps = f"Deck steps {len(state.steps_done)}/{len(state.setup.steps)}"
        ready = f"Ready {len(state.ready)}/{len(state.seats)}"
        return SeatView("Setup", (steps, ready, lookout_line))
    if state.phase == "start":
        return SeatView("Ready to start", (lookout_line, "flips to start"))
    if state.phase == "over":
        return _over_view(state, now)
    lines = (deck_line(state), lookout_line, escaped_line(state))
    return SeatView(f"Seat {state.turn}'s turn", _present(lines), hourglass=_glass(state, now))


# --- lines -----------------------------------------------------------------------------------


def role_line(state: StayingAliveState, seat: int) -> str:
    """``"Lookout    Stamina 5"``: the public role and the stamina tokens."""
    role = state.roles[seat]
    name = "No role" if role is None else role.screen or "Other role"
    return f"{name:<11}Stamina {state.stamina[seat]}"


def deck_line(state: StayingAliveState) -> str:
    """``"Deck 12 Goal 1,3"``: cards left and the target modules still to fulfil."""
    deck = f"Deck {state.deck}" if state.deck else "Deck EMPTY"
    if not state.goals():
        return deck
    left = state.goals_left()
    return f"{deck} Goal {','.join(map(str, left))}" if left else f"{deck} Goals done"


def escaped_line(state: StayingAliveState) -> str:
    if not state.escaped:
        return ""
    return "Escaped: " + ", ".join(map(str, state.escaped))


def _turn_lines(state: StayingAliveState) -> tuple[str, ...]:
    seat = state.turn
    if state.step == "act":
        # under the big digits only this line shows: the seat on turn sees its stamina here
        stamina = state.stamina[seat]
        first = f"Draw 1, stamina {stamina}" if state.drew else f"No draw, stamina {stamina}"
    elif state.step == "more":
        first = "Corrections, goals"
    elif state.step == "check":
        first = STRAIN_NOTE if state.deck else state.escape_blocker() or "Stay -1 or escape"
    else:
        first = "Strain in your hand?"
    return (first, role_line(state, seat), deck_line(state))


def _present(lines: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(line for line in lines if line)


# --- whole screens ---------------------------------------------------------------------------


def _glass(state: StayingAliveState, now: float) -> HourglassFace:
    glass = state.hourglass
    return HourglassFace(glass.remaining(now), glass.length, glass.running,
                         state.options["timer_display"])


def _setup_view(state: StayingAliveState, seat: int) -> SeatView:
    pending = [i for i in state.setup.steps_for(seat) if i not in state.steps_done]
    if pending:
        page = state.setup.steps[pending[0]]
        return SeatView(page.title, page.lines, highlight=True)
    left = len(state.setup.steps) - len(state.steps_done)
    if left:
        return SeatView("Setup", ("Wait: the deck is", "being built:", f"{left} step(s) left"))
    if seat not in state.ready:
        page = role_page(state.roles[seat], state.stamina[seat])
        return SeatView(page.title, page.lines, highlight=True)
    return SeatView("Ready", ("Waiting for", f"{len(state.seats) - len(state.ready)} more seat(s)"))


def _start_view(state: StayingAliveState, seat: int) -> SeatView:
    if seat == state.lookout():
        return SeatView("You are the Lookout", ("Flip to start: free,", "then you go first."),
                        highlight=True)
    return SeatView(f"Seat {state.lookout()} starts", (role_line(state, seat), deck_line(state)))


def _over_view(state: StayingAliveState, now: float) -> SeatView:
    outcome = state.outcome or ""
    return SeatView("Game over", wrap(outcome), hourglass=_glass(state, now),
                    banner="WIN" if state.won else "LOST")
