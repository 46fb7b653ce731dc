"""A number a player reads off a physical card and sets with +1 / -1 / OK.

The rulebooks leave some card values out (a character's health, a Monster's strength), so
the table enters them at setup. The value shows "?" until the first press, which shows the
usual default: a seat that has not looked at its card yet is never shown a number that only
looks entered.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class NumberEntry:
    key: str  # what the number is for: "health", "strength:Dragon", "die:Chew Bubblegum"
    prompt: str
    default: int
    low: int
    high: int
    value: int | None = None

    @property
    def current(self) -> int:
        """The value OK would accept: the default until the first press."""
        return self.default if self.value is None else self.value

    def shown(self) -> str:
        return "?" if self.value is None else str(self.value)

    def step(self, delta: int) -> None:
        """The first press shows the default; later presses move within the bounds."""
        if self.value is None:
            self.value = self.default
        else:
            self.value = min(self.high, max(self.low, self.value + delta))
