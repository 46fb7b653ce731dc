"""The table's own actions behind every seat's game actions: pause, undo, the end, the last
results read again, cues.

While a game is on, the table's mode is this menu over the game (:class:`GameMode`): it
offers the game's actions first and its own after them, so any player can pause for a phone
call or take back a mis-press. What cannot be taken back asks its question first ("End the
game?") on the seat's title bar, with "No" offered first: a stray tap, or two, cannot throw
a game away. However a game ends ("End game" too: its outcome says it ended early), its
outcome, what the rules reveal at the end and the key stay on screen until a seat
deliberately asks for the next game and confirms it.
"""

from __future__ import annotations

from enum import Enum

from engine.api import LABEL, Action, SeatView
from engine.text import fit
from hardware.base import Code

from .cue_menu import CueMenu
from .effects import FreePhone, PageCode, Recall, Tell
from .game_mode import GameMode
from .memory import TableMemory
from .mode import Applied, ToLobby

PREFIX = "sys:"
RESULTS = Action(f"{PREFIX}results", "Last results")  # a seat reads what it was told again


class Question(Enum):
    """What the menu asks before it does what cannot be taken back."""

    END = "end"
    AGAIN = "again"
    LOBBY = "lobby"


QUESTIONS = {  # the question on the title bar, and its "Yes" on the bar
    Question.END: ("End the game?", "Yes: end the game"),
    Question.AGAIN: ("Play again?", "Yes: deal again"),
    Question.LOBBY: ("Back to the lobby?", "Yes: to the lobby"),
}


class Outcome(Enum):
    """What a system action does to the table (the value is the entry's action id)."""

    PAUSE = "pause"
    RESUME = "resume"
    UNDO = "undo"
    AGAIN = "again"
    LOBBY = "lobby"
    END = "end-early"  # the game ends here, its outcome shown: no action of its own
    RESULTS = "results"  # the seat reads its last results again
    PAGE_CODE = "pagecode"  # the seat shows a code for the table's page


FREE = "free"  # sys:free:N frees phone seat N (not an Outcome: the game goes on as it was)

ANSWERED = {Question.END: Outcome.END, Question.AGAIN: Outcome.AGAIN,
            Question.LOBBY: Outcome.LOBBY}


class SystemMenu:
    """The mode while a game is on: the game, with the table's menu behind its actions."""

    def __init__(self, game: GameMode, memory: TableMemory, cues: CueMenu, *,
                 page: bool = False, phones: tuple[int, ...] = ()) -> None:
        self.game = game
        self.memory = memory
        self.cues = cues  # the settings each seat is offered
        self.page = page  # the table serves its page: a seat may ask for its code
        self.phones = phones  # the seats that are phones: another seat may free one
        self.asking: dict[int, Question] = {}  # seat -> what it is asked about

    @staticmethod
    def owns(action_id: str) -> bool:
        return action_id.startswith(PREFIX)

    # --- the mode ------------------------------------------------------------------------------

    def offers(self, seat: int) -> list[Action]:
        state = self.game.state
        if seat not in state.seats:
            return []
        if seat in self.asking:
            return [Action("sys:no", "No"), Action("sys:yes", QUESTIONS[self.asking[seat]][1])]
        if state.is_terminal():
            return [Action("sys:again", "Play again"), Action("sys:lobby", "New game"),
                    RESULTS, *self._cues(seat)]
        table = self._table_actions(seat)
        if state.paused:
            return table
        game = self.game.offers(seat)
        if not game:  # a stray press must not pause the table: the table's menu is behind PEEK
            return [Action("sys:idle", "PEEK for the menu"), *table]
        return [*game, *table]

    def apply(self, seat: int, action: Action, at: float) -> Applied:
        if self.game.settling(at):
            return Applied()  # a press already in flight when the game ended: ignored
        if not self.owns(action.id):
            return self.game.apply(seat, action, at)
        name, _, phone = action.id.removeprefix(PREFIX).partition(":")
        if name == FREE:  # a lost phone, the wrong person: its seat plays on, on another device
            return Applied(effects=(FreePhone(int(phone)), Tell(f"Seat {phone} freed")))
        outcome = self._answer(seat, name)
        if outcome in (Outcome.PAUSE, Outcome.RESUME):
            return self.game.chosen_pause(outcome.value, at)
        if outcome is Outcome.UNDO:
            return self.game.undo(at)
        if outcome is Outcome.END:
            return self.game.end_early(at)
        if outcome is Outcome.RESULTS:
            return Applied(effects=(Recall(seat),))
        if outcome is Outcome.PAGE_CODE:
            return Applied(effects=(PageCode(seat),))
        if outcome is Outcome.AGAIN:
            return Applied(then=self.game.again())
        if outcome is Outcome.LOBBY:
            return Applied(then=ToLobby())
        return Applied()

    def view(self, seat: int | None, now: float) -> SeatView:
        return self.game.view(seat, now)

    def question(self, seat: int) -> str | None:
        what = self.asking.get(seat)
        return QUESTIONS[what][0] if what else None

    def public_code(self) -> Code | None:
        return self.game.public_code()

    # --- the menu ------------------------------------------------------------------------------

    def _table_actions(self, seat: int) -> list[Action]:
        paused = self.game.state.paused
        out = [Action("sys:resume", "Resume")] if paused else [Action("sys:pause", "Pause")]
        last = self.game.record.last_undoable()
        if last is not None:
            who = f"S{last.seat} " if last.seat is not None else ""
            label = fit(f"Undo {who}{last.label}", f"Undo {last.label}", f"Undo {who}last action",
                        width=LABEL)
            out.append(Action("sys:undo", label))
        out += [Action("sys:end", "End game"), RESULTS, *self._cues(seat)]
        out += [Action(f"{PREFIX}{FREE}:{n}", f"Free phone seat {n}") for n in self.phones
                if n != seat and n in self.game.state.seats]
        if self.page:
            out.append(Action(f"{PREFIX}{Outcome.PAGE_CODE.value}", PageCode.ENTRY))
        return out

    def _cues(self, seat: int) -> list[Action]:
        return self.cues.actions(self.memory, seat, PREFIX)

    def _answer(self, seat: int, name: str) -> Outcome | None:
        """The table-level outcome of a system action, or None when only this menu changed."""
        question = _question(name)
        if question is not None:
            self.asking[seat] = question
            return None
        asked = self.asking.pop(seat, None)
        if name == "yes" and asked is not None:
            return ANSWERED[asked]
        if name.startswith("cue:"):
            self.memory.next_cue(seat, name.removeprefix("cue:"))
            return None
        return _outcome(name)


def _question(name: str) -> Question | None:
    return next((q for q in Question if q.value == name), None)


def _outcome(name: str) -> Outcome | None:
    """The outcome ``name`` says ("no", "yes" unasked, "idle": none)."""
    return next((o for o in Outcome if o.value == name), None)
