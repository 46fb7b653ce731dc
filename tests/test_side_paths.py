"""Secrets on the side paths: undo, resume, pause, the menus, new games, game over, the public
screen and the terminal simulator, all on the app as a table runs it.

Every check reads what the app actually drew (its faces, their pixels), what it handed the
public screen, what it wrote as status lines and what it logged.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import queue
import re

import pytest

from companion.app import App
from companion.clock import FakeClock
from companion.game_mode import SETTLE
from companion.journal_chain import history_digest
from companion.journal_sqlite import SqliteJournal
from companion.lobby import StartGame
from companion.render import render
from engine import registry
from engine.phases import ENDED_EARLY
from engine.rng import SeededRandom, commitment
from hardware.base import ButtonName, Code
from hardware.terminal.braille import braille_rows
from hardware.terminal.table import TerminalTable
from tests.dealing import deal
from tests.secrecy import (
    Table,
    assert_no_leak,
    assert_table_keeps_secrets,
    generator_positions,
    random_table_step,
)

KEYS = [game.key for game in registry.all_games()]
STEPS = 50
NOT_LEAVING = ("sys:end", "sys:yes", "sys:lobby", "sys:again")


def _player(text: str) -> SeededRandom:
    return SeededRandom(hashlib.sha256(text.encode()).digest())


def _players(key: str) -> int:
    game = registry.get(key)
    return min(game.max_players, max(game.min_players, 4))


def _staying_step(table: Table, player: SeededRandom) -> None:
    """A random step that never leaves the game (no End game, no New game)."""
    app = table.app
    active = sorted(app.session.state.active_seats())
    seat = player.choice(active if active and player.below(4) else app.session.state.seats)
    actions = [a for a in app.actions(seat) if a.id not in NOT_LEAVING]
    if actions:
        table.choose(seat, player.choice(actions).id)
    table.wait(player.below(4))


def _peek(table: Table, seat: int, player: SeededRandom) -> None:
    """Hold PEEK past the hold time on the seat's pins; the checks run while it is held."""
    table.press(seat, ButtonName.PEEK, True)
    table.wait(0.5)
    assert table.app.ui[seat].peeking
    assert_table_keeps_secrets(table)
    table.press(seat, ButtonName.PEEK, False)
    table.wait(0.1 * player.below(3))


def _all_secrets(table: Table) -> frozenset[str]:
    state = table.app.session.state
    return state.secrets_hidden_from(None) if state is not None else frozenset()


@pytest.mark.parametrize("key", KEYS)
def test_side_paths_pause_undo_and_peeks_keep_secrets(key: str, caplog) -> None:
    """Random play with pauses, undos and peeks: no face, pixel, public view, status line or
    log line shows a secret of that moment."""
    caplog.set_level(logging.DEBUG)
    player = _player(f"side paths {key}")
    with Table(seats=_players(key)) as table:
        table.start(key, _players(key))
        dealt = table.deal_secrets()
        everything: set[str] = set()
        for _ in range(STEPS):
            if table.app.session.state.is_terminal():
                break
            _staying_step(table, player)
            everything |= _all_secrets(table)
            assert_table_keeps_secrets(table)
            if player.below(5) == 0:
                _peek(table, player.choice(table.app.session.state.seats), player)
        assert_no_leak([caplog.text], everything | dealt, "the log")


@pytest.mark.parametrize("key", KEYS)
def test_side_paths_undo_gives_back_the_exact_state(key: str) -> None:
    """Undo returns every screen and the generator to where they were: it cannot re-deal."""
    player = _player(f"undo {key}")
    undone = 0
    with Table(seats=_players(key)) as table:
        state = table.start(key, _players(key))
        for _ in range(STEPS * 2):
            app = table.app
            if app.session.state.is_terminal() or undone >= 5:
                break
            current = app.session.state
            seat = player.choice(sorted(current.active_seats()) or current.seats)
            undoable = [a for a in app.session.state.legal_actions(seat)
                        if app.session.state.is_undoable(seat, a.id)]
            if undoable and player.below(2):
                before = _snapshot(table)
                table.choose(seat, player.choice(undoable).id)
                table.choose(seat, "sys:undo")
                assert _snapshot(table) == before
                assert_table_keeps_secrets(table)
                undone += 1
            else:
                _staying_step(table, player)
        assert undone or state.is_terminal(), f"{key}: no undoable action came up"


def _snapshot(table: Table) -> tuple:
    state = table.app.session.state
    now = table.clock()
    views = [state.view(seat, now) for seat in (*state.seats, None)]
    return views, generator_positions(state), len(table.app.session.record.entries)


@pytest.mark.parametrize("key", KEYS)
def test_side_paths_resume_from_the_journal_keeps_secrets(key: str, tmp_path, caplog) -> None:
    """After a crash the table comes back with the same game, blank first, no secret shown,
    and nothing secret in the notices or the log."""
    caplog.set_level(logging.DEBUG)
    path = tmp_path / "journal.sqlite3"
    player = _player(f"resume {key}")
    crashed = Table(seats=_players(key), journal=SqliteJournal(path))
    crashed.start(key, _players(key))
    for _ in range(30):
        if crashed.app.session.state.is_terminal():
            break
        _staying_step(crashed, player)
    before = crashed.app.session.state
    seen = before.secrets_hidden_from(None) | crashed.deal_secrets()
    crashed.app.session.journal.close()
    crashed.close()  # the process is gone: no clean close of the app
    with Table(seats=_players(key), journal=SqliteJournal(path)) as table:
        if before.is_terminal():
            assert table.app.session.state is None
            return
        state = table.app.session.state
        assert state.secrets_hidden_from(None) == before.secrets_hidden_from(None)
        assert_table_keeps_secrets(table, seen)
        assert_no_leak(table.app.session.journal.notices, seen, "a journal notice")
        table.choose(state.seats[0], "sys:resume")
        assert_table_keeps_secrets(table, seen)
        _peek(table, state.seats[-1], player)
    assert_no_leak([caplog.text], seen, "the log")
    assert os.stat(path).st_mode & 0o077 == 0


