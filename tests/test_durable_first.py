"""Nothing is seen or heard before the journal holds it, and the wait costs little.

A press's journal write is committed on the journal's flusher thread while the loop draws
the presser's screen; the screen's bytes and the press's cues go out only once the commit
has returned. Here the commit is held back by the test (a slow SD card), so what the table
did before the disk answered can be looked at.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from companion import screens
from companion.app import App
from companion.clock import FakeClock
from companion.journal_sqlite import SqliteJournal
from companion.lobby import StartGame
from companion.statedir import journal_path, prepare_state_dir
from engine.api import Buzz
from engine.cues import Tune
from hardware.base import ButtonEdge, ButtonName
from hardware.headless import HeadlessTable
from tests.dealing import deal
from tests.pod_sim.harness import HANG_GUARD
from tests.test_pipeline import SEATS, CountingGame, CountingState


class SlowDisk(ThreadPoolExecutor):
    """The journal's flusher, where each commit waits until the test lets it through (or
    fails, as a full disk's would)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.go = threading.Event()
        self.refuse = False

    def submit(self, fn: Callable[..., object], /, *args: object) -> Future[object]:
        def commit() -> object:
            assert self.go.wait(HANG_GUARD), "the test never let the commit through"
            if self.refuse:
                raise sqlite3.OperationalError("disk I/O error")
            return fn(*args)

        return super().submit(commit)


class Table:
    """A counting game whose every addition buzzes, journaled in a real state directory."""

    def __init__(self, headless: HeadlessTable, clock: FakeClock, folder: Path) -> None:
        self.headless, self.clock = headless, clock
        self.path = journal_path(prepare_state_dir(folder / "state"))
        self.journal = SqliteJournal(self.path)
        self.app = App(headless.hardware, clock=clock, key_source=bytes, journal=self.journal)
        self.app.start()
        deal(self.app, StartGame(CountingGame((Buzz(Tune.TURN),)), SEATS, {}))
        self.app.redraw()
        assert isinstance(self.app.session.state, CountingState)
        self.disk = self.journal._flusher = SlowDisk()
        self.waiting = threading.Event()  # the loop waits for the commit
        settle = self.journal.settle

        def settling() -> bool:
            if self.journal._flight is not None:
                self.waiting.set()
            return settle()

        self.journal.settle = settling  # type: ignore[method-assign]
        self.steps: list[threading.Thread] = []

    def press_in_background(self, seat: int) -> threading.Thread:
        edge = ButtonEdge(seat, ButtonName.ACT, True, self.clock())
        step = threading.Thread(target=self.app.step, args=(edge,))
        self.steps.append(step)
        step.start()
        assert self.waiting.wait(HANG_GUARD), "the press never waited for the journal"
        return step

    def transfers(self, seat: int) -> int:
        return len(self.headless.buses[seat].transfers)

    def journaled(self) -> int:
        with sqlite3.connect(self.path) as db:
            count = db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
        db.close()
        return count


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    clock = FakeClock()
    with HeadlessTable(SEATS, lambda event: None, clock=clock) as headless:
        made = Table(headless, clock, tmp_path)
        yield made
        made.disk.go.set()
        for step in made.steps:  # the journal is the loop's alone: closed once it is done
            step.join(HANG_GUARD)
        made.journal.close()


def test_a_press_is_drawn_while_the_disk_flushes_and_sent_once_it_is_durable(table, monkeypatch):
    """While the commit is on its way the presser's new screen is already drawn, yet not a
    byte reaches any seat and no tune sounds; once the disk answers, the action is in the
    file and the screens and the tune follow."""
    drawn: list[str] = []
    render = screens.render
    monkeypatch.setattr(screens, "render", lambda face: drawn.append(face.text()) or render(face))
    before = {seat: table.transfers(seat) for seat in SEATS}
    tunes, journaled = len(table.app.effects.tunes), table.journaled()

    step = table.press_in_background(2)

    assert any("Count 1" in text for text in drawn)  # the presser's screen, drawn meanwhile
    assert {seat: table.transfers(seat) for seat in SEATS} == before
    assert table.app.effects.tunes[tunes:] == []
    table.disk.go.set()
    step.join(HANG_GUARD)
    assert not step.is_alive()
    assert table.journaled() == journaled + 1
    assert all(table.transfers(seat) > before[seat] for seat in SEATS)
    assert table.app.effects.tunes[tunes:] == [Tune.TURN]


def test_the_presser_s_screen_is_on_its_way_before_the_press_s_tune(table, monkeypatch):
    """Once the commit returns, the presser's screen goes to its bus first: the tune the
    press held back plays after it (nothing of the presser's frame waits for the buzzer),
    and every other seat's screen after the tune."""
    heard: list[dict[int, int]] = []
    buzz = table.app.effects.buzz

    def buzzing(tune: str, at: float) -> None:
        heard.append({seat: table.transfers(seat) for seat in SEATS})
        buzz(tune, at)

    monkeypatch.setattr(table.app.effects, "buzz", buzzing)
    before = {seat: table.transfers(seat) for seat in SEATS}
    step = table.press_in_background(2)
    table.disk.go.set()
    step.join(HANG_GUARD)
    assert len(heard) == 1
    assert heard[0][2] > before[2]
    assert {seat: heard[0][seat] for seat in SEATS if seat != 2} == \
        {seat: before[seat] for seat in SEATS if seat != 2}
    assert all(table.transfers(seat) > before[seat] for seat in SEATS)


def test_a_commit_the_disk_refuses_is_told_in_the_same_step(table):
    """The disk refuses the commit while the loop draws: the game goes on, and every seat
    says it is not saving at once, not at some later press."""
    table.disk.refuse = True
    step = table.press_in_background(1)
    table.disk.go.set()
    step.join(HANG_GUARD)
    assert not step.is_alive()
    assert table.app.session.state.count == 1
    for seat in SEATS:
        assert "Not saving" in table.app.screens.faces[seat].text()
    assert table.journal.behind
