"""Staying Alive setup: deck counts, modules, the Codes card and the role deal."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.exc import SetupError
from engine.games.staying_alive import StayingAlive
from engine.games.staying_alive.cards import LOOKOUT, base_cards

GAME = StayingAlive()


def seed(n: int) -> bytes:
    return n.to_bytes(4, "big") * 8


def all_screens(state, now: float = 0.0) -> list[str]:
    views = [state.view(seat, now) for seat in (*state.seats, None)]
    return [text for view in views for text in (view.title, *view.lines)]


def test_setup_base_cards_by_player_count():
    """5 players use all 28 base cards, 4 players 23, 3 players 16."""
    assert [base_cards(n) for n in (5, 4, 3)] == [28, 23, 16]


@pytest.mark.parametrize(("seats", "deck"), [((1, 2, 3), 7), ((1, 2, 3, 4), 11),
                                             ((1, 2, 3, 4, 5), 13)])
def test_setup_deck_count_for_the_first_game(seats, deck):
    """The deck holds the base cards minus 3 drawn by each player."""
    state = GAME.new_state(seats, {}, seed(1))
    assert state.deck == deck


def test_setup_deck_count_with_codes_has_four_code_cards():
    """With Codes, one code card goes back to the box: 16 + 4 + 5 - 9 for game 5 at 3."""
    state = GAME.new_state((1, 2, 3), {"game": "5"}, seed(1))
    assert state.setup.cards_in_play == 16 + 4 + 5
    assert state.deck == 16


def test_setup_codes_card_number_in_range_and_varies_with_seed():
    """The Code card returned to the box is one of 1-5, chosen by the seed."""
    numbers = {GAME.new_state((1, 2, 3), {"game": "5"}, seed(n)).setup.codes_returned
               for n in range(60)}
    assert numbers == {1, 2, 3, 4, 5}
    state = GAME.new_state((1, 2, 3), {"game": "5"}, seed(7))
    assert f"return card {state.setup.codes_returned} from" in all_screens(state)


def test_setup_game_one_deals_only_the_lookout():
    """The first game appoints one Lookout and gives nobody else a role."""
    for n in range(30):
        state = GAME.new_state((1, 2, 3, 4), {"game": "1"}, seed(n))
        roles = list(state.roles.values())
        assert roles.count(LOOKOUT) == 1
        assert roles.count(None) == 3


def test_setup_lookout_always_dealt_and_fairly_placed():
    """Over many seeds the Lookout is always dealt, to each seat about equally often."""
    counts = Counter()
    for n in range(1000):
        state = GAME.new_state((1, 2, 3, 4, 5), {"game": "3"}, seed(n))
        assert list(state.roles.values()).count(LOOKOUT) == 1
        assert None not in state.roles.values()
        counts[state.lookout()] += 1
    chi_square = sum((counts[seat] - 200) ** 2 / 200 for seat in (1, 2, 3, 4, 5))
    assert chi_square < 18.47  # 4 degrees of freedom, p = 0.001


def test_setup_unnamed_roles_get_an_honest_instruction():
    """A seat dealt an unnamed role is told to take a shuffled face-down card, no made-up name."""
    for n in range(40):
        state = GAME.new_state((1, 2, 3, 4, 5), {"game": "2"}, seed(n))
        unnamed = [seat for seat, role in state.roles.items() if role.name is None]
        if unnamed:
            break
    screens = " ".join(all_screens(state))
    assert "Shuffle 6 roles" in screens
    assert "Lookout, Tactician, Radio Op." in screens
    finish_deck_steps(state)
    view = state.view(unnamed[0], 0.0)
    assert view.title == "Your role: any other"
    assert view.lines[0] == "Take 1 face-down role"


def test_setup_role_and_stamina_shown_after_the_deck_is_built():
    """Once the deck steps are done each seat names its role card and its stamina."""
    state = GAME.new_state((1, 2, 3), {"game": "1", "lookout_stamina": "8"}, seed(3))
    finish_deck_steps(state)
    lookout = state.lookout()
    assert state.view(lookout, 0.0).title == "Your role: Lookout"
    assert "Take 8 stamina," in state.view(lookout, 0.0).lines
    other = next(seat for seat in state.seats if seat != lookout)
    assert state.view(other, 0.0).title == "No role card"
    assert "Take 6 stamina," in state.view(other, 0.0).lines


def test_setup_ready_by_all_hands_the_start_to_the_lookout():
    """When every seat is ready only the Lookout may act: the free first flip."""
    state = GAME.new_state((1, 2, 3), {}, seed(4))
    finish_deck_steps(state)
    for seat in state.seats:
        state.apply(seat, "ready", 0.0)
    assert state.active_seats() == {state.lookout()}
    assert [a.label for a in state.legal_actions(state.lookout())] == ["Flip to start"]
    state.apply(state.lookout(), "start", 2.0)
    assert state.stamina[state.lookout()] == 6
    assert state.turn == state.lookout()
    assert state.hourglass.remaining(2.0) == 90.0


def test_setup_modules_step_lists_the_recommended_modules():
    """Game 6 asks for modules 3, 8 and 10."""
    state = GAME.new_state((1, 2, 3), {"game": "6"}, seed(5))
    assert state.setup.modules == (3, 8, 10)
    assert "Add modules 3, 8, 10" in all_screens(state)


def test_setup_custom_modules_must_differ():
    """A custom game with the same module twice is refused before it starts."""
    with pytest.raises(SetupError, match="3 different modules"):
        GAME.new_state((1, 2, 3), {"game": "custom", "module_a": "6", "module_b": "6"}, seed(1))


def test_setup_player_count_checked():
    """Staying Alive seats 3 to 5 players."""
    with pytest.raises(SetupError):
        GAME.new_state((1, 2), {}, seed(1))
    with pytest.raises(SetupError):
        GAME.new_state((1, 2, 3, 4, 5, 6), {}, seed(1))


def finish_deck_steps(state) -> None:
    def builders() -> list[int]:
        return [s for s in state.seats if [a.id for a in state.legal_actions(s)] == ["done"]]

    while builders():
        state.apply(builders()[0], "done", 0.0)
