"""Seat buttons, buzzer tunes and vibration motors on real gpiozero devices over mock pins."""

from __future__ import annotations

import threading

import pytest
from gpiozero import DigitalInputDevice
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

from hardware import tunes
from hardware.base import ButtonEdge, ButtonName
from hardware.drivers.gpio import (
    PIEZO_MID_TONE,
    PIEZO_OCTAVES,
    GpioBuzzer,
    GpioVibrator,
    SeatButtons,
)

ENGINE_TUNES = ("start", "tick", "turn", "warning", "alarm", "win", "lose", "reveal", "error")
TIMEOUT = 5.0


class ScopePin(MockPWMPin):
    """A mock PWM pin that keeps every frequency it was given and signals each level change."""

    def __init__(self, factory, info) -> None:
        self.frequencies: list[float | None] = []
        self.changed = threading.Condition()
        super().__init__(factory, info)

    def _set_frequency(self, value) -> None:
        self.frequencies.append(value)
        super()._set_frequency(value)

    def _change_state(self, value) -> bool:
        with self.changed:
            changed = super()._change_state(value)
            self.changed.notify_all()
        return changed

    def wait_for_states(self, count: int) -> list[float]:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.states) >= count, TIMEOUT)
        return [float(state.state) for state in self.states]


def scope(factory: MockFactory, pin: int) -> ScopePin:
    return factory.pin(pin, pin_class=ScopePin)


def test_buttons_press_and_release_reach_the_sink(mock_factory: MockFactory) -> None:
    """Pressing ACT (pin pulled to ground) and letting go hand two stamped edges to the sink."""
    events: list[object] = []
    with SeatButtons(3, 17, 27, sink=events.append, clock=lambda: 12.5):
        mock_factory.pin(17).drive_low()
        mock_factory.pin(17).drive_high()
        mock_factory.pin(27).drive_low()
    assert events == [
        ButtonEdge(3, ButtonName.ACT, True, 12.5),
        ButtonEdge(3, ButtonName.ACT, False, 12.5),
        ButtonEdge(3, ButtonName.PEEK, True, 12.5),
    ]


def test_buttons_edges_carry_the_clock_time(mock_factory: MockFactory) -> None:
    """Each edge is stamped when it happens, so the companion can debounce and time holds."""
    times = iter([1.0, 1.75])
    events: list[ButtonEdge] = []
    with SeatButtons(1, 5, sink=events.append, clock=lambda: next(times)):
        mock_factory.pin(5).drive_low()
        mock_factory.pin(5).drive_high()
    assert [(edge.pressed, edge.at) for edge in events] == [(True, 1.0), (False, 1.75)]


def test_buttons_one_button_seat_has_no_peek(mock_factory: MockFactory) -> None:
    """A seat wired with ACT only is a one-button seat (hold ACT to peek)."""
    with SeatButtons(2, 23, sink=lambda event: None) as buttons:
        assert buttons.one_button
        assert set(buttons.buttons) == {ButtonName.ACT}
    with SeatButtons(2, 23, 24, sink=lambda event: None) as buttons:
        assert not buttons.one_button


def test_buttons_close_frees_the_pins(mock_factory: MockFactory) -> None:
    """After closing, the pins can be claimed again (a restart in the same process works)."""
    SeatButtons(4, 16, 26, sink=lambda event: None).close()
    DigitalInputDevice(16).close()
    DigitalInputDevice(26).close()


def test_buzzer_plays_the_tune_notes(mock_factory: MockFactory) -> None:
    """The piezo's PWM frequency steps through the tune's notes, then falls silent."""
    pin = scope(mock_factory, 18)
    buzzer = GpioBuzzer(18)
    pin.frequencies.clear()  # PWMOutputDevice starts its pin at 100 Hz, silent
    buzzer.play("join")
    assert buzzer.wait(TIMEOUT)
    notes = [Tone(note).frequency for note, _ in tunes.tune("join") if note]
    assert [round(f, 3) for f in pin.frequencies if f] == [round(f, 3) for f in notes]
    assert pin.frequencies[-1] is None
    buzzer.close()


