"""A game being played: its rules, its record in the journal, and the table's lines on its
screens (the system menu above it is :mod:`companion.system_menu`).

Every change to the game goes through here and comes back as :class:`Applied`: the lines
journaled (durable before anything is heard or seen) and the effects, in order. What the
game shows each seat gets the table's own lines here: PAUSED (in the title, or leading the
body when the title is long), the restart notice, the commitment (public face; and on the
PEEK face while the players cut with their first presses, :class:`CutInPlay`) and the
companion's key (PEEK face) once the game is over.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from engine import registry
from engine.api import KNOWN_PREFIX, Action, Effect, GameOver, SeatView, SecretFace, State
from engine.exc import EngineError
from engine.known import Learned
from engine.rng import commitment
from engine.text import fit
from hardware.base import Code

from .cut import CutInPlay
from .effects import KeyRevealed, Tell
from .journal import Journal
from .journal_chain import Chain
from .memory import TableMemory
from .mode import Applied, StartGame
from .record import GameRecord, JournaledAction

PAUSED = "PAUSED"
RESTARTED = "Restarted: paused"
SETTLE = 2.0  # seconds after a game ends in which presses are ignored (a flip in flight)


class GameMode:
    """One game: ``state`` is what the rules hold now, ``record`` how to rebuild it."""

    def __init__(self, record: GameRecord, state: State, journal: Journal, memory: TableMemory,
                 *, restarted: bool = False) -> None:
        self.record, self.state = record, state
        self.journal = journal
        self.memory = memory  # card values the table entered, for its next game
        self.restarted = restarted  # resumed paused after a restart, until someone resumes
        self.auto_paused = False  # the game is paused because a seat's link went down
        self.ended_at: float | None = None  # when the game ended: presses settle first
        self._chain = Chain()  # the history's digest, shown at the end

    @property
    def cutting(self) -> CutInPlay:
        """The players' first presses cutting the record's game (dealt: nothing to do)."""
        return CutInPlay(self.record)

    # --- the mode ------------------------------------------------------------------------------

    def offers(self, seat: int) -> list[Action]:
        return self.state.legal_actions(seat) if seat in self.state.seats else []

    def apply(self, seat: int, action: Action, at: float) -> Applied:
        effects = self.state.apply(seat, action, at)
        line = JournaledAction(seat, action.id, at, action.undoable, action.label)
        dealt = self._commit(line)
        return Applied((line,), self._with_key(self._learn([*effects, *dealt]), at))

    def view(self, seat: int | None, now: float) -> SeatView:
        state, record = self.state, self.record
        view = state.view(seat if seat in state.seats else None, now)
        if state.paused:
            view = paused_view(view, self.restarted)
        if state.is_terminal() and seat is not None:
            view = dataclasses.replace(whole_outcome(view),
                                       secret=key_face(record.key, self.shown_digest()))
        if seat is None:  # a seat's screen is too narrow: its PEEK shows the key at the end
            view = dataclasses.replace(view, lines=(*view.lines, *self._fairness_lines()))
        elif seat in state.seats and not state.dealt:
            view = self.cutting.seat_view(view, seat)
        return view

    def question(self, seat: int) -> str | None:
        return None

    def public_code(self) -> Code | None:
        """The commitment until the end, then the key and the history digest (each public
        by then; the digest is the last row of 16)."""
        if self.state.is_terminal():
            return Code("Key, digest", self.record.key.hex() + self.shown_digest())
        return Code("Commitment", commitment(self.record.key))

    def shown_digest(self) -> str:
        """The history's digest (:func:`companion.journal_chain.history_digest`): an ended
        game shows it on every seat's PEEK face, the public screen and its code."""
        return self._chain.follow(self.record)

    # --- the table's own changes ---------------------------------------------------------------

    def settling(self, at: float) -> bool:
        """The game ended less than :data:`SETTLE` seconds ago: its outcome is read first."""
        return self.ended_at is not None and at < self.ended_at + SETTLE

    def chosen_pause(self, action: str, at: float) -> Applied:
        """A player paused or resumed: that lifts a restart's pause and the link's too."""
        applied = self.table_pause(action, at, "Paused" if action == "pause" else "Resumed")
        self.restarted = self.auto_paused = False
        return applied

    def table_pause(self, action: str, at: float, notice: str) -> Applied:
        """The table itself pauses (``action`` "pause") or resumes ("resume") the game."""
        applied = self._table_action(action, at)
        return Applied(applied.journaled, (*applied.effects, Tell(notice)))

    def end_early(self, at: float) -> Applied:
        """"End game", confirmed: the game ends here, journaled like a pause, and shows what
        every end shows: its outcome, what the rules reveal at the end, then the key."""
        return self._table_action("end", at)

    def _table_action(self, action: str, at: float) -> Applied:
        """One of the table's own actions on the game, journaled first like a player's."""
        effects = self.state.apply(None, action, at)
        line = JournaledAction(None, action, at)
        self._commit(line)
        return Applied((line,), self._with_key(effects, at))

    def undo(self, at: float) -> Applied:
        line = self.record.last_undoable()
        if line is None:
            raise EngineError("Nothing to undo")
        self.record.entries.pop()
        self.journal.truncate(self.record, len(self.record.entries))
        self.state = self.record.replay(now=at)
        return Applied(effects=(Tell(fit(f"Undone: {line.label}", "Undone")),))

    def again(self) -> StartGame:
        """The same game, seats and options, without the card values it was given."""
        options = {k: v for k, v in self.record.options.items() if not k.startswith(KNOWN_PREFIX)}
        return StartGame(registry.get(self.record.game_key), self.record.seats, options)

    def link_changed(self, seat: int, quiet: frozenset[int], now: float) -> Applied:
        """A pod that goes quiet pauses the game; only a pause the link made is lifted when
        every player's seat is back (a pause a player chose stays until a player resumes)."""
        state, applied = self.state, Applied()
        if state.is_terminal():
            return applied
        gone = sorted(quiet & set(state.seats))
        if gone and not state.paused:
            who = seat if seat in gone else gone[0]
            applied += self.table_pause("pause", now, f"Seat {who} offline: paused")
            self.auto_paused = True
        elif not gone and self.auto_paused and state.paused:
            applied += self.table_pause("resume", now, "All seats back")
        if not gone or not state.paused:
            self.auto_paused = False
        return applied

    # --- time ----------------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        return None if self.state.paused else self.state.next_deadline()

    def due(self, now: float) -> bool:
        """A timer of the game's ran out by ``now``."""
        deadline = self.next_deadline()
        return deadline is not None and deadline <= now

    def advance(self, now: float) -> Applied:
        """Carry out the game's timers that ran out by ``now`` (:meth:`due`)."""
        effects = self.state.advance(now)
        self.remember(now)  # like an action: journaled before the table hears it
        return Applied(effects=self._with_key(self._learn(effects), now))

    def remember(self, now: float) -> None:
        """Journal the game's moment: how far to resume after a crash."""
        self.journal.remember(self.record, now)

    # --- journal first, effects after ----------------------------------------------------------

    def _commit(self, line: JournaledAction) -> tuple[Effect, ...]:
        """Journal first, effects after: an action the table saw is never lost. The press
        that completes a cut in play deals the game, written in the same write."""
        self.record.entries.append(line)
        dealt = self.cutting.deal(self.state)
        self.journal.append(self.record, line)
        self.shown_digest()  # its link now: the press that ends the game has none to make
        return dealt

    def _learn(self, effects: Iterable[Effect]) -> list[Effect]:
        """Card values the table entered are remembered for its next game (not played)."""
        out = []
        for effect in effects:
            if isinstance(effect, Learned):
                self.memory.learn(self.record.game_key, effect.values)
            else:
                out.append(effect)
        return out

    def _with_key(self, effects: Iterable[Effect], at: float) -> tuple[Effect, ...]:
        """The game's effects, with the companion's key revealed after its end, once the
        end's own results (every identity...) are told: the table reads them in order."""
        out = list(effects)
        if any(isinstance(effect, GameOver) for effect in out):
            out.append(KeyRevealed(self.record.key))
            self.ended_at = at
        return tuple(out)

    def _fairness_lines(self) -> tuple[str, ...]:
        """The public screen keeps the commitment in view all game (a table can note it
        whenever it likes), with the cut so far while the players cut in play, and shows
        the companion's key once the game is over."""
        if self.state.is_terminal():
            digits = self.record.key.hex()
            return ("Key revealed:", digits[:32], digits[32:],
                    f"Digest {self.shown_digest()}")
        shown = f"Commitment {commitment(self.record.key)}"
        return (shown,) if self.state.dealt else (shown, self.cutting.public_line())


