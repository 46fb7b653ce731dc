"""Staying Alive: the hourglass, turns, escapes and endings, all on a fake clock."""

from __future__ import annotations

import pytest

from engine.api import Buzz, GameOver
from engine.exc import IllegalAction
from engine.games.staying_alive import StayingAlive, StayingAliveState
from engine.rng import SeededRandom

GAME = StayingAlive()
SEED = bytes(range(32))


def new_game(seats: tuple[int, ...] = (1, 2, 3), seed: bytes = SEED, **options: str):
    return GAME.new_state(seats, options, seed)


def ids(state: StayingAliveState, seat: int) -> list[str]:
    return [action.id for action in state.legal_actions(seat)]


def started(seats: tuple[int, ...] = (1, 2, 3), now: float = 0.0, **options: str):
    """A game past setup: every step done, every seat ready, the Lookout's free flip at ``now``."""
    state = new_game(seats, **options)
    while state.phase == "deck":
        seat = min(state.active_seats())
        state.apply(seat, state.legal_actions(seat)[0].id, now)
    state.apply(state.lookout(), "start", now)
    return state


def end_turn(state: StayingAliveState, now: float, choice: str = "check:low") -> None:
    state.apply(state.turn, "end", now)
    state.apply(state.turn, choice, now)


def empty_the_deck(state: StayingAliveState, now: float) -> None:
    while state.deck:
        end_turn(state, now)


def escape(state: StayingAliveState, strain: int, now: float) -> list:
    seat = state.turn
    state.apply(seat, "end", now)
    state.apply(seat, "escape", now)
    return state.apply(seat, f"strain:{strain}", now)


# --- the hourglass ----------------------------------------------------------------------------


def test_flip_thirty_seconds_in_leaves_thirty_on_top():
    """A flip 30 s into a fresh 90 s glass puts the 30 s that ran down back on top."""
    state = started()
    state.apply(state.lookout(), "flip", 30.0)
    assert state.hourglass.remaining(30.0) == pytest.approx(30.0)
    assert state.view(1, 40.0).hourglass.remaining == pytest.approx(20.0)


def test_flip_twice_quickly_restores_almost_all_sand():
    """Two flips one second apart leave all but that second's sand on top."""
    state = started()
    state.apply(state.lookout(), "flip", 30.0)
    state.apply(state.lookout(), "flip", 31.0)
    assert state.hourglass.remaining(31.0) == pytest.approx(61.0)


def test_flip_hundred_times_without_drift():
    """After 100 flips 30 s apart (60 s on top each time) the glass has not drifted."""
    state = started(warnings="off")
    lookout = state.lookout()
    for k in range(100):
        moment = 60.0 + 30.0 * k
        assert state.hourglass.remaining(moment) == pytest.approx(30.0)
        state.apply(lookout, "flip", moment)
        state.apply(lookout, "gain", moment)
    assert state.hourglass.remaining(3030.0) == pytest.approx(60.0, abs=1e-9)
    assert state.next_deadline() == pytest.approx(3090.0, abs=1e-9)


def test_flip_costs_the_lookout_one_stamina_each():
    """Each flip after the free first one takes 1 stamina from the Lookout."""
    state = started()
    lookout = state.lookout()
    assert state.stamina[lookout] == 6
    state.apply(lookout, "flip", 50.0)
    state.apply(lookout, "flip", 60.0)
    assert state.stamina[lookout] == 4


def test_flip_with_no_stamina_loses():
    """A Lookout with no stamina left who flips makes the group lose."""
    state = started()
    lookout = state.lookout()
    for k in range(6):
        state.apply(lookout, "flip", 45.0 + k)
    assert ids(state, lookout)[-1] == "flip"  # no longer the default choice
    effects = state.apply(lookout, "flip", 52.0)
    assert state.result() == f"Loss: Seat {lookout} had no stamina to lose"
    assert Buzz("lose") in effects


def test_flip_by_anyone_else_is_refused_with_a_reason():
    """Only the Lookout may flip, on any turn; others are told who may."""
    state = started()
    other = next(seat for seat in state.seats if seat != state.lookout())
    with pytest.raises(IllegalAction, match=f"Only Seat {state.lookout()} flips"):
        state.apply(other, "flip", 5.0)


