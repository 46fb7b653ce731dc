"""Heroes Love to Lie played at random: it always ends, keeps its secrets, fits the screens,
replays identically, and deals fairly."""

from __future__ import annotations

import copy
import hashlib
from collections import Counter
from collections.abc import Iterator

import pytest

from engine.api import Effect, Narrate, Reveal
from engine.exc import IllegalAction
from engine.games.heroes.cards import HERO_ORDER, HEROES
from engine.games.heroes.state import HeroesState
from engine.rng import SeededRandom

from .test_heroes_support import GAME, everyone_passes, press, rig, seed, started, view_text

MAX_STEPS = 5000
CHI2_DF9_P001 = 27.877  # 10 Heroes: 9 degrees of freedom, p = 0.001
DEALS = 1900
WIDTH = 21


def random_game(game_no: int, players: int, **options: str) -> Iterator[tuple[HeroesState,
                                                                              list[Effect]]]:
    """Play one game at random as the conformance test does; yield after every step."""
    options.setdefault("monster_values", "enter")
    state = GAME.new_state(list(range(1, players + 1)), options, seed(game_no))
    chooser = SeededRandom(hashlib.sha256(b"chooser" + seed(game_no)).digest())
    now = 0.0
    yield state, []
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            return
        deadline = state.next_deadline()
        if deadline is not None and deadline <= now:
            yield state, state.advance(now)
            continue
        seat = chooser.choice(sorted(state.active_seats()))
        action = chooser.choice(state.legal_actions(seat))
        yield state, state.apply(seat, action.id, now)
        now += chooser.below(4)
    raise AssertionError(f"game {game_no} did not end in {MAX_STEPS} steps")


def spoken(effects: list[Effect]) -> list[str]:
    return [e.text for e in effects if isinstance(e, Narrate | Reveal)]


@pytest.mark.parametrize("game_no", range(20))
def test_random_play_always_ends(game_no: int) -> None:
    """Uniformly random legal play reaches an ending within 5000 steps and never raises."""
    for state, _ in random_game(game_no, players=2 + game_no % 4):
        final = state
    assert final.is_terminal() and final.result().startswith("Seat ")


@pytest.mark.parametrize("game_no", range(12))
def test_secrecy_no_screen_or_effect_names_a_hidden_hero(game_no: int) -> None:
    """At every step, no view, PEEK face, effect or refusal holds a secret of that moment."""
    previous: frozenset[str] = frozenset()
    for state, effects in random_game(100 + game_no, players=2 + game_no % 4):
        public = state.secrets_hidden_from(None)
        for text in spoken(effects):
            assert not any(secret in text for secret in public | previous), text
        for seat in [*state.seats, None]:
            hidden = state.secrets_hidden_from(seat)
            screen = view_text(state, seat)
            assert not any(secret in screen for secret in hidden), (seat, screen)
        for seat in state.seats:
            _assert_refusal_keeps_secrets(state, seat)
        previous = public


def _assert_refusal_keeps_secrets(state: HeroesState, seat: int) -> None:
    for action_id in ("power", "challenge", "claim:Knight", "target:1", "guess:Troll"):
        if action_id in [a.id for a in state.legal_actions(seat)]:
            continue
        with pytest.raises(IllegalAction) as refused:
            state.apply(seat, action_id, 0.0)
        assert not any(s in str(refused.value) for s in state.secrets_hidden_from(seat))
        assert not any(name in str(refused.value) for name in HEROES)


@pytest.mark.parametrize("game_no", range(4))
def test_secrecy_screens_and_buttons_ignore_every_face_down_card(game_no: int) -> None:
    """Changing any hidden Hero (even the seat's own, which neighbours could read off its
    screen) changes nothing on any seat's public face or buttons."""
    for state, _ in random_game(700 + game_no, players=2 + game_no % 4):
        altered = copy.deepcopy(state)
        for purse in altered.table.purses.values():
            purse.hand = [_another(card) for card in purse.hand]
        heroes = altered.table.heroes
        heroes.cards = [_another(card) for card in heroes.cards]
        heroes.aside = [_another(card) for card in heroes.aside]
        for seat in [*state.seats, None]:
            assert _public_face(altered, seat) == _public_face(state, seat)


def _another(hero: str) -> str:
    return HERO_ORDER[(HERO_ORDER.index(hero) + 1) % len(HERO_ORDER)]


def _public_face(state: HeroesState, seat: int | None) -> tuple:
    view = state.view(seat, 0.0)
    actions = state.legal_actions(seat) if seat is not None else []
    return view.title, view.lines, view.big, view.banner, view.highlight, actions


@pytest.mark.parametrize("game_no", range(6))
def test_secrecy_peek_face_holds_only_own_cards_and_what_the_mage_saw(game_no: int) -> None:
    """A seat's PEEK face names only the Heroes in its hand, or the one its Mage looked at."""
    for state, _ in random_game(200 + game_no, players=5):
        for seat in state.seats:
            secret = state.view(seat, 0.0).secret
            if secret is None:
                continue
            allowed = set(state.table.hand(seat))
            allowed |= {state.peeks[seat][1]} if seat in state.peeks else set()
            named = {h for h in HEROES if any(h in line for line in secret.lines)}
            assert named <= allowed


