"""A number a player reads off a physical card, or counts on the table, and sets with
+1 / -1 (and +5 where the range is wide) / OK.

The rulebooks leave some card values out (a character's health, a Monster's strength), so
the table enters them at setup. The value shows "?" until the first press, and no value is
ever offered that the rules and the cards do not give: "?" stands just below the least value
the data allows, so the first +1 shows that least value and the entry can never leave the
bounds the data sets. A value entered before (a remembered one, entered again) is set as the
entry's value, so it shows at once and OK takes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .api import Action
from .exc import IllegalAction

# A range at least this wide is also stepped by fives, so a count of 14 is three presses of
# +5 and one of -1 rather than fourteen of +1.
WIDE = 10
FIVE = 5


@dataclass
class NumberEntry:
    key: str  # what the number is for: "health", "strength:Dragon", "die:Chew Bubblegum"
    prompt: str
    low: int
    high: int
    value: int | None = None

    def shown(self) -> str:
        return "?" if self.value is None else str(self.value)

    def step(self, delta: int) -> None:
        """Move by ``delta`` within the bounds; from "?" (one below ``low``) the first +1
        shows ``low`` and the first +5 the fifth value allowed."""
        start = self.low - 1 if self.value is None else self.value
        self.value = min(self.high, max(self.low, start + delta))

    @property
    def entered(self) -> int:
        """The value OK takes; OK is offered only once a value shows."""
        if self.value is None:
            raise IllegalAction("Set a value first")
        return self.value

    @property
    def wide(self) -> bool:
        """Whether the range is wide enough to be offered steps of five."""
        return self.high - self.low >= WIDE


def entry_buttons(entry: NumberEntry, ups: list[Action], ok: Action,
                  down: Action) -> list[Action]:
    """An entry's buttons: from "?" only the counts up; once a value shows, OK right after
    them (an up's highlight stays on it, so OK is a PEEK or two away), then the count down
    while the value can go down."""
    if entry.value is None:
        return ups
    return [*ups, ok, *([down] if entry.value > entry.low else [])]
