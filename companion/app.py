"""The app: a table's hardware wired to the loop, the session, the composer and the effects.

Each step of the loop is one pipeline (:meth:`App.step`): the events (a button edge, a seat's
link, a stop) are taken in, presses becoming :class:`Action` objects that the session
applies, each returning what it journaled and its effects, which the effect player holds;
the deadlines that fell due are carried out; then the table is shown (:meth:`App.redraw`):
the presser's screen is composed and rendered while the journal's commit flushes, the
journal is *settled* (its commit returned: only then is any screen written or a held output
played), the presser's screen is handed over, the held outputs played, and every other
seat's screen is written, then the public one. Run by the loop, a redraw yields its other
seats to an event waiting on the loop's queue (:meth:`App._others`): that event's step comes
at once and draws its own presser first.

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
from collections.abc import Callable, Iterable, Iterator, Mapping

from engine import registry
from engine.api import Action, SeatView
from hardware.base import ButtonEdge, QuitRequested, SeatLink, TableHardware

from .clock import Clock, GameClock, monotonic
from .composer import Composer, next_second
from .cue_menu import CueMenu
from .effects import EffectPlayer
from .gestures import Gesture, GestureReader, SeatGesture
from .journal import Journal, NullJournal
from .links import Links
from .lobby import Lobby
from .loop import run_loop
from .mode import StartGame
from .screens import Frame, ScreenKeeper
from .sdnotify import Notifier
from .seat_ui import CHOICES_CHANGED, SeatUI
from .session import Session
from .system_menu import SystemMenu
from .upkeep import Upkeep

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
        page_code: Callable[[], str] | None = None,
    ) -> None:
        self.hardware = hardware
        self.clock = GameClock(clock)
        self.seat_numbers = tuple(sorted(hardware.seats))
        self.ui = {n: SeatUI(n, one_button=hardware.seats[n].one_button)
                   for n in self.seat_numbers}
        self.links = Links()
        lobby = lobby or Lobby(self.seat_numbers)
        lobby.cues = CueMenu.of(hardware)  # which settings this table's seats are offered
        lobby.phones = tuple(n for n in self.seat_numbers if hardware.seats[n].phone_link)
        lobby.page = page_code is not None  # the table's page: its seats may ask for a code
        self.session = Session(self.seat_numbers, lobby,
                               journal or NullJournal(), key_source, dict(deck_lists or {}))
        self.effects = EffectPlayer(hardware, self.ui, on_status or (lambda text: None),
                                    self.session.memory, page_code)
        self.composer = Composer(self.session, self.ui, self.links, {
            n: seat.phone_link for n, seat in hardware.seats.items() if seat.phone_link})
        self.screens = ScreenKeeper(hardware, self.links)
        one_button = frozenset(n for n, s in hardware.seats.items() if s.one_button)
        self.gestures = GestureReader(one_button_seats=one_button)
        self.notifier = notifier or Notifier({})
        self.upkeep = Upkeep(self.notifier, self.session)
        self.running = True  # the loop takes steps until a stop is asked for
        self.reload_requested = False
        self._tick: float | None = None  # when the shown hourglass seconds next change
        self._events: queue.Queue | queue.SimpleQueue | None = None  # the loop's, while it runs
        self._yielded = False  # the last redraw left seats undrawn for a waiting event

    # --- what tests, scripts and benches read ----------------------------------------------------

    def actions(self, seat: int) -> list[Action]:
        """What the seat's bottom bar offers."""
        return self.session.offers(seat)

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` (None: the public screen) is shown now."""
        return self.composer.view(seat, self.clock())

    # --- start and stop ------------------------------------------------------------------------

    def start(self) -> None:
        """Blank every seat before anything else is drawn: an OLED keeps its last image."""
        self._settle()
        self.screens.blank_all(self.clock())
        applied = self.session.resume(self.clock)
        self.effects.play(applied.effects, self.clock())
        self.redraw()

    def ready(self) -> None:
        """Started: tell systemd the table is READY, and keep it alive from now on."""
        self.notifier.ready(f"{len(self.seat_numbers)} seats")
        self.upkeep.keep_alive(self.clock())

    def stop(self, *, reload: bool = False) -> None:
        """End the loop after this step; ``reload``: read table.toml again and start anew."""
        self.running = False
        if reload:
            self.reload_requested = True

    def close(self) -> None:
        """A clean stop: the moment is journaled, the journal closes, the seats go dark."""
        self.notifier.stopping()
        self.session.close(self.clock())
        self._settle()
        self.screens.blank_all(self.clock())

    def run(self, events: queue.Queue | queue.SimpleQueue,
            on_ready: Callable[[], None] | None = None) -> None:
        """Run the loop until it stops.

        From READY on (the start draws every seat), a redraw yields its other seats to an
        event waiting on ``events`` (:meth:`_others`). Once the table is READY, a thread
        imports the games not yet imported, so the lobby's game list and a game's end never
        wait for them on the loop (0.1 s here, about a second on a Pi Zero 2 W), and then
        freezes every object made so far out of the garbage collector's full passes: a full
        pass over the modules and the table took 30 ms here (some 0.3 s on a Zero) at
        whatever press it fell on. They are unfrozen when the loop stops, so a reloaded
        table's old objects are collected as usual. Meanwhile the loop collects the rest only
        when the table is quiet, its screens' wires too (:mod:`companion.collector`).
        """
        settling = threading.Thread(target=_settle_in, name="settle-in", daemon=True)

        def ready() -> None:
            self._events = events  # a redraw peeks at it from now on (the start drew every seat)
            settling.start()
            if on_ready is not None:
                on_ready()

        try:
            run_loop(self, events, ready, self.hardware.wires())
        finally:
            self._events = None
            if settling.is_alive():
                settling.join()
            gc.unfreeze()

    # --- one step: events in, due deadlines, one redraw ------------------------------------------

    def step(self, *events: object) -> None:
        """Take ``events``, carry out everything that fell due, then show the table once."""
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
                   self.upkeep.next_deadline(), self.session.next_deadline()]
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
            self.stop()
        elif isinstance(event, ReloadRequested):
            self.stop(reload=True)
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
        self.upkeep.keep_alive(now)
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
        elif g.gesture is Gesture.PAGE:  # ACT under a held PEEK: the secret's page, no more
            seat.turn_page(g.at)
        elif g.gesture is Gesture.REPEAT:
            self._repeat(g)
        elif g.gesture is Gesture.ACT:
            offered = self.session.offers(g.seat)
            action = None if seat.lost(offered) else seat.current(offered)[0]
            if action is None or not action.counts:  # held, only a count's step repeats
                self.gestures.stop_repeat(g.seat)
            if seat.lost(offered):  # never another action, silently
                seat.reset_highlight()
                seat.tell(CHOICES_CHANGED, g.at)
                return
            if action is not None and not seat.needs_second_press(action, g.at):
                self._apply(g.seat, action, g.at, offered)

    def _repeat(self, g: SeatGesture) -> None:
        """A held ACT again, on a count's step only (+1, +5, -1): anything else, above all
        what cannot be taken back, is done once per press, so its repeats stop."""
        offered = self.session.offers(g.seat)
        seat = self.ui[g.seat]
        action, _ = seat.current(offered)
        if action is None or not action.counts or seat.lost(offered):
            self.gestures.stop_repeat(g.seat)
            return
        self._apply(g.seat, action, g.at, offered)

    def choose(self, seat: int, action: Action | str, at: float) -> None:
        """Carry out ``action`` for ``seat`` (tests and benches may pass its id) and play
        its effects; a refusal is told on that seat only."""
        if isinstance(action, str):
            action = self.session.find(seat, action)
        self._apply(seat, action, at, self.session.offers(seat))
        self._settle()

    def _apply(self, seat: int, action: Action, at: float, offered: list[Action]) -> None:
        """Carry out ``action``, pressed on ``offered``; its outputs wait for the journal
        (:meth:`_settle`)."""
        before = [a.id for a in offered]
        applied = self.session.apply(seat, action, at)
        self.ui[seat].acted(action, before, self.session.offers(seat), at, SystemMenu.owns)
        self.effects.play(applied.effects, at)

    def start_game(self, request: StartGame, at: float) -> None:
        self.effects.play(self.session.start_game(request, at).effects, at)
        self._settle()

    def _settle(self) -> None:
        """The pipeline's durable stage: nothing is seen or heard before the journal holds
        what caused it, so wait for its commit, then play the held outputs."""
        self.session.journal.settle()
        self.effects.release()

    # --- screens -------------------------------------------------------------------------------

    def redraw(self, first: tuple[int, ...] = ()) -> None:
        """Show the table: compose every seat's screen and the public one, draw what changed.

        Seats in ``first`` (whoever just pressed) are drawn before the others, and the
        presser's screen is marked awaited: on a shared I2C wire it goes before any other
        seat's bytes, even a background redraw's already queued (docs/ARCHITECTURE.md §10).
        The presser's screen is composed and rendered while the journal's commit flushes,
        and written once the journal is settled, before the held cues play (they are not
        needed for its bytes, and a tune on the buzzer costs the loop some 60 us here); a
        commit the disk refused is told at once, the screen composed again with the news.
        The other seats may yield to a waiting event (:meth:`_others`); so may every seat of
        a redraw no press caused (a tick, a notice timing out), its first too: nobody waits
        for that one, and a press that lands early in it would wait for its composing. The
        public screen is shown either way.
        """
        order = [n for n in dict.fromkeys((*(n for n in first if n in self.ui),
                                             *self.seat_numbers)) if self.links.is_up(n)]
        head = order[:1] if order and order[0] in first else []
        now = self.clock()
        frames = list(self._frames(head, now))
        self.session.journal.settle()
        while self.session.journal.notices:  # the disk refused the commit: told on every seat
            self._catch_up(self.clock())
            now = self.clock()
            frames = list(self._frames(head, now))
            self.session.journal.settle()
        self._write(frames, now, awaited=bool(head))
        self.effects.release()  # the cues, once the presser's screen is on its way
        self._write(self._others(order[len(head):], now), now)
        public = self.composer.view(None, now)
        self._tick = next_second(public.hourglass, now)
        self.effects.show_public(public, self.composer.public_code(), now, self._joinable())

    def _joinable(self) -> tuple[int, ...]:
        """In the lobby, the phone seats no phone is on: the public screen offers their links."""
        mode = self.session.mode
        if not isinstance(mode, Lobby):
            return ()
        return tuple(n for n in mode.phones if not self.links.is_up(n))

    @property
    def behind(self) -> bool:
        """The last redraw left seats undrawn for an event waiting on the loop's queue (the
        loop steps again if that event brings no step of its own)."""
        return self._yielded

    def _others(self, seats: list[int], now: float) -> Iterator[Frame]:
        """The seats after the presser's (every seat, if none), in order, until an event
        waits on the loop's queue.

        A background step (an hourglass tick, a notice timing out) composing and rendering
        eight seats took the loop 1.4 ms here, p90 2.4 ms (bench/realpath.py's traces), some
        ten times that on a Zero 2 W (bench/zero.py's CPU factor), and a press that lands
        early in it would wait for all eight, or for its first. So before each seat the
        queue is peeked at, and if an event waits the seats left keep what they show: the
        event's step comes at once, composes every seat anyway and draws what changed, its
        presser first. A press step yields too (a second press waits for the first
        presser's screen, not for every seat's), but never two redraws in a row: the one
        after a yield draws every seat whatever waits, so no seat is ever more than one step
        behind, even under a flood of edges (a chattering contact), and every press's step
        draws its presser's screen, so the table always moves on. Whether a redraw yields
        depends on the queue and the seats' order, never on what a seat is shown.
        """
        may_yield, self._yielded = not self._yielded, False
        for number in seats:
            if may_yield and self._events is not None and not self._events.empty():
                self._yielded = True
                return
            yield from self._frames([number], now)

    def _frames(self, seats: list[int], now: float) -> Iterator[Frame]:
        """Each seat's screen composed and rendered, one at a time (those that changed)."""
        for number in seats:
            face = self.composer.face(number, now)
            frame = self.screens.frame(number, face, secret=self.ui[number].peeking)
            if frame is not None:
                yield frame

    def _write(self, frames: Iterable[Frame], now: float, *, awaited: bool = False) -> None:
        for frame in frames:
            self.screens.write(frame, now, awaited=awaited)


def _settle_in() -> None:
    """Import every game, collect what an earlier table left (a reload's old app), then
    leave what exists now out of the collector's full passes."""
    registry.all_games()
    gc.collect()
    gc.freeze()


def _pressing(events: tuple[object, ...]) -> tuple[int, ...]:
    """The seats whose buttons moved in ``events``, in the order they did."""
    return tuple(event.seat for event in events if isinstance(event, ButtonEdge))
