"""The table's own actions behind every seat's game actions: pause, undo, the end, cues.

They are offered on every seat after the game's actions, so any player can pause for a
phone call or take back a mis-press. What cannot be taken back asks its question first
("End the game?") on the seat's title bar, with "No" offered first: a stray tap, or two,
cannot throw a game away. Once a game is over, its outcome and seed stay on screen until a
seat deliberately asks for the next game and confirms it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.api import Action, State
from engine.text import fit

from .cue_menu import CueMenu
from .memory import TableMemory
from .record import GameRecord

PREFIX = "sys:"
SETTLE = 2.0  # seconds after a game ends in which presses are ignored (a flip in flight)
QUESTIONS = {
    "end": ("End the game?", "Yes: end the game"),
    "again": ("Play again?", "Yes: deal again"),
    "lobby": ("Back to the lobby?", "Yes: to the lobby"),
}


@dataclass
class SystemMenu:
    memory: TableMemory = field(default_factory=TableMemory)
    cues: CueMenu = field(default_factory=CueMenu)
    asking: dict[int, str] = field(default_factory=dict)  # seat -> what it is asked about

    @staticmethod
    def owns(action_id: str) -> bool:
        return action_id.startswith(PREFIX)

    def question(self, seat: int) -> str | None:
        """The question the seat is answering, for its title bar."""
        what = self.asking.get(seat)
        return QUESTIONS[what][0] if what else None

    def actions(self, seat: int, state: State, record: GameRecord | None) -> list[Action]:
        if seat in self.asking:
            return [Action("sys:no", "No"), Action("sys:yes", QUESTIONS[self.asking[seat]][1])]
        if state.is_terminal():
            return [Action("sys:again", "Play again"), Action("sys:lobby", "New game"),
                    *self._cues(seat)]
        table = self._table_actions(seat, state, record)
        if state.paused:
            return table
        game = state.legal_actions(seat)
        if not game:  # a stray press must not pause the table: the table's menu is behind PEEK
            return [Action("sys:idle", "PEEK for the menu"), *table]
        return [*game, *table]

    def _table_actions(self, seat: int, state: State, record: GameRecord | None) -> list[Action]:
        out = [Action("sys:resume", "Resume")] if state.paused else [Action("sys:pause", "Pause")]
        last = record.last_undoable() if record else None
        if last is not None:
            who = f"S{last.seat} " if last.seat is not None else ""
            label = fit(f"Undo {who}{last.label}", f"Undo {last.label}", f"Undo {who}last action")
            out.append(Action("sys:undo", label))
        out += [Action("sys:end", "End game"), *self._cues(seat)]
        return out

    def _cues(self, seat: int) -> list[Action]:
        return self.cues.actions(self.memory, seat, PREFIX)

    def apply(self, seat: int, action_id: str) -> str | None:
        """The table-level outcome of a system action, or None when only this menu changed."""
        name = action_id.removeprefix(PREFIX)
        if name in QUESTIONS:
            self.asking[seat] = name
            return None
        asked = self.asking.pop(seat, None)
        if name == "yes" and asked is not None:
            return "lobby" if asked == "end" else asked
        if name.startswith("cue:"):
            self.memory.next_cue(seat, name.removeprefix("cue:"))
            return None
        if name in ("no", "yes", "idle"):
            return None
        return name
