"""Seats around the table and who sits next to whom.

Seats are numbered by their place on the table hardware and listed clockwise; the next
player clockwise is the one on your left, as in every rulebook here. Players who leave
(escaped, dead, eliminated) are skipped, so their neighbours become adjacent.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class Ring:
    """The seats in play, clockwise."""

    def __init__(self, seats: Sequence[int]) -> None:
        if len(set(seats)) != len(seats):
            raise ValueError("a seat cannot sit twice at one table")
        self.seats: tuple[int, ...] = tuple(seats)

    def __len__(self) -> int:
        return len(self.seats)

    def __iter__(self):
        return iter(self.seats)

    def left_of(self, seat: int, gone: Iterable[int] = ()) -> int | None:
        """The next seat clockwise still in play, or None if nobody else is."""
        start, count, gone = self.seats.index(seat), len(self.seats), set(gone)
        for offset in range(1, count):
            candidate = self.seats[(start + offset) % count]
            if candidate not in gone:
                return candidate
        return None

    def clockwise_from(self, seat: int, gone: Iterable[int] = ()) -> list[int]:
        """Every seat still in play, starting at ``seat`` and going clockwise."""
        gone = set(gone)
        start = self.seats.index(seat)
        order = self.seats[start:] + self.seats[:start]
        return [s for s in order if s not in gone]
