"""Help on PEEK: a Hero's powers, a role's ability, what the step expects of the seat.

Each game's PEEK face ends with what the current step expects of that seat, from its
rulebook, in public words (how many lines follows public facts: tests/test_private_faces.py).
Random play does not reach every step, so every help line is also checked to fit here.
"""

from __future__ import annotations

from types import ModuleType

import pytest

from engine.games.alter_ego import text as alter_ego_text
from engine.games.heroes import text as heroes_text
from engine.games.heroes.cards import HEROES
from engine.games.mind_invaders import text as mind_invaders_text
from engine.games.staying_alive import text as staying_alive_text
from engine.games.staying_alive.cards import ROLES
from engine.games.they_live import text as they_live_text
from engine.games.they_live.turns import on_turn
from engine.text import fits
from tests.test_alter_ego import new_game as alter_ego_game
from tests.test_heroes_support import rig, started
from tests.test_mind_invaders import new_game as mind_invaders_game
from tests.test_they_live_support import humans, new_game, press, to_turns

TEXTS = (alter_ego_text, heroes_text, mind_invaders_text, staying_alive_text, they_live_text)


def _help_lines(module: ModuleType) -> list[str]:
    """Every line of every fixed tuple or table of lines in a game's words."""
    tables = [v for v in vars(module).values() if isinstance(v, tuple | dict)]
    groups = [g for t in tables for g in (t.values() if isinstance(t, dict) else [t])]
    return [line for g in groups if isinstance(g, tuple) for line in g if isinstance(line, str)]


@pytest.mark.parametrize("module", TEXTS, ids=lambda m: m.__name__.split(".")[2])
def test_peek_help_every_line_fits_a_seat_whole(module: ModuleType) -> None:
    lines = _help_lines(module)
    assert lines and all(fits(line) for line in lines), [x for x in lines if not fits(x)]


def test_peek_help_every_hero_and_role_fits_whole() -> None:
    lines = [line for hero in HEROES for line in heroes_text.hero_lines(hero)]
    lines += [line for role in ROLES for line in role.peek]
    assert all(fits(line) and not line.endswith("~") for line in lines)


def test_peek_help_the_giant_shows_its_powers_and_the_step() -> None:
    state = started(3)
    rig(state, {1: "Giant", 2: "Knight", 3: "Elf"})
    face = state.view(1, 0.0).secret
    assert face.lines == ("Giant (8)", "React: cancel a theft", "A seat -1 Life (6)",
                          "Pick 1 action: POWER,", "COMBAT or UNMASKING")
    assert state.view(2, 0.0).secret.lines[3:] == ("Wait: you may", "challenge its claim")


def test_peek_help_they_live_turn_and_the_self_reveal_menu() -> None:
    state = new_game(3)
    to_turns(state)
    me = on_turn(state)
    other = next(s for s in state.seats if s != me)
    assert state.view(me, 0.0).secret.lines[3:] == they_live_text.TURN_HELP
    assert state.view(other, 0.0).secret.lines[3:] == they_live_text.WAITING_TURN_HELP
    press(state, me, "reveal")
    said = state.view(me, 0.0).secret.lines[3:]
    human = me in humans(state)
    assert said == (they_live_text.HUMAN_REVEAL_HELP if human
                    else they_live_text.INVADER_REVEAL_HELP)


def test_peek_help_mind_invaders_and_alter_ego_setup() -> None:
    minds = mind_invaders_game(4, 3)
    assert minds.view(1, 0.0).secret.lines[-2:] == ("Keep your Character", "secret until told")
    alter = alter_ego_game(3)
    assert alter.view(1, 0.0).secret.lines[3:] == alter_ego_text.STEP_HELP[alter.phase]
