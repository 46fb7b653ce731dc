"""The app: a table's hardware wired to the loop, the session, the composer and the effects.

Each step of the loop is one pipeline: an event (a button edge, a seat's link, a stop) and
the deadlines that fell due are taken in; presses become :class:`Action` objects that the
session applies, returning what it applied and its effects; the effect player plays them;
then every seat's screen is composed and drawn once.

Time is the game clock (:class:`GameClock`): after a restart it continues the resumed game's
timeline from its last journaled moment.
"""

from __future__ import annotations

import dataclasses
import gc
import logging
import queue
import secrets
import threading
from collections.abc import Callable, Mapping

from engine import registry
from engine.api import Action, SeatView, State
from hardware.base import ButtonEdge, QuitRequested, SeatLink, TableHardware

from .clock import Clock, GameClock, monotonic
from .composer import Composer, next_second
from .cue_menu import CueMenu
from .effects import EffectPlayer
from .gestures import Gesture, GestureReader, SeatGesture
from .journal import Journal, NullJournal
from .links import Links
from .lobby import Lobby, StartGame
from .loop import Loop
from .record import GameRecord
from .screens import ScreenKeeper
from .sdnotify import Notifier
from .seat_ui import CHOICES_CHANGED, SeatUI
from .session import Session
from .system_menu import SystemMenu

log = logging.getLogger(__name__)

@dataclasses.dataclass(frozen=True)
class ReloadRequested:
    """SIGHUP: read table.toml again (the loop ends; ``companion play`` starts it anew)."""


