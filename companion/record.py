"""The record of one game: enough to rebuild it exactly (seed, seats, options, every action),
and to check its deal (the companion's key and the players' cut that gave the seed).

Undo and resume both work by replaying a record, so undo can never re-deal: the replayed game
draws from the same seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import registry
from engine.api import State


@dataclass(frozen=True)
class JournaledAction:
    """One applied action. ``seat`` None is the table itself (pause, resume)."""

    seat: int | None
    action: str
    at: float
    undoable: bool = False
    label: str = ""


@dataclass
class GameRecord:
    game_key: str
    seats: tuple[int, ...]
    options: dict[str, str]
    seed: bytes
    entries: list[JournaledAction] = field(default_factory=list)
    deck_list: tuple[str, ...] | None = None  # a table-supplied card list, if the game took one
    key: bytes = b""  # the companion's key, committed to before the cut (secret until the end)
    cut: str = ""  # the players' presses: engine.rng.cut_text

    def start(self) -> State:
        """The game as dealt, before any action."""
        game = registry.get(self.game_key)
        return game.new_state_with_deck(self.seats, self.options, self.seed, self.deck_list)

    def replay(
        self, entries: list[JournaledAction] | None = None, now: float | None = None
    ) -> State:
        """A fresh state with ``entries`` (default: all) applied in order, and its timers run
        on to ``now`` when given (an hourglass that ran out after the last action)."""
        state = self.start()
        for entry in self.entries if entries is None else entries:
            deadline = state.next_deadline()
            if deadline is not None and deadline <= entry.at:
                state.advance(entry.at)
            state.apply(entry.seat, entry.action, entry.at)
        deadline = state.next_deadline()
        if now is not None and deadline is not None and deadline <= now and not state.paused:
            state.advance(now)
        return state

    def last_undoable(self) -> JournaledAction | None:
        """The entry undo would take back, if the newest one is pure bookkeeping."""
        if self.entries and self.entries[-1].undoable:
            return self.entries[-1]
        return None
