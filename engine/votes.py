"""Simultaneous votes: every voter chooses in the same window, nobody sees others' choices.

The vote is a value inside a game's state. Choices are kept per seat so the result can be
told, but views only ever show *whether* a seat has voted, never how, until it closes.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Vote:
    voters: frozenset[int]
    choices: tuple[str, ...] = ("yes", "no")
    ballots: dict[int, str] = field(default_factory=dict)

    def cast(self, seat: int, choice: str) -> None:
        if seat not in self.voters:
            raise ValueError(f"seat {seat} has no vote here")
        if choice not in self.choices:
            raise ValueError(f"'{choice}' is not a choice in this vote")
        self.ballots[seat] = choice

    def waiting_for(self) -> frozenset[int]:
        return self.voters - self.ballots.keys()

    def is_complete(self) -> bool:
        return not self.waiting_for()

    def tally(self) -> Counter[str]:
        return Counter(self.ballots.values())

    def more_than_half(self, choice: str, of: int | None = None) -> bool:
        """True when more than half of ``of`` players (default: the voters) chose ``choice``."""
        total = len(self.voters) if of is None else of
        return self.tally()[choice] * 2 > total
