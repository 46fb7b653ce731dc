"""One game of Staying Alive in progress: the facts the companion keeps for the table.

The cards stay on the table; the state keeps the deck count, stamina, who holds which role,
the target modules marked done, who escaped, whose turn it is and the hourglass. The
hourglass is a lasting fact: it runs across the turn's steps, stops at a pause and lies down
at the end. What one step alone keeps lives with that step (``steps.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.api import Action, Effect
from engine.games.staying_alive.cards import (
    LOOKOUT,
    MODULES,
    STAMINA,
    STRONG_LOOKOUT_LOSS,
    STRONG_LOOKOUT_STAMINA,
    Role,
    target_modules,
)
from engine.games.staying_alive.deal import plan
from engine.games.staying_alive.steps import DeckData
from engine.hourglass import Hourglass
from engine.phases import PhasedState
from engine.rng import SeededRandom
from engine.seats import Ring


class StayingAliveState(PhasedState):
    """The facts of one game; its phases (``phases.py``) say what happens to them."""

    def __init__(self, seats: Sequence[int], options: Mapping[str, str], seed: bytes) -> None:
        super().__init__(seats, options, seed)
        self.rng = SeededRandom(seed)
        self.ring = Ring(seats)
        self.setup = plan(seats, options, self.rng)
        self.roles: dict[int, Role | None] = dict(self.setup.roles)
        self.stamina = dict(self.setup.stamina)
        self.lost = dict.fromkeys(seats, 0)
        self.deck = self.setup.deck_after_draw
        self.goals_done: set[int] = set()
        self.escaped: list[int] = []
        # The Lookout takes the first turn, once its free flip has started the glass.
        self.turn = next(seat for seat, role in self.roles.items() if role == LOOKOUT)
        self.hourglass = Hourglass.full_bottom(float(options["hourglass"]))
        self.warned: set[float] = set()
        self.glass_ran_before_pause = False
        self.won = False

    # --- who holds what ---------------------------------------------------------------------

    def lookout(self) -> int | None:
        """The seat holding the Lookout card, while it is still in the game."""
        return next((s for s, role in self.roles.items()
                     if role == LOOKOUT and s not in self.escaped), None)

    def left_of_turn(self) -> int | None:
        return self.ring.left_of(self.turn, self.escaped)

    def stamina_limit(self, seat: int) -> int:
        if seat == self.setup.strong_lookout and self.lost[seat] < STRONG_LOOKOUT_LOSS:
            return STRONG_LOOKOUT_STAMINA
        return STAMINA

    def pending_setup_steps(self, seat: int) -> list[int]:
        """The deck-building steps shown on ``seat`` that the table has not done yet."""
        done = self.data_of(DeckData).steps_done
        return [i for i in self.setup.steps_for(seat) if i not in done]

    def has_open(self, seat: int, menu: str) -> bool:
        """Whether ``seat`` has the phase's menu ``menu`` open (what its screen asks)."""
        opened = self.menus.get(seat)
        return opened is not None and opened.name == menu

    # --- the target modules -----------------------------------------------------------------

    def goals(self) -> tuple[int, ...]:
        return target_modules(self.setup.modules)

    def goals_left(self) -> tuple[int, ...]:
        return tuple(m for m in self.goals() if m not in self.goals_done)

    def key_module(self) -> int | None:
        return next((m for m in self.goals() if MODULES[m].key_decides_game), None)

    def other_goals_left(self) -> bool:
        """Whether a target module besides the Key is still to fulfil."""
        return any(m != self.key_module() for m in self.goals_left())

    def escape_blocker(self) -> str | None:
        """Why nobody may escape now (a 21-character line), or None if they may."""
        if self.deck > 0:
            return "Deck not empty yet"
        if self.key_module() is not None:
            return "Escape: use the Key"
        left = self.goals_left()
        if left:
            return f"Goal {','.join(map(str, left))} not done"
        return None

    # --- the hourglass ----------------------------------------------------------------------

    def sand_ran_out(self, now: float) -> bool:
        """The glass runs only in play (stood before the start, laid down at a pause or the end)."""
        expiry = self.hourglass.expiry()
        return expiry is not None and now >= expiry

    def apply(self, seat: int | None, action: Action | str, now: float) -> list[Effect]:
        """An action that arrives after the sand ran out finds the game already lost: the
        companion may deliver a press before it has called ``advance`` for the expiry."""
        if seat is not None and self.sand_ran_out(now):
            return self.current_phase().expire(self, now)
        return super().apply(seat, action, now)

    def on_pause(self, now: float) -> None:
        self.glass_ran_before_pause = self.hourglass.running
        self.hourglass = self.hourglass.pause(now)

    def on_resume(self, now: float) -> None:
        if self.glass_ran_before_pause:
            self.hourglass = self.hourglass.resume(now)

    # --- secrecy ----------------------------------------------------------------------------

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        """Nothing to hide: role cards lie face up and stamina tokens in plain sight."""
        return frozenset()
