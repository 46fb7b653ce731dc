"""Every row a seat's screen draws fits it, whole: the screens the composer hands to the
renderer, seat by seat, in random play of every game with the table's own business mixed in.

tests/test_conformance.py holds each game's own views to 21 characters; this holds what the
companion adds when it composes a seat's screen (PAUSED and the restart notice, notices, the
offline alert, a question and its answers, a confirm's second press, the system menu, the
lobby and its options, the cut, game over and Play again, every page of a PEEK face) to the
rows the renderer draws (:meth:`Face.rows`): nothing is cut, nothing was cut before (``~``).

The player opens the game from the lobby (join, choose, turn options, start, cut), then plays
at random: game actions mostly, the table's menu (pause, undo, end, cues, Play again), PEEK
taps and holds, ACT pressed on the buttons (a confirm asks for a second press), seats whose
link drops, and restarts onto the journal, which resume the game paused.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.app import App
from companion.composer import NOTHING_SECRET, secret_face_for
from companion.game_mode import RESTARTED, paused_view
from companion.journal_sqlite import SqliteJournal
from companion.render import SEALED_ROWS, Face
from engine import registry
from engine.api import Game, SeatView
from engine.rng import SeededRandom
from hardware.base import ButtonName, SeatLink
from tests.secrecy import Table

KEYS = [game.key for game in registry.all_games()]
SEEDS = 3
STEPS = 250
MAX_STEPS = 2000
# What random play must reach in every game, so the check cannot pass by not looking.
REACHED = {"lobby", "options", "cut", "playing", "paused", "restarted", "notice", "question",
           "peeking", "offline", "over"}
LEAVING = ("sys:end", "sys:lobby")
PLANTED = "Planted: 22 letters in"


def cut_rows(face: Face) -> list[str]:
    """The rows of ``face`` the renderer would cut, or that were cut before (``fit``'s ``~``)."""
    return [text for text, room in face.rows() if len(text) > room or text.endswith("~")]


def composed_faces(app: App, seat: int) -> Iterator[Face]:
    """What the composer gives ``seat`` now, every page of its PEEK face, and its bar on each
    action it is offered (as PEEK taps would bring it up, and armed when it asks ACT again)."""
    now = app.clock()
    yield app.composer.face(seat, now)
    yield from peek_pages(app.composer.view(seat, now))
    offers = app.actions(seat)
    for action in offers:
        for armed in (None, action.id) if action.confirm else (None,):
            ui = dataclasses.replace(app.ui[seat], highlighted=action.id, armed=armed, stuck="")
            bar, right = ui.bar(offers)
            yield Face(title="", bar=bar, bar_right=right)


def peek_pages(view: SeatView) -> Iterator[Face]:
    lines = (view.secret or NOTHING_SECRET).lines
    for page in range(max(1, -(-len(lines) // SEALED_ROWS))):
        yield secret_face_for(view, page)


def assert_screens_fit(app: App) -> None:
    for seat in app.seat_numbers:
        for face in composed_faces(app, seat):
            assert not cut_rows(face), f"seat {seat} cuts {cut_rows(face)} of {face}"


class RandomTable:
    """One game at a table with a seat more than its players, played by a seeded player who
    checks every seat's screen after every press and every wake-up."""

    def __init__(self, key: str, number: int, journal: Path, *, to_the_end: bool) -> None:
        self.player = SeededRandom(hashlib.sha256(f"composed {key} {number}".encode()).digest())
        self.game = registry.get(key)
        span = self.game.max_players - self.game.min_players + 1
        self.players = self.game.min_players + self.player.below(span)
        self.journal = journal
        self.to_the_end = to_the_end  # nobody ends the game early: it reaches its outcome
        self.table = self._open()
        self.reached: set[str] = set()

    def _open(self) -> Table:
        return Table(seats=self.players + 1, journal=SqliteJournal(self.journal))

    @property
    def app(self) -> App:
        return self.table.app

    def play(self, steps: int) -> set[str]:
        """``steps`` steps; a table playing to the end goes on until its game is over."""
        with self.table:
            self.open_game()
            for done in range(MAX_STEPS):
                if done >= steps and not (self.to_the_end and "over" not in self.reached):
                    break
                self.step()
            return self.reached

    def check(self) -> None:
        assert_screens_fit(self.app)
        self.reached |= situations(self.app)

    def step(self) -> None:
        roll = self.player.below(32)
        seat = self.player.choice(self.app.seat_numbers)
        if roll == 0:
            self.restart()
        elif roll == 1:
            self.hold_peek(seat)
        elif roll in (2, 3):
            self.tap(seat, self.player.choice([ButtonName.PEEK, ButtonName.ACT]))
        elif roll == 4:
            self.drop_links()
        elif self.app.session.state is None and self.app.session.cut is None and roll < 12:
            self.open_game()
        else:
            self.choose_any()
        self.table.wait(self.player.below(4), self.check)

    def choose(self, seat: int, action_id: str) -> None:
        self.table.choose(seat, action_id)
        self.check()

    def choose_any(self) -> None:
        """A seat (an active one, mostly) takes an offered action: the game's, mostly."""
        app = self.app
        active = sorted(app.session.state.active_seats()) if app.session.state is not None else []
        seat = self.player.choice(active if active and self.player.below(8) else app.seat_numbers)
        offers = app.actions(seat)
        state = app.session.state
        if self.to_the_end and state is not None and not state.is_terminal():
            offers = [a for a in offers if a.id not in LEAVING]
        game = [a for a in offers if not a.id.startswith("sys:")]
        actions = game if game and self.player.below(8) else offers
        if actions:
            self.choose(seat, self.player.choice(actions).id)

    def open_game(self) -> None:
        """From the lobby: the players join, one chooses this game, turns some options,
        starts, and every player cuts."""
        lobby = self.app.session.lobby
        if lobby.host is None:
            for seat in range(1, self.players + 1):
                if seat not in lobby.joined:
                    self.choose(seat, "join")
            self.choose(lobby.joined[0], "menu")
        host = lobby.host
        if lobby.game is not None and lobby.game.key != self.game.key:
            self.choose(host, "back")
        if lobby.game is None:
            self.choose(host, f"game:{self.game.key}")
        for option in self.game.options:
            for _ in range(self.player.below(3)):
                self.choose(host, f"option:{option.key}")
        self.choose(host, "start")
        while (cut := self.app.session.cut) is not None:
            self.choose(cut.waiting()[0], "cut")
            self.table.wait(self.player.below(2), self.check)

    def hold_peek(self, seat: int) -> None:
        self.table.press(seat, ButtonName.PEEK, True)
        self.table.wait(0.5 + self.player.below(4), self.check)
        self.table.press(seat, ButtonName.PEEK, False)

    def tap(self, seat: int, button: ButtonName) -> None:
        self.table.press(seat, button, True)
        self.table.wait(0.1, self.check)
        self.table.press(seat, button, False)

    def drop_links(self) -> None:
        """Some seats' pods go quiet (the game pauses), then come back."""
        seats = list(self.app.seat_numbers)
        quiet = [s for s in seats if self.player.below(2)] or [seats[0]]
        for seat in quiet:
            self.table.events.put(SeatLink(seat, False))
        self.table.pump()
        self.check()
        self.table.wait(self.player.below(3), self.check)
        for seat in quiet:
            self.table.events.put(SeatLink(seat, True))
        self.table.pump()

    def restart(self) -> None:
        """The process dies (the journal closes) and starts again on the same journal."""
        self.app.session.journal.close()
        self.table.close()
        self.table = self._open()
        self.check()


def situations(app: App) -> set[str]:
    """Which of the table's situations the screens just checked were in."""
    session, state = app.session, app.session.state
    found = set()
    if session.cut is not None:
        found.add("cut")
    elif state is None:
        found.add("options" if app.session.lobby.game is not None else "lobby")
    else:  # a game may cut with its players' first presses (They Live's picks)
        found.add("over" if state.is_terminal() else "paused" if state.paused else "playing")
        found |= set() if state.dealt else {"cut"}
        found |= {"restarted"} if session.game.restarted else set()
    ui = app.ui.values()
    found |= {"notice"} if any(seat.notice for seat in ui) else set()
    found |= {"peeking"} if any(seat.peeking for seat in ui) else set()
    found |= {"offline"} if app.links.down() else set()
    found |= {"question"} if any(session.mode.question(n) for n in app.seat_numbers) else set()
    return found


@pytest.mark.parametrize("key", KEYS)
def test_composed_screens_fit_every_seat_in_random_play(key: str, tmp_path) -> None:
    """No row of any seat's composed screen is cut, in random play with the table's menu,
    peeks, presses, dropped links and restarts; and the play reached each of those."""
    reached: set[str] = set()
    for number in range(SEEDS):
        journal = tmp_path / f"journal-{number}.sqlite3"
        reached |= RandomTable(key, number, journal, to_the_end=number == 0).play(STEPS)
    missing = REACHED - reached
    assert not missing, f"random play of {key} never reached {missing}"


def test_paused_says_so_and_keeps_the_title_whole() -> None:
    """PAUSED leads a title it fits with; a long title stays whole, lit, and PAUSED leads
    the body instead; after a restart the body says so."""
    short = paused_view(SeatView("Your turn", ("Stamina 6",)), restarted=False)
    assert (short.title, short.lines, short.highlight) == ("PAUSED Your turn", ("Stamina 6",),
                                                           True)
    long = SeatView("You are the Lookout", ("Stamina 6", "Sand: 1:20"))
    paused = paused_view(long, restarted=False)
    assert (paused.title, paused.lines, paused.highlight) == (
        "You are the Lookout", ("PAUSED", "Stamina 6", "Sand: 1:20"), True)
    assert paused_view(long, restarted=True).lines[0] == RESTARTED


@pytest.fixture
def planted_game() -> Iterator[Game]:
    """Staying Alive under another key, with one over-long line planted where only random
    play with the table's menu finds it: its title, while the game is paused. Registered
    for this test only (as tests/test_sixth_game.py registers its game)."""
    base = registry.get("staying-alive")

    class PlantedState(base.state_class):
        def view(self, seat: int | None, now: float) -> SeatView:
            view = super().view(seat, now)
            return dataclasses.replace(view, title=PLANTED) if self.paused else view

    class Planted(type(base)):
        key, state_class = "planted", PlantedState

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "_GAMES", dict(registry._GAMES))
        yield registry.register(Planted())


def test_composed_screens_check_catches_a_planted_over_long_line(planted_game: Game,
                                                                  tmp_path) -> None:
    """The check is not blind: a 22-character title, shown only while paused, fails it."""
    assert len(PLANTED) == 22
    table = RandomTable(planted_game.key, 0, tmp_path / "journal.sqlite3", to_the_end=False)
    with pytest.raises(AssertionError, match=re.escape(f"cuts ['{PLANTED[:20]}")):
        table.play(STEPS)


def test_a_games_secret_page_is_the_sealed_faces_page():
    """Games page their PEEK faces (They Live's Lenses pages) as the sealed face shows them."""
    from engine.api import SECRET_PAGE

    assert SECRET_PAGE == SEALED_ROWS
