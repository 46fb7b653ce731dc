"""The vibration motor and the optional piezo, stepped from the main loop (no threads)."""


class StepPlayer:
    """Plays ``(value, ms)`` steps; a new pattern replaces the one playing; 0 is quiet."""

    def __init__(self, output) -> None:
        self._output = output
        self._steps = []
        self._until = 0
        self.playing = False

    def start(self, steps: list, now: int) -> None:
        self._steps = list(steps)
        self._until = now
        self.playing = True
        self.step(now)

    def step(self, now: int) -> None:
        if not self.playing or now < self._until:
            return
        if not self._steps:
            self._output(0)
            self.playing = False
            return
        value, ms = self._steps.pop(0)
        self._output(value)
        self._until = now + ms


def vibration(pairs: list) -> list:
    """VIBRATE ``(on_ms, off_ms)`` pairs as motor steps."""
    steps = []
    for on_ms, off_ms in pairs:
        steps.append((1, on_ms))
        if off_ms:
            steps.append((0, off_ms))
    return steps


class Motor:
    """A vibration motor switched by a transistor on a GPIO."""

    def __init__(self, pin) -> None:
        self._pin = pin
        self.player = StepPlayer(self._drive)

    def _drive(self, on: int) -> None:
        self._pin.value(1 if on else 0)


class Piezo:
    """A passive piezo on a PWM pin: the value of a step is a frequency in Hz (0: rest).

    ``level`` (1..255, the seat's volume) scales the duty cycle: 255 is 50%, the loudest.
    """

    def __init__(self, pwm) -> None:
        self._pwm = pwm
        self._pwm.duty_u16(0)
        self.level = 255
        self.player = StepPlayer(self._sound)

    def _sound(self, hz: int) -> None:
        if hz:
            self._pwm.freq(hz)
            self._pwm.duty_u16(32768 * self.level // 255)
        else:
            self._pwm.duty_u16(0)