def test_flip_allowed_on_another_players_turn():
    """The Lookout may flip while someone else is on turn."""
    state = started()
    end_turn(state, 1.0)
    assert state.turn != state.lookout()
    assert ids(state, state.lookout()) == ["flip"]
    state.apply(state.lookout(), "flip", 2.0)
    assert state.hourglass.remaining(2.0) == pytest.approx(2.0)


def test_hourglass_running_out_loses():
    """When the sand runs out the game is lost at the expiry deadline."""
    state = started(now=5.0)
    assert state.next_deadline() == pytest.approx(5.0 + 90.0 - 30.0)
    state.advance(95.0)
    assert state.result() == "Loss: the hourglass ran out"
    assert state.view(1, 95.0).banner == "LOST"


def test_hourglass_action_after_expiry_finds_the_game_lost():
    """A press that arrives after the sand ran out cannot save the game."""
    state = started(warnings="off")
    effects = state.apply(state.lookout(), "flip", 91.0)
    assert state.result() == "Loss: the hourglass ran out"
    assert GameOver("Loss: the hourglass ran out") in effects


def test_hourglass_pause_stops_and_resume_continues():
    """A paused table keeps its sand; resuming lets it run on from there."""
    state = started(warnings="off")
    state.apply(None, "pause", 40.0)
    assert state.next_deadline() is None
    assert state.advance(500.0) == []
    assert state.view(1, 500.0).hourglass.remaining == pytest.approx(50.0)
    state.apply(None, "resume", 500.0)
    assert state.next_deadline() == pytest.approx(550.0)
    state.advance(550.0)
    assert state.result() == "Loss: the hourglass ran out"


def test_hourglass_pause_before_start_does_not_start_it():
    """Pausing and resuming during setup leaves the glass standing."""
    state = new_game()
    state.apply(None, "pause", 1.0)
    state.apply(None, "resume", 2.0)
    assert state.next_deadline() is None


# --- warnings --------------------------------------------------------------------------------


def test_warnings_at_thirty_and_ten_seconds_once_each():
    """With warnings on, 30 s left buzzes a warning and 10 s left the alarm, once per run."""
    state = started(warnings="on")
    assert state.advance(59.0) == []
    assert state.advance(60.0) == [Buzz("warning")]
    assert state.advance(61.0) == []
    assert state.next_deadline() == pytest.approx(80.0)
    assert state.advance(80.0) == [Buzz("alarm")]
    assert state.next_deadline() == pytest.approx(90.0)


def test_warnings_rearm_after_a_flip():
    """A flip starts a new run-down, which warns again."""
    state = started(warnings="on")
    state.advance(60.0)
    state.apply(state.lookout(), "flip", 70.0)  # 70 s back on top
    assert state.advance(109.9) == []
    assert state.advance(110.0) == [Buzz("warning")]


def test_warnings_after_a_late_flip_sound_at_once():
    """A flip that leaves under 10 s on top sounds the alarm straight away."""
    state = started(warnings="on")
    state.apply(state.lookout(), "flip", 5.0)
    assert state.next_deadline() <= 5.0
    assert state.advance(5.0) == [Buzz("alarm")]


def test_warnings_off_stay_silent():
    """With warnings off nothing buzzes before the end, and the only deadline is expiry."""
    state = started(warnings="off")
    assert state.next_deadline() == pytest.approx(90.0)
    assert state.advance(60.0) == []
    assert state.advance(85.0) == []


# --- roles and stamina -----------------------------------------------------------------------


def test_swap_moves_the_flip_to_the_left_neighbour():
    """Swapping the Lookout card left makes the neighbour the one who flips."""
    state = started((2, 4, 6), game="3")
    old = state.lookout()
    left = state.ring.left_of(old)
    state.apply(old, "swap", 1.0)
    assert state.lookout() == left
    assert "flip" not in ids(state, old)
    with pytest.raises(IllegalAction):
        state.apply(old, "flip", 2.0)
    state.apply(left, "flip", 3.0)
    assert state.stamina[left] == 5


