"""The hourglass as a value.

Sand is kept as "seconds in the top bulb as of ``since``". A flip swaps the bulbs at the
moment it happens, so repeated flips accumulate no drift, and persisting the state needs only
the sand, never a wall-clock timestamp (monotonic time restarts with the machine).
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Hourglass:
    """A glass of ``length`` seconds; immutable, so every change returns a new value."""

    length: float = 90.0
    top: float = 0.0
    since: float = 0.0
    running: bool = False

    @classmethod
    def full_bottom(cls, length: float = 90.0) -> Hourglass:
        """A glass standing on the table before its first flip: all sand below."""
        return cls(length=length, top=0.0, since=0.0, running=False)

    def remaining(self, now: float) -> float:
        """Seconds of sand left in the top bulb at ``now``."""
        if not self.running:
            return self.top
        return max(0.0, self.top - (now - self.since))

    def expiry(self) -> float | None:
        """The moment the top bulb empties, or None when the glass is stopped."""
        if not self.running:
            return None
        return self.since + self.top

    def flip(self, now: float) -> Hourglass:
        """Turn the glass over: what had run down is now on top."""
        return replace(self, top=self.length - self.remaining(now), since=now, running=True)

    def pause(self, now: float) -> Hourglass:
        """Lay the glass on its side: the sand stays where it is."""
        if not self.running:
            return self
        return replace(self, top=self.remaining(now), since=now, running=False)

    def resume(self, now: float) -> Hourglass:
        return replace(self, since=now, running=True)
