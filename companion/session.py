"""The table's business: one mode at a time (the lobby, the cut, or a game under its system
menu, :mod:`companion.mode`), the switches between them, the journal's games.

The cut comes in one of two ways, the same fair deal either way (docs/fairness.md): after
Start every player presses "Cut the deck" (:class:`companion.cut.Cut`) and the game is dealt;
or, in a game that opens with a public phase (``Game.first_press_cuts``), the game begins at
Start without its seed and its players' first presses cut it
(:class:`companion.cut.CutInPlay`). Either way the commitment is shown from Start.

Every change to what is being played goes through here and comes back as :class:`Applied`:
the lines journaled (durable before anything is heard or seen) and the effects, in order, for
the effect player. The session plays nothing and draws nothing.

It also answers what each seat is offered, once per change: the answer is kept until the
next change, so a press, the bar it acts on and the redraw after it share one list.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from engine.api import Action, Buzz, State
from engine.cues import Tune
from engine.exc import EngineError
from engine.known import as_options
from engine.rng import KEY_BYTES, commitment, deal_seed

from .clock import GameClock
from .cut import Cut
from .effects import Forget, Status, Tell
from .game_mode import GameMode
from .journal import Journal
from .lobby import Lobby
from .memory import TableMemory
from .mode import Applied, Deal, Mode, StartGame, Switch, ToLobby
from .record import GameRecord
from .system_menu import SystemMenu

log = logging.getLogger(__name__)


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
        self.mode: Mode = lobby
        self.started_at: float | None = None  # when Start showed the commitment
        self._offers: dict[int, list[Action]] = {}

    # --- the mode ------------------------------------------------------------------------------

    @property
    def game(self) -> GameMode | None:
        """The game being played, if one is (with or without its cut made)."""
        return self.mode.game if isinstance(self.mode, SystemMenu) else None

    @property
    def state(self) -> State | None:
        return self.game.state if self.game is not None else None

    @property
    def record(self) -> GameRecord | None:
        return self.game.record if self.game is not None else None

    @property
    def cut(self) -> Cut | None:
        """The cut before the deal, while the players make it."""
        return self.mode if isinstance(self.mode, Cut) else None

    # --- what is offered -----------------------------------------------------------------------

    def offers(self, seat: int) -> list[Action]:
        """What the seat's bottom bar offers: the game's actions, then the table's."""
        if seat not in self._offers:
            self._offers[seat] = self.mode.offers(seat)
        return self._offers[seat]

    def find(self, seat: int, action_id: str) -> Action:
        """The action with this id, for a caller that holds only the id (tests, benches).

        An id that is not offered still goes to the rules, which say why not.
        """
        legal = self.game.offers(seat) if self.game is not None else []
        for action in (*self.offers(seat), *legal):
            if action.id == action_id:
                return action
        return Action(action_id, "")

    def changed(self) -> None:
        """What is offered is worked out again (the mode changed under the session)."""
        self._offers.clear()

    # --- time ----------------------------------------------------------------------------------

    def clock_runs(self) -> bool:
        """A game is on and not paused: its timers run and its shown seconds move."""
        return self.state is not None and not self.state.paused

    def timer_running(self) -> bool:
        return self.next_deadline() is not None

    def next_deadline(self) -> float | None:
        return self.game.next_deadline() if self.game is not None else None

    def advance(self, now: float) -> Applied:
        """Carry out the game's timers that ran out by ``now``."""
        game = self.game
        if game is None or not game.due(now):
            return Applied()
        applied = game.advance(now)
        self.changed()
        return applied

    def remember(self, now: float) -> None:
        """Journal the game's moment: how far to resume after a crash."""
        if self.game is not None:
            self.game.remember(now)

    # --- actions -------------------------------------------------------------------------------

    def apply(self, seat: int, action: Action, at: float) -> Applied:
        """Carry out ``action`` for ``seat``; a refusal is told on that seat only.

        A timer that ran out before ``at`` runs out first, exactly as a replay of the journal
        has it: a press read in the same step as the expiry must not land before it live and
        after it on resume (the replay would refuse it, and cut the game back).
        """
        return self.advance(at) + self._apply(seat, action, at)

    def _apply(self, seat: int, action: Action, at: float) -> Applied:
        if self.started_at is not None and at < self.started_at:
            return Applied()  # pressed before Start showed the commitment: never a cut
        try:
            applied = self.mode.apply(seat, action, at)
            return Applied(applied.journaled, applied.effects) + self._switch(applied.then, at)
        except EngineError as error:
            return Applied(effects=(Tell(str(error), seat), Buzz(Tune.ERROR)))
        finally:
            self.changed()

    def _switch(self, then: Switch | None, at: float) -> Applied:
        """Carry out the switch a mode asked for."""
        if isinstance(then, StartGame):
            return self.start_game(then, at)
        if isinstance(then, Deal):
            return self._deal(then)
        if isinstance(then, ToLobby):
            return self.end_game()
        return Applied()

    # --- a seat's link -------------------------------------------------------------------------

    def link_changed(self, seat: int, quiet: frozenset[int], now: float) -> Applied:
        """A pod that goes quiet pauses the game: its player cannot see or press anything.

        ``quiet`` is every seat whose link is down now; the pause is journaled like any
        other (:meth:`GameMode.link_changed`). A pod that came back may be another pod (one
        with a piezo: "My volume"), so every offer is asked again.
        """
        self.changed()
        applied = self.advance(now)  # as in apply: what ran out first, first
        if self.game is None:
            return applied
        applied += self.game.link_changed(seat, quiet, now)
        self.changed()
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
        self._adopt(record, state, restarted=state.paused)
        log.warning("resumed %s after a restart: %d actions replayed", record.game_key,
                    len(record.entries))
        return Applied(effects=(Forget(),))

    def start_game(self, request: StartGame, at: float) -> Applied:
        """Draw the companion's key and show its commitment; the deal waits for the cut: the
        players' "Cut the deck", or their first presses in a game that opens in public."""
        if self.record is not None:  # Play again: the game just over is archived first
            self.journal.finish(self.record)
        key = self.key_source(KEY_BYTES)
        self.started_at = at
        name, shown = request.game.name, commitment(key)
        if request.game.first_press_cuts:
            self._begin(request, key, "")
            return Applied(effects=(
                Forget(),
                Status(f"{name}: commitment {shown}; each player's first press cuts the deck"),
                Buzz(Tune.START),
            ))
        self._enter(Cut(request, key))
        return Applied(effects=(
            Forget(),
            Tell("Cut: press ACT"),
            Status(f"{name}: commitment {shown}; every player cuts the deck"),
        ))

    def _deal(self, deal: Deal) -> Applied:
        """Every player has cut: the seed comes from the key and the cut, and the game is dealt."""
        self._begin(deal.request, deal.key, deal.cut)
        return Applied(effects=(
            Forget(),
            Status(f"{deal.request.game.name}: dealt after the cut {deal.cut}"),
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
        self.started_at = None
        self.lobby = self.lobby.fresh()
        self._enter(self.lobby)
        return Applied(effects=(Forget(),))

    def _adopt(self, record: GameRecord, state: State, *, restarted: bool = False) -> None:
        self.lobby.joined = sorted(set(record.seats))
        game = GameMode(record, state, self.journal, self.memory, restarted=restarted)
        self._enter(SystemMenu(game, self.memory, self.lobby.cues, page=self.lobby.page,
                               phones=self.lobby.phones))

    def _enter(self, mode: Mode) -> None:
        self.mode = mode
        self.changed()

    def close(self, now: float) -> None:
        """A clean stop: a running timer's moment is journaled, then the journal closes."""
        if self.timer_running():
            self.remember(now)
        self.journal.close()
