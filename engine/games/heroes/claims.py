"""Claims, and the reaction windows that wait for the table's answer to them.

A reaction window asks seats to answer at once (challenge a claim, react as the Giant,
announce the Knight) and has an optional deadline, so a silent table cannot stall the game:
when the time is up, everyone who has not answered has let it pass. A deadline is a moment,
and a paused window keeps the time it had left, like the hourglass.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from engine.api import HourglassView


class Window(StrEnum):
    """The three reaction windows, each a phase of its own (the values are the phases'
    names in the table)."""

    CHALLENGE = "challenge"  # any other living seat may challenge the claim
    GIANT = "giant"  # the target of a theft may announce the Giant
    KNIGHTS = "knights"  # after a fight, any other seat may announce the Knight


WINDOWS = frozenset(Window)  # the phases in which the table, not the seat on turn, answers


class ClaimKind(StrEnum):
    POWER = "power"  # a Hero and one or two of its powers, on one's turn
    COMBAT = "combat"  # a Hero strong enough for a Monster, on one's turn
    GIANT = "giant"  # the target of a theft cancels it
    KNIGHT = "knight"  # after a fight, a seat copies its Gems


@dataclass(frozen=True)
class Claim:
    """An announced identity: "I am the Troll and I renew a Monster and fight"."""

    seat: int
    hero: str
    kind: ClaimKind
    powers: tuple[str, ...] = ()  # the power ids announced (kind POWER)
    monster: int | None = None  # the index in play of the Monster fought (kind COMBAT)
    gems: int = 0  # the Gems a Knight would copy (kind KNIGHT)


@dataclass
class ReactionWindow:
    """A window's own data: the time its seats have to answer (whom it asks is the phase's
    wait), and the Knights announced so far (in the Knights' window)."""

    length: float | None  # seconds; None: open until everyone has answered
    opened: float
    knights: list[int] = field(default_factory=list)
    paused_left: float | None = None

    @property
    def deadline(self) -> float | None:
        if self.length is None or self.paused_left is not None:
            return None
        return self.opened + self.length

    def pause(self, now: float) -> None:
        deadline = self.deadline
        if deadline is not None:
            self.paused_left = max(0.0, deadline - now)

    def resume(self, now: float) -> None:
        if self.paused_left is not None and self.length is not None:
            self.opened = now - (self.length - self.paused_left)
            self.paused_left = None

    def sand(self, now: float) -> HourglassView | None:
        """The time left as a bar on the screens (no digits to read a hesitation from)."""
        if self.length is None:
            return None
        if self.paused_left is not None:
            return HourglassView(self.paused_left, self.length, running=False, shown="bar")
        left = max(0.0, self.opened + self.length - now)
        return HourglassView(left, self.length, running=True, shown="bar")


def window_seconds(choice: str) -> float | None:
    """The option text ("10 s", "no limit") as seconds."""
    return None if choice == "no limit" else float(choice.split()[0])
