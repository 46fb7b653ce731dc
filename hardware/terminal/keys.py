"""The keyboard as the ACT and PEEK buttons of up to eight seats.

Terminals report a key going down but never coming up, so a held button is a toggle: its
hold key presses it, the same key again lets it go. A tap presses and releases with one
timestamp, which the companion's debouncer reads as a short press. The scheme is two rows of
the keyboard, one per button, where seat N is the Nth key of the row and Shift means hold:

    ACT   tap 1-8 (or a s d f g h j k)   hold/release A S D F G H J K
    PEEK  tap q w e r t y u i            hold/release Q W E R T Y U I
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..base import ButtonEdge, ButtonName, QuitRequested

ACT_DIGITS = "12345678"
ACT_TAP_KEYS = "asdfghjk"
PEEK_TAP_KEYS = "qwertyui"
ACT_HOLD_KEYS = ACT_TAP_KEYS.upper()
PEEK_HOLD_KEYS = PEEK_TAP_KEYS.upper()
QUIT_BYTES = {0x03: "ctrl-c", 0x11: "ctrl-q"}
ESC = 0x1B


class ViewKey(enum.Enum):
    """Keys that change what the simulator shows, not what a seat presses."""

    NEXT_SEAT = "\t"
    GRID = "0"
    HELP = "?"


KeyEvent = ButtonEdge | QuitRequested | ViewKey


@dataclass(frozen=True)
class Binding:
    seat: int
    button: ButtonName
    hold: bool


def _bindings() -> dict[str, Binding]:
    rows = [
        (ACT_DIGITS, ButtonName.ACT, False),
        (ACT_TAP_KEYS, ButtonName.ACT, False),
        (ACT_HOLD_KEYS, ButtonName.ACT, True),
        (PEEK_TAP_KEYS, ButtonName.PEEK, False),
        (PEEK_HOLD_KEYS, ButtonName.PEEK, True),
    ]
    return {
        key: Binding(seat, button, hold)
        for keys, button, hold in rows
        for seat, key in enumerate(keys, start=1)
    }


BINDINGS = _bindings()
VIEW_KEYS = {key.value: key for key in ViewKey}


class _Escape(enum.Enum):
    NONE = enum.auto()
    STARTED = enum.auto()  # after ESC
    CSI = enum.auto()  # after ESC [ : parameters until a final byte 0x40-0x7E
    SS3 = enum.auto()  # after ESC O : one final byte


class KeyDecoder:
    """Turns bytes typed at the terminal into button edges, quit requests and view keys.

    It owns the toggled holds, so it is the one place that knows which buttons are down.
    Escape sequences (arrows, function keys) are swallowed whole: their letters would
    otherwise press seat buttons ("ESC [ A" is an up arrow, not seat 1 holding ACT).
    """

    def __init__(self, seats: Iterable[int], clock: Callable[[], float]) -> None:
        self._seats = frozenset(seats)
        self._clock = clock
        self._held: set[tuple[int, ButtonName]] = set()
        self._escape = _Escape.NONE

    def is_held(self, seat: int, button: ButtonName) -> bool:
        return (seat, button) in self._held

    def feed(self, data: bytes) -> list[KeyEvent]:
        events: list[KeyEvent] = []
        for byte in data:
            if not self._in_escape(byte):
                events.extend(self._key(byte))
        if self._escape is _Escape.STARTED:
            # Terminals write a whole sequence at once, so an ESC ending a read was the Esc key.
            self._escape = _Escape.NONE
        return events

    def _in_escape(self, byte: int) -> bool:
        state = self._escape
        if state is _Escape.NONE:
            if byte == ESC:
                self._escape = _Escape.STARTED
            return byte == ESC
        if state is _Escape.STARTED:
            self._escape = {ord("["): _Escape.CSI, ord("O"): _Escape.SS3}.get(byte, _Escape.NONE)
        elif state is _Escape.SS3 or 0x40 <= byte <= 0x7E:
            self._escape = _Escape.NONE
        return True

    def _key(self, byte: int) -> list[KeyEvent]:
        if byte in QUIT_BYTES:
            return [QuitRequested(QUIT_BYTES[byte])]
        key = chr(byte)
        if key in VIEW_KEYS:
            return [VIEW_KEYS[key]]
        binding = BINDINGS.get(key)
        if binding is None or binding.seat not in self._seats:
            return []
        return self._press(binding)

    def _press(self, binding: Binding) -> list[KeyEvent]:
        """A tap on a held button lets it go: a second press of a pressed button means nothing."""
        held = (binding.seat, binding.button)
        at = self._clock()
        if held in self._held:
            self._held.discard(held)
            return [ButtonEdge(binding.seat, binding.button, False, at)]
        if binding.hold:
            self._held.add(held)
            return [ButtonEdge(binding.seat, binding.button, True, at)]
        return [
            ButtonEdge(binding.seat, binding.button, True, at),
            ButtonEdge(binding.seat, binding.button, False, at),
        ]


def seat_key_hint(seat: int) -> str:
    """The keys of one seat, for the bottom edge of its frame."""
    act, peek = ACT_TAP_KEYS[seat - 1], PEEK_TAP_KEYS[seat - 1]
    return f"ACT {seat}/{act} tap {act.upper()} hold ─ PEEK {peek} tap {peek.upper()} hold"


KEY_SUMMARY = [
    "ACT tap 1-8 or asdfghjk, hold ASDFGHJK │ PEEK tap qwertyui, hold QWERTYUI",
    "Tab one seat large/next seat │ 0 all seats │ ? help │ Ctrl-Q or Ctrl-C quit",
]

HELP_LINES = [
    "table-companion terminal table: keys",
    "",
    "Each seat has two buttons. Seat N is the Nth key of a row:",
    "",
    "                        seat 1 2 3 4 5 6 7 8",
    "  ACT   tap                  1 2 3 4 5 6 7 8  (or a s d f g h j k)",
    "  ACT   hold / release       A S D F G H J K",
    "  PEEK  tap                  q w e r t y u i",
    "  PEEK  hold / release       Q W E R T Y U I",
    "",
    "A terminal sends no key-up, so a hold stays down until its key is pressed again;",
    "a tap on a held button releases it. Keys of seats not at the table do nothing.",
    "",
    "  Tab      show one seat large; again: the next seat",
    "  0        show all seats (when the terminal is big enough)",
    "  ?        show or hide this help",
    "  Ctrl-Q   quit (Ctrl-C too)",
]
