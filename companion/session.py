"""The table's business: the lobby, the cut, the game and its system menu, the journal, undo,
pauses.

The cut comes in one of two ways, the same fair deal either way (docs/fairness.md): after
Start every player presses "Cut the deck" (:mod:`companion.cut`) and the game is dealt; or,
in a game that opens with a public phase (``Game.first_press_cuts``), the game begins at
Start without its seed, each player's first press of the game is that player's cut, and the
press that completes the cut deals it. Either way the commitment is shown from Start.

Every change to what is being played goes through here and comes back as :class:`Applied`:
the lines journaled (durable before anything is heard or seen) and the effects, in order, for
the effect player. The session plays nothing and draws nothing.

It also answers what each seat is offered, once per change: the answer is kept until the
next change, so a press, the bar it acts on and the redraw after it share one list.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from engine import registry
from engine.api import KNOWN_PREFIX, Action, Buzz, Effect, GameOver, State
from engine.cues import Tune
from engine.exc import EngineError
from engine.known import Learned, as_options
from engine.rng import KEY_BYTES, commitment, deal_seed
from engine.text import fit

from .clock import GameClock
from .cut import Cut
from .effects import Forget, KeyRevealed, Status, Tell
from .journal import Journal
from .lobby import Lobby, StartGame
from .memory import TableMemory
from .record import GameRecord, JournaledAction
from .system_menu import SETTLE, SystemMenu

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Applied:
    """What one change did: the journal lines it wrote, and what the table is to hear and see."""

    journaled: tuple[JournaledAction, ...] = ()
    effects: tuple[Effect, ...] = ()

    def __add__(self, other: Applied) -> Applied:
        return Applied(self.journaled + other.journaled, self.effects + other.effects)


class Session:
    def __init__(
        self,
        seat_numbers: tuple[int, ...],
        lobby: Lobby,
        journal: Journal,
        key_source: Callable[[int], bytes],
        deck_lists: Mapping[str, tuple[str, ...]],
    ) -> None:
        self.seat_numbers = seat_numbers
        self.lobby = lobby
        self.journal = journal
        self.key_source = key_source  # the companion's key for each deal (secrets.token_bytes)
        self.deck_lists = deck_lists  # game key -> the table's own card list
        self.memory: TableMemory = lobby.memory  # card values, options, seats' cues
        self.state: State | None = None
        self.record: GameRecord | None = None
        self.cut: Cut | None = None  # between Start and the deal: the players cut the deck
        self.menu = SystemMenu(self.memory, self.lobby.cues)
        self.restarted = False  # resumed paused after a restart, until someone resumes
        self._auto_paused = False  # the game is paused because a seat's link went down
        self.ended_at: float | None = None  # when the game ended: presses settle first
        self.started_at: float | None = None  # when Start showed the commitment
        self._offers: dict[int, list[Action]] = {}

    # --- what is offered -----------------------------------------------------------------------

    def offers(self, seat: int) -> list[Action]:
        """What the seat's bottom bar offers: the game's actions, then the table's."""
        if seat not in self._offers:
            self._offers[seat] = self._offer(seat)
        return self._offers[seat]

    def _offer(self, seat: int) -> list[Action]:
        if self.cut is not None:
            return self.cut.legal_actions(seat)
        if self.state is None:
            return self.lobby.legal_actions(seat)
        if seat not in self.state.seats:
            return []
        return self.menu.actions(seat, self.state, self.record)

    def find(self, seat: int, action_id: str) -> Action:
        """The action with this id, for a caller that holds only the id (tests, benches).

        An id that is not offered still goes to the rules, which say why not.
        """
        state = self.state
        legal = state.legal_actions(seat) if state is not None and seat in state.seats else []
        for action in (*self.offers(seat), *legal):
            if action.id == action_id:
                return action
        return Action(action_id, "")

    def _changed(self) -> None:
        self._offers.clear()

    # --- time ----------------------------------------------------------------------------------

    def clock_runs(self) -> bool:
        """A game is on and not paused: its timers run and its shown seconds move."""
        return self.state is not None and not self.state.paused

    def timer_running(self) -> bool:
        return self.clock_runs() and self.state.next_deadline() is not None

    def next_deadline(self) -> float | None:
        return self.state.next_deadline() if self.clock_runs() else None

    def advance(self, now: float) -> Applied:
        """Carry out the game's timers that ran out by ``now``."""
        deadline = self.next_deadline()
        if deadline is None or deadline > now:
            return Applied()
        assert self.state is not None
        effects = self.state.advance(now)
        self._changed()
        self.remember(now)  # like an action: journaled before the table hears it
        return Applied(effects=self._with_key(self._learn(effects), now))

    def remember(self, now: float) -> None:
        """Journal the game's moment: how far to resume after a crash."""
        if self.record is not None:
            self.journal.remember(self.record, now)

    # --- actions -------------------------------------------------------------------------------

    def apply(self, seat: int, action: Action, at: float) -> Applied:
        """Carry out ``action`` for ``seat``; a refusal is told on that seat only.

        A timer that ran out before ``at`` runs out first, exactly as a replay of the journal
        has it: a press read in the same step as the expiry must not land before it live and
        after it on resume (the replay would refuse it, and cut the game back).
        """
        return self.advance(at) + self._apply(seat, action, at)

    def _apply(self, seat: int, action: Action, at: float) -> Applied:
        if self.settling(at):
            return Applied()  # a press already in flight when the game ended: ignored
        if self.started_at is not None and at < self.started_at:
            return Applied()  # pressed before Start showed the commitment: never a cut
        try:
            if self.cut is not None:
                return self._cut_action(seat, action, at)
            if self.state is None:
                return self._lobby_action(seat, action, at)
            if SystemMenu.owns(action.id):
                return self._system_action(seat, action, at)
            return self._game_action(seat, action, at)
        except EngineError as error:
            return Applied(effects=(Tell(str(error), seat), Buzz(Tune.ERROR)))
        finally:
            self._changed()

    def _lobby_action(self, seat: int, action: Action, at: float) -> Applied:
        request = self.lobby.apply(seat, action, at)
        applied = Applied(effects=(Buzz(Tune.JOIN),) if action.id == "join" else ())
        if isinstance(request, StartGame):
            applied += self.start_game(request, at)
        return applied

    def _cut_action(self, seat: int, action: Action, at: float) -> Applied:
        assert self.cut is not None
        self.cut.apply(seat, action, at)
        if not self.cut.done():
            return Applied(effects=(Buzz(Tune.JOIN),))
        cut, self.cut = self.cut, None
        return self._deal(cut)

    def settling(self, at: float) -> bool:
        """The game ended less than :data:`SETTLE` seconds ago: its outcome is read first."""
        return self.ended_at is not None and at < self.ended_at + SETTLE

    def _game_action(self, seat: int, action: Action, at: float) -> Applied:
        assert self.state is not None and self.record is not None
        effects = self.state.apply(seat, action, at)
        cutting = not self.state.dealt
        line = self._commit(JournaledAction(seat, action.id, at, action.undoable, action.label))
        if cutting and self.state.dealt:
            name = registry.get(self.record.game_key).name
            effects = [*effects, Status(f"{name}: dealt after the cut {self.record.cut}")]
        return Applied((line,), self._with_key(self._learn(effects), at))

    def _system_action(self, seat: int, action: Action, at: float) -> Applied:
        assert self.record is not None
        outcome = self.menu.apply(seat, action.id)
        if outcome in ("pause", "resume"):
            applied = self._table_pause(outcome, at, "Paused" if outcome == "pause" else "Resumed")
            self.restarted = self._auto_paused = False
            return applied
        if outcome == "undo":
            return self._undo(at)
        if outcome == "again":
            game = registry.get(self.record.game_key)
            return self.start_game(StartGame(game, self.record.seats, self._menu_options()), at)
        if outcome == "lobby":
            return self.end_game()
        return Applied()

    def _table_pause(self, outcome: str, at: float, notice: str) -> Applied:
        assert self.state is not None
        self.state.apply(None, outcome, at)
        self._changed()
        return Applied((self._commit(JournaledAction(None, outcome, at)),), (Tell(notice),))

    def _undo(self, at: float) -> Applied:
        assert self.record is not None
        line = self.record.last_undoable()
        if line is None:
            raise EngineError("Nothing to undo")
        self.record.entries.pop()
        self.journal.truncate(self.record, len(self.record.entries))
        self.state = self.record.replay(now=at)
        return Applied(effects=(Tell(fit(f"Undone: {line.label}", "Undone")),))

    def _commit(self, line: JournaledAction) -> JournaledAction:
        """Journal first, effects after: an action the table saw is never lost. The press
        that completes a cut in play deals the game; the journal writes it with the cut and
        the seed, in one write."""
        record, state = self.record, self.state
        assert record is not None and state is not None
        record.entries.append(line)
        cut = record.deal_if_cut(state, record.entries)
        if cut:
            record.cut, record.seed = cut, state.seed
        self.journal.append(record, line)
        return line

    def _learn(self, effects: Iterable[Effect]) -> list[Effect]:
        """Card values the table entered are remembered for its next game (not played)."""
        assert self.record is not None
        out = []
        for effect in effects:
            if isinstance(effect, Learned):
                self.memory.learn(self.record.game_key, effect.values)
            else:
                out.append(effect)
        return out

    def _menu_options(self) -> dict[str, str]:
        """The options the game was chosen with, without the card values it was given."""
        assert self.record is not None
        return {k: v for k, v in self.record.options.items() if not k.startswith(KNOWN_PREFIX)}

    def _with_key(self, effects: Iterable[Effect], at: float) -> tuple[Effect, ...]:
        """The game's effects, with the companion's key revealed right after its end."""
        out: list[Effect] = []
        for effect in effects:
            out.append(effect)
            if isinstance(effect, GameOver) and self.record is not None:
                out.append(KeyRevealed(self.record.key))
                self.ended_at = at
        return tuple(out)

    # --- a seat's link -------------------------------------------------------------------------

    def link_changed(self, seat: int, quiet: frozenset[int], now: float) -> Applied:
        """A pod that goes quiet pauses the game: its player cannot see or press anything.

        ``quiet`` is every seat whose link is down now. The pause is journaled like any
        other; when every player's seat is back, only a pause the link made is lifted (a
        pause a player chose stays until a player resumes). A pod that came back may be
        another pod (one with a piezo: "My volume"), so every offer is asked again.
        """
        self._changed()
        applied = self.advance(now)  # as in apply: what ran out first, first
        state = self.state
        if state is None or state.is_terminal():
            return applied
        gone = sorted(quiet & set(state.seats))
        if gone and not state.paused:
            who = seat if seat in gone else gone[0]
            applied += self._table_pause("pause", now, f"Seat {who} offline: paused")
            self._auto_paused = True
        elif not gone and self._auto_paused and state.paused:
            applied += self._table_pause("resume", now, "All seats back")
        if not gone or not state.paused:
            self._auto_paused = False
        return applied

    # --- the game's life -----------------------------------------------------------------------

    def resume(self, clock: GameClock) -> Applied:
        """Continue the journal's unfinished game, paused at its last moment, if there is one;
        then every notice the journal has for the table."""
        applied = self._resumed(clock) + self.journal_news()
        if self.memory.problem:
            applied += Applied(effects=(Tell(self.memory.problem),))
        return applied

    def journal_news(self) -> Applied:
        """What the journal has to tell every seat (a damaged journal found, saving stopped
        or started again), each once, never dropped for routine news."""
        news = tuple(Tell(text, important=True) for text in self.journal.notices)
        self.journal.notices.clear()
        return Applied(effects=news)

    def _resumed(self, clock: GameClock) -> Applied:
        resumed = self.journal.resume()
        if resumed is None:
            return Applied()
        record, state = resumed
        if record.entries:
            clock.continue_from(record.entries[-1].at)
        if state.is_terminal():
            self.journal.finish(record)
            return Applied(effects=(Tell("Restarted: game over"),))
        self._adopt(record, state)
        self.restarted = state.paused
        log.warning("resumed %s after a restart: %d actions replayed", record.game_key,
                    len(record.entries))
        return Applied(effects=(Forget(),))

    def start_game(self, request: StartGame, at: float) -> Applied:
        """Draw the companion's key and show its commitment; the deal waits for the cut: the
        players' "Cut the deck", or their first presses in a game that opens in public."""
        if self.record is not None:  # Play again: the game just over is archived first
            self.journal.finish(self.record)
        key = self.key_source(KEY_BYTES)
        self.state, self.record, self.ended_at, self.started_at = None, None, None, at
        self.menu = SystemMenu(self.memory, self.lobby.cues)
        self._changed()
        name, shown = request.game.name, commitment(key)
        if request.game.first_press_cuts:
            self._begin(request, key, "")
            return Applied(effects=(
                Forget(),
                Status(f"{name}: commitment {shown}; each player's first press cuts the deck"),
                Buzz(Tune.START),
            ))
        self.cut = Cut(request, key)
        return Applied(effects=(
            Forget(),
            Tell("Cut: press ACT"),
            Status(f"{name}: commitment {shown}; every player cuts the deck"),
        ))

    def _deal(self, cut: Cut) -> Applied:
        """Every player has cut: the seed comes from the key and the cut, and the game is dealt."""
        self._begin(cut.request, cut.key, cut.text)
        return Applied(effects=(
            Forget(),
            Status(f"{cut.request.game.name}: dealt after the cut {cut.text}"),
            Buzz(Tune.START),
        ))

    def _begin(self, request: StartGame, key: bytes, cut: str) -> None:
        """The game's record, begun in the journal, and its state: dealt from the key and
        ``cut``, or, with no cut yet (its players' first presses cut), not dealt."""
        game, seats = request.game, request.seats
        self.memory.keep_options(game.key, request.options)
        options = {**request.options, **as_options(self.memory.known(game.key))}
        seed, deck_list = deal_seed(key, cut) if cut else None, self.deck_lists.get(game.key)
        record = GameRecord(game.key, seats, options, seed or b"", deck_list=deck_list, key=key,
                            cut=cut, cut_in_play=game.first_press_cuts)
        state = game.new_state_with_deck(seats, options, seed, deck_list)
        self.journal.begin(record)
        self._adopt(record, state)

    def end_game(self) -> Applied:
        if self.record is not None:
            self.journal.finish(self.record)
        self.state, self.record, self.ended_at, self.started_at = None, None, None, None
        self.lobby = self.lobby.fresh()
        self.menu = SystemMenu(self.memory, self.lobby.cues)
        self._changed()
        return Applied(effects=(Forget(),))

    def _adopt(self, record: GameRecord, state: State) -> None:
        self.record, self.state, self.ended_at = record, state, None
        self.lobby.joined = sorted(set(record.seats))
        self.menu = SystemMenu(self.memory, self.lobby.cues)
        self._changed()

    def close(self, now: float) -> None:
        """A clean stop: a running timer's moment is journaled, then the journal closes."""
        if self.timer_running():
            self.remember(now)
        self.journal.close()
