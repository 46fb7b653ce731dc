"""The app loop (DESIGN §2): one queue, one thread, sleeping until the next input or deadline.

Events come from hardware threads through a queue; everything else happens here: gestures
are read, actions applied to the lobby or the game, the action recorded before its effects
play, and the screens whose pixels changed redrawn. The loop never polls: it blocks on the
queue with a timeout that ends exactly at the next deadline (hourglass second, expiry, hold
time, notice, retry of an offline screen, watchdog ping).

Time is the game clock: the monotonic clock plus an offset. After a restart the offset makes
the resumed game's time continue from its last journaled moment, so one game has one
timeline however often the machine restarts (monotonic time starts again with it).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import queue
import secrets
from collections.abc import Callable, Mapping

from engine import registry
from engine.api import (
    Action,
    Buzz,
    Effect,
    GameOver,
    Narrate,
    Reveal,
    SecretFace,
    State,
    Vibrate,
)
from engine.exc import EngineError
from engine.rng import SEED_BYTES, commitment
from hardware.base import ButtonEdge, QuitRequested, SeatOffline, TableHardware

from .clock import Clock, monotonic
from .gestures import Gesture, GestureReader, SeatGesture
from .journal import Journal, NullJournal
from .lobby import Lobby, StartGame
from .record import Entry, GameRecord
from .screens import ScreenKeeper
from .sdnotify import Notifier
from .seat_ui import SeatUI
from .system_menu import SystemMenu

log = logging.getLogger(__name__)

REMEMBER_EVERY = 5.0  # while a timer runs: the most sand a crash can give back, in seconds
RETRY_EVERY = 2.0  # while the disk refuses writes: how often the journal tries again
RESTARTED = "Restarted: paused"
SEED_NOTICE = "Seed: hold PEEK"


def seed_face(seed: bytes) -> SecretFace:
    """The seed, revealed on every seat's PEEK face once the game is over: four rows of 16
    hex digits (the title and three lines), for ``companion audit`` or a person checking it
    against the commitment shown at setup."""
    digits = seed.hex()
    rows = [digits[start : start + 16] for start in range(0, len(digits), 16)]
    return SecretFace(f"Seed {rows[0]}", tuple(rows[1:4]))


@dataclasses.dataclass(frozen=True)
class ReloadRequested:
    """SIGHUP: read table.toml again (the loop ends; ``companion play`` starts it anew)."""


class GameClock:
    """The clock the game runs on: ``raw`` (monotonic) plus an offset set on resume."""

    def __init__(self, raw: Clock) -> None:
        self.raw = raw
        self.offset = 0.0

    def __call__(self) -> float:
        return self.raw() + self.offset

    def continue_from(self, moment: float) -> None:
        """Make it ``moment`` now: the game goes on from where its journal left off."""
        self.offset = moment - self.raw()


class App:
    """A table: its hardware, the lobby or the game in play, and each seat's UI state."""

    def __init__(
        self,
        hardware: TableHardware,
        *,
        clock: Clock = monotonic,
        lobby: Lobby | None = None,
        journal: Journal | None = None,
        seed_source: Callable[[int], bytes] = secrets.token_bytes,
        on_status: Callable[[str], None] | None = None,
        notifier: Notifier | None = None,
        deck_lists: Mapping[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.hardware = hardware
        self.clock = GameClock(clock)
        self.seat_numbers = tuple(sorted(hardware.seats))
        self.lobby = lobby or Lobby(self.seat_numbers)
        self.journal = journal or NullJournal()
        self.seed_source = seed_source
        self.deck_lists = dict(deck_lists or {})  # game key -> the table's own card list
        self.on_status = on_status or (lambda text: None)
        self.notifier = notifier or Notifier({})
        self.state: State | None = None
        self.record: GameRecord | None = None
        self.ui = {n: SeatUI(n) for n in self.seat_numbers}
        one_button = frozenset(n for n, s in hardware.seats.items() if s.one_button)
        self.gestures = GestureReader(one_button_seats=one_button)
        self.menu = SystemMenu()
        self.screens = ScreenKeeper(hardware, self.ui, self.clock)
        self.running = True
        self.reload_requested = False
        self.restarted = False  # resumed paused after a restart, until someone resumes
        self._gone: set[int] = set()  # seats whose link is down (pods)
        self._auto_paused = False  # the game is paused because a seat went offline
        self._ping_at: float | None = None
        self._remember_at: float | None = None
        self._retry_at: float | None = None
        self.tunes: list[str] = []  # every tune played, for scripts and tests

    # --- start and stop ----------------------------------------------------------------------

    def start(self) -> None:
        """Blank every seat before anything else is drawn: an OLED keeps its last image."""
        self.screens.blank_all()
        resumed = self.journal.resume()
        if resumed is not None:
            self._resume(*resumed)
        self._journal_news(self.clock())
        self.redraw()

    def _resume(self, record: GameRecord, state: State) -> None:
        """Continue the journal's game; the journal has paused it at its last moment."""
        if record.entries:
            self.clock.continue_from(record.entries[-1].at)
        if state.is_terminal():
            self.journal.finish(record)
            self._tell_all("Restarted: game over", self.clock())
            return
        self._adopt((record, state), self.clock())
        self.restarted = state.paused
        log.warning("resumed %s after a restart: %d actions replayed", record.game_key,
                    len(record.entries))

    def close(self) -> None:
        """A clean stop: the moment is journaled, the seats go dark, the journal closes."""
        self.notifier.stopping()
        if self._timer_running():
            self._remember(self.clock())
        self.screens.blank_all()
        self.journal.close()

    def run(self, events: queue.Queue | queue.SimpleQueue) -> None:
        """Block on the queue until the next event or deadline, forever (until quit).

        READY goes to systemd only now: every seat is blank and the journal replayed.
        """
        self.start()
        self.notifier.ready(f"{len(self.seat_numbers)} seats")
        self._keep_alive(self.clock())
        while self.running:
            deadline = self.next_deadline()
            timeout = None if deadline is None else max(0.0, deadline - self.clock())
            try:
                event = events.get(timeout=timeout)
            except queue.Empty:
                event = None
            if event is not None:
                self.handle(event)
            self.advance()

    # --- events --------------------------------------------------------------------------------

    def handle(self, event: object) -> None:
        if isinstance(event, ButtonEdge):
            if event.seat in self.ui:  # stamped on the monotonic clock: move it to game time
                edge = dataclasses.replace(event, at=event.at + self.clock.offset)
                for gesture in self.gestures.edge(edge):
                    self._gesture(gesture)
        elif isinstance(event, QuitRequested):
            self.running = False
        elif isinstance(event, ReloadRequested):
            self.running, self.reload_requested = False, True
        elif isinstance(event, SeatOffline):
            self.screens.set_offline(event.seat, not event.online)
            self._seat_link(event.seat, event.online, self.clock())
        self.redraw()

    def _seat_link(self, seat: int, online: bool, now: float) -> None:
        """A pod that goes quiet pauses the game: its player cannot see or press anything.

        The pause is journaled like any other; when every seat is back, only a pause the
        link made is lifted (a pause a player chose stays until a player resumes).
        """
        state = self.state
        if online:
            self._gone.discard(seat)
        elif state is not None and seat in state.seats and not state.is_terminal():
            self._gone.add(seat)
        if state is None or state.is_terminal():
            return
        if self._gone and not state.paused:
            self._table_pause("pause", now, f"Seat {seat} offline: paused")
            self._auto_paused = True
        elif not self._gone and self._auto_paused and state.paused:
            self._table_pause("resume", now, "All seats back")
        if not self._gone or not state.paused:
            self._auto_paused = False

    def _table_pause(self, outcome: str, at: float, notice: str) -> None:
        assert self.state is not None
        self.state.apply(None, outcome, at)
        self._commit(Entry(None, outcome, at))
        self._tell_all(notice, at)

    def advance(self) -> None:
        """Carry out everything whose deadline has passed, then redraw what changed."""
        now = self.clock()
        for gesture in self.gestures.advance(now):
            self._gesture(gesture)
        if self.state is not None and not self.state.paused:
            deadline = self.state.next_deadline()
            if deadline is not None and deadline <= now:
                effects = self.state.advance(now)
                self._remember(now)  # like an action: journaled before the table hears it
                self._play(effects, now)
        for seat in self.ui.values():
            seat.expire(now)
        self.screens.retry_offline(now)
        self._keep_alive(now)
        self._journal_news(now)
        self.redraw()

    def next_deadline(self) -> float | None:
        moments = [self.gestures.next_deadline(), self.screens.next_deadline(), self._ping_at,
                   self._remember_at, self._retry_at]
        if self.state is not None and not self.state.paused:
            moments.append(self.state.next_deadline())
            moments.append(self._next_tick())
        for seat in self.ui.values():
            moments.extend(seat.deadlines())
        return min((m for m in moments if m is not None), default=None)

    def _next_tick(self) -> float | None:
        """When the shown hourglass seconds next change."""
        assert self.state is not None
        now = self.clock()
        glass = self.state.view(None, now).hourglass
        if glass is None or not glass.running or glass.remaining <= 0:
            return None
        fraction = glass.remaining - math.floor(glass.remaining)
        return now + (fraction if fraction > 1e-6 else 1.0)

    def _keep_alive(self, now: float) -> None:
        """Ping the watchdog, and journal the game's moment while a timer runs.

        Both come from this loop on purpose: a loop that hangs stops pinging, and systemd
        restarts it.
        """
        every = self.notifier.watchdog_every
        if every is not None and (self._ping_at is None or now >= self._ping_at):
            self.notifier.watchdog()
            self._ping_at = now + every
        if not self._timer_running():
            self._remember_at = None
        elif self._remember_at is None:
            self._remember_at = now + REMEMBER_EVERY
        elif now >= self._remember_at:
            self._remember(now)
            self._remember_at = now + REMEMBER_EVERY
        self._retry_journal(now)

    def _retry_journal(self, now: float) -> None:
        """While the disk refuses writes the game goes on; the journal tries again every few
        seconds, so saving resumes by itself once there is room."""
        if not self.journal.behind:
            self._retry_at = None
        elif self._retry_at is None:
            self._retry_at = now + RETRY_EVERY
        elif now >= self._retry_at:
            self._retry_at = None if self.journal.catch_up() else now + RETRY_EVERY

    def _journal_news(self, now: float) -> None:
        """What the journal has to tell the table (saving stopped, a damaged journal found),
        on every seat, once; never dropped for routine news."""
        while self.journal.notices:
            self._tell_all(self.journal.notices.pop(0), now, important=True)

    def _timer_running(self) -> bool:
        state = self.state
        return state is not None and not state.paused and state.next_deadline() is not None

    def _remember(self, now: float) -> None:
        if self.record is not None:
            self.journal.remember(self.record, now)

    # --- gestures -----------------------------------------------------------------------------

    def _gesture(self, g: SeatGesture) -> None:
        seat = self.ui[g.seat]
        if g.gesture is Gesture.STUCK:
            seat.stuck = g.button.value.upper() if g.button else "Button"
            log.warning("seat %s: %s button stuck; ignored until released", g.seat, seat.stuck)
        elif g.gesture is Gesture.UNSTUCK:
            seat.stuck = ""
        elif g.gesture is Gesture.NEXT:
            seat.next(self.actions(g.seat), g.at)
        elif g.gesture is Gesture.PEEK_START:
            seat.start_peek(g.at)
        elif g.gesture is Gesture.PEEK_END:
            seat.end_peek()
        elif g.gesture is Gesture.ACT:
            action, _ = seat.current(self.actions(g.seat))
            if action is not None and not seat.needs_second_press(action, g.at):
                self.choose(g.seat, action.id, g.at)
                if action.repeat:
                    seat.keep_highlight(action, g.at)

    def actions(self, seat: int) -> list[Action]:
        """What the seat's bottom bar offers: the game's actions, then the table's."""
        if self.state is None:
            return self.lobby.legal_actions(seat)
        if seat not in self.state.seats:
            return []
        return self.menu.actions(seat, self.state, self.record)

    def choose(self, seat: int, action_id: str, at: float) -> None:
        """Carry out ``action_id`` for ``seat``; a refusal is told on that seat only."""
        ui = self.ui[seat]
        ui.reset_highlight()
        try:
            if self.state is None:
                self._lobby_action(seat, action_id, at)
            elif SystemMenu.owns(action_id):
                self._system_action(seat, action_id, at)
            else:
                self._game_action(seat, action_id, at)
        except EngineError as error:
            ui.tell(str(error), at)
            self._buzz("error")

    def _lobby_action(self, seat: int, action_id: str, at: float) -> None:
        request = self.lobby.apply(seat, action_id, at)
        if action_id == "join":
            self._buzz("join")
        if isinstance(request, StartGame):
            self.start_game(request, at)

    def _game_action(self, seat: int, action_id: str, at: float) -> None:
        assert self.state is not None and self.record is not None
        label = next((a.label for a in self.state.legal_actions(seat) if a.id == action_id), "")
        undoable = self.state.is_undoable(seat, action_id)
        effects = self.state.apply(seat, action_id, at)
        self._commit(Entry(seat, action_id, at, undoable, label))
        self._play(effects, at)

    def _system_action(self, seat: int, action_id: str, at: float) -> None:
        assert self.state is not None and self.record is not None
        outcome = self.menu.apply(seat, action_id)
        if outcome in ("pause", "resume"):
            self._table_pause(outcome, at, "Paused" if outcome == "pause" else "Resumed")
            self.restarted = self._auto_paused = False
        elif outcome == "undo":
            self._undo(at)
        elif outcome == "again":
            game = registry.get(self.record.game_key)
            self.start_game(StartGame(game, self.record.seats, dict(self.record.options)), at)
        elif outcome == "lobby":
            self.end_game()

    # --- the game's life ----------------------------------------------------------------------

    def start_game(self, request: StartGame, at: float) -> None:
        seed = self.seed_source(SEED_BYTES)
        deck_list = self.deck_lists.get(request.game.key)
        record = GameRecord(request.game.key, request.seats, request.options, seed,
                            deck_list=deck_list)
        state = request.game.new_state_with_deck(request.seats, request.options, seed, deck_list)
        self.journal.begin(record)
        self._adopt((record, state), at)
        self._tell_all(f"Seed {commitment(seed)}", at)
        self.on_status(f"{request.game.name}: seed commitment {commitment(seed)}")
        self._buzz("start")

    def end_game(self) -> None:
        if self.record is not None:
            self.journal.finish(self.record)
        self.state, self.record = None, None
        self.lobby = Lobby(self.seat_numbers, joined=list(self.lobby.joined))
        self.menu = SystemMenu()
        for seat in self.ui.values():
            seat.forget()

    def _adopt(self, resumed: tuple[GameRecord, State], at: float) -> None:
        self.record, self.state = resumed
        self.lobby.joined = sorted(set(self.record.seats))
        self.menu = SystemMenu()
        for seat in self.ui.values():
            seat.forget()

    def _commit(self, entry: Entry) -> None:
        """Journal first, effects after: an action the table saw is never lost."""
        assert self.record is not None
        self.record.entries.append(entry)
        self.journal.append(self.record, entry)

    def _undo(self, at: float) -> None:
        assert self.record is not None
        entry = self.record.last_undoable()
        if entry is None:
            raise EngineError("Nothing to undo")
        self.record.entries.pop()
        self.journal.truncate(self.record, len(self.record.entries))
        self.state = self.record.replay(now=at)
        self._tell_all(f"Undone: {entry.label}"[:21], at)

    # --- effects and screens ------------------------------------------------------------------

    def _play(self, effects: list[Effect], at: float) -> None:
        for effect in effects:
            if isinstance(effect, Buzz):
                self._buzz(effect.tune)
            elif isinstance(effect, Vibrate):
                vibrator = self.hardware.seats[effect.seat].vibrator
                if vibrator is not None:
                    vibrator.pulse(effect.pattern)
            elif isinstance(effect, Narrate | Reveal):
                self._tell_all(effect.text, at, important=isinstance(effect, Reveal))
                self.on_status(effect.text)
                if self.hardware.speaker is not None:
                    self.hardware.speaker.say(effect.text)
                if isinstance(effect, Reveal) and self.hardware.public is not None:
                    self.hardware.public.reveal(effect.text, at)
            elif isinstance(effect, GameOver):
                for seat in self.ui.values():
                    seat.drop_waiting_notices()  # the end matters more than older news
                self.on_status(effect.outcome)
                if self.record is not None:
                    self.on_status(f"Seed revealed: {self.record.seed.hex()}")
                    self._tell_all(SEED_NOTICE, at)

    def _buzz(self, tune: str) -> None:
        self.tunes.append(tune)
        self.on_status(f"♪ {tune}")
        if self.hardware.buzzer is not None:
            self.hardware.buzzer.play(tune)

    def _tell_all(self, text: str, at: float, *, important: bool = False) -> None:
        for seat in self.ui.values():
            seat.tell(text, at, important=important)

    def view(self, seat: int | None):
        now = self.clock()
        if self.state is None:
            return self.lobby.view(seat, now)
        view = self.state.view(seat if seat in self.state.seats else None, now)
        if self.state.paused:
            view = dataclasses.replace(view, title=f"PAUSED {view.title}", highlight=True)
        if self.restarted and self.state.paused:  # every seat says so until someone resumes
            lines = (RESTARTED, *view.lines[: 0 if view.big else 2])
            view = dataclasses.replace(view, lines=lines)
        if self.state.is_terminal() and self.record is not None and seat is not None:
            view = dataclasses.replace(view, secret=seed_face(self.record.seed))
        if self.record is not None and (seat is None or seat not in self.state.seats):
            view = dataclasses.replace(view, lines=(*view.lines, *self._fairness_lines()))
        return view

    def _fairness_lines(self) -> tuple[str, ...]:
        """The public screen keeps the seed's commitment in view all game (a table can note
        it whenever it likes), and shows the seed itself once the game is over."""
        assert self.record is not None and self.state is not None
        seed = self.record.seed
        if not self.state.is_terminal():
            return (f"Seed #{commitment(seed)}",)
        digits = seed.hex()
        return ("Seed revealed:", *(digits[i : i + 16] for i in range(0, len(digits), 16)))

    def redraw(self) -> None:
        for number in self.seat_numbers:
            self.screens.draw(number, self.view(number), self.actions(number))
        if self.hardware.public is not None:
            self.hardware.public.show(self.view(None), self.clock())