@pytest.mark.parametrize("key", KEYS)
def test_side_paths_end_game_leaves_no_secret_behind(key: str) -> None:
    """Ending a game early (End game, yes) ends it as the rules end a game: over, its
    outcome saying so, and no screen tells more than the rules reveal at the end, then or
    in the lobby after it."""
    player = _player(f"end {key}")
    with Table(seats=_players(key)) as table:
        table.start(key, _players(key))
        for _ in range(20):
            if table.app.session.state.is_terminal():
                break
            _staying_step(table, player)
        if table.app.session.state.is_terminal():
            return
        seat = table.app.session.state.seats[0]
        table.choose(seat, "sys:end")
        table.choose(seat, "sys:yes")
        over = table.app.session.state
        assert over is not None and over.result() == ENDED_EARLY
        hidden = over.secrets_hidden_from(None)  # the rules' own: what the end leaves hidden
        table.wait(5)
        assert_table_keeps_secrets(table, hidden)
        table.wait(SETTLE)
        table.choose(seat, "sys:lobby")
        table.choose(seat, "sys:yes")
        assert table.app.session.state is None
        table.wait(5)
        assert_table_keeps_secrets(table, hidden)


@pytest.mark.parametrize("key", KEYS)
def test_side_paths_key_revealed_only_at_the_end(key: str) -> None:
    """The commitment stays on the public screen all game, the companion's key (and the
    seed) stay hidden until the game is over, then the key is on every PEEK; Play again
    draws a new key and cuts again, and that deal's secrets stay hidden."""
    player = _player(f"over {key}")
    players = max(2, registry.get(key).min_players)
    with Table(seats=players) as table:
        table.start(key, players)
        dealt = table.app.session.record
        assert table.public.pages[-1].code == Code("Commitment", commitment(dealt.key))
        rows = [dealt.key.hex()[i : i + 16] for i in range(0, 64, 16)]
        for _ in range(3000):
            if table.app.session.state.is_terminal():
                break
            assert_table_keeps_secrets(table, frozenset(rows) | table.deal_secrets())
            random_table_step(table, player, system=False)
        assert table.app.session.state.is_terminal()
        assert_table_keeps_secrets(table)  # what the end reveals is the end's to reveal
        seat = table.app.session.state.seats[0]
        table.press(seat, ButtonName.PEEK, True)
        table.wait(0.5)
        shown = table.app.screens.faces[seat].text()
        assert all(row in shown for row in rows), shown
        table.press(seat, ButtonName.PEEK, False)
        table.wait(0.1)
        assert_table_keeps_secrets(table)
        assert table.public.pages[-1].code == \
            Code("Key, digest", dealt.key.hex() + history_digest(dealt))
        table.wait(2)  # presses in the first 2 s after the end are ignored
        table.choose(seat, "sys:again")
        assert table.app.session.record.key == dealt.key  # asked, not dealt: "Play again?"
        table.choose(seat, "sys:yes")
        if dealt.cut_in_play:  # a new key is committed to; the players cut as they play
            assert not table.app.session.state.dealt and table.app.session.record.seed == b""
        else:
            # the players cut first
            assert table.app.session.state is None and table.app.session.record is None
            for cutter in dealt.seats:
                table.choose(cutter, "cut")
        again = table.app.session.record
        assert again.key != dealt.key and again.seed != dealt.seed
        assert not table.app.session.state.is_terminal()
        assert_table_keeps_secrets(table, table.deal_secrets())


def test_side_paths_terminal_simulator_shows_only_checked_faces() -> None:
    """The terminal draws exactly the faces the app checked, and its text holds no secret."""
    read_end, write_end = os.pipe()
    out = io.StringIO()
    clock, events = FakeClock(), queue.Queue()
    player = _player("terminal")
    with open(read_end, "rb", buffering=0) as keys, TerminalTable(
            range(1, 5), events.put, out=out, inp=keys, clock=clock, size=(200, 60)) as terminal:
        app = App(terminal.hardware(), clock=clock, on_status=terminal.set_status,
                  key_source=lambda n: b"terminal key 0123456789abcdef012")
        app.start()
        deal(app, StartGame(registry.get("they-live"), (1, 2, 3, 4), {}), clock())
        shown = 0
        for _ in range(60):
            state = app.session.state
            if state.is_terminal():
                break
            seat = player.choice(sorted(state.active_seats()) or state.seats)
            actions = [a for a in app.actions(seat) if a.id not in NOT_LEAVING]
            app.choose(seat, player.choice(actions).id, clock())
            clock.advance(player.below(4))
            app.advance()
            shown = _assert_terminal_matches(terminal, app, out.getvalue(), shown)
    os.close(write_end)


def _assert_terminal_matches(terminal: TerminalTable, app: App, text: str, start: int) -> int:
    """The seats' braille is the checked faces' pixels; the new text holds no secret."""
    for seat, face in app.screens.faces.items():
        assert terminal._rows[seat] == braille_rows(render(face)), f"seat {seat}"
    words = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|[\u2800-\u28ff]", "", text[start:])
    assert_no_leak([words], app.session.state.secrets_hidden_from(None), "the terminal")
    return len(text)
