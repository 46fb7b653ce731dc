"""The play phases of Staying Alive: a turn's steps, and the Lookout's flip in every one.

A turn goes "play" (draw 1 by itself, then up to 2 actions, entered as what they cost) ->
"check" (the strain check, or once the deck is empty stay or escape); beside them the seat on
turn may open a menu with a "Back": "more" in "play" (the rarely used corrections, the target
modules, the Key) and "escape" in "check" (how much strain the escaper holds). Whatever the
step, the Lookout may flip the hourglass.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate
from engine.cues import Tune
from engine.games.staying_alive import end
from engine.games.staying_alive.cards import LOOKOUT, MODULES, STRAIN_LIMIT
from engine.games.staying_alive.steps import PlayData

if TYPE_CHECKING:
    from engine.games.staying_alive.state import StayingAliveState


class Strain(StrEnum):
    """The strain check's answers, after ``check:`` in the action id (journaled: keep them)."""

    LOW = "low"
    HIGH = "high"


class KeyResult(StrEnum):
    """How the Key went, after ``key:`` in the action id (journaled: keep them)."""

    RIGHT = "right"
    WRONG = "wrong"


# --- offers --------------------------------------------------------------------------------------


def offer_play(state: StayingAliveState, seat: int) -> list[Action]:
    return _with_flip(state, seat, _play_actions(state) if seat == state.turn else [])


def offer_more(state: StayingAliveState, seat: int) -> list[Action]:
    """The "more" menu, open for the seat on turn only."""
    return _with_flip(state, seat, _more_actions(state))


def offer_check(state: StayingAliveState, seat: int) -> list[Action]:
    return _with_flip(state, seat, _check_actions(state) if seat == state.turn else [])


def offer_escape(state: StayingAliveState, seat: int) -> list[Action]:
    """The "escape" menu, open for the seat on turn only."""
    return _with_flip(state, seat, _escape_actions(state))


def _with_flip(state: StayingAliveState, seat: int, turn: list[Action]) -> list[Action]:
    """The Lookout's flip beside the step's own actions. A flip costs stamina and cannot be
    undone, so it is never the default (ACT at once) of a step whose job is another: on the
    Lookout's own turn it comes second, one PEEK away for a glass running out; off turn it
    is the Lookout's only action. Last of all when it would cost stamina the Lookout lacks."""
    if seat != state.lookout():
        return turn
    if state.stamina[seat] == 0:
        return [*turn, Action("flip", "Flip: no stamina!")]
    return [*turn[:1], Action("flip", "Flip hourglass"), *turn[1:]]


def _play_actions(state: StayingAliveState) -> list[Action]:
    seat = state.turn
    actions = [Action("end", "End turn", True), Action("lose", "Lose 1 stamina", True)]
    left = state.left_of_turn()
    if left is not None and (state.roles[seat] or state.roles[left]):
        actions.append(Action("swap", "Swap role left", True))
    if state.stamina[seat] < state.stamina_limit(seat):
        actions.append(Action("gain", "Gain 1 stamina", True))
    actions.append(Action("more", "Deck & goals..." if state.goals() else "Deck count...", True))
    return actions


def _more_actions(state: StayingAliveState) -> list[Action]:
    actions = [_goal_action(state, m) for m in state.goals() if m != state.key_module()]
    if state.key_module() is not None and not state.other_goals_left():
        actions += [Action(f"key:{KeyResult.RIGHT}", "Key: all correct", True),
                    Action(f"key:{KeyResult.WRONG}", "Key: a card wrong", True)]
    if state.deck > 0:
        actions.append(Action("deck:-1", "Deck -1", True))
    if state.deck < state.setup.cards_in_play:
        actions.append(Action("deck:+1", "Deck +1 (put back)", True))
    return [*actions, Action("back", "Back", True)]


def _goal_action(state: StayingAliveState, module: int) -> Action:
    name = MODULES[module].name or f"module {module}"
    if module in state.goals_done:
        return Action(f"goal:{module}", f"Unmark {name}", True)
    return Action(f"goal:{module}", f"Mark {name} done", True)


