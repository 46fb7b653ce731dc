"""The table's own actions behind every seat's game actions: pause, undo, new game.

They are offered on every seat after the game's actions, so any player can pause for a
phone call or take back a mis-press, and ending a game asks for a second press so a stray
tap cannot throw a game away.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.api import Action, State

from .record import GameRecord

PREFIX = "sys:"


@dataclass
class SystemMenu:
    confirming: set[int] = field(default_factory=set)

    @staticmethod
    def owns(action_id: str) -> bool:
        return action_id.startswith(PREFIX)

    def actions(self, seat: int, state: State, record: GameRecord | None) -> list[Action]:
        if state.is_terminal():
            return [Action("sys:again", "Play again"), Action("sys:lobby", "New game")]
        if seat in self.confirming:
            return [Action("sys:end-no", "Keep playing"), Action("sys:end-yes", "End game: yes")]
        table = self._table_actions(state, record)
        if state.paused:
            return table
        game = state.legal_actions(seat)
        if not game:  # a stray press must not pause the table: the table's menu is behind PEEK
            return [Action("sys:idle", "PEEK for the menu"), *table]
        return [*game, *table]

    def _table_actions(self, state: State, record: GameRecord | None) -> list[Action]:
        out = [Action("sys:resume", "Resume")] if state.paused else [Action("sys:pause", "Pause")]
        last = record.last_undoable() if record else None
        if last is not None:
            who = f"S{last.seat} " if last.seat is not None else ""
            out.append(Action("sys:undo", f"Undo {who}{last.label}"))
        out.append(Action("sys:end", "End game"))
        return out

    def apply(self, seat: int, action_id: str) -> str | None:
        """The table-level outcome of a system action, or None when only this menu changed."""
        name = action_id.removeprefix(PREFIX)
        if name == "end":
            self.confirming.add(seat)
            return None
        self.confirming.discard(seat)
        if name in ("end-no", "idle"):
            return None
        if name == "end-yes":
            return "lobby"
        return name
