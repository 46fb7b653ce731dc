"""The whole flow of a Staying Alive game, as one table.

Setup:

- ``deck`` begins with no deck-building step done. Each seat does the steps shown on it, then
  takes its role card and says Ready; it waits for every seat's Ready, then gives way to
- ``start``, which begins by calling the Lookout and waits for the seat on turn (the Lookout,
  who goes first) to make the free first flip that starts the sand; then

every turn:

- ``play`` begins with the draw, which happens by itself while the deck has a card, and waits
  for the seat on turn to end its actions (entered as what they cost); its ``more`` menu holds
  the rare corrections, the target modules and the Key, with a "Back". Then
- ``check``: the strain check, or once the deck is empty stay or escape; its ``escape`` menu
  asks how much strain the escaper holds, with a "Back". It waits for the seat on turn, and
  at its end the turn passes left over the seats that escaped, to ``play`` again.

In every turn step the Lookout may flip and the sand runs: the deadline is the expiry or the
next staged warning (``timing.py``). The game ends (``end.py``) when the sand runs out, a seat
must lose stamina it lacks, an escape or the Key fails, the Key works, or everyone escaped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.games.staying_alive import setup, timing, turns, views
from engine.games.staying_alive.steps import Step, TurnMenu
from engine.phases import (
    EVERY_SEAT,
    OVER,
    Menu,
    Phase,
    Waits,
    answered,
    nothing_happens,
    opens,
    over_phase,
)

if TYPE_CHECKING:
    from engine.games.staying_alive.state import StayingAliveState
    from engine.phases import Hook, Offer, Rule, View


def seat_on_turn(state: StayingAliveState) -> list[int]:
    return [state.turn]


ON_TURN = Waits(seat_on_turn)


def _menu(offer: Offer, rules: Mapping[str, Rule]) -> Menu:
    """A menu of the seat on turn: the Lookout may flip in it too, and "Back" closes it."""
    return Menu(offer, {"flip": turns.flip_hourglass, **rules, "back": turns.back})


def _turn_step(
    offer: Offer,
    view: View,
    rules: Mapping[str, Rule],
    *,
    begin: Hook = nothing_happens,
    end: Hook = nothing_happens,
    next: Step,
    menus: Mapping[str, Menu],
) -> Phase:
    """A step of a turn: it waits for the seat on turn; the Lookout may flip in it; the
    running hourglass and the refusals are the same in each."""
    return Phase(
        offer=offer,
        rules={"flip": turns.flip_hourglass, **rules},
        view=view,
        deadline=timing.hourglass_deadline,
        expire=timing.sand_runs_down,
        why_not=turns.why_not_in_play,
        begin=begin,
        waits=ON_TURN,
        end=end,
        next=next,
        menus=menus,
    )


PHASES: dict[str, Phase] = {
    Step.DECK: Phase(
        offer=setup.offer_deck,
        rules={"done": setup.mark_step_done, "ready": answered},
        view=views.deck_view,
        begin=setup.begin_deck,
        waits=EVERY_SEAT,
        next=Step.START,
    ),
    Step.START: Phase(
        offer=setup.offer_start,
        rules={"start": setup.start_hourglass},
        view=views.start_view,
        begin=setup.call_the_lookout,
        waits=ON_TURN,
        next=Step.PLAY,
    ),
    Step.PLAY: _turn_step(
        turns.offer_play,
        views.play_view,
        {
            "end": turns.end_actions,
            "lose": turns.lose_one,
            "gain": turns.gain_one,
            "swap": turns.swap_role_left,
            "more": opens(TurnMenu.MORE),
        },
        begin=turns.begin_turn,
        next=Step.CHECK,
        menus={TurnMenu.MORE: _menu(turns.offer_more, {
            "goal": turns.toggle_goal, "key": turns.use_key, "deck": turns.correct_deck,
        })},
    ),
    Step.CHECK: _turn_step(
        turns.offer_check,
        views.check_view,
        {
            "check": turns.check_strain,
            "stay": turns.stay,
            "escape": opens(TurnMenu.ESCAPE),
        },
        end=turns.pass_turn,
        next=Step.PLAY,
        menus={TurnMenu.ESCAPE: _menu(turns.offer_escape, {"strain": turns.escape_with_strain})},
    ),
    OVER: over_phase(views.over_view),
}
