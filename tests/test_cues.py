"""Every cue a game can name is rendered by every output that takes cues.

A game names cues only from engine/cues.py (``Buzz(Tune.TURN)``, ``Vibrate(seat,
Pattern.LONG)``). Hardware must not import the engine, so it keeps its own tables keyed by the
plain names (hardware/tunes.py): ONE tune table for the buzzers and ONE vibration table for
the GPIO motors and the pods (a pod is sent the timings, so its firmware knows no names).
These tests hold the tables to the vocabulary, and every buzzer and motor class in
``hardware`` to rendering every member of it.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import threading
from collections.abc import Callable

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import hardware  # noqa: E402
from engine.cues import Pattern, Tune  # noqa: E402
from hardware import tunes  # noqa: E402
from hardware.base import Buzzer, Vibrator  # noqa: E402
from hardware.gpio import GpioBuzzer, GpioVibrator  # noqa: E402
from hardware.pod_screen import PodVibrator  # noqa: E402
from hardware.pygame_window import WindowBuzzer, WindowTable  # noqa: E402
from hardware.terminal import TerminalBuzzer  # noqa: E402
from podproto import wire  # noqa: E402
from tests.test_terminal import Keyboard, open_table, screen  # noqa: E402

TIMEOUT = 5.0


def implementations(base: type) -> set[type]:
    """Every concrete class in the hardware package that implements ``base``."""
    for module in pkgutil.iter_modules(hardware.__path__):
        importlib.import_module(f"hardware.{module.name}")
    found, pending = set(), [base]
    while pending:
        for sub in pending.pop().__subclasses__():
            pending.append(sub)
            if sub.__module__.startswith("hardware.") and not inspect.isabstract(sub):
                found.add(sub)
    return found


def test_cues_every_output_is_checked_here() -> None:
    """A new buzzer or motor class fails here until it is added to the tests below."""
    assert implementations(Buzzer) == {GpioBuzzer, TerminalBuzzer, WindowBuzzer}
    assert implementations(Vibrator) == {GpioVibrator, PodVibrator}


def test_cues_tables_are_the_vocabulary() -> None:
    """The tune and vibration tables hold every cue a game can name, and nothing else."""
    assert set(tunes.TUNES) == set(Tune)
    assert set(tunes.VIBRATION_PATTERNS) == set(Pattern)


class SoundingPin(MockPWMPin):
    """A mock pin that signals each time it starts to sound (a frequency, or on)."""

    def __init__(self, factory, info) -> None:
        self.sounded = threading.Condition()
        self.sounds = 0
        super().__init__(factory, info)

    def _change_state(self, value) -> bool:
        with self.sounded:
            changed = super()._change_state(value)
            if value:
                self.sounds += 1
                self.sounded.notify_all()
        return changed

    def sounds_after(self, action: Callable[[], None]) -> bool:
        """Whether the pin starts to sound once ``action`` has run."""
        with self.sounded:
            before = self.sounds
        action()
        with self.sounded:
            return self.sounded.wait_for(lambda: self.sounds > before, TIMEOUT)


@pytest.mark.parametrize("tonal", [True, False], ids=["passive piezo", "active buzzer"])
def test_cues_gpio_buzzer_sounds_every_tune(mock_factory: MockFactory, tonal: bool) -> None:
    """Both kinds of buzzer start every tune (a new tune cuts the one before short)."""
    pin = mock_factory.pin(18, pin_class=SoundingPin)
    buzzer = GpioBuzzer(18, tonal=tonal)
    try:
        for tune in Tune:
            assert pin.sounds_after(lambda tune=tune: buzzer.play(tune)), tune
    finally:
        buzzer.close()


def test_cues_gpio_motor_runs_every_pattern(mock_factory: MockFactory) -> None:
    """The seat's motor starts for every pattern."""
    pin = mock_factory.pin(22, pin_class=SoundingPin)
    vibrator = GpioVibrator(22)
    try:
        for pattern in Pattern:
            assert pin.sounds_after(lambda p=pattern: vibrator.pulse(p)), pattern
    finally:
        vibrator.close()


def test_cues_pod_motor_gets_every_pattern_as_timings() -> None:
    """A pod is sent each pattern as the same timings the GPIO motor runs."""
    sent: list[tuple[int, bytes]] = []
    vibrator = PodVibrator(lambda kind, payload: sent.append((kind, payload)) or True)
    for pattern in Pattern:
        sent.clear()
        vibrator.pulse(pattern)
        on_time, off_time, repeats = tunes.VIBRATION_PATTERNS[pattern]
        steps = [(round(on_time * 1000), round(off_time * 1000))] * repeats
        assert sent == [(wire.VIBRATE, wire.steps(steps))], pattern


def test_cues_terminal_shows_every_tune() -> None:
    """The terminal simulator's status line names each tune as it plays."""
    keyboard = Keyboard()
    try:
        with open_table(keyboard) as (table, out):
            for tune in Tune:
                table.hardware().buzzer.play(tune)
                assert f"♪ {tune}" in screen(out.getvalue())[-4], tune
    finally:
        keyboard.close()


def test_cues_window_shows_every_tune() -> None:
    """The emulator window's status line names each tune as it plays."""
    with WindowTable([1, 2], lambda event: None, clock=lambda: 0.0) as window:
        for tune in Tune:
            window.hardware().buzzer.play(tune)
            shown = window.scene.status_text().split("buzzer: ")[-1].split(", ")
            assert shown[-1] == tune, tune
