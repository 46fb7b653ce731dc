"""What each Staying Alive screen shows: three short lines under the hourglass.

Nothing in this game is secret (roles lie face up, stamina tokens are in plain sight), so
every seat sees the same facts; the seat on turn also sees its next step. The PEEK face is
help: the seat's role and its ability, and what the step expects (:func:`role_face`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from engine.api import HourglassView, SeatView, SecretFace
from engine.games.staying_alive import text
from engine.games.staying_alive.steps import DeckData, PlayData, Step, TurnMenu
from engine.text import screen_lines

if TYPE_CHECKING:
    from engine.games.staying_alive.state import StayingAliveState


# --- setup -----------------------------------------------------------------------------------


def deck_view(state: StayingAliveState, seat: int | None, now: float) -> SeatView:
    """A seat's next deck step, then its role card; the public screen counts progress."""
    return _helped(state, seat, _deck_view(state, seat))


def _deck_view(state: StayingAliveState, seat: int | None) -> SeatView:
    done = state.data_of(DeckData).steps_done
    if seat is None:
        steps = f"Deck steps {len(done)}/{len(state.setup.steps)}"
        ready = f"Ready {len(state.seats) - len(state.waiting_for)}/{len(state.seats)}"
        return SeatView("Setup", (steps, ready, lookout_line(state)))
    pending = state.pending_setup_steps(seat)
    if pending:
        page = state.setup.steps[pending[0]]
        return SeatView(page.title, page.lines, highlight=True)
    left = len(state.setup.steps) - len(done)
    if left:
        return SeatView("Setup", ("Wait: the deck is", "being built:", f"{left} step(s) left"))
    if seat in state.waiting_for:
        page = text.role_page(state.roles[seat], state.stamina[seat])
        return SeatView(page.title, page.lines, highlight=True)
    return SeatView("Ready", ("Waiting for", f"{len(state.waiting_for)} more seat(s)"))


def start_view(state: StayingAliveState, seat: int | None, now: float) -> SeatView:
    return _helped(state, seat, _start_view(state, seat))


def _start_view(state: StayingAliveState, seat: int | None) -> SeatView:
    if seat is None:
        return SeatView("Ready to start", (lookout_line(state), "flips to start"))
    if seat == state.lookout():
        return SeatView("You are the Lookout", ("Flip to start: free,", "then you go first."),
                        highlight=True)
    return SeatView(f"Seat {state.lookout()} starts",
                    (role_line(state, seat), deck_line(state)))


# --- a turn: the same screens, the seat on turn told its step or its open menu --------------


def play_view(state: StayingAliveState, seat: int | None, now: float) -> SeatView:
    more = state.has_open(state.turn, TurnMenu.MORE)
    return _turn_view(state, seat, now, text.MORE_PROMPT if more else draw_prompt(state))


def check_view(state: StayingAliveState, seat: int | None, now: float) -> SeatView:
    escaping = state.has_open(state.turn, TurnMenu.ESCAPE)
    return _turn_view(state, seat, now,
                      text.ESCAPE_PROMPT if escaping else check_prompt(state))


def _turn_view(state: StayingAliveState, seat: int | None, now: float, step: str) -> SeatView:
    """``step`` heads the screen of the seat on turn; the others see the table's state."""
    title = f"Seat {state.turn}'s turn"
    if seat is None:
        lines = (deck_line(state), lookout_line(state), escaped_line(state))
        return SeatView(title, _present(lines), hourglass=_glass(state, now))
    if seat == state.turn:
        lines = (step, role_line(state, seat), deck_line(state))
        view = SeatView("Your turn", lines, hourglass=_glass(state, now), highlight=True)
        return _helped(state, seat, view)
    first = "You escaped" if seat in state.escaped else role_line(state, seat)
    lines = (first, deck_line(state), escaped_line(state))
    return _helped(state, seat, SeatView(title, _present(lines), hourglass=_glass(state, now)))


# --- the end ---------------------------------------------------------------------------------


def over_view(state: StayingAliveState, seat: int | None, now: float) -> SeatView:
    return SeatView("Game over", screen_lines(state.outcome or ""), hourglass=_glass(state, now),
                    banner="WIN" if state.won else "ENDED" if state.ended_early() else "LOST")


def _helped(state: StayingAliveState, seat: int | None, view: SeatView) -> SeatView:
    """A seat's view with its PEEK help; the public face has none."""
    return view if seat is None else replace(view, secret=role_face(state, seat))


def _present(lines: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(line for line in lines if line)


def _glass(state: StayingAliveState, now: float) -> HourglassView:
    glass = state.hourglass
    return HourglassView(glass.remaining(now), glass.length, glass.running,
                         state.options["timer_display"])


# --- lines composed from the state, and the PEEK face's help -----------------------------


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


def lookout_line(state: StayingAliveState) -> str:
    lookout = state.lookout()
    return f"Lookout: Seat {lookout}" if lookout is not None else "Lookout escaped"


def draw_prompt(state: StayingAliveState) -> str:
    """Under the big digits only this line shows: the seat on turn sees its stamina here."""
    stamina = state.stamina[state.turn]
    drew = state.data_of(PlayData).drew
    return f"Draw 1, stamina {stamina}" if drew else f"No draw, stamina {stamina}"


def check_prompt(state: StayingAliveState) -> str:
    return text.STRAIN_NOTE if state.deck else state.escape_blocker() or "Stay -1 or escape"


def role_face(state: StayingAliveState, seat: int) -> SecretFace:
    """The seat's role card and its ability, then the step's help: all of it public."""
    role = state.roles[seat]
    title = "No role card" if role is None else f"Role: {role.screen or 'other'}"
    ability = text.NO_ROLE if role is None else role.peek
    return SecretFace(title, (*ability, *step_help(state, seat)))


def step_help(state: StayingAliveState, seat: int) -> tuple[str, ...]:
    if seat in state.escaped:
        return text.ESCAPED_HELP
    if state.phase == Step.DECK:
        return text.DECK_HELP
    if state.phase == Step.START:
        return text.LOOKOUT_START_HELP if seat == state.lookout() else text.START_HELP
    if seat != state.turn:
        return text.SILENCE_HELP
    if state.has_open(seat, TurnMenu.ESCAPE):
        return text.ESCAPE_HELP
    if state.phase == Step.CHECK:
        return text.STRAIN_HELP if state.deck else text.STAY_OR_ESCAPE_HELP
    return text.TURN_HELP if state.phase == Step.PLAY else ()
