"""Every registered game, played at random: it ends, it replays, and no screen tells a secret.

The player is the one the working rules describe: a random active seat takes a uniformly
random legal action, fake time moves 0-3 s a step, and ``advance`` runs whenever a deadline
has passed. At every step of the secrecy games each seat's public face (words and pixels),
its action labels, its PEEK face, the public face, every effect and every refusal are held
against ``secrets_hidden_from`` by value.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from PIL import Image

from companion.composer import face_for
from companion.game_mode import whole_outcome
from companion.record import GameRecord, JournaledAction
from companion.render import NOTICE_LINES, Face, render
from companion.seat_ui import notice_lines
from engine import registry
from engine.api import Effect, Game, Narrate, Reveal, State
from engine.exc import IllegalAction
from engine.rng import SeededRandom, cut_text, deal_seed
from tests.secrecy import (
    assert_face_keeps,
    assert_no_leak,
    assert_state_keeps_secrets,
    drawn_phrases,
    effect_words,
    generator_positions,
    seat_faces,
)
from tests.shape import REDEALS, redealt

GAMES = registry.all_games()
KEYS = [game.key for game in GAMES]
MAX_STEPS = 5000
ENDING_SEEDS = 20
SECRECY_SEEDS = 3
REFUSALS_PER_STEP = 2


@dataclass
class Step:
    """One step of a random game: an action (``seat`` None: time ran out) and its effects."""

    seat: int | None
    action: str | None
    now: float
    effects: list[Effect]
    undoable: bool = False
    dealt: bool = False  # the action completed a cut in play, and the game was dealt after it


@dataclass
class RandomGame:
    """A seeded game and a seeded player, so a failure names a game that replays exactly."""

    game: Game
    number: int
    state: State = field(init=False)
    key: bytes = field(init=False)  # the companion's key and the players' cut: the fair deal
    cut: str = field(init=False)
    entries: list[JournaledAction] = field(default_factory=list)

    def __post_init__(self) -> None:
        span = self.game.max_players - self.game.min_players + 1
        seats = tuple(range(1, self.game.min_players + self.number % span + 1))
        options = {opt.key: opt.choices[self.number % len(opt.choices)]
                   for opt in self.game.options}
        self.key = _bytes(f"{self.game.key} {self.number}")
        if self.game.first_press_cuts:  # the players cut with their first presses, in play
            self.cut, seed = "", None
        else:
            self.cut = cut_text((seat, 1_000_000 * seat + self.number) for seat in seats)
            seed = deal_seed(self.key, self.cut)
        self.state = self.game.new_state(seats, options, seed)
        self.player = SeededRandom(_bytes(f"player {self.game.key} {self.number}"))

    def steps(self) -> Iterator[Step]:
        now = 0.0
        for _ in range(MAX_STEPS):
            if self.state.is_terminal():
                return
            yield self._step(now)
            now += self.player.below(4)
        raise AssertionError(f"{self.game.key} game {self.number}: no end in {MAX_STEPS} steps")

    def _step(self, now: float) -> Step:
        state = self.state
        deadline = state.next_deadline()
        if deadline is not None and deadline <= now:
            return Step(None, None, now, state.advance(now))
        if not state.active_seats():
            return Step(None, None, now, [])
        seat = self.player.choice(sorted(state.active_seats()))
        action = self.player.choice(state.legal_actions(seat))
        undoable = state.is_undoable(seat, action.id)
        effects = state.apply(seat, action.id, now)
        self.entries.append(JournaledAction(seat, action.id, now, undoable, action.label))
        cut = self.record().deal_if_cut(state, self.entries)  # as the table deals it
        self.cut = cut or self.cut
        return Step(seat, action.id, now, effects, undoable, dealt=bool(cut))

    def record(self) -> GameRecord:
        options = {opt.key: opt.choices[self.number % len(opt.choices)]
                   for opt in self.game.options}
        return GameRecord(self.game.key, self.state.seats, options, self.state.seed or b"",
                          list(self.entries), key=self.key, cut=self.cut,
                          cut_in_play=self.game.first_press_cuts)


def _bytes(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def _game(key: str) -> Game:
    return registry.get(key)


# --------------------------------------------------------------------------- the checker


def test_conformance_pixel_search_finds_a_drawn_secret() -> None:
    """The pixel check sees a phrase in a line and in an inverted title, and nothing else."""
    plain = render(Face(title="Round 2", lines=("Seat 3: Invader",)))
    inverted = render(Face(title="Seat 3: Invader", inverted_title=True, bar="> Done"))
    assert drawn_phrases(plain, ["Seat 3: Invader", "Seat 4: Invader"]) == ["Seat 3: Invader"]
    assert drawn_phrases(inverted, ["Seat 3: Invader"]) == ["Seat 3: Invader"]
    assert drawn_phrases(Image.new("1", (128, 64)), ["Seat 3: Invader"]) == []


def test_conformance_pixel_search_finds_a_secret_on_a_sealed_peek_face() -> None:
    """A sealed card evens each cell's ink with dots; the search still reads its words."""
    sealed = render(Face(title="YOUR IDENTITY", lines=("Seat 3: Invader", "Win: all"),
                         bar="release PEEK", sealed=True))
    assert drawn_phrases(sealed, ["Seat 3: Invader", "Seat 4: Invader"]) == ["Seat 3: Invader"]


