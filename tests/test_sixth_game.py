"""A sixth game, from one module under tests/, plays with nothing else in the project edited.

``tests/sixth_game.py`` is a whole game in one module: its state, its table of phases (which
carries the flow: whom each phase waits for, what comes next, how it ends) and its views.
Registering it is all it takes: the lobby offers it, a table plays
it to its end through the seats' buttons, and it passes the conformance suite every built-in
game passes. The registration is undone after these tests, so the other suites see five.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import pytest

import tests.test_conformance as conformance
from companion.script_cli import run_script
from engine import registry
from engine.api import Game

SCRIPT = """
table 3
key 212155bb80f245fe1f0ea90ef82a5533efb1dbce462b61c4767c1b07334248fb
join 1 2 3
choose 1 "Choose game"
choose 1 "High Card"
choose 1 "Start"
cut 1 2 3
hold 2
expect 2 "Seat 2 holds"
expect 2 not "Seat 1 holds"
release 2 peek
expect 1 not "holds"
choose 1 "Ready"
choose 2 "Ready"
choose 3 "Ready"
expect all "Seat 1 decides" within 10s
choose 1 "Fold"
choose 2 "Fold"
choose 3 "Stay in"
expect over "Seat 3 wins"
"""


@pytest.fixture
def sixth_game() -> Iterator[Game]:
    """The game registered for these tests only: the registry is restored afterwards."""
    registry.all_games()  # the built-in games load into the registry that stays
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "_GAMES", dict(registry._GAMES))
        yield registry.register(importlib.import_module("tests.sixth_game").GAME)


def test_sixth_game_is_offered_and_played_to_its_end_by_the_buttons(sixth_game: Game) -> None:
    """Join, choose it from the lobby, peek, decide, and the highest card still in wins."""
    app, count = run_script(SCRIPT, "sixth_game")
    assert count > 0
    assert app.session.state is not None and app.session.state.result() == "Seat 3 wins"


@pytest.mark.parametrize("check", [
    conformance.test_conformance_random_play_always_ends,
    conformance.test_conformance_no_screen_effect_or_refusal_tells_a_secret,
    conformance.test_conformance_a_game_with_peek_faces_declares_its_secrets,
    conformance.test_conformance_replay_gives_the_same_game,
    conformance.test_conformance_undoable_actions_draw_nothing,
    conformance.test_conformance_screens_fit_a_seat,
], ids=lambda check: check.__name__.removeprefix("test_conformance_"))
def test_sixth_game_passes_the_conformance_suite(sixth_game: Game, check) -> None:
    check(sixth_game.key)


def test_sixth_game_is_gone_for_the_other_suites() -> None:
    """Outside the fixture the registry holds the built-in games only."""
    assert "high-card" not in {game.key for game in registry.all_games()}
