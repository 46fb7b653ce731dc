"""A pod's buttons: debounced on the leading edge, and a one-button pod's hold made PEEK.

The first edge counts at once and the level is then locked for LOCKOUT_MS, so a press costs
no delay and contact bounce never reaches the link. A pod with one button behaves like a
two-button seat to the Pi: a short press is an ACT press and release, a press held past
HOLD_MS becomes a PEEK press (stamped when the hold began) until it is released.
"""

LOCKOUT_MS = 25
HOLD_MS = 400
ACT, PEEK = 0, 1  # the indices wire.BUTTONS gives the buttons on the wire


class Debounced:
    """One button wired to ground with the pin's pull-up: pressed reads 0."""

    def __init__(self, pin) -> None:
        self.pin = pin
        self.pressed = False
        self._locked_until = 0

    def poll(self, now: int) -> bool:
        """True when the accepted level changed at ``now`` (ms)."""
        raw = self.pin.value() == 0
        if raw == self.pressed or now < self._locked_until:
            return False
        self.pressed = raw
        self._locked_until = now + LOCKOUT_MS
        return True


class SeatButtons:
    """ACT and (optional) PEEK; ``poll`` gives ``(button, pressed, at_ms)`` edges."""

    def __init__(self, act_pin, peek_pin=None) -> None:
        self.act = Debounced(act_pin)
        self.peek = Debounced(peek_pin) if peek_pin is not None else None
        self.levels = 0  # bit i: button i held, as last reported
        self._pressed_at = -1  # one-button pods: when the undecided press began

    def poll(self, now: int) -> list:
        if self.peek is not None:
            edges = []
            for index, button in ((ACT, self.act), (PEEK, self.peek)):
                if button.poll(now):
                    edges.append(self._edge(index, button.pressed, now))
            return edges
        return self._one_button(now)

    def _one_button(self, now: int) -> list:
        if self.act.poll(now):
            if self.act.pressed:
                self._pressed_at = now
                return []
            if self.levels & (1 << PEEK):
                return [self._edge(PEEK, False, now)]
            pressed_at, self._pressed_at = self._pressed_at, -1
            return [self._edge(ACT, True, pressed_at), self._edge(ACT, False, now)]
        if self._pressed_at >= 0 and now - self._pressed_at >= HOLD_MS:
            held_from, self._pressed_at = self._pressed_at + HOLD_MS, -1
            return [self._edge(PEEK, True, held_from)]
        return []

    def _edge(self, index: int, pressed: bool, at: int) -> tuple:
        if pressed:
            self.levels |= 1 << index
        else:
            self.levels &= ~(1 << index)
        return index, pressed, at
