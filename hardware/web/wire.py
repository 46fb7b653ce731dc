"""The messages inside a phone seat's sealed WebSocket frames (hardware/web/static/seat.js
is the other end).

To the phone: a whole screen (every frame the same length, whatever it shows, so not even a
message's size tells a secret), a vibration, a tune (its notes, always TUNE_STEPS long), the
welcome (the last press the table has), and the acknowledgement of a press. From the phone: its
hello (which device it is) and numbered button edges. Presses are numbered by the phone: one the
table already has (resent after a reconnect, or replayed by someone else) is acknowledged again
and dropped, so none is lost or doubled.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ..base import SCREEN_SIZE, ButtonName

FRAME, VIBRATE, WELCOME, ACK, TUNE = 1, 2, 3, 4, 5  # to the phone
HELLO, EDGE = 1, 2  # from the phone

DEVICE_BYTES = 16
FRAME_BYTES = SCREEN_SIZE[0] * SCREEN_SIZE[1] // 8
BUTTONS = (ButtonName.ACT, ButtonName.PEEK)
TUNE_STEPS = 16  # the longest tune has 10 (hardware/tunes.py); the rest is padding

_FRAME = struct.Struct(">BIB")  # kind, frame number, lit
_VIBRATE = struct.Struct(">BHHB")  # kind, on ms, off ms, repeats
_WELCOME = struct.Struct(">BIB")  # kind, last press, seat
_ACK = struct.Struct(">BI")
_TUNE = struct.Struct(">BBB")  # kind, level (1..255), steps; then TUNE_STEPS (hz, ms) pairs
_STEP = struct.Struct(">HH")
_HELLO = struct.Struct(f">B{DEVICE_BYTES}sI")  # kind, device, phone ms
_EDGE = struct.Struct(">BIBBI")  # kind, press number, button, pressed, phone ms


@dataclass(frozen=True)
class Hello:
    """A phone's first word on its socket: which device it is (one device holds a seat) and
    its own clock, which the seat's presses are stamped on."""

    device: bytes
    ms: int


@dataclass(frozen=True)
class Edge:
    """A button's edge on a phone, numbered so that one resent after a reconnect is kept
    once."""

    number: int
    button: ButtonName
    pressed: bool
    ms: int


def frame(number: int, rows: bytes, lit: bool) -> bytes:
    """A whole screen: 128x64 one-bit rows, most significant bit leftmost."""
    if len(rows) != FRAME_BYTES:
        raise ValueError(f"a frame has {FRAME_BYTES} bytes, not {len(rows)}")
    return _FRAME.pack(FRAME, number & 0xFFFFFFFF, int(lit)) + rows


def vibrate(on_ms: int, off_ms: int, repeats: int) -> bytes:
    return _VIBRATE.pack(VIBRATE, on_ms, off_ms, repeats)


def tune(level: int, steps: tuple[tuple[int, int], ...]) -> bytes:
    """A tune's ``(hz, ms)`` steps (0 Hz: a rest) at the seat's level, padded so that every
    tune is the same length."""
    if len(steps) > TUNE_STEPS:
        raise ValueError(f"a tune has at most {TUNE_STEPS} steps, not {len(steps)}")
    padding = ((0, 0),) * (TUNE_STEPS - len(steps))
    return _TUNE.pack(TUNE, level, len(steps)) + b"".join(
        _STEP.pack(hz, ms) for hz, ms in steps + padding)


def welcome(last_press: int, seat: int) -> bytes:
    return _WELCOME.pack(WELCOME, last_press, seat)


def ack(number: int) -> bytes:
    return _ACK.pack(ACK, number)


def parse(plain: bytes) -> Hello | Edge | None:
    """A phone's message, or None for anything that is not exactly one."""
    if len(plain) == _HELLO.size and plain[0] == HELLO:
        _, device, ms = _HELLO.unpack(plain)
        return Hello(device, ms)
    if len(plain) == _EDGE.size and plain[0] == EDGE:
        _, number, button, pressed, ms = _EDGE.unpack(plain)
        if button < len(BUTTONS) and pressed in (0, 1):
            return Edge(number, BUTTONS[button], bool(pressed), ms)
    return None
