"""The hourglass in play: when it next needs the companion, and what happens then.

The play phases share one deadline: the moment the sand runs out, or sooner the next staged
warning. Passing it either loses the game or buzzes the warning reached.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Buzz, Effect
from engine.cues import Tune
from engine.games.staying_alive import end

if TYPE_CHECKING:
    from engine.games.staying_alive.state import StayingAliveState

# Staged warnings: (seconds left, tune); the last one reached is the one played.
WARNINGS = ((30.0, Tune.WARNING), (10.0, Tune.ALARM))


def hourglass_deadline(state: StayingAliveState) -> float | None:
    """The expiry, or sooner the next warning (already past right after a late flip)."""
    expiry = state.hourglass.expiry()
    if expiry is None:
        return None
    return min([expiry, *(expiry - left for left, _ in _pending_warnings(state))])


def sand_runs_down(state: StayingAliveState, now: float) -> list[Effect]:
    """The sand ran out (the game is lost) or a warning was reached (once per run-down)."""
    if state.sand_ran_out(now):
        return end.hourglass_ran_out(state, now)
    expiry = state.hourglass.expiry()
    if expiry is None:
        return []
    reached = [(left, tune) for left, tune in _pending_warnings(state) if now >= expiry - left]
    if not reached:
        return []
    state.warned |= {left for left, _ in reached}
    return [Buzz(min(reached)[1])]


def _pending_warnings(state: StayingAliveState) -> list[tuple[float, Tune]]:
    if state.options["warnings"] == "off":
        return []
    return [(left, tune) for left, tune in WARNINGS if left not in state.warned]
