"""A seat's cue settings as menu entries: the same in the lobby and behind PEEK in a game.

Each entry turns one setting to its next choice and stays highlighted (press ACT again to go
on). "Vibrate" and "My volume" are the seat's own; "Table volume" is the shared buzzer's and
speaker's, which any seat may set: the label says which is which.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.api import Action
from hardware.base import TableHardware

from .memory import TableMemory

LABELS = {"vibration": "Vibrate", "table-volume": "Table volume", "volume": "My volume"}


def _nobody(seat: int) -> bool:
    return False


@dataclass(frozen=True)
class CueMenu:
    """Which settings a seat is offered: its vibration always; the table's volume when the
    table has a buzzer or a speaker; its own volume while its pod has a piezo."""

    table_sound: bool = True
    own_sound: Callable[[int], bool] = _nobody

    @classmethod
    def of(cls, hardware: TableHardware) -> CueMenu:
        def own_sound(seat: int) -> bool:
            return seat in hardware.seats and hardware.seats[seat].has_own_sound()

        table_sound = hardware.buzzer is not None or hardware.speaker is not None
        return cls(table_sound, own_sound)

    def actions(self, memory: TableMemory, seat: int, prefix: str = "") -> list[Action]:
        names = ["vibration"]
        names += ["table-volume"] if self.table_sound else []
        names += ["volume"] if self.own_sound(seat) else []
        return [Action(f"{prefix}cue:{name}", f"{LABELS[name]}: {memory.cue(seat, name)}",
                       repeat=True) for name in names]