def test_stamina_strong_lookout_limit_drops_to_six_after_losing_two():
    """The 8-stamina Lookout may heal up to 8 until they have lost 2 in all, then only to 6."""
    state = started(lookout_stamina="8")
    lookout = state.lookout()
    assert state.stamina[lookout] == 8
    state.apply(lookout, "lose", 1.0)
    state.apply(lookout, "gain", 1.0)
    assert state.stamina[lookout] == 8
    state.apply(lookout, "lose", 1.0)
    state.apply(lookout, "lose", 1.0)
    assert state.stamina[lookout] == 6
    assert "gain" not in ids(state, lookout)
    with pytest.raises(IllegalAction, match="Stamina limit 6"):
        state.apply(lookout, "gain", 1.0)


def test_stamina_others_capped_at_six():
    """A player at 6 stamina cannot gain more."""
    state = started()
    assert "gain" not in ids(state, state.turn)
    state.apply(state.turn, "lose", 1.0)
    assert "gain" in ids(state, state.turn)


def test_stamina_lost_with_none_left_loses():
    """Losing stamina at zero (a Frying Pan, a strain check) loses the game."""
    state = started()
    seat = state.turn
    for _ in range(6):
        state.apply(seat, "lose", 1.0)
    state.apply(seat, "end", 1.0)
    state.apply(seat, "check:high", 1.0)
    assert state.result() == f"Loss: Seat {seat} had no stamina to lose"


# --- turns, strain, escape -------------------------------------------------------------------


def test_turn_draws_automatically_until_the_deck_is_empty():
    """Each turn takes the top card off the count; an empty deck says there is no draw."""
    state = started()  # 3 players, game 1: 16 - 9 = 7 cards, the Lookout drew one
    assert state.deck == 6
    assert state.view(state.turn, 1.0).lines[0] == f"Draw 1, stamina {state.stamina[state.turn]}"
    empty_the_deck(state, 1.0)
    end_turn(state, 1.0, "stay")
    assert state.deck == 0
    assert state.view(state.turn, 1.0).lines[0].startswith("No draw, stamina")


def test_turn_passes_clockwise_from_the_lookout():
    """The Lookout goes first, then the seats to the left in order."""
    state = started((1, 3, 4, 6))
    first = state.turn
    assert first == state.lookout()
    end_turn(state, 1.0)
    assert state.turn == state.ring.left_of(first)


def test_strain_five_or_more_costs_one_stamina():
    """While the deck has cards, 5+ strain costs 1 stamina and under 5 costs nothing."""
    state = started()
    first = state.turn
    end_turn(state, 1.0, "check:high")
    second = state.turn
    end_turn(state, 1.0, "check:low")
    assert (state.stamina[first], state.stamina[second]) == (5, 6)


def test_turns_skip_escaped_seats():
    """Once a seat has escaped, the turn passes over it."""
    state = started((1, 2, 3, 4), game="2")
    empty_the_deck(state, 1.0)
    escaper = state.turn
    escape(state, 2, 1.0)
    order = []
    for _ in range(4):
        order.append(state.turn)
        end_turn(state, 1.0, "stay")
    assert escaper not in order
    assert state.stamina[escaper] == 4


def test_escape_blocked_until_target_modules_done():
    """With City Maps in play nobody escapes until the module is marked done."""
    state = started(game="4")
    empty_the_deck(state, 1.0)
    seat = state.turn
    state.apply(seat, "end", 1.0)
    assert ids(state, seat)[-1] == "stay"
    assert state.view(seat, 1.0).lines[0] == "Goal 1 not done"
    with pytest.raises(IllegalAction, match="Goal 1 not done"):
        state.apply(seat, "escape", 1.0)
    state.apply(seat, "stay", 1.0)
    for action in ("more", "goal:1", "back", "end", "escape", "strain:0"):
        state.apply(state.turn, action, 1.0)
    assert seat != state.escaped[0]