def _check_actions(state: StayingAliveState) -> list[Action]:
    if state.deck > 0:
        return [Action(f"check:{Strain.LOW}", f"Strain under {STRAIN_LIMIT}", True),
                Action(f"check:{Strain.HIGH}", f"Strain {STRAIN_LIMIT}+: lose 1", True)]
    actions = [Action("stay", "Stay (lose 1)", True)]
    if state.escape_blocker() is None:
        actions.append(Action("escape", "Escape...", True))
    return actions


def _escape_actions(state: StayingAliveState) -> list[Action]:
    most = state.stamina[state.turn]
    actions = [Action(f"strain:{s}", f"Strain {s}", True) for s in range(most + 1)]
    return [*actions, Action("strain:over", f"More than {most}", True),
            Action("back", "Back", True)]


def why_not_in_play(state: StayingAliveState, seat: int, action_id: str) -> str:
    if action_id == "flip":
        if state.lookout() is None:
            return "Lookout escaped"
        return f"Only Seat {state.lookout()} flips"
    if seat != state.turn:
        return f"Seat {state.turn}'s turn"
    if action_id == "escape":
        return state.escape_blocker() or "Not now"
    if action_id == "gain":
        return f"Stamina limit {state.stamina_limit(seat)}"
    if action_id.startswith("key:") and state.key_module() is not None:
        return "Other goals first"
    return "Not now"


# --- rules: the turn's steps and menus -----------------------------------------------------------


def end_actions(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    """"End turn": the actions are over; the strain check closes the turn."""
    state.acted(seat)
    return []


def back(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    """Every menu's way back, to the step it was opened in."""
    state.close_menu(seat)
    return []


# --- rules: what the table enters ----------------------------------------------------------------


def flip_hourglass(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    """Every flip after the free first one costs the Lookout 1 stamina; it re-arms warnings."""
    lost = end.take_stamina(state, seat, 1, now)
    if state.is_terminal():
        return lost
    state.hourglass = state.hourglass.flip(now)
    state.warned = set()
    return []


def lose_one(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    return end.take_stamina(state, seat, 1, now)


def gain_one(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.stamina[seat] += 1
    return []


def swap_role_left(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    left = state.left_of_turn()
    assert left is not None, "the swap is offered only with a seat to the left"
    state.roles[seat], state.roles[left] = state.roles[left], state.roles[seat]
    return [Narrate(f"Seat {seat} and Seat {left} swapped roles")]


def toggle_goal(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.goals_done ^= {int(arg)}
    return []


def use_key(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    return end.key_used(state, arg == KeyResult.RIGHT, now)


def correct_deck(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.deck += int(arg)
    return []


def check_strain(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    """5 or more strain in hand costs 1 stamina; then the turn passes."""
    lost = end.take_stamina(state, seat, 1, now) if arg == Strain.HIGH else []
    if not state.is_terminal():
        state.acted(seat)
    return lost


def stay(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    """With the deck empty, staying costs 1 stamina like a failed strain check."""
    return check_strain(state, seat, Strain.HIGH, now)


def escape_with_strain(state: StayingAliveState, seat: int, arg: str, now: float) -> list[Effect]:
    """Escaping costs as much stamina as the strain in hand; the role card leaves too."""
    if arg == "over":
        return end.escape_failed(state, seat, now)
    state.stamina[seat] -= int(arg)
    state.lost[seat] += int(arg)
    was_lookout = state.roles[seat] == LOOKOUT
    state.escaped.append(seat)
    won = end.win_if_everyone_escaped(state, now)
    if won:
        return won
    state.acted(seat)
    return [Narrate(f"Seat {seat} escaped" + (": no more flips" if was_lookout else ""))]


# --- turns: how one begins and ends --------------------------------------------------------------


def begin_turn(state: StayingAliveState, now: float) -> list[Effect]:
    """The turn's first step, drawing a card, happens by itself when the deck has one."""
    drew = state.deck > 0
    state.deck -= int(drew)
    state.data = PlayData(drew)
    return [Buzz(Tune.TURN)]


def pass_turn(state: StayingAliveState, now: float) -> list[Effect]:
    """The turn passes left, over the seats that escaped (to the same seat if nobody is left)."""
    following = state.ring.left_of(state.turn, state.escaped)
    state.turn = state.turn if following is None else following
    return []
