"""From raw, bouncing button edges to what a player meant: a press, a tap, a hold.

Debounce is on the leading edge (docs/ARCHITECTURE.md §4): the first edge is accepted at
once, so a press costs no latency, then the button is locked out for ``LOCKOUT`` seconds; when
the lockout ends the last raw level is compared with the accepted one, so a release that
bounced inside the lockout is still seen. A button held longer than ``STUCK_AFTER`` is
reported stuck and ignored until it is let go.

Two-button seats: ACT acts on the press; a PEEK released before ``HOLD_TIME`` is a tap (move
the highlight), held longer it shows the seat's secret until released. An ACT pressed while
PEEK is down is a PAGE, never an ACT: a player reading the secret presses ACT to turn its
page, and that must not change the game behind the secret face. One-button seats: a short
press is ACT (on release, since a hold must be told apart), a hold is PEEK.

Everything here is driven by ``now`` values and reports its next deadline, so the app loop
sleeps until exactly then and tests run on a fake clock.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from hardware.base import ButtonEdge, ButtonName

LOCKOUT = 0.025
HOLD_TIME = 0.4
STUCK_AFTER = 30.0


class Gesture(enum.Enum):
    ACT = "act"  # do the highlighted action
    PAGE = "page"  # ACT while PEEK is down: turn the secret's page, never act
    NEXT = "next"  # move the highlight
    PEEK_START = "peek-start"
    PEEK_END = "peek-end"
    STUCK = "stuck"  # a button held past STUCK_AFTER: reported, then ignored
    UNSTUCK = "unstuck"


@dataclass(frozen=True)
class SeatGesture:
    seat: int
    gesture: Gesture
    at: float
    button: ButtonName | None = None


@dataclass
class _Button:
    level: bool = False  # the accepted (debounced) level
    raw: bool = False  # the last raw level seen
    lockout_until: float = float("-inf")
    pressed_at: float | None = None
    holding: bool = False  # passed HOLD_TIME while pressed
    stuck: bool = False


@dataclass
class GestureReader:
    """Turns :class:`ButtonEdge` events into :class:`SeatGesture` events for many seats."""

    one_button_seats: frozenset[int] = frozenset()
    _buttons: dict[tuple[int, ButtonName], _Button] = field(default_factory=dict)

    def edge(self, edge: ButtonEdge) -> list[SeatGesture]:
        state = self._buttons.setdefault((edge.seat, edge.button), _Button())
        state.raw = edge.pressed
        if edge.at < state.lockout_until or edge.pressed == state.level:
            return []
        return self._accept(edge.seat, edge.button, state, edge.pressed, edge.at)

    def next_deadline(self) -> float | None:
        moments = []
        for (seat, button), state in self._buttons.items():
            if state.lockout_until != float("-inf") and state.raw != state.level:
                moments.append(state.lockout_until)
            if state.level and state.pressed_at is not None and not state.stuck:
                if not state.holding and self._peek_like(seat, button):
                    moments.append(state.pressed_at + HOLD_TIME)
                moments.append(state.pressed_at + STUCK_AFTER)
        return min(moments, default=None)

    def advance(self, now: float) -> list[SeatGesture]:
        out: list[SeatGesture] = []
        for (seat, button), state in self._buttons.items():
            if now >= state.lockout_until and state.raw != state.level:
                out += self._accept(seat, button, state, state.raw, max(now, state.lockout_until))
            if state.level and state.pressed_at is not None and not state.stuck:
                out += self._timed(seat, button, state, now)
        return out

    def held(self, seat: int, button: ButtonName) -> bool:
        state = self._buttons.get((seat, button))
        return bool(state and state.level and not state.stuck)

    # --- internals ---------------------------------------------------------------------------

    def _peek_like(self, seat: int, button: ButtonName) -> bool:
        return button is ButtonName.PEEK or seat in self.one_button_seats

    def _accept(
        self, seat: int, button: ButtonName, state: _Button, pressed: bool, at: float
    ) -> list[SeatGesture]:
        state.level = pressed
        state.lockout_until = at + LOCKOUT
        if pressed:
            state.pressed_at, state.holding = at, False
            return self._on_press(seat, button, at)
        out = self._on_release(seat, button, state, at)
        state.pressed_at, state.holding = None, False
        return out

    def _on_press(self, seat: int, button: ButtonName, at: float) -> list[SeatGesture]:
        if button is ButtonName.ACT and seat not in self.one_button_seats:
            gesture = Gesture.PAGE if self.held(seat, ButtonName.PEEK) else Gesture.ACT
            return [SeatGesture(seat, gesture, at, button)]
        return []

    def _on_release(
        self, seat: int, button: ButtonName, state: _Button, at: float
    ) -> list[SeatGesture]:
        if state.stuck:
            state.stuck = False
            return [SeatGesture(seat, Gesture.UNSTUCK, at, button)]
        if state.holding:
            return [SeatGesture(seat, Gesture.PEEK_END, at, button)]
        if seat in self.one_button_seats:
            return [SeatGesture(seat, Gesture.ACT, at, button)]
        if button is ButtonName.PEEK:
            return [SeatGesture(seat, Gesture.NEXT, at, button)]
        return []

    def _timed(
        self, seat: int, button: ButtonName, state: _Button, now: float
    ) -> list[SeatGesture]:
        assert state.pressed_at is not None
        out: list[SeatGesture] = []
        peek_like = self._peek_like(seat, button)
        if not state.holding and now >= state.pressed_at + HOLD_TIME and peek_like:
            state.holding = True
            out.append(SeatGesture(seat, Gesture.PEEK_START, state.pressed_at + HOLD_TIME, button))
        if now >= state.pressed_at + STUCK_AFTER:
            if state.holding:
                out.append(SeatGesture(seat, Gesture.PEEK_END, now, button))
            state.stuck, state.holding = True, False
            out.append(SeatGesture(seat, Gesture.STUCK, now, button))
        return out