def test_escape_needs_an_empty_deck():
    """Escape is not offered while the deck still has cards."""
    state = started()
    state.apply(state.turn, "end", 1.0)
    assert "escape" not in ids(state, state.turn)
    with pytest.raises(IllegalAction, match="Deck not empty yet"):
        state.apply(state.turn, "escape", 1.0)


def test_escape_with_more_strain_than_stamina_loses():
    """Escaping with more strain than stamina loses the game."""
    state = started()
    empty_the_deck(state, 1.0)
    seat = state.turn
    state.apply(seat, "end", 1.0)
    state.apply(seat, "escape", 1.0)
    assert ids(state, seat)[-2:] == ["strain:over", "back"]
    state.apply(seat, "strain:over", 1.0)
    assert state.result() == f"Loss: Seat {seat}'s escape failed"


def test_escape_of_the_lookout_ends_all_flips():
    """When the Lookout escapes, nobody can flip the hourglass any more."""
    state = started()
    lookout = state.lookout()
    empty_the_deck(state, 1.0)
    while state.turn != lookout:
        end_turn(state, 1.0, "stay")
    effects = escape(state, 0, 1.0)
    assert state.lookout() is None
    assert all("flip" not in ids(state, seat) for seat in state.seats)
    assert any("no more flips" in getattr(effect, "text", "") for effect in effects)


def test_key_module_decides_the_game():
    """With the escape car in play, using the Key right wins for everyone at once."""
    state = started(game="7")
    seat = state.turn
    state.apply(seat, "more", 1.0)
    effects = state.apply(seat, "key:right", 1.0)
    assert state.result() == "Win: escaped by car"
    assert Buzz("win") in effects


def test_key_module_wrong_order_loses_and_blocks_escape_on_foot():
    """The car is the only way out: no escape on foot, and a wrong Key loses."""
    state = started(game="7")
    empty_the_deck(state, 1.0)
    state.apply(state.turn, "end", 1.0)
    assert "escape" not in ids(state, state.turn) and "stay" in ids(state, state.turn)
    state.apply(state.turn, "stay", 1.0)
    state.apply(state.turn, "more", 1.0)
    state.apply(state.turn, "key:wrong", 1.0)
    assert state.result() == "Loss: the car key failed"


@pytest.mark.parametrize("seats", [(1, 2, 3), (1, 2, 3, 4, 5)])
def test_game_won_when_everyone_escapes(seats):
    """A whole game: turns until the deck is empty, a flip on the way, everyone escapes."""
    state = started(seats, game="4")
    state.apply(state.turn, "more", 1.0)
    state.apply(state.turn, "goal:1", 1.0)
    state.apply(state.turn, "back", 1.0)
    now = 1.0
    while state.deck:
        now += 2.0
        end_turn(state, now)
    state.apply(state.lookout(), "flip", now)
    effects = []
    while not state.is_terminal():
        effects = escape(state, 1, now)
    assert state.result() == "Win: everyone escaped"
    assert effects[-2:] == [GameOver("Win: everyone escaped"), Buzz("win")]
    assert all(state.view(seat, now).banner == "WIN" for seat in seats)


# --- random play, replay, undo, secrets ------------------------------------------------------


def play_randomly(state: StayingAliveState, driver: SeededRandom, steps: int = 5000) -> int:
    """Random legal play on a fake clock, checking every screen; returns the steps taken."""
    now = 0.0
    for step in range(steps):
        if state.is_terminal():
            return step
        deadline = state.next_deadline()
        if deadline is not None and deadline <= now:
            state.advance(now)
            continue
        check_screens(state, now)
        seat = driver.choice(sorted(state.active_seats()))
        state.apply(seat, driver.choice(state.legal_actions(seat)).id, now)
        now += driver.below(3001) / 1000
    return steps


def check_screens(state: StayingAliveState, now: float) -> None:
    for seat in (*state.seats, None):
        view = state.view(seat, now)
        assert len(view.title) <= 21 and len(view.lines) <= 3, view
        assert all(len(line) <= 21 for line in view.lines), view
    for seat in state.seats:
        assert all(len(action.label) <= 20 for action in state.legal_actions(seat))


