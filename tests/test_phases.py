"""The phase mechanism: a phase's table entry carries its whole flow, and the engine moves it.

A toy game with one of each: a phase that waits for every seat, one that waits in turn, a
phase that ends by its own ``done``, a ``next`` chosen by a function, a per-seat menu with
its way back, phase data made on entry, and an ``end`` that finishes the game.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.api import Action, Effect, GameOver, Narrate, SeatView
from engine.cues import Tune
from engine.exc import IllegalAction
from engine.phases import (
    EVERY_SEAT,
    OVER,
    Menu,
    Phase,
    PhasedGame,
    PhasedState,
    Waits,
    answered,
    opens,
    over_phase,
)


@dataclass
class Tally:
    """The ``count`` phase's own data: how far the table has counted."""

    total: int = 0


def say(text: str):
    def hook(state: PhasedState, now: float) -> list[Effect]:
        return [Narrate(text)]
    return hook


def offer_ack(state: PhasedState, seat: int) -> list[Action]:
    return [Action("ack", "OK")] if seat in state.awaited() else []


def offer_count(state: PhasedState, seat: int) -> list[Action]:
    return [Action("add", "+1"), Action("menu", "Menu...")]


def add(state: PhasedState, seat: int, arg: str, now: float) -> list[Effect]:
    state.data_of(Tally).total += 1
    return []


def offer_sure(state: PhasedState, seat: int) -> list[Action]:
    return [Action("back", "Back"), Action("stop", "Stop now")]


def back(state: PhasedState, seat: int, arg: str, now: float) -> list[Effect]:
    state.close_menu(seat)
    return []


def stop(state: PhasedState, seat: int, arg: str, now: float) -> list[Effect]:
    return state.set_phase("last", now)


def make_tally(state: PhasedState, now: float) -> list[Effect]:
    if state.data is None:  # a rule that set the phase may have brought its data
        state.data = Tally()
    return []


def finish(state: PhasedState, now: float) -> list[Effect]:
    return state.finish("Done", Tune.END)


def view(state: PhasedState, seat: int | None, now: float) -> SeatView:
    return SeatView(state.phase)


PHASES: dict[str, Phase] = {
    "all": Phase(offer=offer_ack, rules={"ack": answered}, view=view, waits=EVERY_SEAT,
                 end=say("all ready"), next="in_turn"),
    "in_turn": Phase(offer=offer_ack, rules={"ack": answered}, view=view, begin=say("in turn"),
                     waits=Waits(lambda s: tuple(reversed(s.seats)), in_turn=True),
                     next=lambda s: "count"),
    "count": Phase(offer=offer_count, rules={"add": add, "menu": opens("sure")}, view=view,
                   begin=make_tally, done=lambda s: s.data_of(Tally).total >= 3, next="last",
                   menus={"sure": Menu(offer_sure, {"back": back, "stop": stop})}),
    "last": Phase(offer=offer_ack, rules={"ack": answered}, view=view, waits=EVERY_SEAT,
                  end=finish),
    OVER: over_phase(view),
}


class Toy(PhasedGame):
    key, name, min_players, max_players = "toy", "Toy", 2, 3
    phases, state_class = PHASES, PhasedState


def new() -> PhasedState:
    state = Toy().new_state((1, 2, 3), {}, b"seed")
    assert isinstance(state, PhasedState)
    return state


def test_a_phase_waiting_for_every_seat_ends_with_the_last_and_runs_its_end_then_next() -> None:
    state = new()
    assert state.phase == "all" and state.active_seats() == {1, 2, 3}
    assert state.apply(2, "ack", 0.0) == [] and state.phase == "all"
    state.apply(1, "ack", 0.0)
    effects = state.apply(3, "ack", 0.0)
    assert effects == [Narrate("all ready"), Narrate("in turn")]  # end, then the next's begin
    assert state.phase == "in_turn"


def test_a_phase_in_turn_offers_one_seat_at_a_time_in_its_order() -> None:
    state = new()
    for seat in (1, 2, 3):
        state.apply(seat, "ack", 0.0)
    assert state.active_seats() == {3}  # reversed seat order
    with pytest.raises(IllegalAction):
        state.apply(1, "ack", 0.0)
    state.apply(3, "ack", 0.0)
    assert state.active_seats() == {2}
    state.apply(2, "ack", 0.0)
    state.apply(1, "ack", 0.0)
    assert state.phase == "count"  # next chosen by a function


