"""No secret reaches a log: every game script is replayed with logging captured at DEBUG.

A game's secrets change as it runs (an identity is public once its player dies), so the
scripts are stepped one command at a time and each command's log lines are checked against
the phrases that are still secret from the table once that command has played out.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from companion.script_cli import ScriptSession

SCRIPTS_DIR = Path(__file__).parent / "scripts"
GAME_PREFIXES = ("they_live_", "heroes_", "mind_invaders_", "alter_ego_")
SCRIPTS = sorted(p for p in SCRIPTS_DIR.glob("*.table") if p.name.startswith(GAME_PREFIXES))


def _hidden_now(session: ScriptSession) -> frozenset[str]:
    state = session.app.session.state
    return state.secrets_hidden_from(None) if state is not None else frozenset()


def _leaks(lines: list[str], hidden: frozenset[str]) -> list[tuple[str, str]]:
    return [(phrase, line) for line in lines for phrase in hidden if phrase in line]


def play_checking_logs(path: Path, caplog: pytest.LogCaptureFixture) -> int:
    """Play ``path`` command by command; returns how many secrets were checked in all."""
    checked = 0
    with ScriptSession(path.read_text(encoding="utf-8"), path.stem) as session:
        for command in session.commands:
            first = len(caplog.records)
            session.runner.run([command])
            hidden = _hidden_now(session)
            lines = [record.getMessage() for record in caplog.records[first:]]
            leaks = _leaks(lines, hidden)
            assert not leaks, f"{path.name} line {command.line}: secret in a log: {leaks}"
            checked += len(hidden)
    return checked


def test_game_logs_scripts_exist_for_every_hidden_information_game() -> None:
    """Each game with secrets has at least one whole-game script to check."""
    names = [p.name for p in SCRIPTS]
    for prefix in GAME_PREFIXES:
        assert any(name.startswith(prefix) for name in names), prefix


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_game_logs_hold_no_secret_at_any_moment(path: Path, caplog) -> None:
    """No DEBUG-or-louder log line written while the script plays names a hidden secret."""
    caplog.set_level(logging.DEBUG)
    checked = play_checking_logs(path, caplog)
    assert checked > 0, "the script never had a secret to keep"


def test_game_logs_check_catches_a_leak(caplog) -> None:
    """A log line naming a secret that is still hidden fails the check."""
    caplog.set_level(logging.DEBUG)
    hidden = frozenset({"Seat 3: Invader"})
    logging.getLogger("companion.app").debug("dealt: Seat 3: Invader")
    lines = [record.getMessage() for record in caplog.records]
    assert _leaks(lines, hidden) == [("Seat 3: Invader", "dealt: Seat 3: Invader")]