def test_secrecy_check_catches_a_mage_note_shown_to_someone_else() -> None:
    """The phrase a Mage sees is exactly what the other seats' screens are checked against."""
    state = started(3)
    rig(state, {1: "Mage", 2: "Knight", 3: "Elf"}, top=["Bard"])
    press(state, 1, "power", "discard:1", "claim:Mage", "use:mage_peek")
    everyone_passes(state)
    press(state, 1, "target:2")
    note = "Seat 2 is Knight"
    assert note in view_text(state, 1) and note not in state.secrets_hidden_from(1)
    assert note in state.secrets_hidden_from(3) and note in state.secrets_hidden_from(None)


@pytest.mark.parametrize("game_no", range(6))
def test_screens_fit_the_seat_displays(game_no: int) -> None:
    """Titles and lines fit 21 characters, labels 20, at most 3 lines and 8 actions; a PEEK
    face is shown three lines a page, in at most four pages (a PEEK lasts 10 s at most)."""
    for state, _ in random_game(300 + game_no, players=2 + game_no % 4):
        for seat in [*state.seats, None]:
            view = state.view(seat, 0.0)
            texts = [view.title, *view.lines]
            texts += [view.secret.title, *view.secret.lines] if view.secret else []
            assert all(len(t) <= WIDTH for t in texts), texts
            assert len(view.lines) <= 3 and (view.secret is None or len(view.secret.lines) <= 12)
            assert view.big is None or len(view.big) <= 5
        for seat in state.active_seats():
            actions = state.legal_actions(seat)
            assert 1 <= len(actions) <= 8
            assert all(len(a.label) <= 20 for a in actions), actions


def test_replay_gives_the_same_game() -> None:
    """The same seed and the same presses at the same moments give the same state."""
    for state, _ in random_game(400, players=4):
        final = state
    history = _history(400, players=4)
    replayed = GAME.new_state([1, 2, 3, 4], {"monster_values": "enter"}, seed(400))
    for seat, action_id, now in history:
        if seat is None:
            replayed.advance(now)
        else:
            replayed.apply(seat, action_id, now)
    assert replayed.result() == final.result()
    assert {s: p.hand for s, p in replayed.table.purses.items()} == {
        s: p.hand for s, p in final.table.purses.items()}


def _history(game_no: int, players: int) -> list[tuple[int | None, str, float]]:
    """The presses of ``random_game``, re-chosen with the same chooser."""
    state = GAME.new_state(list(range(1, players + 1)), {"monster_values": "enter"},
                           seed(game_no))
    chooser = SeededRandom(hashlib.sha256(b"chooser" + seed(game_no)).digest())
    history, now = [], 0.0
    while not state.is_terminal():
        deadline = state.next_deadline()
        if deadline is not None and deadline <= now:
            state.advance(now)
            history.append((None, "advance", now))
            continue
        seat = chooser.choice(sorted(state.active_seats()))
        action = chooser.choice(state.legal_actions(seat))
        state.apply(seat, action.id, now)
        history.append((seat, action.id, now))
        now += chooser.below(4)
    return history


@pytest.mark.parametrize("game_no", range(6))
def test_undoable_actions_never_draw_or_move_tokens(game_no: int) -> None:
    """Only bookkeeping is undoable: no card, token or random draw changes with it."""
    state = GAME.new_state([1, 2, 3], {"monster_values": "enter"}, seed(500 + game_no))
    chooser = SeededRandom(seed(600 + game_no))
    while not state.is_terminal():
        seat = chooser.choice(sorted(state.active_seats()))
        action = chooser.choice(state.legal_actions(seat))
        before = _snapshot(state)
        state.apply(seat, action.id, 0.0)
        if action.undoable:
            assert _snapshot(state) == before, action


def _snapshot(state: HeroesState) -> tuple:
    table = state.table
    purses = tuple((p.life, p.gems, p.glory, tuple(p.hand)) for p in table.purses.values())
    decks = (tuple(table.heroes.cards), tuple(table.heroes.discards), tuple(table.in_play))
    next_random = copy.deepcopy(table.rng).below(1 << 62)
    return purses, decks, next_random, state.turn.seat


def _chi_square(counts: Counter[str], expected: dict[str, float]) -> float:
    return sum((counts[name] - e) ** 2 / e for name, e in expected.items())


def test_deal_heroes_follow_the_card_counts() -> None:
    """Over 1900 deals, seat 1's Hero and the set-aside Hero match the 19 cards (chi-square)."""
    dealt, aside = Counter(), Counter()
    for deal in range(DEALS):
        state = GAME.new_state([1, 2, 3, 4], {}, seed(10_000 + deal))
        dealt[state.table.hand(1)[0]] += 1
        aside[state.table.heroes.aside[0]] += 1
    expected = {name: DEALS * hero.count / 19 for name, hero in HEROES.items()}
    assert _chi_square(dealt, expected) < CHI2_DF9_P001
    assert _chi_square(aside, expected) < CHI2_DF9_P001
