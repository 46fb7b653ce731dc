"""One phase mechanism for every game, after boardgame.io's phases.

A game is always in exactly one phase, named by ``state.phase``. Each game lists its phases
in one table (its ``phases.py``), and each entry says the phase's whole flow:

- what happens on entry (``begin``, which may make the phase's own data, ``state.data``);
- whom it waits for (``waits``: every seat at once, or one at a time in an order), and when
  it is done (``done``, or nobody left to wait for);
- what happens at its end (``end``) and what comes ``next`` (a name, or a function of the
  state for a phase with several ways out);
- what it offers a seat, how each action applies (by the verb before the ``:`` of its id),
  its per-seat menus with their way back (and whether a seat's open menu stays open into
  it, ``keeps_menus``), its view, its deadline and what happens then.

The engine is the only place a phase changes: :meth:`PhasedState.end_phase` (boardgame.io's
``endPhase``: the table's ``next``) and :meth:`PhasedState.set_phase` (``setPhase``: a rule
that names where the game goes) both run the old phase's ``end`` and the new one's ``begin``,
and after every action and every expiry the engine ends each phase that is done, so a phase
whose last awaited seat acted gives way without its rule saying so. A phase that declares
none of this works as a plain table of offers and rules.

The end of every game is the same phase, :data:`OVER`, entered only through
:meth:`PhasedState.finish`, so "is the game over" and "how did it end" have one answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .api import Action, Buzz, Effect, Game, GameOver, SeatView, State, resolve_options
from .cues import Tune
from .exc import IllegalAction

OVER = "over"
ENDED_EARLY = "Ended early: no win"  # the outcome of a game the table ended ("End game")

# The shapes of the functions a phase names; ``Any`` stands for the game's own state class.
Offer = Callable[[Any, int], list[Action]]
Rule = Callable[[Any, int, str, float], list[Effect]]
View = Callable[[Any, "int | None", float], SeatView]
Deadline = Callable[[Any], "float | None"]
Expire = Callable[[Any, float], list[Effect]]
WhyNot = Callable[[Any, int, str], str]
Hook = Callable[[Any, float], list[Effect]]  # begin, end: (state, now) -> effects
Done = Callable[[Any], bool]
Next = Callable[[Any], str]
Seats = Callable[[Any], Sequence[int]]

D = TypeVar("D")


def offer_nothing(state: Any, seat: int) -> list[Action]:
    return []


def no_deadline(state: Any) -> float | None:
    return None


def nothing_happens(state: Any, now: float) -> list[Effect]:
    return []


def not_now(state: Any, seat: int, action_id: str) -> str:
    return "Not now"


@dataclass(frozen=True)
class Waits:
    """Whom a phase waits for: the seats ``seats(state)`` names on entry, all at once, or
    one at a time in that order (``in_turn``, boardgame.io's ``turn.order``). A seat stops
    being waited for when its rule says it has acted (:meth:`PhasedState.acted`) or it
    leaves the game (:meth:`PhasedState.stop_waiting_for`)."""

    seats: Seats
    in_turn: bool = False


def every_seat(state: Any) -> Sequence[int]:
    return state.seats


EVERY_SEAT = Waits(every_seat)


@dataclass(frozen=True)
class Menu:
    """A sub-choice one seat opens within a phase (a target to pick, an "are you sure").

    While it is open the seat is offered only ``offer`` (which lists the way back, "Cancel"
    or "Back", where the menu wants it) and its actions go to ``rules``; leaving the phase
    closes every menu."""

    offer: Offer
    rules: Mapping[str, Rule]


@dataclass(frozen=True)
class OpenMenu:
    """The menu a seat has open, and what it was opened on (a target seat, a card)."""

    name: str
    arg: str = ""


@dataclass(frozen=True)
class Phase:
    """One phase of a game, as data: its offers, rules and view, and its whole flow.

    ``offer`` lists what a seat may do now, the most likely first (it is what ACT does at
    once); ``rules`` maps each action verb to the function that carries it out (called with
    the text after the ``:`` of the action's id); ``view`` draws a seat's screen, or the
    public one for ``None``; ``deadline`` says when ``expire`` must run (an hourglass running
    out, a narration step ending). ``begin``, ``waits``, ``done``, ``end`` and ``next`` are
    the flow (the module's docstring); ``menus`` the per-seat menus, by name.
    """

    offer: Offer
    rules: Mapping[str, Rule]
    view: View
    deadline: Deadline = no_deadline
    expire: Expire = nothing_happens
    why_not: WhyNot = not_now
    begin: Hook = nothing_happens
    waits: Waits | None = None
    done: Done | None = None
    end: Hook = nothing_happens
    next: str | Next | None = None
    menus: Mapping[str, Menu] = field(default_factory=dict)
    # A seat's open menu stays open into this phase when it has that menu too: a menu that
    # belongs to the seat for a stretch of phases (Mind Invaders' anytime choices).
    keeps_menus: bool = False

    def verbs(self) -> frozenset[str]:
        return frozenset(self.rules).union(*(menu.rules for menu in self.menus.values()))

    def is_done(self, state: PhasedState) -> bool:
        """Whether the phase is over by its own declaration: its ``done`` says so, or it
        waits for seats and none is left. A phase that declares neither never ends itself."""
        if self.done is not None:
            return self.done(state)
        return self.waits is not None and not state.waiting_for

    def next_phase(self, state: Any) -> str:
        if self.next is None:
            raise RuntimeError(f"phase {state.phase} names no next phase")
        return self.next if isinstance(self.next, str) else self.next(state)


def over_phase(view: View) -> Phase:
    """The game-over phase: nothing is offered; the view shows the outcome."""
    return Phase(offer=offer_nothing, rules={}, view=view)


def answered(state: PhasedState, seat: int, arg: str, now: float) -> list[Effect]:
    """A press that is the seat's whole answer to the phase (Ready, Done, Pass): the phase
    stops waiting for the seat, and nothing else happens."""
    state.acted(seat)
    return []


def opens(menu: str) -> Rule:
    """The rule of a press that opens ``menu`` for the seat (Inspect..., Call reveal...),
    on what the action's id names after its ``:`` (a target seat), if anything."""
    def open_menu(state: PhasedState, seat: int, arg: str, now: float) -> list[Effect]:
        state.open_menu(seat, menu, arg)
        return []
    return open_menu


class PhasedState(State):
    """A :class:`State` run by a table of phases.

    Subclasses keep the game's lasting facts; this class keeps where the game is (``phase``),
    the current phase's own data (``data``), whom it waits for (``waiting_for``) and the menus
    seats have open (``menus``), and answers the State API by asking the current phase.
    ``outcome`` is set once, by :meth:`finish`. The table arrives through :meth:`start`,
    which :meth:`PhasedGame.new_state` calls right after the constructor, so every game's
    state is made the same way: ``(seats, options, seed)``.
    """

    def __init__(self, seats: Sequence[int], options: Mapping[str, str],
                 seed: bytes | None) -> None:
        super().__init__(seats, options, seed)
        self.phases: Mapping[str, Phase] = {}
        self.phase = ""
        self.data: object = None
        self.waiting_for: list[int] = []
        self.menus: dict[int, OpenMenu] = {}
        self.outcome: str | None = None

    def start(self, phases: Mapping[str, Phase]) -> None:
        """Take the game's table and enter its first phase (whose ``begin`` may set data but
        has nobody to tell yet: it must give no effects)."""
        if OVER not in phases:
            raise ValueError("a game's phases must include OVER")
        self.phases = phases
        if self._enter(next(iter(phases)), 0.0):
            raise ValueError("the first phase's begin can tell nobody: it gives no effects")

    def current_phase(self) -> Phase:
        return self.phases[self.phase]

    def data_of(self, kind: type[D]) -> D:
        """The current phase's own data, as the type its ``begin`` made (a rule of a phase
        asks for its phase's data; asking in another phase is a bug, and says so)."""
        if not isinstance(self.data, kind):
            raise RuntimeError(f"phase {self.phase} keeps no {kind.__name__}")
        return self.data

    # --- the flow ------------------------------------------------------------------------

    def end_phase(self, now: float) -> list[Effect]:
        """The current phase ends and the table's ``next`` begins (boardgame.io's endPhase).
        An ``end`` that finishes the game goes nowhere next."""
        ending = self.current_phase()
        effects = ending.end(self, now)
        if self.is_terminal():
            return effects
        return effects + self._enter(ending.next_phase(self), now)

    def set_phase(self, name: str, now: float, data: object = None) -> list[Effect]:
        """The current phase ends and ``name`` begins (boardgame.io's setPhase), with
        ``data`` as its own data when the rule that leads there made it from the choice just
        made (the Monster fought, the Hero guessed): set before the phase's waits and begin."""
        if name not in self.phases:
            raise RuntimeError(f"no phase {name!r}")
        effects = self.current_phase().end(self, now)
        if self.is_terminal():
            return effects
        return effects + self._enter(name, now, data)

    def _enter(self, name: str, now: float, data: object = None) -> list[Effect]:
        """The one place ``phase`` changes: menus close (unless the phase keeps them), the
        seats to wait for are named."""
        phase = self.phases[name]
        kept = {seat: opened for seat, opened in self.menus.items()
                if phase.keeps_menus and opened.name in phase.menus}
        self.phase, self.data, self.menus = name, data, kept
        waits = phase.waits
        self.waiting_for = list(waits.seats(self)) if waits else []
        return phase.begin(self, now)

    def _settle(self, now: float) -> list[Effect]:
        """End every phase that is done: the next may have nobody to wait for either."""
        effects: list[Effect] = []
        while self.phase != OVER and self.current_phase().is_done(self):
            effects += self.end_phase(now)
        return effects

    def acted(self, seat: int) -> None:
        """``seat`` has given what the phase waits for (a rule says so)."""
        self.waiting_for.remove(seat)

    def stop_waiting(self) -> None:
        """Nobody is waited for any more: one seat's answer was the whole phase (the first
        blocker blocks; the seats after it were waited for only in case it left)."""
        self.waiting_for.clear()

    def stop_waiting_for(self, seat: int) -> None:
        """``seat`` left the game: the phase no longer waits for it."""
        if seat in self.waiting_for:
            self.waiting_for.remove(seat)

    def awaited(self) -> list[int]:
        """The seats the phase waits for now: all of them, or the first of an ordered wait."""
        waits = self.current_phase().waits
        if waits is not None and waits.in_turn:
            return self.waiting_for[:1]
        return list(self.waiting_for)

    # --- menus -----------------------------------------------------------------------------

    def open_menu(self, seat: int, name: str, arg: str = "") -> None:
        if name not in self.current_phase().menus:
            raise RuntimeError(f"phase {self.phase} has no menu {name!r}")
        self.menus[seat] = OpenMenu(name, arg)

    def close_menu(self, seat: int) -> None:
        self.menus.pop(seat, None)

    def menu_of(self, seat: int) -> Menu | None:
        menus = self.current_phase().menus
        opened = self.menus.get(seat) if menus else None
        return None if opened is None else menus[opened.name]

    # --- the State API -------------------------------------------------------------------

    def active_seats(self) -> frozenset[int]:
        return frozenset(seat for seat in self.seats if self.legal_actions(seat))

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.seats:
            return []
        menu = self.menu_of(seat)
        return (menu or self.current_phase()).offer(self, seat)

    def _apply(self, seat: int, action: Action, now: float) -> list[Effect]:
        verb, _, arg = action.id.partition(":")
        menu = self.menu_of(seat)
        rule = (menu or self.current_phase()).rules.get(verb)
        if rule is None:
            raise IllegalAction(f"'{verb}' has no rule in phase {self.phase}")
        effects = rule(self, seat, arg, now)
        return effects + self._settle(now)

    def why_not(self, seat: int, action_id: str) -> str:
        if seat not in self.seats:
            return "That seat is not playing"
        return self.current_phase().why_not(self, seat, action_id)

    def view(self, seat: int | None, now: float) -> SeatView:
        return self.current_phase().view(self, seat, now)

    def next_deadline(self) -> float | None:
        return None if self.paused else self.current_phase().deadline(self)

    def advance(self, now: float) -> list[Effect]:
        deadline = self.next_deadline()
        if deadline is None or now < deadline:
            return []
        effects = self.current_phase().expire(self, now)
        return effects + self._settle(now)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def result(self) -> str | None:
        return self.outcome

    # --- the end ---------------------------------------------------------------------------

    def finish(self, outcome: str, tune: Tune) -> list[Effect]:
        """End the game: the one way into :data:`OVER`, with the outcome and its tune.

        The phase the game was in does not run its ``end`` (the game ended, not the phase),
        and its data and open menus stay: the last screens (a seat's PEEK help for the menu
        it had open, the last vote) still read them."""
        self.phase, self.waiting_for = OVER, []
        self.outcome = outcome
        return [GameOver(outcome), Buzz(tune)]

    def end_early(self, now: float) -> list[Effect]:
        """The table ended the game: over, its timers stopped (a glass no longer runs) but not
        paused (its outcome is read, not resumed), with what the rules reveal at the end
        (:meth:`end_reveals`) after the outcome."""
        if not self.paused:
            self.on_pause(now)
        self.paused = False
        return [*self.finish(ENDED_EARLY, Tune.END), *self.end_reveals()]

    def ended_early(self) -> bool:
        """The table ended the game ("End game"): nobody won or lost it."""
        return self.outcome == ENDED_EARLY

    def end_reveals(self) -> list[Effect]:
        """What the rules reveal when a game ends (every identity, every Character): a game
        with secrets that the end makes public says so; by default nothing."""
        return []


class PhasedGame(Game):
    """A game whose states run on a table of phases: ``new_state`` hands the table over."""

    phases: Mapping[str, Phase]
    state_class: type[PhasedState]

    def new_state(
        self, seats: Sequence[int], options: Mapping[str, str], seed: bytes | None
    ) -> PhasedState:
        self.check_players(seats)
        state = self.state_class(seats, resolve_options(self.options, options), seed)
        state.start(self.phases)
        return state