class App:
    """A table: its hardware, and the pieces that play on it, wired together."""

    def __init__(
        self,
        hardware: TableHardware,
        *,
        clock: Clock = monotonic,
        lobby: Lobby | None = None,
        journal: Journal | None = None,
        key_source: Callable[[int], bytes] = secrets.token_bytes,
        on_status: Callable[[str], None] | None = None,
        notifier: Notifier | None = None,
        deck_lists: Mapping[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.hardware = hardware
        self.clock = GameClock(clock)
        self.seat_numbers = tuple(sorted(hardware.seats))
        self.ui = {n: SeatUI(n) for n in self.seat_numbers}
        self.links = Links()
        lobby = lobby or Lobby(self.seat_numbers)
        lobby.cues = CueMenu.of(hardware)  # which settings this table's seats are offered
        self.session = Session(self.seat_numbers, lobby,
                               journal or NullJournal(), key_source, dict(deck_lists or {}))
        self.effects = EffectPlayer(hardware, self.ui, on_status or (lambda text: None),
                                    self.session.memory)
        self.composer = Composer(self.session, self.ui, self.links)
        self.screens = ScreenKeeper(hardware, self.links, before_write=self._release)
        one_button = frozenset(n for n, s in hardware.seats.items() if s.one_button)
        self.gestures = GestureReader(one_button_seats=one_button)
        self.notifier = notifier or Notifier({})
        self.loop = Loop(self.notifier, self.session)
        self._tick: float | None = None  # when the shown hourglass seconds next change

    # --- what tests, scripts and benches read ----------------------------------------------------

    @property
    def state(self) -> State | None:
        return self.session.state

    @property
    def record(self) -> GameRecord | None:
        return self.session.record

    @property
    def lobby(self) -> Lobby:
        return self.session.lobby

    @property
    def journal(self) -> Journal:
        return self.session.journal

    @property
    def restarted(self) -> bool:
        return self.session.game is not None and self.session.game.restarted

    @property
    def tunes(self) -> list[str]:
        return self.effects.tunes

    def actions(self, seat: int) -> list[Action]:
        """What the seat's bottom bar offers."""
        return self.session.offers(seat)

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` (None: the public screen) is shown now."""
        return self.composer.view(seat, self.clock())

    # --- start and stop ------------------------------------------------------------------------

    def start(self) -> None:
        """Blank every seat before anything else is drawn: an OLED keeps its last image."""
        self.screens.blank_all(self.clock())
        applied = self.session.resume(self.clock)
        self.effects.play(applied.effects, self.clock())
        self.redraw()

    def close(self) -> None:
        """A clean stop: the moment is journaled, the journal closes, the seats go dark."""
        self.notifier.stopping()
        self.session.close(self.clock())
        self.screens.blank_all(self.clock())

    def run(self, events: queue.Queue | queue.SimpleQueue,
            on_ready: Callable[[], None] | None = None) -> None:
        """Run the loop until it stops.

        Once the table is READY, a thread imports the games not yet imported, so the lobby's
        game list and a game's end never wait for them on the loop (0.1 s here, about a
        second on a Pi Zero 2 W), and then freezes every object made so far out of the
        garbage collector's full passes: a full pass over the modules and the table took 30
        ms here (some 0.3 s on a Zero) at whatever press it fell on. They are unfrozen when
        the loop stops, so a reloaded table's old objects are collected as usual.
        """
        settling = threading.Thread(target=_settle_in, name="settle-in", daemon=True)

        def ready() -> None:
            settling.start()
            if on_ready is not None:
                on_ready()

        try:
            self.loop.run(self, events, ready)
        finally:
            if settling.is_alive():
                settling.join()
            gc.unfreeze()

    # --- one step: events in, due deadlines, one redraw ------------------------------------------

    def step(self, *events: object) -> None:
        """Take ``events``, carry out everything that fell due, then redraw once."""
        for event in events:
            self._take(event)
        self._catch_up(self.clock())
        self.redraw(first=_pressing(events))

    def handle(self, event: object) -> None:
        """Take one event and redraw (without carrying out deadlines: :meth:`advance`)."""
        self._take(event)
        self.redraw(first=_pressing((event,)))

    def advance(self) -> None:
        """Carry out everything whose deadline has passed, then redraw."""
        self._catch_up(self.clock())
        self.redraw()

    def next_deadline(self) -> float | None:
        moments = [self.gestures.next_deadline(), self.links.next_retry(),
                   self.loop.next_deadline(), self.session.next_deadline()]
        if self.session.clock_runs():
            moments.append(self._tick)
        for seat in self.ui.values():
            moments.extend(seat.deadlines())
        return min((m for m in moments if m is not None), default=None)

    def _take(self, event: object) -> None:
        if isinstance(event, ButtonEdge):
            if event.seat in self.ui:  # stamped on the monotonic clock: move it to game time
                edge = dataclasses.replace(event, at=event.at + self.clock.offset)
                for gesture in self.gestures.edge(edge):
                    self._gesture(gesture)
        elif isinstance(event, QuitRequested):
            self.loop.stop()
        elif isinstance(event, ReloadRequested):
            self.loop.stop(reload=True)
        elif isinstance(event, SeatLink):
            self._seat_link(event)

    def _catch_up(self, now: float) -> None:
        for gesture in self.gestures.advance(now):
            self._gesture(gesture)
        self.effects.play(self.session.advance(now).effects, now)
        for seat in self.ui.values():
            seat.expire(now)
        for number in self.links.retries_due(now):
            self.screens.reconnect(number, now)
        self.loop.keep_alive(now)
        self.effects.play(self.session.journal_news().effects, now)

    def _seat_link(self, event: SeatLink) -> None:
        if event.up:
            self.links.set_up(event.seat)
            self.screens.forget(event.seat)  # the pod's screen is unknown: send it in full
        else:
            self.links.set_quiet(event.seat)
        now = self.clock()
        applied = self.session.link_changed(event.seat, self.links.quiet_seats(), now)
        self.effects.play(applied.effects, now)

    # --- presses -------------------------------------------------------------------------------

    def _gesture(self, g: SeatGesture) -> None:
        seat = self.ui[g.seat]
        if g.gesture is Gesture.STUCK:
            seat.stuck = g.button.value.upper() if g.button else "Button"
            log.warning("seat %s: %s button stuck; ignored until released", g.seat, seat.stuck)
        elif g.gesture is Gesture.UNSTUCK:
            seat.stuck = ""
        elif g.gesture is Gesture.NEXT:
            seat.next(self.session.offers(g.seat), g.at)
        elif g.gesture is Gesture.PEEK_START:
            seat.start_peek(g.at)
        elif g.gesture is Gesture.PEEK_END:
            seat.end_peek(g.at)
        elif g.gesture is Gesture.ACT:
            if seat.lost(self.session.offers(g.seat)):  # never another action, silently
                seat.reset_highlight()
                seat.tell(CHOICES_CHANGED, g.at)
                return
            action, _ = seat.current(self.session.offers(g.seat))
            if action is not None and not seat.needs_second_press(action, g.at):
                self._apply(g.seat, action, g.at)

    def choose(self, seat: int, action: Action | str, at: float) -> None:
        """Carry out ``action`` for ``seat`` (tests and benches may pass its id) and play
        its effects; a refusal is told on that seat only."""
        if isinstance(action, str):
            action = self.session.find(seat, action)
        self._apply(seat, action, at)
        self._release()

    def _apply(self, seat: int, action: Action, at: float) -> None:
        """Carry out ``action``; its outputs wait for the journal (:meth:`_release`)."""
        before = [a.id for a in self.session.offers(seat)]
        applied = self.session.apply(seat, action, at)
        self.ui[seat].acted(action, before, self.session.offers(seat), at, SystemMenu.owns)
        self.effects.play(applied.effects, at)

    def start_game(self, request: StartGame, at: float) -> None:
        self.effects.play(self.session.start_game(request, at).effects, at)
        self._release()

    def _release(self) -> None:
        """Nothing is seen or heard before the journal holds what caused it: wait for its
        commit (the presser's screen was drawn meanwhile), then play the held outputs."""
        self.session.journal.settle()
        self.effects.release()

    # --- screens -------------------------------------------------------------------------------

    def redraw(self, first: tuple[int, ...] = ()) -> None:
        """Compose every seat's screen and the public one, and draw what changed.

        Seats in ``first`` (whoever just pressed) are drawn before the others: on a shared
        I2C bus the presser's screen is then the first on the wire, not up to the eighth.
        The first screen is drawn while the journal's commit flushes and written once it
        returned (:meth:`_release`); a commit the disk refused is told, and retried, at once.
        """
        now = self.clock()
        for number in dict.fromkeys((*(n for n in first if n in self.ui), *self.seat_numbers)):
            if self.links.is_up(number):
                face = self.composer.face(number, now)
                self.screens.draw(number, face, secret=self.ui[number].peeking, now=now)
        self._release()
        public = self.composer.view(None, now)
        self._tick = next_second(public.hourglass, now)
        self.effects.show_public(public, self.composer.public_code(), now)
        if self.session.journal.notices:
            self._catch_up(self.clock())
            self.redraw()


def _settle_in() -> None:
    """Import every game, collect what an earlier table left (a reload's old app), then
    leave what exists now out of the collector's full passes."""
    registry.all_games()
    gc.collect()
    gc.freeze()


def _pressing(events: tuple[object, ...]) -> tuple[int, ...]:
    """The seats whose buttons moved in ``events``, in the order they did."""
    return tuple(event.seat for event in events if isinstance(event, ButtonEdge))
