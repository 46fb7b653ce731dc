"""Keys and mouse buttons as seat buttons in the emulator window.

The keys are the terminal simulator's (:mod:`hardware.terminal.keys`): seat N's ACT is the
Nth of ``1-8`` or ``a s d f g h j k``, its PEEK the Nth of ``q w e r t y u i``. pygame reports
keys going up, so a held key is a held button here (no Shift toggles needed). One button can
be held by several things at once (its two keys, the mouse on its on-screen button): the
:class:`ButtonLatch` presses it when the first of them takes hold and releases it only when
the last one lets go, so the companion sees clean press/release pairs.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..base import ButtonName
from ..terminal.keys import BINDINGS

SeatButton = tuple[int, ButtonName]
Holder = tuple[str, int]  # ("key", keycode) or ("mouse", mouse button)


def key_button(name: str, seats: Iterable[int]) -> SeatButton | None:
    """The seat button a key (by pygame's key name, e.g. "a", "1") stands for, if any."""
    binding = BINDINGS.get(name.lower()) if len(name) == 1 else None
    if binding is None or binding.seat not in seats:
        return None
    return binding.seat, binding.button


class ButtonLatch:
    """Which seat buttons are down, and what holds each of them."""

    def __init__(self) -> None:
        self._holders: dict[Holder, SeatButton] = {}

    def press(self, button: SeatButton, holder: Holder) -> bool:
        """``holder`` takes ``button``; True when the button was up (a press edge)."""
        if holder in self._holders:
            return False
        was_down = self.is_down(button)
        self._holders[holder] = button
        return not was_down

    def release(self, holder: Holder) -> SeatButton | None:
        """``holder`` lets go; the button it held when that was the last hold (a release edge)."""
        button = self._holders.pop(holder, None)
        if button is None or self.is_down(button):
            return None
        return button

    def release_all(self) -> list[SeatButton]:
        """Everything lets go (the window lost focus: its key-ups will never arrive)."""
        released = sorted(set(self._holders.values()), key=lambda b: (b[0], b[1].value))
        self._holders.clear()
        return released

    def is_down(self, button: SeatButton) -> bool:
        return button in self._holders.values()