def test_buzzer_new_tune_replaces_the_old(mock_factory: MockFactory) -> None:
    """A tick during an alarm cuts the alarm short instead of queueing behind it."""
    pin = scope(mock_factory, 18)
    buzzer = GpioBuzzer(18)
    buzzer.play("alarm")
    buzzer.play("tick")
    assert buzzer.wait(TIMEOUT)
    played = [f for f in pin.frequencies if f]
    assert played[-1] == pytest.approx(Tone("C7").frequency)
    assert len(played) < len(tunes.tune("alarm"))
    buzzer.close()


def test_buzzer_active_beeps_the_rhythm(mock_factory: MockFactory) -> None:
    """An active buzzer cannot change pitch: it beeps once per note, separately."""
    pin = scope(mock_factory, 18)
    buzzer = GpioBuzzer(18, tonal=False)
    buzzer.play("join")
    assert buzzer.wait(TIMEOUT)
    assert pin.wait_for_states(5) == [0, 1, 0, 1, 0]
    buzzer.close()


def test_buzzer_volume_narrows_the_piezos_pulses(mock_factory: MockFactory) -> None:
    """A quieter table volume drives the piezo at a smaller duty cycle (50% is loudest);
    volume 0 leaves it silent."""
    pin = scope(mock_factory, 18)
    buzzer = GpioBuzzer(18)
    buzzer.play("join", 0.2)
    assert buzzer.wait(TIMEOUT)
    assert {round(float(s.state), 3) for s in pin.states[1:]} == {0.1, 0.0}
    pin.clear_states()
    buzzer.play("join", 0.0)
    assert buzzer.wait(TIMEOUT)
    assert all(float(s.state) == 0.0 for s in pin.states)
    buzzer.close()


def test_buzzer_unknown_tune_is_refused(mock_factory: MockFactory) -> None:
    """A misspelt tune name fails loudly, listing the known tunes."""
    buzzer = GpioBuzzer(18)
    with pytest.raises(ValueError, match="known tunes"):
        buzzer.play("fanfare")
    buzzer.close()


def test_tunes_are_short_distinct_and_playable() -> None:
    """Every tune the engine names exists, is short, differs from the others and fits the piezo."""
    low = PIEZO_MID_TONE.down(12 * PIEZO_OCTAVES).frequency
    high = PIEZO_MID_TONE.up(12 * PIEZO_OCTAVES).frequency
    assert set(ENGINE_TUNES) | {"join"} <= set(tunes.TUNES)
    assert len(set(tunes.TUNES.values())) == len(tunes.TUNES)
    assert tunes.duration("tick") < 0.1
    for name, steps in tunes.TUNES.items():
        assert tunes.duration(name) < 1.5, name
        assert all(low <= Tone(note).frequency <= high for note, _ in steps if note), name


def test_vibrator_double_pulses_twice(mock_factory: MockFactory) -> None:
    """The "double" pattern runs the motor twice, then stops it."""
    pin = scope(mock_factory, 22)
    vibrator = GpioVibrator(22)
    vibrator.pulse("double")
    assert pin.wait_for_states(5) == [0, 1, 0, 1, 0]
    vibrator.close()


def test_vibrator_short_pulses_once(mock_factory: MockFactory) -> None:
    """The "short" pattern is a single buzz."""
    pin = scope(mock_factory, 22)
    vibrator = GpioVibrator(22)
    vibrator.pulse("short")
    assert pin.wait_for_states(3) == [0, 1, 0]
    vibrator.close()


def test_vibrator_unknown_pattern_is_refused(mock_factory: MockFactory) -> None:
    """A pattern name the motor does not know is a ValueError naming the known ones."""
    vibrator = GpioVibrator(22)
    with pytest.raises(ValueError, match="double"):
        vibrator.pulse("tickle")
    vibrator.close()
