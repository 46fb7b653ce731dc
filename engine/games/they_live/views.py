"""What the screens show in They Live: each phase's view, the public one, the PEEK faces.

Every phase's view goes through :func:`on_screen`: a dead seat sees its own end instead, the
lines are wrapped to the screen, and a seat's PEEK face carries its identity and whatever it
has learned in private. Nothing else on a screen depends on an identity.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.api import SECRET_PAGE, SeatView, SecretFace
from engine.phases import View
from engine.text import fit, screen_lines

from .cards import INVADER
from .check import CHECK_TITLE, Check, check_face, in_silent_meeting
from .deck import PUT_BACK_WAVES, card_name, wave_draw
from .force_reveal import Accusation
from .menus import MenuName
from .setup import CARD_VALUES
from .state import PhaseName
from .text import (
    ACCUSE_HELP,
    CHARACTER_HELP,
    DEAD_HELP,
    DEATH_HELP,
    FORCE_HELP,
    HUMAN_GOAL,
    HUMAN_REVEAL_HELP,
    IDENTITY_HELP,
    INVADER_REVEAL_HELP,
    LENSES_HELP,
    NARRATED_CHECK_HELP,
    NO_OTHER_INVADER,
    SELF_REVEAL,
    SETUP_TITLE,
    SILENT_CHECK_HELP,
    TURN_HELP,
    VALUES_HELP,
    VOTE_HELP,
    WAITING,
    WAITING_TURN_HELP,
    identity_phrase,
    invader_goal,
    resources_help,
)
from .turns import Resources, on_turn

if TYPE_CHECKING:
    from engine.entry import NumberEntry

    from .state import Player, TheyLiveState

MAX_LINES = 3
PEEK_TITLE = "YOUR IDENTITY"
NOT_DEALT = "Nothing was dealt"
LENSES_TITLE = "HOFFMAN LENSES SAW"
Body = Callable[["TheyLiveState", "int | None"], SeatView]
Peek = Callable[["TheyLiveState", int], SecretFace]


# --- PEEK -------------------------------------------------------------------------------------


def peek_not_dealt(state: TheyLiveState, seat: int) -> SecretFace:
    lines = ("Dealt when all have", "picked; shown after", "the values are in")
    return SecretFace(PEEK_TITLE, (*lines, *_help(state, seat)))


def peek_identity(state: TheyLiveState, seat: int) -> SecretFace:
    """The identity and two lines on its side (the other Invaders once met, else the goal),
    then one line per inspection this seat made, on pages of their own under their own
    title (they are not this seat's identity), then what the step expects of the seat.

    Every Human and every Invader gets the same number of lines: three, plus a page per
    three uses of the Lenses, which the table saw, plus the step's help, which follows the
    phase and the seat's public situation. So the face's pages are the same whatever it says.
    """
    if in_silent_meeting(state):
        return check_face(state.identities[seat], state.other_invaders(seat))
    identity = state.identities[seat]
    lines = [identity_phrase(seat, identity), *_side_lines(state, seat, identity)]
    seen = [identity_phrase(s, state.identities[s]) for s in state.inspections.get(seat, [])]
    pages = -(-len(seen) // SECRET_PAGE)  # the Lenses' results: pages of their own
    lines += seen + [""] * (pages * SECRET_PAGE - len(seen))
    titles = (PEEK_TITLE, *(LENSES_TITLE,) * pages)
    return SecretFace(PEEK_TITLE, (*lines, *_help(state, seat)), page_titles=titles)


def _side_lines(state: TheyLiveState, seat: int, identity: str) -> tuple[str, str]:
    """Exactly two lines: a Human's goal; an Invader's allies once met, then its goal."""
    if identity != INVADER:
        return HUMAN_GOAL
    allies = [identity_phrase(s, INVADER) for s in state.other_invaders(seat)]
    known = (allies or [NO_OTHER_INVADER]) if state.invaders_met else []
    first, second, *_ = [*known, invader_goal(len(state.seats)), SELF_REVEAL]
    return first, second


_STEP_HELP: dict[str, tuple[str, ...]] = {
    PhaseName.CHARACTER: CHARACTER_HELP,
    PhaseName.VALUES: VALUES_HELP,
    PhaseName.IDENTITY: IDENTITY_HELP,
    PhaseName.FORCE: FORCE_HELP,
    PhaseName.VOTE: VOTE_HELP,
}
_MENU_HELP = {
    MenuName.INSPECT: LENSES_HELP,
    MenuName.ACCUSE: ACCUSE_HELP,
    MenuName.DEATH: DEATH_HELP,
}


def _help(state: TheyLiveState, seat: int) -> tuple[str, ...]:
    """What the step expects of ``seat``: by the phase, its turn, the menu it opened. Only
    the self-reveal menu's words differ by side, never their number (__init__.py)."""
    if state.is_dead(seat):
        return DEAD_HELP
    opened = state.menus.get(seat)
    if opened is not None and opened.name in (MenuName.REVEAL, MenuName.REVEAL_SURE):
        return INVADER_REVEAL_HELP if state.identities[seat] == INVADER else HUMAN_REVEAL_HELP
    if opened is not None:
        return _MENU_HELP[MenuName(opened.name)]
    if state.phase == PhaseName.CHECK:
        return SILENT_CHECK_HELP if state.options["check"] == "silent" else NARRATED_CHECK_HELP
    if state.phase == PhaseName.RESOURCES:
        return resources_help(wave_draw(state), state.wave <= PUT_BACK_WAVES)
    if state.phase == PhaseName.TURNS:
        return TURN_HELP if seat == on_turn(state) else WAITING_TURN_HELP
    return _STEP_HELP.get(state.phase, ())


# --- every phase's view, as a screen shows it -----------------------------------------------


def on_screen(body: Body, peek: Peek = peek_identity) -> View:
    """``body`` as a phase's view: a dead seat sees its end instead; fitted; PEEK added."""

    def view(state: TheyLiveState, seat: int | None, now: float) -> SeatView:
        if seat is not None and state.is_dead(seat):
            return _fitted(state, seat, _dead(state, seat), peek)
        return _fitted(state, seat, body(state, seat), peek)

    return view


def view_over(state: TheyLiveState, seat: int | None, now: float) -> SeatView:
    """The winner big, then every identity in one line (the banner leaves room for one); a
    game ended before the deal has none."""
    invaders = [str(s) for s in state.seats if state.identities.get(s) == INVADER]
    who = f"Invaders: seat {', '.join(invaders)}" if invaders else "No Invader at the table"
    outcome = state.outcome or ""
    drawn = SeatView("Game over", (who if state.dealt else NOT_DEALT, outcome),
                     banner=outcome.split(":")[0])
    return _fitted(state, seat, drawn, peek_identity if state.dealt else peek_not_dealt)


def _fitted(state: TheyLiveState, seat: int | None, drawn: SeatView, peek: Peek) -> SeatView:
    lines = [part for line in drawn.lines for part in screen_lines(line)]
    drawn = replace(drawn, title=fit(drawn.title), lines=tuple(lines[:MAX_LINES]))
    if seat is None or seat not in state.players:
        return drawn
    return replace(drawn, secret=peek(state, seat))


def _dead(state: TheyLiveState, seat: int) -> SeatView:
    phrase = identity_phrase(seat, state.identities[seat])
    return SeatView("You are dead", (phrase, f"Wave {state.wave}"))


# --- setup ------------------------------------------------------------------------------------


def _setup_public(state: TheyLiveState) -> SeatView:
    return SeatView(SETUP_TITLE, (f"Phase: {state.phase}",))


def _waiting() -> SeatView:
    return SeatView(SETUP_TITLE, (WAITING,))


def view_character(state: TheyLiveState, seat: int | None) -> SeatView:
    if seat is None:
        return _setup_public(state)
    chosen = state.players[seat].character
    if chosen:
        return SeatView("Your character", (chosen, WAITING))
    return SeatView("Pick a character", ("PEEK: next, ACT: pick",), highlight=True)


def view_values(state: TheyLiveState, seat: int | None) -> SeatView:
    if seat is None:
        return _setup_public(state)
    if not state.value_entries[seat]:
        return _waiting()
    entry = state.value_entries[seat][0]
    return _value_view(state.players[seat], entry)


def _value_view(player: Player, entry: NumberEntry) -> SeatView:
    if entry.key in CARD_VALUES:
        title, line = f"{player.character}: {entry.prompt}", f"Your card's {entry.prompt}"
    else:
        title, line = entry.prompt, "Count them on the die"
    return SeatView(title, (line,), big=entry.shown(), highlight=True)


def view_identity(state: TheyLiveState, seat: int | None) -> SeatView:
    if seat is None:
        return _setup_public(state)
    if state.value_entries[seat]:
        return view_values(state, seat)
    if seat not in state.waiting_for:
        return _waiting()
    return SeatView("Your identity", ("Hold PEEK to see it", "then press Done"), highlight=True)


def view_check(state: TheyLiveState, seat: int | None) -> SeatView:
    return SeatView(CHECK_TITLE, (state.data_of(Check).showing().text,))


# --- waves ------------------------------------------------------------------------------------


def view_resources(state: TheyLiveState, seat: int | None) -> SeatView:
    title = f"Wave {state.wave}: resources"
    data = state.data_of(Resources)
    if data.drawn:
        card = card_name(data.drawn[data.shown_card])
        return SeatView(title, (f"Card {data.shown_card + 1}/{len(data.drawn)}:", card))
    lines = [f"Draw {wave_draw(state)} cards"]
    if state.wave <= PUT_BACK_WAVES:
        lines.append(data.enemy_note or "Enemy? press Enemy")
    return SeatView(title, tuple(lines))


def view_turns(state: TheyLiveState, seat: int | None) -> SeatView:
    if seat is None:
        return SeatView(f"Wave {state.wave}: seat {on_turn(state)}", _summary_lines(state))
    if seat in state.menus:
        return _menu_view(state.menus[seat].name)
    player = state.players[seat]
    mine = seat == on_turn(state)
    title = "YOUR TURN" if mine else f"Wave {state.wave}: seat {on_turn(state)}"
    return SeatView(title, _standing_lines(state, player), highlight=mine)


_MENU_WORDS = {
    MenuName.INSPECT: ("Inspect whom?", "Hoffman Lenses"),
    MenuName.ACCUSE: ("Force-reveal whom?", "Hoffman Lenses"),
    MenuName.DEATH: ("No health left", "Dead? Killed by whom?"),
    MenuName.REVEAL: ("SELF-REVEAL?", "Invaders only"),
    MenuName.REVEAL_SURE: ("SELF-REVEAL?", "Cannot be undone"),
}


def _menu_view(menu: str) -> SeatView:
    title, line = _MENU_WORDS[MenuName(menu)]
    return SeatView(title, (line,), highlight=True)


def _standing_lines(state: TheyLiveState, player: Player) -> tuple[str, ...]:
    crit = " CRITICAL" if player.is_critical else ""
    hand = f" Hand max {player.hand_limit}" if player.hand_limit is not None else ""
    lines = [f"Health {player.left}/{player.max_health}{crit}", f"Areas {player.areas}{hand}"]
    if player.revealed and state.identities[player.seat] == INVADER:
        lines.append("No ally; enemies skip")
    return tuple(lines)


def _summary_lines(state: TheyLiveState) -> tuple[str, ...]:
    cells = []
    for seat in state.seats:
        player = state.players[seat]
        mark = "x" if not player.alive else ("c" if player.is_critical else "")
        cells.append(f"{seat}:{player.left}{mark}")
    return (" ".join(cells[:4]), " ".join(cells[4:]))


# --- the force-reveal -------------------------------------------------------------------------


def view_force(state: TheyLiveState, seat: int | None) -> SeatView:
    if seat is not None and seat in state.menus:
        return _menu_view(state.menus[seat].name)
    lines = ("Caller needs Lenses", f"Waiting for {len(state.waiting_for)}")
    must = seat is not None and seat in state.waiting_for
    return SeatView("Force-reveal?", lines, highlight=must)


def view_vote(state: TheyLiveState, seat: int | None) -> SeatView:
    accusation = state.data_of(Accusation)
    vote = accusation.vote
    lines = (f"Seat {accusation.caller} accuses",
             f"Voted: {len(vote.ballots)} of {len(vote.voters)}")
    must = seat is not None and seat in vote.waiting_for()
    return SeatView(f"VOTE: reveal seat {accusation.accused}?", lines, highlight=must)
