"""Seeded random play of every game gives the same game it gave when the trace was recorded.

A refactor of the engine (how phases move, where a phase keeps its data) must change nothing
a player sees. Each game is played at random (the conformance player, tests/test_conformance.py)
for a few seeds, and at every step every seat's offers, every seat's view and the public one,
the effects, the refusal text of one stale action and at the end the outcome are written out
as plain data; the SHA-256 of that text is held against ``tests/golden/behaviour.json``.

To record the trace again after a deliberate change of behaviour, run this file once with
``TABLE_COMPANION_REGENERATE_GOLDEN=1`` (tests/golden.py) and say in the commit what changed.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from typing import Any

import pytest

from engine.exc import IllegalAction
from tests.golden import GOLDEN_DIR, regenerating
from tests.test_conformance import KEYS, RandomGame, _game

TRACE = GOLDEN_DIR / "behaviour.json"
SEEDS = range(600, 630)


def plain(value: Any) -> Any:
    """Any view, action or effect as JSON-ready data: a dataclass by its class name and
    fields, an enum by its value, so a change of representation alone changes nothing."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {type(value).__name__: fields}
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, frozenset | set):
        return sorted(plain(item) for item in value)
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    return value


def trace(key: str, number: int) -> list[Any]:
    play = RandomGame(_game(key), number)
    state = play.state
    lines: list[Any] = []
    for step in play.steps():
        seats = (*state.seats, None)
        lines.append({
            "step": [step.seat, step.action, step.now],
            "effects": plain(step.effects),
            "offers": [plain(state.legal_actions(seat)) for seat in state.seats],
            "views": [plain(state.view(seat, step.now)) for seat in seats],
            "refusal": _refusal(state, step.now),
            "deadline": state.next_deadline(),
        })
    lines.append({"outcome": state.result()})
    return lines


def _refusal(state: Any, now: float) -> list[Any]:
    """Why a seat may not take the step's first seat's first offer, for each seat refused."""
    told = []
    for seat in state.seats:
        for other in state.seats:
            offered = [a.id for a in state.legal_actions(other)]
            if offered and offered[0] not in {a.id for a in state.legal_actions(seat)}:
                told.append([seat, offered[0], state.why_not(seat, offered[0])])
                break
    return told


def digest(key: str) -> str:
    text = json.dumps([trace(key, n) for n in SEEDS], sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def _recorded() -> dict[str, str]:
    return json.loads(TRACE.read_text()) if TRACE.exists() else {}


@pytest.mark.parametrize("key", KEYS)
def test_behaviour_trace_is_unchanged(key: str) -> None:
    """Views, offers, effects, refusals and outcomes of seeded random play are as recorded."""
    got = digest(key)
    if regenerating():
        recorded = _recorded()
        recorded[key] = got
        TRACE.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
        return
    assert _recorded().get(key) == got, f"{key}: seeded random play changed"


def test_behaviour_trace_sees_a_changed_view() -> None:
    """The trace is not blind: one seed more or less gives another digest."""
    key = KEYS[0]
    one = json.dumps(trace(key, SEEDS[0]), sort_keys=True, default=repr)
    other = json.dumps(trace(key, SEEDS[1]), sort_keys=True, default=repr)
    assert one != other


def test_behaviour_trace_refuses_like_the_state() -> None:
    """A refusal is what the state says when apply refuses (the trace records real text)."""
    play = RandomGame(_game("they-live"), SEEDS[0])
    state = play.state
    told = next(found for step in play.steps() if (found := _refusal(state, step.now)))
    for seat, action_id, why in told:
        with pytest.raises(IllegalAction) as refused:
            state.apply(seat, action_id, 0.0)
        assert str(refused.value) == why