def test_conformance_face_check_fails_on_a_face_that_tells() -> None:
    """A face whose bar names a hidden phrase is caught (the check can fail)."""
    with pytest.raises(AssertionError, match="Seat 2 is Troll"):
        assert_face_keeps(Face(title="Turn", bar="> Seat 2 is Troll"), frozenset({
            "Seat 2 is Troll"}), "seat 1")


# --------------------------------------------------------------------------- every game


@pytest.mark.parametrize("key", KEYS)
def test_conformance_random_play_always_ends(key: str) -> None:
    """20 seeded random games (every player count, every option) end within 5000 steps."""
    for number in range(ENDING_SEEDS):
        play = RandomGame(_game(key), number)
        for _ in play.steps():
            pass
        assert play.state.is_terminal() and play.state.result()


@pytest.mark.parametrize("key", KEYS)
def test_conformance_no_screen_effect_or_refusal_tells_a_secret(key: str) -> None:
    """At every step no face, label, PEEK face, effect or refusal holds a hidden phrase."""
    for number in range(SECRECY_SEEDS):
        play = RandomGame(_game(key), 100 + number)
        known_ids: set[str] = set()
        assert_state_keeps_secrets(play.state, 0.0)
        for step in play.steps():
            state = play.state
            public = state.secrets_hidden_from(None)
            assert_no_leak(effect_words(step.effects), public, f"an effect after {step.action}")
            assert_state_keeps_secrets(state, step.now)
            _assert_refusals_keep_secrets(play, known_ids, step.now)
            seed = (state.seed or b"").hex()[:16]  # no seed while the players cut in play
            assert_no_leak(_all_words(state, step.now), [seed], "a screen")


def _assert_refusals_keep_secrets(play: RandomGame, known_ids: set[str], now: float) -> None:
    """Stale ids, other seats' ids and nonsense: refused with a message holding no secret."""
    state = play.state
    for seat in state.seats:
        known_ids.update(a.id for a in state.legal_actions(seat))
    candidates = sorted(known_ids | {"x", "vote:yes", "inspect:1", "reveal"})
    for _ in range(REFUSALS_PER_STEP):
        seat = play.player.choice(state.seats)
        action_id = play.player.choice(candidates)
        if state.is_terminal() or action_id in {a.id for a in state.legal_actions(seat)}:
            continue
        with pytest.raises(IllegalAction) as refused:
            state.apply(seat, action_id, now)
        assert_no_leak([str(refused.value)], state.secrets_hidden_from(None),
                       f"seat {seat} refused {action_id!r}")


def _all_words(state: State, now: float) -> list[str]:
    words = []
    for seat in (*state.seats, None):
        face, peek = seat_faces(state, seat, now)
        words += [face.text(), peek.text()]
    return words


@pytest.mark.parametrize("key", KEYS)
def test_conformance_a_game_with_peek_faces_declares_its_secrets(key: str) -> None:
    """A game that ever puts a secret on a PEEK face also lists secrets the public must not see.

    A PEEK face holds a secret when it would change were the secrets still secret dealt
    again (tests/shape.py); a face of public help alone (Staying Alive's) changes with none.
    For a game the shape suite cannot re-deal, every PEEK face counts.
    """
    dealer = SeededRandom(f"conformance dealer {key}".encode())
    for number in range(SECRECY_SEEDS):
        play = RandomGame(_game(key), 200 + number)
        peeked = declared = False
        for step in play.steps():
            state = play.state
            if state.is_terminal():
                break
            peeked = peeked or _peek_holds_a_secret(key, state, step.now, dealer)
            declared |= bool(state.secrets_hidden_from(None))
        assert declared or not peeked, f"{key} shows PEEK faces but never hides anything"


