"""Bad input never breaks the table: button storms, stuck buttons, failing displays, bad
scripts. (table.toml fuzzing lives in test_config.py.)"""

from __future__ import annotations

import errno
import hashlib

import pytest

from companion.cli import main
from companion.exc import ScriptError
from companion.render import render
from companion.script_cli import run_script
from engine.rng import SeededRandom
from hardware.base import ButtonName
from hardware.drivers.planner import page_bytes
from tests.secrecy import Table, assert_table_keeps_secrets, random_table_step
from tests.test_oled import Ram

STORM_EDGES = 250
GAMES = ["they-live", "heroes-love-to-lie", "staying-alive"]


def _player(text: str) -> SeededRandom:
    return SeededRandom(hashlib.sha256(text.encode()).digest())


def _assert_sound(table: Table) -> None:
    """The game in play is exactly its journaled actions replayed, and keeps its secrets."""
    app = table.app
    if app.session.state is not None:
        now = table.clock()
        replayed = app.session.record.replay(now=now)
        assert [replayed.view(s, now) for s in app.session.state.seats] == \
               [app.session.state.view(s, now) for s in app.session.state.seats]
    assert_table_keeps_secrets(table)


@pytest.mark.parametrize("key", GAMES)
def test_bad_input_button_storm_never_breaks_the_table(key: str) -> None:
    """Random presses, releases and holds on every seat's pins at random moments: no crash,
    and the state is always the replay of the actions taken."""
    player = _player(f"storm {key}")
    with Table(seats=5) as table:
        table.start(key, 4)
        for _ in range(STORM_EDGES):
            seat = player.between(1, 5)
            button = player.choice([ButtonName.ACT, ButtonName.PEEK])
            table.press(seat, button, bool(player.below(2)))
            table.wait(player.choice([0.0, 0.002, 0.01, 0.03, 0.2, 0.5, 2.0]))
            _assert_sound(table)
        for seat in range(1, 6):  # let go of everything: the table settles
            for button in ButtonName:
                table.press(seat, button, False)
        table.wait(1.0)
        assert not any(ui.peeking for ui in table.app.ui.values())


def test_bad_input_stuck_act_is_ignored_while_others_play() -> None:
    """An ACT held 31 s is named on its seat, does nothing, and the other seats play on."""
    with Table(seats=4) as table:
        table.start("mind-invaders", 4)
        entries = len(table.app.session.record.entries)
        table.press(1, ButtonName.ACT, True)
        table.wait(31.0)
        assert "ACT stuck" in table.app.screens.faces[1].text()
        # the press itself, nothing more
        assert len(table.app.session.record.entries) == entries + 1
        table.choose(2, table.app.actions(2)[0].id)
        assert len(table.app.session.record.entries) == entries + 2
        table.press(1, ButtonName.ACT, False)
        table.wait(0.1)
        assert "stuck" not in table.app.screens.faces[1].text()


def test_bad_input_stuck_peek_does_not_keep_a_secret_on_screen() -> None:
    """A PEEK stuck down is concealed at the longest peek and stays public while stuck."""
    with Table(seats=4) as table:
        table.start("they-live", 4)
        table.press(3, ButtonName.PEEK, True)
        table.wait(31.0)
        assert not table.app.ui[3].peeking and "PEEK stuck" in table.app.screens.faces[3].text()
        assert_table_keeps_secrets(table)
        table.press(3, ButtonName.PEEK, False)
        table.wait(0.1)
        assert "stuck" not in table.app.screens.faces[3].text()


def test_bad_input_displays_failing_at_random_never_stop_the_game() -> None:
    """Buses fail and recover at random through a game: no crash, the failed seats are
    marked offline, and once back every seat's RAM holds exactly its face."""
    player = _player("failing displays")
    with Table(seats=4) as table:
        table.start("they-live", 4)
        for _ in range(150):
            if table.app.session.state.is_terminal():
                break
            bus = table.headless.buses[player.between(1, 4)]
            if player.below(3) == 0:
                bus.fail_with(OSError(errno.EREMOTEIO, "Remote I/O error"))
            else:
                bus.recover()
            random_table_step(table, player, system=False)
            assert_table_keeps_secrets(table)
        for bus in table.headless.buses.values():
            bus.recover()
        table.wait(5.0)
        for number, bus in table.headless.buses.items():
            assert table.app.links.is_up(number)
            ram = Ram("ssd1306").feed(bus.transfers)
            assert ram.visible() == page_bytes(render(table.app.screens.faces[number]))


@pytest.mark.parametrize(("script", "line", "words"), [
    ("table 2\n\n# a comment\npress 9 act\n", 4, "'9' is not a seat at this table"),
    ("table 2\npress 1 elbow\n", 2, "not a button"),
    ("table 2\nwait soon\n", 2, "not a duration"),
    ("table 2\njoin 1\nchoose 1 \"Fly away\"\n", 3, "not offered 'Fly away'"),
    ("table 2\ntap 1 act\nexpect 2 \"unclosed\n", 3, "cannot read this line"),
    ("table nine\n", 1, "table: 1 to 8 seats"),
    ("key 12\n", 1, "key: 32 bytes in hex"),
    ("table 2\ntap 1 act now\n", 2, "'tap' takes other words: write tap SEAT"),
    ("table 2\nwait\n", 2, "write wait DURATION"),
    ("table 2\nexpect tune\n", 2, "write expect tune NAME"),
    ("table 2\nexpect offline 1 2\n", 2, "write expect offline SEAT"),
    ("table 2\nexpect 7 \"Join\"\n", 2, "'7' is not a seat at this table: write a number"),
    ("table 2\nexpect presses at most offline\n", 2, "write: expect presses at most N"),
])
def test_bad_input_script_error_names_its_line(script: str, line: int, words: str) -> None:
    """A table script's mistake is reported with the line it is on and what is wrong."""
    with pytest.raises(ScriptError, match=f"line {line}: .*{words}"):
        run_script(script)


def test_bad_input_script_command_reports_file_and_line(tmp_path, capsys) -> None:
    """``companion script`` names the file and line and exits non-zero, no traceback."""
    path = tmp_path / "broken.table"
    path.write_text("table 2\njoin 1\nexpect 1 \"Nobody\"\n")
    assert main(["script", str(path)]) != 0
    err = capsys.readouterr().err
    assert f"{path}:3: seat 1 does not show 'Nobody'" in err and "Traceback" not in err