@pytest.mark.parametrize("game", ["1", "5", "7", "custom"])
def test_random_play_terminates(game):
    """Random legal play ends within 5000 steps for 20 seeds, and every screen fits."""
    for n in range(20):
        seats = (1, 2, 3, 4, 5)[: 3 + n % 3]
        state = GAME.new_state(seats, {"game": game, "module_a": "2"}, bytes([n]) * 32)
        assert play_randomly(state, SeededRandom(bytes([n, 1]) * 16)) < 5000
        assert state.result()


def test_replay_same_seed_and_actions_gives_the_same_game():
    """Replaying the journal of a random game rebuilds the identical state."""
    state = new_game((1, 2, 3, 4), game="5")
    journal = []
    driver = SeededRandom(b"journal-driver-1")
    for step in range(60):
        if state.is_terminal():
            break
        seat = driver.choice(sorted(state.active_seats()))
        action = driver.choice(state.legal_actions(seat)).id
        state.apply(seat, action, step * 0.5)
        journal.append((seat, action, step * 0.5))
    again = new_game((1, 2, 3, 4), game="5")
    for seat, action, now in journal:
        again.apply(seat, action, now)
    assert again.view(None, 30.0) == state.view(None, 30.0)
    assert (again.stamina, again.deck, again.roles) == (state.stamina, state.deck, state.roles)


def test_undo_never_offered_for_seed_or_time_actions():
    """Setup steps, ready, the start flip and flips cannot be undone; bookkeeping can."""
    state = new_game()
    assert not any(a.undoable for seat in state.seats for a in state.legal_actions(seat))
    state = started()
    lookout = state.lookout()
    undoable = {a.id: a.undoable for a in state.legal_actions(lookout)}
    assert undoable.pop("flip") is False
    assert all(undoable.values())


def test_words_never_say_the_opposite_of_the_rule():
    """A PEEK page may end after any line, so each line of the silence rule says it on its
    own (not "Radio silence: no"); setup lays the deck face down on the face-up escape card
    ("Place the deck on the face-up escape card", the Staying Alive rulebook)."""
    from engine.games.staying_alive.text import SILENCE_HELP, deck_pages

    assert not any(line.rstrip().endswith(": no") for line in SILENCE_HELP)
    assert all("no" in line or "silent" in line for line in SILENCE_HELP)
    shuffle = next(page for page in deck_pages(3, (), None, 30, {}) if "Shuffle" in page.title)
    assert shuffle.lines[1:] == ("face down onto the", "face-up escape card")


def test_secrets_none_in_this_game():
    """Roles and stamina are public, so no seat has anything to hide: its PEEK face is help,
    its role's ability and what the step expects of it (the Lookout plays first)."""
    state = started()
    assert all(state.secrets_hidden_from(seat) == frozenset() for seat in (*state.seats, None))
    lookout = state.lookout()
    face = state.view(lookout, 1.0).secret
    assert face.title == "Role: Lookout"
    assert face.lines == ("Turn the hourglass", "any time: -1 stamina",
                          "Draw 1, then up to 2", "actions; speak freely")
    other = next(seat for seat in state.seats if seat != lookout)
    assert state.view(other, 1.0).secret.lines[-2:] == ("Off turn: stay silent",
                                                        "no talk, nods, signs")


def test_the_lookouts_act_on_its_own_turn_is_never_the_flip():
    """A flip costs stamina and cannot be undone: on the Lookout's own turn, at every step
    (play, the strain check, stay or escape, their menus), ACT does the step's job and the
    flip is one PEEK away, or last once it would cost stamina the Lookout lacks."""
    from tests.test_conformance import RandomGame, _game

    seen = 0
    for number in range(8):
        play = RandomGame(_game("staying-alive"), number)
        state = play.state
        for _step in play.steps():
            lookout = state.lookout() if not state.is_terminal() else None
            offered = ids(state, lookout) if lookout is not None else []
            if lookout == state.turn and len(offered) > 1:
                seen += 1
                assert offered[0] != "flip", (number, state.phase, offered)
    assert seen > 20  # the Lookout was on turn, at many steps
