"""The pod firmware's buttons (firmware/buttons.py, plain Python, run here under CPython)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

spec = importlib.util.spec_from_file_location(
    "pod_buttons", Path(__file__).resolve().parent.parent / "firmware" / "buttons.py")
buttons = importlib.util.module_from_spec(spec)
spec.loader.exec_module(buttons)


class Pin:
    """A pulled-up input: 1 when open, 0 while the button closes it to ground."""

    def __init__(self) -> None:
        self.level = 1

    def value(self) -> int:
        return self.level


def test_pod_buttons_press_counts_at_once_and_bounce_is_ignored() -> None:
    """The first edge is reported with no delay; chatter within the lockout is not."""
    act, peek = Pin(), Pin()
    seat = buttons.SeatButtons(act, peek)
    act.level = 0
    assert seat.poll(1000) == [(buttons.ACT, True, 1000)]
    act.level = 1
    assert seat.poll(1005) == []  # bounce inside LOCKOUT_MS
    assert seat.poll(1000 + buttons.LOCKOUT_MS) == [(buttons.ACT, False, 1025)]
    assert seat.levels == 0


def test_pod_buttons_one_button_tap_is_act() -> None:
    """On a one-button pod a short press is an ACT press and release, stamped when pressed."""
    act = Pin()
    seat = buttons.SeatButtons(act)
    act.level = 0
    assert seat.poll(0) == []
    act.level = 1
    assert seat.poll(150) == [(buttons.ACT, True, 0), (buttons.ACT, False, 150)]


def test_pod_buttons_one_button_hold_is_peek() -> None:
    """Holding the only button past HOLD_MS peeks until it is let go."""
    act = Pin()
    seat = buttons.SeatButtons(act)
    act.level = 0
    seat.poll(0)
    assert seat.poll(buttons.HOLD_MS) == [(buttons.PEEK, True, buttons.HOLD_MS)]
    assert seat.levels == 1 << buttons.PEEK
    act.level = 1
    assert seat.poll(2000) == [(buttons.PEEK, False, 2000)]
