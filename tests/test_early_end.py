"""A game the table ends early ("End game") ends as the rules end one: over, an outcome that
says so on every screen, and what the rules reveal at the end, whenever it is ended."""

from __future__ import annotations

import pytest

from engine import registry
from engine.api import GameOver, Reveal
from engine.phases import ENDED_EARLY
from tests.test_conformance import KEYS, RandomGame

# What each game's rules reveal at its end, as a phrase per seat (games without: nothing).
REVEALED = {"they-live": "Seat {seat}: ", "mind-invaders": "Seat {seat}: "}


def _ended(key: str, number: int, steps: int):
    play = RandomGame(registry.get(key), number)
    for index, _step in enumerate(play.steps()):
        if index >= steps:
            break
    state = play.state
    if state.is_terminal():
        return state, None
    return state, state.apply(None, "end", 1e6)


@pytest.mark.parametrize("key", KEYS)
def test_an_early_end_shows_its_outcome_and_what_the_end_reveals(key: str) -> None:
    for number, steps in ((1, 0), (2, 15), (3, 60)):
        state, effects = _ended(key, number, steps)
        if effects is None:
            continue
        assert state.is_terminal() and state.result() == ENDED_EARLY
        assert effects[0] == GameOver(ENDED_EARLY)
        assert state.next_deadline() is None and not state.paused  # no glass runs on
        for seat in (*state.seats, None):
            shown = " ".join((state.view(seat, 1e6).title, *state.view(seat, 1e6).lines,
                              state.view(seat, 1e6).banner or ""))
            assert "Ended early" in shown, (key, seat, shown)
            assert "None" not in shown
        told = " ".join(e.text for e in effects if isinstance(e, Reveal))
        if key in REVEALED and state.dealt:
            for seat in state.seats:
                assert REVEALED[key].format(seat=seat) in told, (key, told)


def test_they_live_ended_before_the_deal_has_nothing_to_reveal() -> None:
    state, effects = _ended("they-live", 4, 0)
    assert effects is not None and not state.dealt
    assert not [e for e in effects if isinstance(e, Reveal)]
    assert "Nothing was dealt" in state.view(None, 0.0).lines
