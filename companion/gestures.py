"""From raw, bouncing button edges to what a player meant: a press, a tap, a hold.

Debounce is on the leading edge (docs/ARCHITECTURE.md §4): the first edge is accepted at
once, so a press costs no latency, then the button is locked out for ``LOCKOUT`` seconds; when
the lockout ends the last raw level is compared with the accepted one, so a release that
bounced inside the lockout is still seen. A button held longer than ``STUCK_AFTER`` is
reported stuck and ignored until it is let go.

Two-button seats: ACT acts on the press; a PEEK released before ``HOLD_TIME`` is a tap (move
the highlight), held longer it shows the seat's secret until released. An ACT pressed while
PEEK is down is a PAGE, never an ACT: a player reading the secret presses ACT to turn its
page, and that must not change the game behind the secret face. An ACT held on a two-button
seat repeats like a keyboard's key: a REPEAT after ``REPEAT_DELAY``, every ``REPEAT_SLOW``
seconds, every ``REPEAT_FAST`` once it has repeated for ``SLOW_FOR`` seconds, until released.
The reader does not know what ACT does: the app takes a REPEAT only for a count's step
(``Action.counts``) and otherwise stops the repeats (:meth:`GestureReader.stop_repeat`), so
nothing that cannot be taken back is ever done twice by one press. One-button seats: a short
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
# A held ACT's repeats, in seconds: binary fractions, so the moments add up exactly. Held
# 1.9 s, a count moves by 9 (the press, 4 slow repeats from 0.5 s, 4 fast from 1.5 s); held
# 2.9 s, by 17.
REPEAT_DELAY = 0.5
REPEAT_SLOW = 0.25
SLOW_FOR = 1.0
REPEAT_FAST = 0.125


class Gesture(enum.Enum):
    ACT = "act"  # do the highlighted action
    REPEAT = "repeat"  # ACT still held: again, if the action is a count's step
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
    repeat_at: float | None = None  # a held ACT's next REPEAT


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
                if state.repeat_at is not None:
                    moments.append(state.repeat_at)
        return min(moments, default=None)

    def advance(self, now: float) -> list[SeatGesture]:
        out: list[SeatGesture] = []
        for (seat, button), state in self._buttons.items():
            if now >= state.lockout_until and state.raw != state.level:
                out += self._accept(seat, button, state, state.raw, max(now, state.lockout_until))
            if state.level and state.pressed_at is not None and not state.stuck:
                out += self._timed(seat, button, state, now)
        return out

    def stop_repeat(self, seat: int) -> None:
        """The held ACT of ``seat`` repeats no more until it is pressed again."""
        state = self._buttons.get((seat, ButtonName.ACT))
        if state is not None:
            state.repeat_at = None

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
            return self._on_press(seat, button, state, at)
        out = self._on_release(seat, button, state, at)
        state.pressed_at, state.holding, state.repeat_at = None, False, None
        return out

    def _on_press(
        self, seat: int, button: ButtonName, state: _Button, at: float
    ) -> list[SeatGesture]:
        if button is ButtonName.ACT and seat not in self.one_button_seats:
            gesture = Gesture.PAGE if self.held(seat, ButtonName.PEEK) else Gesture.ACT
            state.repeat_at = at + REPEAT_DELAY if gesture is Gesture.ACT else None
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
        while state.repeat_at is not None and state.repeat_at <= min(
                now, state.pressed_at + STUCK_AFTER):
            out.append(SeatGesture(seat, Gesture.REPEAT, state.repeat_at, button))
            held = state.repeat_at - state.pressed_at
            state.repeat_at += REPEAT_SLOW if held < REPEAT_DELAY + SLOW_FOR else REPEAT_FAST
        if now >= state.pressed_at + STUCK_AFTER:
            if state.holding:
                out.append(SeatGesture(seat, Gesture.PEEK_END, now, button))
            state.stuck, state.holding, state.repeat_at = True, False, None
            out.append(SeatGesture(seat, Gesture.STUCK, now, button))
        return out