def paused_view(view: SeatView, restarted: bool) -> SeatView:
    """A paused game says so on every seat, its title lit, and still says where it stands:
    PAUSED leads the title when both fit ("PAUSED Your turn"); when not, the title stays
    whole and PAUSED leads the body. After a restart the body says so until someone
    resumes ("Restarted: paused")."""
    title = fit(f"{PAUSED} {view.title}", view.title)
    note = RESTARTED if restarted else None if title != view.title else PAUSED
    view = dataclasses.replace(view, title=title, highlight=True)
    if note is None:
        return view
    return dataclasses.replace(view, lines=(note, *view.lines[: 0 if view.big else 2]))


def whole_outcome(view: SeatView) -> SeatView:
    """A finished game's screen shows its outcome whole: when a banner or the hourglass
    would leave room for only its first line, the banner's words join the title instead
    ("Game over: LOST") and the sand, no longer running, gives way."""
    room = 3 if not (view.banner or view.big or view.hourglass) else 1
    if len(view.lines) <= room:
        return view
    title = fit(f"{view.title}: {view.banner}", view.banner) if view.banner else view.title
    return dataclasses.replace(view, title=title, banner=None, big=None, hourglass=None,
                               highlight=True)


def key_face(key: bytes, digest: str) -> SecretFace:
    """The companion's key, revealed on every seat's PEEK face once the game is over: four
    rows of 16 hex digits (the title and three lines), to check against the commitment shown
    before the cut, then the digest of the whole history, to note for the audit
    (docs/fairness.md)."""
    digits = key.hex()
    rows = [digits[start : start + 16] for start in range(0, len(digits), 16)]
    return SecretFace(f"Key {rows[0]}", (*rows[1:4], "History digest", digest))
