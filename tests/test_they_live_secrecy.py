"""They Live over random games: termination, replay, and no identity shown before its time."""

from __future__ import annotations

import copy
import hashlib

import pytest

from engine.api import Narrate, Reveal, SeatView
from engine.exc import IllegalAction
from engine.games.they_live.cards import HUMAN, INVADER
from engine.rng import SeededRandom
from tests.test_they_live_support import new_game

MAX_STEPS = 5000
OPTION_SETS = [{}, {"check": "silent", "die": "virtual"}]
# Actions whose outcome the rules tie to identities (a reveal, a death, a vote, a city win).
TELLING = ("reveal3", "die", "vote:", "area")
DECK = tuple(["Ghoul [enemy]"] * 10 + [f"Card {n}" for n in range(60)])


def _face_texts(view: SeatView) -> list[str]:
    return [view.title, *view.lines, view.big or "", view.banner or ""]


def _peek_texts(view: SeatView) -> list[str]:
    return [view.secret.title, *view.secret.lines] if view.secret else []


def _assert_no_secret(texts: list[str], hidden: frozenset[str], where: str) -> None:
    for text in texts:
        for secret in hidden:
            assert secret not in text, f"{where} shows {secret!r} in {text!r}"


def _check_views(state, now: float) -> None:
    public = state.secrets_hidden_from(None)
    for seat in (None, *state.seats):
        view = state.view(seat, now)
        # A seat's face and buttons can be glimpsed by neighbours: public facts only.
        labels = [a.label for a in state.legal_actions(seat)] if seat else []
        _assert_no_secret(_face_texts(view) + labels, public, f"seat {seat} face")
        _assert_no_secret(_peek_texts(view), state.secrets_hidden_from(seat), f"seat {seat} PEEK")
        assert len(view.title) <= 21 and all(len(line) <= 21 for line in view.lines)


def _check_effects(state, effects) -> None:
    public = [e.text for e in effects if isinstance(e, (Narrate, Reveal))]
    _assert_no_secret(public, state.secrets_hidden_from(None), "effects")


def _check_refusal(state, seat: int, rng: SeededRandom, now: float) -> None:
    bogus = rng.choice(["end", "heal", "inspect:1", "vote:yes", "reveal3", "accuse:2", "x"])
    if bogus in {a.id for a in state.legal_actions(seat)}:
        return
    with pytest.raises(IllegalAction) as refused:
        state.apply(seat, bogus, now)
    everyone = set().union(*(state.secrets_hidden_from(s) for s in (None, *state.seats)))
    _assert_no_secret([str(refused.value)], frozenset(everyone), "refusal")


def play_randomly(state, rng: SeededRandom, checks: bool) -> list[tuple]:
    """The conformance player: a random active seat, a uniform legal action, 0-3 s steps."""
    now, log = 0.0, []
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        deadline = state.next_deadline()
        if deadline is not None and deadline <= now:
            effects = state.advance(now)
        elif state.active_seats():
            seat = rng.choice(sorted(state.active_seats()))
            action = rng.choice(state.legal_actions(seat))
            if checks:
                _check_refusal(state, seat, rng, now)
            effects = state.apply(seat, action.id, now)
            log.append((seat, action.id, now))
        else:
            effects = []
        if checks:
            _check_effects(state, effects)
            _check_views(state, now)
        now += rng.below(4)
    return log


def _rng(number: int) -> SeededRandom:
    return SeededRandom(hashlib.sha256(f"they-live player {number}".encode()).digest())


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_play_always_ends(players) -> None:
    """20 random games per player count reach an ending within 5000 steps, never raising."""
    for number in range(20):
        options = OPTION_SETS[number % 2]
        state = new_game(players, seed_no=number, deck=DECK if number % 4 == 1 else None,
                         **options)
        play_randomly(state, _rng(number), checks=False)
        assert state.is_terminal()


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_secrecy_no_view_effect_or_refusal_shows_a_hidden_identity(players) -> None:
    """At every step of random games no screen, button, effect or error leaks an identity."""
    for number in range(6):
        state = new_game(players, seed_no=100 + number, **OPTION_SETS[number % 2])
        play_randomly(state, _rng(100 + number), checks=True)


def test_secrecy_hidden_phrases_name_unrevealed_identities() -> None:
    """Before any reveal, the public face must hide every seat's identity and the spare."""
    state = new_game(4)
    hidden = state.secrets_hidden_from(None)
    assert {f"Seat {s}: {state.identities[s]}" for s in state.seats} <= hidden
    assert f"Spare: {state.spare}" in hidden


def test_secrecy_buttons_and_faces_do_not_depend_on_identity() -> None:
    """Swapping identities changes only PEEK faces, never a public face or a button."""
    for number in range(4):
        state = new_game(5, seed_no=200 + number)
        rng = _rng(300 + number)
        for _ in range(150):
            if state.is_terminal():
                break
            swapped = copy.deepcopy(state)
            swapped.identities = {
                s: HUMAN if i == INVADER else INVADER for s, i in state.identities.items()
            }
            for seat in state.seats:
                assert state.legal_actions(seat) == swapped.legal_actions(seat)
                ours, theirs = state.view(seat, 0), swapped.view(seat, 0)
                assert (ours.title, ours.lines, ours.big) == (theirs.title, theirs.lines,
                                                              theirs.big)
            if not state.active_seats():
                state.advance(state.next_deadline())
                continue
            seat = rng.choice(sorted(state.active_seats()))
            safe = [a for a in state.legal_actions(seat) if not a.id.startswith(TELLING)]
            if not safe:
                break
            state.apply(seat, rng.choice(safe).id, 0)


def test_replay_same_seed_same_actions_same_game() -> None:
    """Replaying the journal of a random game rebuilds the same state and screens."""
    for players in (4, 6):
        state = new_game(players, seed_no=42, check="silent", die="virtual")
        log = play_randomly(state, _rng(42), checks=False)
        replayed = new_game(players, seed_no=42, check="silent", die="virtual")
        for seat, action_id, now in log:
            deadline = replayed.next_deadline()
            while deadline is not None and deadline <= now:
                replayed.advance(now)
                deadline = replayed.next_deadline()
            replayed.apply(seat, action_id, now)
        assert replayed.result() == state.result()
        assert [replayed.view(s, 0) for s in replayed.seats] == [
            state.view(s, 0) for s in state.seats
        ]
