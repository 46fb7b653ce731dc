"""Seat buttons, the table's buzzer and the seats' vibration motors on gpiozero.

Everything takes ``pin_factory=`` (None: gpiozero's default, chosen by ``GPIOZERO_PIN_FACTORY``)
so tests run the real gpiozero devices on ``MockFactory`` pins.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Generic, TypeVar

import gpiozero
from gpiozero.pins import Factory
from gpiozero.tones import Tone

from .. import tunes
from ..base import ButtonEdge, ButtonName, Buzzer, Sink, Vibrator
from ..closing import Closing

Clock = Callable[[], float]

# A passive piezo is loudest well above A4; two octaves around A5 span A3..A7.
PIEZO_MID_TONE = Tone("A5")
PIEZO_OCTAVES = 2

# What a buzzer sounds for one step: a note at a duty cycle (a passive piezo) or on (an active one).
Sound = tuple[Tone, float] | bool
V = TypeVar("V")



class SeatButtons(Closing):
    """A seat's ACT and (optional) PEEK buttons, wired to ground with the internal pull-ups.

    Every raw level change goes to ``sink`` as a :class:`ButtonEdge` stamped with ``clock()``;
    debounce and holds are the companion's business. The buttons are gpiozero
    ``DigitalInputDevice``s, not ``Button``s: a ``Button`` runs a hold-detection thread that
    wakes ten times a second, which we would pay for on every button and never use.
    """

    def __init__(
        self,
        seat: int,
        act: int,
        peek: int | None = None,
        *,
        sink: Sink,
        clock: Clock = time.monotonic,
        pin_factory: Factory | None = None,
    ) -> None:
        self.seat = seat
        self._sink = sink
        self._clock = clock
        self.buttons: dict[ButtonName, gpiozero.DigitalInputDevice] = {}
        try:
            self._attach(ButtonName.ACT, act, pin_factory)
            if peek is not None:
                self._attach(ButtonName.PEEK, peek, pin_factory)
        except BaseException:
            self.close()
            raise

    @property
    def one_button(self) -> bool:
        return ButtonName.PEEK not in self.buttons

    def close(self) -> None:
        for button in self.buttons.values():
            button.close()

    def _attach(self, name: ButtonName, pin: int, pin_factory: Factory | None) -> None:
        button = gpiozero.DigitalInputDevice(
            pin, pull_up=True, bounce_time=None, pin_factory=pin_factory
        )
        self.buttons[name] = button
        button.when_activated = partial(self._edge, name, True)
        button.when_deactivated = partial(self._edge, name, False)

    def _edge(self, name: ButtonName, pressed: bool) -> None:
        self._sink(ButtonEdge(self.seat, name, pressed, self._clock()))


class StepPlayer(Generic[V]):
    """Plays ``(value, seconds)`` steps on one long-lived daemon thread; a new sequence
    replaces the one playing.

    The app loop only hands a sequence over and notifies: no thread is created or joined per
    tune, which kept a turn change waiting on the scheduler for milliseconds. The player
    waits on a condition rather than sleeping, so a replacement takes effect at once.
    ``output(None)`` silences.
    """

    def __init__(self, output: Callable[[V | None], None], name: str) -> None:
        self._output = output
        self._changed = threading.Condition()
        self._next: tuple[tuple[V | None, float], ...] | None = None
        self._generation = 0
        self._closed = False
        self._quiet = threading.Event()
        self._quiet.set()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def start(self, steps: Sequence[tuple[V | None, float]]) -> None:
        with self._changed:
            self._next, self._generation = tuple(steps), self._generation + 1
            self._quiet.clear()
            self._changed.notify()

    def stop(self) -> None:
        """Silence now and end the thread: nothing drives the pin after this returns."""
        with self._changed:
            self._closed, self._generation = True, self._generation + 1
            self._changed.notify()
        self._thread.join()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the current sequence has finished; False if ``timeout`` ran out."""
        return self._quiet.wait(timeout)

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._next is not None or self._closed)
                steps, generation, self._next = self._next, self._generation, None
                if self._closed or steps is None:  # no steps only once closed
                    break
            self._play(steps, generation)
        self._output(None)
        self._quiet.set()

    def _play(self, steps: tuple[tuple[V | None, float], ...], generation: int) -> None:
        for value, seconds in steps:
            self._output(value)
            with self._changed:
                if self._changed.wait_for(lambda: self._generation != generation, seconds):
                    return  # replaced or closed: the next sequence (or silence) takes over
        self._output(None)
        with self._changed:
            if self._next is None:
                self._quiet.set()


class GpioBuzzer(Buzzer):
    """The shared buzzer: a passive piezo (``tonal``, plays notes) or an active one (beeps).

    A passive piezo is loudest at a 50% duty cycle; a quieter volume narrows the pulses
    (duty = volume / 2). An active buzzer has one loudness: any volume above 0 beeps.
    """

    def __init__(
        self, pin: int, *, tonal: bool = True, pin_factory: Factory | None = None
    ) -> None:
        self._tonal = tonal
        if tonal:
            self._device: gpiozero.TonalBuzzer | gpiozero.Buzzer = gpiozero.TonalBuzzer(
                pin, mid_tone=PIEZO_MID_TONE, octaves=PIEZO_OCTAVES, pin_factory=pin_factory
            )
        else:
            self._device = gpiozero.Buzzer(pin, pin_factory=pin_factory)
        self._player: StepPlayer[Sound] = StepPlayer(self._output, name=f"buzzer-gpio{pin}")

    def play(self, tune: str, volume: float = 1.0) -> None:
        steps: tuple[tuple[Sound | None, float], ...]
        if self._tonal:
            duty = max(0.0, min(1.0, volume)) / 2
            notes = tunes.tune(tune)
            steps = tuple((None if note is None else (Tone(note), duty), seconds)
                          for note, seconds in notes)
        else:
            steps = tuple((on or None, seconds) for on, seconds in tunes.rhythm(tune))
        if volume <= 0:  # muted: the name was still checked above
            return
        self._player.start(steps)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the tune has finished (shut-down lets the last tune ring out)."""
        return self._player.wait(timeout)

    def close(self) -> None:
        self._player.stop()
        self._device.close()

    def _output(self, value: Sound | None) -> None:
        if isinstance(value, tuple):  # a note, for a passive piezo: TonalBuzzer.play would
            tone, duty = value  # sound it at 50% first, so set the pin directly
            self._device.pwm_device.pin.frequency = tone.frequency
            self._device.pwm_device.value = duty
        elif self._tonal:  # silence
            self._device.play(None)
        elif value:
            self._device.on()
        else:
            self._device.off()


class GpioVibrator(Vibrator):
    """A seat's vibration motor, switched through a transistor: private cues for one player."""

    def __init__(self, pin: int, *, pin_factory: Factory | None = None) -> None:
        self._motor = gpiozero.DigitalOutputDevice(pin, pin_factory=pin_factory)

    def pulse(self, pattern: str) -> None:
        on_time, off_time, repeats = tunes.vibration(pattern)
        self._motor.blink(on_time=on_time, off_time=off_time, n=repeats, background=True)

    def close(self) -> None:
        self._motor.close()
