"""Mind Invaders (2-5 players): secret Characters and the contest tracker.

The rules (rules/mind-invaders.txt) as the companion runs them:

- Setup: five Characters, four Aliens and one Human (inferred, see the data file); with 2-4
  players one Alien is excluded before dealing, so at 2-3 players the Human may be in the box.
  Each seat sees its Character and its conditions on PEEK. The companion picks the first
  player; Initiative cards 1st..Nth go clockwise from them. Each hotel floor holds players + 1.
- A contest: Initiative 1 blocks a lower-floor card (I); in Initiative order each seat still
  green plays face down (II), reveals and resolves (III), then holds (red) or intensifies
  (green) (IV); II-IV repeat for the green seats until all hold. Collection follows (highest
  Power first, ties in Initiative order), then cleanup: the floors slide and refill, the
  Initiative cards pass left, and only seats with Power cards in hand play the next contest
  (if none has any, everyone takes their Power cards back).
- At any time a seat may investigate another (after discarding four cards with the
  investigation icon): that Character is revealed to all; an Alien unmasking the Human wins.
  A seat whose cards meet its victory condition wins; one meeting an elimination condition
  (or both at once) leaves, the highest Initiative card leaves the game, and the floors
  shrink at the next cleanup. The last seat left wins.

The companion cannot see the cards, so victory, elimination and the investigation's discard
are declared on the seat's buttons; the Characters live only in the companion.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine import registry
from engine.api import (
    Action,
    Buzz,
    Effect,
    Game,
    GameOver,
    Narrate,
    Reveal,
    SeatView,
    State,
    resolve_options,
)
from engine.dealing import deal_one_each
from engine.rng import SeededRandom
from engine.seats import Ring

from .mind_invaders_rules import (
    ALIEN,
    DATA,
    HUMAN,
    ORDINALS,
    character_phrase,
    character_pool,
    seat_list,
)
from .mind_invaders_views import seat_view

SEQUENTIAL = ("hidden", "reveal", "hold")


class MindInvadersState(State):
    """A game in progress: Characters, the Initiative ring and where the contest stands."""

    def __init__(self, seats: Sequence[int], seed: bytes) -> None:
        super().__init__(seats, seed)
        rng = SeededRandom(seed)
        self.ring = Ring(seats)
        self.characters: dict[int, str] = deal_one_each(
            character_pool(len(seats)), self.seats, rng
        ).hands
        self.first: int = rng.choice(self.seats)  # who holds the 1st Initiative card
        self.phase = "setup"
        self.contest = 0
        self.round = 0  # how many times phase II has run in this contest
        self.done: set[int] = set()  # Ready at setup, Collected during collection
        self.power_left: dict[int, bool] = {}
        self.participants: set[int] = set(seats)
        self.green: set[int] = set()
        self.queue: list[int] = []  # seats still to act in phase II, III or IV
        self.eliminated: list[int] = []
        self.revealed: set[int] = set()
        self.menus: dict[int, tuple[str, int]] = {}  # a seat's open sub-choice
        self.floor_size = len(seats) + DATA["components"]["floor_extra_cards"]
        self.outcome: str | None = None

    # --- who is where ------------------------------------------------------------------

    def alive(self) -> list[int]:
        return [seat for seat in self.seats if seat not in self.eliminated]

    def initiative_order(self) -> list[int]:
        """Seats in Initiative order: clockwise from the 1st card, so passing left rotates it."""
        return self.ring.clockwise_from(self.first, gone=self.eliminated)

    def initiative_of(self, seat: int) -> str:
        return ORDINALS[self.initiative_order().index(seat)]

    def waiting(self) -> set[int]:
        """The seats the current phase waits for (their screens are highlighted)."""
        alive = set(self.alive())
        if self.phase == "setup":
            return alive - self.done
        if self.phase == "block":
            return {self.first}
        if self.phase in SEQUENTIAL:
            return set(self.queue[:1])
        if self.phase == "collect":
            return self.participants - self.done
        if self.phase == "cleanup":
            return alive - self.power_left.keys()
        return set()

    def investigation_targets(self, seat: int) -> list[int]:
        return [s for s in self.alive() if s != seat and s not in self.revealed]

    # --- the State API -----------------------------------------------------------------

    def active_seats(self) -> frozenset[int]:
        return frozenset(seat for seat in self.alive() if self.legal_actions(seat))

    def is_terminal(self) -> bool:
        return self.outcome is not None

    def result(self) -> str | None:
        return self.outcome

    def legal_actions(self, seat: int) -> list[Action]:
        if self.is_terminal() or seat not in self.alive():
            return []
        if seat in self.menus:
            return self._menu_actions(seat)
        actions = self._phase_actions() if seat in self.waiting() else []
        if self.phase != "setup":
            actions += self._anytime_actions(seat)
        return actions

    def why_not(self, seat: int, action_id: str) -> str:
        if seat in self.eliminated:
            return "You are eliminated"
        waiting = sorted(self.waiting())
        if waiting and seat not in waiting:
            return f"Waiting for Seat {waiting[0]}"
        return "Not now"

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        """Every unrevealed Character but the seat's own, named both ways so no guess leaks."""
        if self.is_terminal():
            return frozenset()
        hidden = [s for s in self.seats if s != seat and s not in self.revealed]
        return frozenset(character_phrase(s, kind) for s in hidden for kind in (ALIEN, HUMAN))

    # --- actions -----------------------------------------------------------------------

    def _phase_actions(self) -> list[Action]:
        return {
            "setup": [Action("ready", "Ready", True)],
            "block": [Action("blocked", "Card blocked", True)],
            "hidden": [Action("played", "Cards played", True)],
            "reveal": [Action("revealed", "Revealed, resolved", True)],
            "hold": [
                Action("hold", "Hold (red)", True),
                Action("intensify", "Intensify (green)", True),
            ],
            "collect": [Action("collected", "Collected", True)],
            "cleanup": [
                Action("power:yes", "I have Power cards", True),
                Action("power:no", "No Power cards", True),
            ],
        }[self.phase]

    def _anytime_actions(self, seat: int) -> list[Action]:
        actions = [
            Action("victory", "My goal is met...", True),
            Action("eliminated", "I am eliminated...", True),
        ]
        if self.investigation_targets(seat):
            actions.insert(0, Action("investigate", "Investigate...", True))
        return actions

    def _menu_actions(self, seat: int) -> list[Action]:
        menu, target = self.menus[seat]
        cancel = Action("cancel", "Cancel", True)
        if menu == "investigate":
            targets = self.investigation_targets(seat)
            return [Action(f"target:{t}", f"Seat {t}", True) for t in targets] + [cancel]
        if menu == "target":
            return [Action(f"reveal:{target}", f"Reveal Seat {target}"), cancel]
        if menu == "victory":
            return [Action("win", "Confirm: I win"), cancel]
        return [Action("out", "Confirm: I am out", True), cancel]

    def _apply(self, seat: int, action: Action, now: float) -> list[Effect]:
        name, _, arg = action.id.partition(":")
        if name in ("investigate", "victory", "eliminated", "target"):
            self.menus[seat] = (name, int(arg) if arg else 0)
            return []
        if name == "cancel":
            del self.menus[seat]
            return []
        effects = self._resolve(seat, name, arg)
        return effects + self._progress()

    def _resolve(self, seat: int, name: str, arg: str) -> list[Effect]:
        if name in ("reveal", "win", "out"):
            del self.menus[seat]
        if name == "reveal":
            return self._investigate(seat, int(arg))
        if name == "win":
            return self._finish(f"Seat {seat} wins: {self.characters[seat]} victory")
        if name == "out":
            return self._eliminate(seat)
        if name == "blocked":
            return self._start_round()
        if name in ("ready", "collected"):
            self.done.add(seat)
        elif name == "power":
            self.power_left[seat] = arg == "yes"
        elif name in ("played", "revealed", "hold", "intensify"):
            self.queue.pop(0)
            if name == "hold":
                self.green.discard(seat)
        return []

    # --- the contest -------------------------------------------------------------------

    def _progress(self) -> list[Effect]:
        """Close every phase nobody is left to act in (a departure can finish one)."""
        effects: list[Effect] = []
        while not self.is_terminal() and not self.waiting():
            effects += self._close_phase()
        return effects

    def _close_phase(self) -> list[Effect]:
        if self.phase in ("setup", "cleanup"):
            recycle = self._recycle() if self.phase == "cleanup" else []
            return recycle + self._start_contest()
        if self.phase == "hold" and self.green:
            return self._start_round()
        if self.phase in ("hidden", "reveal"):
            self.phase = "reveal" if self.phase == "hidden" else "hold"
            self.queue = self._green_in_order()
            return []
        if self.phase == "hold":
            return self._start_collection()
        return self._start_cleanup()

    def _green_in_order(self) -> list[int]:
        return [seat for seat in self.initiative_order() if seat in self.green]

    def _start_contest(self) -> list[Effect]:
        self.contest += 1
        self.phase = "block"
        self.round = 0
        self.green = set(self.participants)
        self.done = set()
        text = f"Contest {self.contest}: Seat {self.first} blocks a card on the lower floor."
        return [Buzz("turn"), Narrate(text)]

    def _start_round(self) -> list[Effect]:
        self.round += 1
        self.phase = "hidden"
        self.queue = self._green_in_order()
        if self.round == 1:
            text = "Hidden Powers in Initiative order: play face down, at least one Power."
        else:
            text = f"Intensify: Seats {seat_list(self.queue)} play again, in Initiative order."
        return [Narrate(text)]

    def _start_collection(self) -> list[Effect]:
        self.phase = "collect"
        self.done = set()
        ties = seat_list([s for s in self.initiative_order() if s in self.participants])
        text = f"Everyone holds. Collect: highest Power first; ties in Initiative order: {ties}."
        return [Buzz("turn"), Narrate(text)]

    def _start_cleanup(self) -> list[Effect]:
        self.phase = "cleanup"
        self.power_left = {}
        self.first = self.ring.left_of(self.first, gone=self.eliminated) or self.first
        self.floor_size = len(self.alive()) + DATA["components"]["floor_extra_cards"]
        text = (
            "Cleanup: active Power cards to your discard, Resources and the lower floor to the"
            " general discard; slide the upper floor down and refill it: "
            f"{self.floor_size} cards per floor. Initiative cards turn green and pass left:"
            f" Seat {self.first} is 1st. Who has Power cards in hand?"
        )
        return [Narrate(text)]

    def _recycle(self) -> list[Effect]:
        """Only seats with Power cards play next; if none has any, all take theirs back."""
        holding = {seat for seat, has in self.power_left.items() if has}
        if holding:
            self.participants = holding
            order = [s for s in self.initiative_order() if s in holding]
            return [Narrate(f"Next contest: Seats {seat_list(order)}.")]
        self.participants = set(self.alive())
        return [Narrate("Nobody has Power cards: everyone takes back all their Power cards.")]

    # --- investigation, victory, elimination -------------------------------------------

    def _investigate(self, seat: int, target: int) -> list[Effect]:
        kind = self.characters[target]
        self.revealed.add(target)
        effects: list[Effect] = [Buzz("reveal"), Reveal(character_phrase(target, kind))]
        if kind == HUMAN and self.characters[seat] == ALIEN:
            return effects + self._finish(f"Seat {seat} wins: unmasked the Human")
        return effects + [Narrate(f"Seat {target} is an Alien: nothing happens.")]

    def _eliminate(self, seat: int) -> list[Effect]:
        leaving_card = ORDINALS[len(self.alive()) - 1]
        self.eliminated.append(seat)
        if self.first == seat:
            self.first = self.ring.left_of(seat, gone=self.eliminated) or seat
        self.participants.discard(seat)
        self.green.discard(seat)
        self.queue = [s for s in self.queue if s != seat]
        self.menus = {s: m for s, m in self.menus.items() if m != ("target", seat)}
        text = (
            f"Seat {seat} is eliminated: Power cards to the box, other cards to the general"
            f" discard. The {leaving_card} Initiative card leaves the game; the floors shrink"
            " at the next cleanup."
        )
        effects: list[Effect] = [Buzz("lose"), Narrate(text)]
        if len(self.alive()) == 1:
            effects += self._finish(f"Seat {self.alive()[0]} wins: last one standing")
        return effects

    def _finish(self, outcome: str) -> list[Effect]:
        """End the game; every Character may now be shown (the seed is revealed too)."""
        self.outcome = outcome
        self.phase = "over"
        self.menus.clear()
        everyone = ", ".join(character_phrase(s, self.characters[s]) for s in self.seats)
        return [Buzz("win"), Reveal(everyone), GameOver(outcome)]

    # --- views -------------------------------------------------------------------------

    def view(self, seat: int | None, now: float) -> SeatView:
        return seat_view(self, seat)


class MindInvaders(Game):
    key = "mind-invaders"
    name = "Mind Invaders"
    min_players = DATA["min_players"]
    max_players = DATA["max_players"]

    def new_state(
        self, seats: Sequence[int], options: Mapping[str, str], seed: bytes
    ) -> MindInvadersState:
        self.check_players(seats)
        resolve_options(self.options, options)
        return MindInvadersState(seats, seed)


registry.register(MindInvaders())
