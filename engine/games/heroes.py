"""Heroes Love to Lie: the companion holds the Hero cards, so every lie is checked truthfully.

Rules in brief (../shared/rules/heroes-love-to-lie.txt): 2 to 5 players each hold one secret
Hero out of 19 (strengths 0-9); one more is set aside face down. On a turn a player takes
POWER (draw, discard one of two Heroes face up, then claim a Hero and one or two of its
powers), COMBAT (claim a Hero at least as strong as a Monster in play, win 1 Glory and its
Gems) or UNMASKING (pay 6 Gems, name a seat's Hero: if right, that seat loses a Life Point
and changes Hero). Any claim may be challenged by the first seat to dare: a caught liar pays
the announced costs and loses a Life Point; a truthful claimant shows and replaces the card
and the challenger loses a Life Point. The Giant may cancel a theft and the Knight may copy a
fight's Gems, out of turn, and those claims can be challenged too. The first seat to 4 Glory,
or the last seat with Life Points, wins.

Seat flow: setup (Monster values read off the cards; the best liar presses to start), then
turns whose sub-phases live in the mixins: heroes_turn (actions, claims, challenge windows),
heroes_powers (powers, fights, unmaskings), heroes_views (screens and secrets).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.api import (
    Action,
    Buzz,
    Effect,
    Game,
    GameOver,
    Narrate,
    Option,
    State,
    Vibrate,
)
from engine.registry import register
from engine.rng import SeededRandom
from engine.seats import Ring

from .heroes_cards import COMPONENTS
from .heroes_powers import PowerSteps
from .heroes_setup import Entry, SetupPhases
from .heroes_table import Table
from .heroes_turn import TurnPhases
from .heroes_views import HeroViews
from .heroes_windows import Window, window_seconds

OPTIONS = (
    Option("challenge_time", "Challenge", ("10 s", "20 s", "30 s", "5 s", "no limit")),
    Option("monster_values", "Monsters", ("enter", "unknown")),
)


class HeroesState(SetupPhases, TurnPhases, PowerSteps, HeroViews, State):
    def __init__(self, seats: Sequence[int], options: Mapping[str, str], seed: bytes) -> None:
        super().__init__(seats, seed)
        self.rng = SeededRandom(seed)
        self.ring = Ring(seats)
        self.table = Table(seats, self.rng)
        self.window_length = window_seconds(options["challenge_time"])
        self.window: Window | None = None
        self.turn_seat: int | None = None
        self.peeks: dict[int, tuple[int, str]] = {}  # Mage seat -> (seat, Hero it saw)
        self.winner: int | None = None
        self.reason = ""
        self._fx: list[Effect] = []
        self._reset_turn()
        self._start_setup(options["monster_values"])

    def _reset_turn(self) -> None:
        """Forget the choices of the turn that ended."""
        self.mode = ""  # "power", "combat" or "unmask"
        self.page = 0
        self.claimed = ""
        self.monster: int | None = None
        self.todo: list[str] = []
        self.announced: tuple[str, ...] = ()
        self.target: int | None = None
        self.guess = ""
        self.entry: Entry | None = None
        self.discarded_strength = 0
        self.looted = 0
        self.knights: list[int] = []

    # --- the API ----------------------------------------------------------------------------

    def active_seats(self) -> frozenset[int]:
        if self.is_terminal():
            return frozenset()
        if self.phase == "monster_values":
            return frozenset({self.seats[0]})
        if self.phase == "who_starts":
            return frozenset(self.seats)
        if self.window is not None:
            return frozenset(self.window.waiting)
        return frozenset({self.turn_seat})

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.active_seats() or self.paused:
            return []
        return getattr(self, f"_actions_{self.phase}")(seat)

    def _apply(self, seat: int, action: Action, now: float) -> list[Effect]:
        self._fx = []
        getattr(self, f"_do_{self.phase}")(seat, action.id, now)
        return self._fx

    def is_terminal(self) -> bool:
        return self.winner is not None

    def result(self) -> str | None:
        return f"Seat {self.winner} wins: {self.reason}" if self.is_terminal() else None

    def why_not(self, seat: int, action_id: str) -> str:
        if seat not in self.seats:
            return "Not at this table"
        if self.phase not in ("monster_values", "who_starts") and not self.table.alive(seat):
            return "You are out"
        if seat not in self.active_seats():
            return "Wait for the others" if self.window else "Not your turn"
        if action_id == "unmask":
            return f"Unmasking costs {COMPONENTS.unmask_cost} Gems"
        return "Not possible now"

    # --- time -------------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        if self.paused or self.window is None:
            return None
        return self.window.deadline

    def advance(self, now: float) -> list[Effect]:
        """A window whose time is up closes as if everyone left had let it pass.

        It closes at its deadline, not at ``now``, so a replay that advances later ends
        in the same state.
        """
        self._fx = []
        while not self.paused and self.window and self.window.deadline is not None:
            deadline = self.window.deadline
            if deadline > now:
                break
            self._close_window(deadline)
        return self._fx

    def on_pause(self, now: float) -> None:
        if self.window is not None:
            self.window.pause(now)

    def on_resume(self, now: float) -> None:
        if self.window is not None:
            self.window.resume(now)

    # --- cards, Life Points and Glory -------------------------------------------------------

    def _draw_hero(self, seat: int) -> None:
        """A private cue only: the card itself is for the seat's PEEK face."""
        self.table.draw_hero(seat)
        self._forget_peeks_of(seat)
        self._fx += [Narrate(f"Seat {seat} draws a Hero."), Vibrate(seat)]

    def _discard_hero(self, seat: int, index: int) -> str:
        self._forget_peeks_of(seat)
        return self.table.discard_hero(seat, index)

    def _forget_peeks_of(self, seat: int) -> None:
        """What a Mage saw stops being true once that hand changes."""
        self.peeks = {mage: seen for mage, seen in self.peeks.items() if seen[0] != seat}

    def _lose_life(self, seat: int) -> None:
        self._fx.append(Narrate(f"Seat {seat} loses a Life Point."))
        if not self.table.lose_life(seat):
            return
        self._forget_peeks_of(seat)
        self.peeks.pop(seat, None)
        self._fx += [Buzz("lose"), Narrate(f"Seat {seat} is out of the game.")]
        living = self.table.living()
        if len(living) == 1:
            self._game_over(living[0], "last one standing")

    def _check_glory(self, seat: int) -> None:
        if self.table.purses[seat].glory >= COMPONENTS.glory_to_win:
            self._game_over(seat, f"{COMPONENTS.glory_to_win} Glory")

    def _game_over(self, winner: int, reason: str) -> None:
        self.winner, self.reason = winner, reason
        self.window = None
        self.phase = "over"
        outcome = f"Seat {winner} wins: {reason}"
        self._fx += [Buzz("win"), Narrate(outcome + "."), GameOver(outcome)]


class HeroesLoveToLie(Game):
    key = "heroes-love-to-lie"
    name = "Heroes Love to Lie"
    min_players = 2
    max_players = 5
    options = OPTIONS
    state_class = HeroesState



register(HeroesLoveToLie())
