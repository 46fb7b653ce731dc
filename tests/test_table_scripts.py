"""Every table script in tests/scripts plays to its end on the headless table."""

from pathlib import Path

import pytest

from companion.script_cli import run_script

SCRIPTS = sorted((Path(__file__).parent / "scripts").glob("*.table"))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_script_plays_to_the_end(path):
    """Each script's expectations hold, line by line, on mock pins and luma drivers."""
    app, count = run_script(path.read_text(encoding="utf-8"), path.stem)
    assert count > 0


def test_whole_staying_alive_game_ends_in_a_win():
    """The win script really ends the game as a win, every seat offered a new game."""
    path = Path(__file__).parent / "scripts" / "staying_alive_win.table"
    app, _ = run_script(path.read_text(encoding="utf-8"), path.stem)
    assert app.session.state is not None and app.session.state.is_terminal()
    assert app.session.state.result().startswith("Win")