def _peek_holds_a_secret(key: str, state: State, now: float, dealer: SeededRandom) -> bool:
    faces = [state.view(seat, now).secret for seat in state.seats]
    if key not in REDEALS:
        return any(faces)
    other = redealt(key, state, dealer)
    return any(faces) and faces != [other.view(seat, now).secret for seat in other.seats]


@pytest.mark.parametrize("key", KEYS)
def test_conformance_replay_gives_the_same_game(key: str) -> None:
    """Replaying the seed and the recorded actions gives the same screens and generator."""
    for number in range(SECRECY_SEEDS):
        play = RandomGame(_game(key), 300 + number)
        last = 0.0
        for step in play.steps():
            last = step.now
        replayed = play.record().replay()
        deadline = replayed.next_deadline()
        if deadline is not None and deadline <= last:  # time ran out after the last action
            replayed.advance(last)
        for seat in (*play.state.seats, None):
            assert replayed.view(seat, last) == play.state.view(seat, last), (key, seat)
        assert generator_positions(replayed) == generator_positions(play.state)
        assert replayed.result() == play.state.result()


@pytest.mark.parametrize("key", KEYS)
def test_conformance_undoable_actions_draw_nothing(key: str) -> None:
    """An action the table may take back never moves the generator (undo cannot re-deal);
    the press that completed a cut in play, after which the game was dealt, is never taken
    back."""
    for number in range(SECRECY_SEEDS):
        play = RandomGame(_game(key), 400 + number)
        before = generator_positions(play.state)
        for step in play.steps():
            after = generator_positions(play.state)
            if step.dealt:
                assert play.record().last_undoable() is None, f"{key}: the deal's press undone"
            elif step.undoable:
                assert after == before, f"{key}: undoable {step.action!r} drew from the seed"
            before = after


@pytest.mark.parametrize("key", KEYS)
def test_conformance_screens_fit_a_seat(key: str) -> None:
    """Titles and lines of 21 characters, labels of 20, at most 8 actions, big text of 5, and
    no text cut to fit (``fit``'s last resort, a ``~``): every screen of random play, the
    PEEK faces, the public face, and every notice the game gives the table (narration and
    reveals, each whole on one screen)."""
    for number in range(SECRECY_SEEDS):
        play = RandomGame(_game(key), 500 + number)
        for step in play.steps():
            for seat in (*play.state.seats, None):
                _assert_fits(play.state, seat, step.now)
            for effect in step.effects:
                if isinstance(effect, Narrate | Reveal):
                    _assert_notice_fits(effect.text)
        for seat in play.state.seats:
            _assert_outcome_drawn_whole(play.state, seat, 0.0)


def _assert_fits(state: State, seat: int | None, now: float) -> None:
    view = state.view(seat, now)
    texts = [view.title, *view.lines]
    if view.secret:
        texts += [view.secret.title, *view.secret.lines]
    assert all(len(text) <= 21 and not text.endswith("~") for text in texts), (seat, texts)
    assert len(view.big or "") <= 5, (seat, view.big)
    if seat is not None:
        actions = state.legal_actions(seat)
        assert len(actions) <= 8, (seat, actions)
        assert all(len(a.label) <= 20 and not a.label.endswith("~") for a in actions), actions


def _assert_outcome_drawn_whole(state: State, seat: int, now: float) -> None:
    """The end's screen draws every line of the outcome: none is cut by a banner."""
    view = whole_outcome(state.view(seat, now))
    _, _, drawn = face_for(view).body()
    assert drawn == view.lines, (seat, view.lines, drawn)


def _assert_notice_fits(text: str) -> None:
    """A notice fits one screen: wrapped at spaces, never mid-word, into at most four lines,
    and every word of it is shown."""
    lines = notice_lines(text)
    assert len(lines) <= NOTICE_LINES, lines
    assert all(len(line) <= 21 and line in text for line in lines), text
    assert " ".join(lines) == " ".join(text.split()), text
