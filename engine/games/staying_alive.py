"""Staying Alive (3-5 players): the companion runs the hourglass and the bookkeeping.

The rules in short (rules/staying-alive.txt): the players escape a zombie city together. On
a turn you draw 1 card, take up to 2 actions, then check your strain (5 or more strain in hand:
lose 1 stamina) or, once the deck is empty, stay (lose 1) or escape (lose as much stamina as
your strain). Only the player on turn may speak. The Lookout may turn the 90-second hourglass
over at any time for 1 stamina. Everyone escaping wins; the hourglass running out, or anyone
having to lose stamina they do not have, loses. Target modules (1-5) must be fulfilled before
anyone escapes. The cards stay on the table: the companion keeps the deck count, stamina,
who holds which role, the target modules marked done, who escaped, and the hourglass.

Readings of the rulebook made here:

- The Lookout's first turn-over ("begins by turning the hourglass over") is part of the setup
  and costs no stamina; the Lookout card's cost applies to every later turn-over.
- Module 4: the example says the group wins or loses at once when the Key is used, so it has
  no "done" mark: the player on turn enters how the Key went (once the other target modules
  are done), and nobody escapes on foot while it is in play.
- The 8-stamina Lookout option belongs to the player who starts as Lookout, not to the role
  card: their limit is 8 until they have lost 2 stamina in all, then 6. A limit stops gains;
  it takes nothing away.
- An escaped player's role card leaves with them: once the Lookout has escaped nobody flips.
- Stamina gains and deck corrections come from cards the companion cannot see, so the player
  on turn enters them; rarely used ones sit behind "More..." to keep each list short.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.api import (
    Action,
    Buzz,
    Effect,
    Game,
    GameOver,
    Narrate,
    SeatView,
    State,
)
from engine.games import staying_alive_views as views
from engine.games.staying_alive_setup import (
    DATA,
    LOOKOUT,
    MODULES,
    OPTIONS,
    STAMINA,
    Role,
    plan,
    target_modules,
)
from engine.hourglass import Hourglass
from engine.registry import register
from engine.rng import SeededRandom
from engine.seats import Ring

# Staged hourglass warnings: (seconds left, tune); the last one reached is the one played.
WARNINGS = ((30.0, "warning"), (10.0, "alarm"))
STRAIN_LIMIT = DATA["turn"]["strain_limit"]
STRONG_LOOKOUT_LOSS = DATA["stamina"]["lookout_option_lost_before_limit"]

Handler = Callable[[int, str, float], list[Effect]]


class StayingAliveState(State):
    """One game: phases "deck" -> "start" -> "play" -> "over"; a turn has steps
    "act" -> "check" -> "escape" (and "more" for rare corrections)."""

    def __init__(self, seats: Sequence[int], options: Mapping[str, str], seed: bytes) -> None:
        super().__init__(seats, seed)
        self.options = dict(options)
        self.rng = SeededRandom(seed)
        self.ring = Ring(seats)
        self.setup = plan(seats, options, self.rng)
        self.phase = "deck"
        self.step = "act"
        self.steps_done: set[int] = set()
        self.ready: set[int] = set()
        self.roles: dict[int, Role | None] = dict(self.setup.roles)
        self.stamina = dict(self.setup.stamina)
        self.lost = dict.fromkeys(seats, 0)
        self.deck = self.setup.deck_after_draw
        self.goals_done: set[int] = set()
        self.escaped: list[int] = []
        self.turn: int | None = None
        self.drew = False
        self.hourglass = Hourglass.full_bottom(float(options["hourglass"]))
        self.warned: set[float] = set()
        self.glass_ran_before_pause = False
        self.outcome: str | None = None
        self.won = False

    # --- who holds what ---------------------------------------------------------------------

    def lookout(self) -> int | None:
        """The seat holding the Lookout card, while it is still in the game."""
        return next((s for s, role in self.roles.items()
                     if role == LOOKOUT and s not in self.escaped), None)

    def left_of_turn(self) -> int | None:
        return self.ring.left_of(self.turn, self.escaped) if self.turn is not None else None

    def stamina_limit(self, seat: int) -> int:
        if seat == self.setup.strong_lookout and self.lost[seat] < STRONG_LOOKOUT_LOSS:
            return DATA["stamina"]["lookout_option"]
        return STAMINA

    def goals(self) -> tuple[int, ...]:
        return target_modules(self.setup.modules)

    def goals_left(self) -> tuple[int, ...]:
        return tuple(m for m in self.goals() if m not in self.goals_done)

    def key_module(self) -> int | None:
        return next((m for m in self.goals() if MODULES[m].key_decides_game), None)

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

    # --- the State API ------------------------------------------------------------------------

    def active_seats(self) -> frozenset[int]:
        return frozenset(seat for seat in self.seats if self.legal_actions(seat))

    def legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "deck":
            return self._setup_actions(seat)
        if self.phase == "start":
            return [Action("start", "Flip to start")] if seat == self.lookout() else []
        if self.phase != "play":
            return []
        turn = self._turn_actions() if seat == self.turn else []
        if seat != self.lookout():
            return turn
        if self.stamina[seat] == 0:
            return [*turn, Action("flip", "Flip: no stamina!")]
        return [Action("flip", "Flip hourglass"), *turn]

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def result(self) -> str | None:
        return self.outcome

    def view(self, seat: int | None, now: float) -> SeatView:
        return views.public_view(self, now) if seat is None else views.seat_view(self, seat, now)

    def why_not(self, seat: int, action_id: str) -> str:
        if self.phase != "play":
            return "Not now"
        if action_id == "flip":
            if self.lookout() is None:
                return "Lookout escaped"
            return f"Only Seat {self.lookout()} flips"
        if seat != self.turn:
            return f"Seat {self.turn}'s turn"
        if action_id == "escape":
            return self.escape_blocker() or "Not now"
        if action_id == "gain":
            return f"Stamina limit {self.stamina_limit(seat)}"
        if action_id.startswith("key:") and self.key_module() is not None:
            return "Other goals first"
        return "Not now"

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        """Nothing to hide: role cards lie face up and stamina tokens in plain sight."""
        return frozenset()

    def apply(self, seat: int | None, action_id: str, now: float) -> list[Effect]:
        """An action that arrives after the sand ran out finds the game already lost."""
        if seat is not None and self._expired(now):
            return self._end(False, "Loss: the hourglass ran out", now)
        return super().apply(seat, action_id, now)

    def _apply(self, seat: int, action: Action, now: float) -> list[Effect]:
        name, _, arg = action.id.partition(":")
        return self._handlers()[name](seat, arg, now)

    # --- actions offered -------------------------------------------------------------------

    def _setup_actions(self, seat: int) -> list[Action]:
        if any(i not in self.steps_done for i in self.setup.steps_for(seat)):
            return [Action("done", "Done")]
        if len(self.steps_done) == len(self.setup.steps) and seat not in self.ready:
            return [Action("ready", "Ready")]
        return []

    def _turn_actions(self) -> list[Action]:
        return {"act": self._act_actions, "more": self._more_actions,
                "check": self._check_actions, "escape": self._escape_actions}[self.step]()

    def _act_actions(self) -> list[Action]:
        seat = self.turn
        actions = [Action("end", "End turn", True), Action("lose", "Lose 1 stamina", True)]
        left = self.left_of_turn()
        if left is not None and (self.roles[seat] or self.roles[left]):
            actions.append(Action("swap", "Swap role left", True))
        if self.stamina[seat] < self.stamina_limit(seat):
            actions.append(Action("gain", "Gain 1 stamina", True))
        actions.append(Action("more", "Deck & goals..." if self.goals() else "Deck count...", True))
        return actions

    def _more_actions(self) -> list[Action]:
        actions = [self._goal_action(m) for m in self.goals() if m != self.key_module()]
        if self.key_module() is not None and not self._other_goals_left():
            actions += [Action("key:right", "Key: all correct", True),
                        Action("key:wrong", "Key: a card wrong", True)]
        if self.deck > 0:
            actions.append(Action("deck:-1", "Deck -1", True))
        if self.deck < self.setup.cards_in_play:
            actions.append(Action("deck:+1", "Deck +1 (put back)", True))
        return [*actions, Action("back", "Back", True)]

    def _goal_action(self, module: int) -> Action:
        name = MODULES[module].name or f"module {module}"
        if module in self.goals_done:
            return Action(f"goal:{module}", f"Unmark {name}", True)
        return Action(f"goal:{module}", f"Mark {name} done", True)

    def _other_goals_left(self) -> bool:
        return any(m != self.key_module() for m in self.goals_left())

    def _check_actions(self) -> list[Action]:
        if self.deck > 0:
            return [Action("check:low", f"Strain under {STRAIN_LIMIT}", True),
                    Action("check:high", f"Strain {STRAIN_LIMIT}+: lose 1", True)]
        actions = [Action("stay", "Stay (lose 1)", True)]
        if self.escape_blocker() is None:
            actions.append(Action("escape", "Escape...", True))
        return actions

    def _escape_actions(self) -> list[Action]:
        most = self.stamina[self.turn]
        actions = [Action(f"strain:{s}", f"Strain {s}", True) for s in range(most + 1)]
        return [*actions, Action("strain:over", f"More than {most}", True),
                Action("back", "Back", True)]

    # --- carrying them out -----------------------------------------------------------------

    def _handlers(self) -> dict[str, Handler]:
        return {
            "done": self._done, "ready": self._ready, "start": self._start, "flip": self._flip,
            "end": self._to_step("check"), "more": self._to_step("more"),
            "escape": self._to_step("escape"), "back": self._back, "lose": self._lose,
            "gain": self._gain, "swap": self._swap, "goal": self._goal, "key": self._key,
            "deck": self._deck, "check": self._check, "stay": self._stay,
            "strain": self._strain,
        }

    def _done(self, seat: int, arg: str, now: float) -> list[Effect]:
        pending = [i for i in self.setup.steps_for(seat) if i not in self.steps_done]
        self.steps_done.add(pending[0])
        return []

    def _ready(self, seat: int, arg: str, now: float) -> list[Effect]:
        self.ready.add(seat)
        if len(self.ready) < len(self.seats):
            return []
        self.phase = "start"
        return [Narrate(f"Seat {self.lookout()}, the Lookout, flips to start")]

    def _start(self, seat: int, arg: str, now: float) -> list[Effect]:
        self.hourglass = self.hourglass.flip(now)
        self.phase = "play"
        return [Buzz("start"), *self._begin_turn(seat)]

    def _flip(self, seat: int, arg: str, now: float) -> list[Effect]:
        lost = self._lose_stamina(seat, 1, now)
        if self.is_terminal():
            return lost
        self.hourglass = self.hourglass.flip(now)
        self.warned = set()
        return []

    def _to_step(self, step: str) -> Handler:
        def handler(seat: int, arg: str, now: float) -> list[Effect]:
            self.step = step
            return []

        return handler

    def _back(self, seat: int, arg: str, now: float) -> list[Effect]:
        self.step = "check" if self.step == "escape" else "act"
        return []

    def _lose(self, seat: int, arg: str, now: float) -> list[Effect]:
        return self._lose_stamina(seat, 1, now)

    def _gain(self, seat: int, arg: str, now: float) -> list[Effect]:
        self.stamina[seat] += 1
        return []

    def _swap(self, seat: int, arg: str, now: float) -> list[Effect]:
        left = self.left_of_turn()
        self.roles[seat], self.roles[left] = self.roles[left], self.roles[seat]
        return [Narrate(f"Seat {seat} and Seat {left} swapped roles")]

    def _goal(self, seat: int, arg: str, now: float) -> list[Effect]:
        self.goals_done ^= {int(arg)}
        return []

    def _key(self, seat: int, arg: str, now: float) -> list[Effect]:
        if arg == "right":
            return self._end(True, "Win: escaped by car", now)
        return self._end(False, "Loss: the car key failed", now)

    def _deck(self, seat: int, arg: str, now: float) -> list[Effect]:
        self.deck += int(arg)
        return []

    def _check(self, seat: int, arg: str, now: float) -> list[Effect]:
        lost = self._lose_stamina(seat, 1, now) if arg == "high" else []
        return lost if self.is_terminal() else [*lost, *self._next_turn()]

    def _stay(self, seat: int, arg: str, now: float) -> list[Effect]:
        return self._check(seat, "high", now)

    def _strain(self, seat: int, arg: str, now: float) -> list[Effect]:
        if arg == "over":
            return self._end(False, f"Loss: Seat {seat}'s escape failed", now)
        self.stamina[seat] -= int(arg)
        self.lost[seat] += int(arg)
        was_lookout = self.roles[seat] == LOOKOUT
        self.escaped.append(seat)
        if len(self.escaped) == len(self.seats):
            return self._end(True, "Win: everyone escaped", now)
        news = f"Seat {seat} escaped" + (": no more flips" if was_lookout else "")
        return [Narrate(news), *self._next_turn()]

    # --- shared steps ----------------------------------------------------------------------

    def _lose_stamina(self, seat: int, amount: int, now: float) -> list[Effect]:
        if self.stamina[seat] < amount:
            return self._end(False, f"Loss: Seat {seat} had no stamina to lose", now)
        self.stamina[seat] -= amount
        self.lost[seat] += amount
        return []

    def _next_turn(self) -> list[Effect]:
        following = self.ring.left_of(self.turn, self.escaped)
        return self._begin_turn(self.turn if following is None else following)

    def _begin_turn(self, seat: int) -> list[Effect]:
        """The turn's first step, drawing a card, happens by itself when the deck has one."""
        self.turn = seat
        self.step = "act"
        self.drew = self.deck > 0
        self.deck -= int(self.drew)
        return [Buzz("turn")]

    def _end(self, won: bool, outcome: str, now: float) -> list[Effect]:
        self.phase = "over"
        self.won = won
        self.outcome = outcome
        self.hourglass = self.hourglass.pause(now)
        return [GameOver(outcome), Buzz("win" if won else "lose")]

    # --- time ------------------------------------------------------------------------------

    def _expired(self, now: float) -> bool:
        expiry = self.hourglass.expiry() if self.phase == "play" else None
        return expiry is not None and now >= expiry

    def _pending_warnings(self) -> list[tuple[float, str]]:
        if self.options["warnings"] == "off":
            return []
        return [(left, tune) for left, tune in WARNINGS if left not in self.warned]

    def next_deadline(self) -> float | None:
        """The expiry, or sooner the next warning (already past right after a late flip)."""
        expiry = self.hourglass.expiry() if self.phase == "play" else None
        if expiry is None:
            return None
        return min([expiry, *(expiry - left for left, _ in self._pending_warnings())])

    def advance(self, now: float) -> list[Effect]:
        if self._expired(now):
            return self._end(False, "Loss: the hourglass ran out", now)
        expiry = self.hourglass.expiry() if self.phase == "play" else None
        if expiry is None:
            return []
        reached = [(left, tune) for left, tune in self._pending_warnings() if now >= expiry - left]
        if not reached:
            return []
        self.warned |= {left for left, _ in reached}
        return [Buzz(min(reached)[1])]

    def on_pause(self, now: float) -> None:
        self.glass_ran_before_pause = self.hourglass.running
        self.hourglass = self.hourglass.pause(now)

    def on_resume(self, now: float) -> None:
        if self.glass_ran_before_pause:
            self.hourglass = self.hourglass.resume(now)


class StayingAlive(Game):
    key = "staying-alive"
    name = "Staying Alive"
    min_players = 3
    max_players = 5
    options = OPTIONS
    state_class = StayingAliveState



register(StayingAlive())