def to_count() -> PhasedState:
    state = new()
    for seat in (1, 2, 3, 3, 2, 1):
        state.apply(seat, "ack", 0.0)
    return state


def test_phase_data_is_made_on_entry_and_done_ends_the_phase() -> None:
    state = to_count()
    assert state.data_of(Tally).total == 0
    state.apply(1, "add", 0.0)
    state.apply(2, "add", 0.0)
    assert state.phase == "count"
    state.apply(3, "add", 0.0)
    assert state.phase == "last" and state.data is None
    with pytest.raises(RuntimeError, match="keeps no Tally"):
        state.data_of(Tally)


def test_a_menu_offers_only_its_choices_with_its_way_back_and_closes_on_a_phase_change() -> None:
    state = to_count()
    state.apply(2, "menu", 0.0)
    assert [a.id for a in state.legal_actions(2)] == ["back", "stop"]
    assert [a.id for a in state.legal_actions(1)] == ["add", "menu"]
    state.apply(2, "back", 0.0)
    assert [a.id for a in state.legal_actions(2)] == ["add", "menu"]
    state.apply(2, "menu", 0.0)
    state.apply(1, "menu", 0.0)
    state.apply(2, "stop", 0.0)  # set_phase: straight to "last", past done
    assert state.phase == "last" and state.menus == {}


def test_an_end_that_finishes_the_game_goes_nowhere_next() -> None:
    state = to_count()
    for seat in (1, 2, 3):
        state.apply(seat, "add", 0.0)
    state.apply(1, "ack", 0.0)
    state.apply(2, "ack", 0.0)
    effects = state.apply(3, "ack", 0.0)
    assert effects == [GameOver("Done"), *effects[1:]] and state.is_terminal()
    assert state.result() == "Done" and state.active_seats() == frozenset()


def test_a_first_phase_whose_begin_tells_the_table_something_is_refused() -> None:
    class Loud(Toy):
        phases = {"all": Phase(offer=offer_ack, rules={}, view=view, begin=say("hello")),
                  OVER: over_phase(view)}

    with pytest.raises(ValueError, match="gives no effects"):
        Loud().new_state((1, 2), {}, b"seed")


def test_a_phase_that_keeps_menus_keeps_a_seat_s_open_menu_it_also_has() -> None:
    """Entering a ``keeps_menus`` phase leaves a menu it declares open; any other closes."""
    sure = Menu(offer_sure, {"back": back})
    phases = {
        "a": Phase(offer=offer_count, rules={"menu": opens("sure"), "ack": stop}, view=view,
                   menus={"sure": sure}),
        "last": Phase(offer=offer_count, rules={"menu": opens("sure")}, view=view,
                      menus={"sure": sure}, keeps_menus=True),
        OVER: over_phase(view),
    }

    class Keeping(Toy):
        pass

    Keeping.phases = phases
    state = Keeping().new_state((1, 2), {}, b"seed")
    assert isinstance(state, PhasedState)
    state.apply(1, "menu", 0.0)
    state.set_phase("last", 0.0)
    assert [a.id for a in state.legal_actions(1)] == ["back", "stop"]
    state.set_phase("a", 0.0)  # "a" does not keep menus
    assert state.menus == {}


def test_stop_waiting_ends_a_waiting_phase_at_once() -> None:
    """One seat's answer may be the whole phase: nobody after it is waited for."""
    state = new()
    state.stop_waiting()
    assert state.awaited() == [] and state.current_phase().is_done(state)


def test_set_phase_hands_the_new_phase_the_data_its_rule_made() -> None:
    """A rule may make the next phase's data from the choice just made."""
    state = to_count()
    state.set_phase("count", 0.0, Tally(total=2))
    assert state.data_of(Tally).total == 2  # count's begin makes a Tally only when none came


def test_a_menu_opened_on_a_target_keeps_what_it_was_opened_on() -> None:
    """``opens`` opens the menu on the text after the action id's ``:``."""
    state = to_count()
    state.apply(3, "menu", 0.0)
    assert state.menus[3].name == "sure" and state.menus[3].arg == ""
    state.close_menu(3)
    opens("sure")(state, 3, "2", 0.0)
    assert state.menus[3].arg == "2"
