"""Which seats' screens are down, kept in one place.

A seat's screen goes down two ways: its pod's link goes quiet (the link reports it, and
reports it back up), or its display raises OSError (it is retried every few seconds until it
answers). Either way the seat is not drawn and the other seats show an alert; only a quiet
link pauses the game, because only then can the player neither see nor press anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RETRY_EVERY = 2.0


@dataclass
class Links:
    # seat -> when to try its display again; None: wait for its link to report it back up
    _down: dict[int, float | None] = field(default_factory=dict)

    def is_up(self, seat: int) -> bool:
        return seat not in self._down

    def down(self) -> list[int]:
        """Every seat whose screen is down, in seat order (for the others' alert)."""
        return sorted(self._down)

    def quiet_seats(self) -> frozenset[int]:
        """Seats whose link is down (not merely a display to retry): these pause a game."""
        return frozenset(seat for seat, retry in self._down.items() if retry is None)

    def set_quiet(self, seat: int) -> None:
        """The seat's link went down: it is down until the link reports it back up."""
        self._down[seat] = None

    def set_up(self, seat: int) -> None:
        self._down.pop(seat, None)

    def display_failed(self, seat: int, now: float) -> None:
        """Try the display again in a few seconds (a quiet link waits for its report)."""
        if self._down.get(seat, now) is not None:
            self._down[seat] = now + RETRY_EVERY

    def retries_due(self, now: float) -> list[int]:
        return [seat for seat, retry in self._down.items() if retry is not None and now >= retry]

    def next_retry(self) -> float | None:
        return min((retry for retry in self._down.values() if retry is not None), default=None)
