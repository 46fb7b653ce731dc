"""One phase mechanism for every game.

A game is always in exactly one phase, named by ``state.phase``. Each game lists its phases
in one table (its ``phases.py``): for every phase, the actions it offers a seat, how each
action applies (by the verb before the ``:`` of its id), its view, and its deadline with what
happens when the deadline passes. Reading that table tells the whole flow of a game; the
functions it names are plain functions over the state, so nothing is looked up by a name
built at run time.

The end of every game is the same phase, :data:`OVER`, entered only through
:meth:`PhasedState.finish`, so "is the game over" and "how did it end" have one answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .api import Action, Buzz, Effect, Game, GameOver, SeatView, State, resolve_options
from .cues import Tune
from .exc import IllegalAction

OVER = "over"

# The shapes of the functions a phase names; ``Any`` stands for the game's own state class.
Offer = Callable[[Any, int], list[Action]]
Rule = Callable[[Any, int, str, float], list[Effect]]
View = Callable[[Any, "int | None", float], SeatView]
Deadline = Callable[[Any], "float | None"]
Expire = Callable[[Any, float], list[Effect]]
WhyNot = Callable[[Any, int, str], str]


def offer_nothing(state: Any, seat: int) -> list[Action]:
    return []


def no_deadline(state: Any) -> float | None:
    return None


def nothing_happens(state: Any, now: float) -> list[Effect]:
    return []


def not_now(state: Any, seat: int, action_id: str) -> str:
    return "Not now"


@dataclass(frozen=True)
class Phase:
    """One phase of a game, as data.

    ``offer`` lists what a seat may do now, the most likely first (it is what ACT does at
    once); ``rules`` maps each action verb to the function that carries it out (called with
    the text after the ``:`` of the action's id); ``view`` draws a seat's screen, or the
    public one for ``None``; ``deadline`` says when ``expire`` must run (an hourglass running
    out, a narration step ending).
    """

    offer: Offer
    rules: Mapping[str, Rule]
    view: View
    deadline: Deadline = no_deadline
    expire: Expire = nothing_happens
    why_not: WhyNot = not_now

    def verbs(self) -> frozenset[str]:
        return frozenset(self.rules)


def over_phase(view: View) -> Phase:
    """The game-over phase: nothing is offered; the view shows the outcome."""
    return Phase(offer=offer_nothing, rules={}, view=view)


class PhasedState(State):
    """A :class:`State` run by a table of phases.

    Subclasses keep the game's facts and set ``phase``; this class answers the State API by
    asking the current phase. ``outcome`` is set once, by :meth:`finish`.
    """

    def __init__(self, seats: Sequence[int], seed: bytes | None,
                 phases: Mapping[str, Phase]) -> None:
        super().__init__(seats, seed)
        if OVER not in phases:
            raise ValueError("a game's phases must include OVER")
        self.phases = phases
        self.phase: str = next(iter(phases))
        self.outcome: str | None = None

    def current_phase(self) -> Phase:
        return self.phases[self.phase]

    # --- the State API -------------------------------------------------------------------

    def active_seats(self) -> frozenset[int]:
        return frozenset(seat for seat in self.seats if self.legal_actions(seat))

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.seats:
            return []
        return self.current_phase().offer(self, seat)

    def _apply(self, seat: int, action: Action, now: float) -> list[Effect]:
        verb, _, arg = action.id.partition(":")
        rule = self.current_phase().rules.get(verb)
        if rule is None:
            raise IllegalAction(f"'{verb}' has no rule in phase {self.phase}")
        return rule(self, seat, arg, now)

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
        return self.current_phase().expire(self, now)

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def result(self) -> str | None:
        return self.outcome

    # --- the end ---------------------------------------------------------------------------

    def finish(self, outcome: str, tune: Tune) -> list[Effect]:
        """End the game: the one way into :data:`OVER`, with the outcome and its tune."""
        self.phase = OVER
        self.outcome = outcome
        return [GameOver(outcome), Buzz(tune)]


class PhasedGame(Game):
    """A game whose states run on a table of phases: ``new_state`` hands the table over."""

    phases: Mapping[str, Phase]
    state_class: type[PhasedState]

    def new_state(
        self, seats: Sequence[int], options: Mapping[str, str], seed: bytes | None
    ) -> State:
        self.check_players(seats)
        return self.state_class(seats, resolve_options(self.options, options), seed, self.phases)
