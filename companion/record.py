"""The record of one game: enough to rebuild it exactly (seed, seats, options, every action),
and to check its deal (the companion's key and the players' cut that gave the seed).

Undo and resume both work by replaying a record, so undo can never re-deal: the replayed game
draws from the same seed. In a game whose players cut with their first press
(``Game.first_press_cuts``) those presses are entries like any other: a replay deals the
game, from the key and the cut they make, right after the entry that completes the cut, as
the table did; and undo never takes back that entry, so the cut and the deal stand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import registry
from engine.api import State
from engine.rng import deal_seed, first_press_cut, first_presses


@dataclass(frozen=True)
class JournaledAction:
    """One applied action. ``seat`` None is the table itself (pause, resume)."""

    seat: int | None
    action: str
    at: float
    undoable: bool = False
    label: str = ""


@dataclass
class GameRecord:
    game_key: str
    seats: tuple[int, ...]
    options: dict[str, str]
    seed: bytes  # b"" while the players of a game whose first presses cut are cutting
    entries: list[JournaledAction] = field(default_factory=list)
    deck_list: tuple[str, ...] | None = None  # a table-supplied card list, if the game took one
    key: bytes = b""  # the companion's key, committed to before the cut (secret until the end)
    cut: str = ""  # the players' presses: engine.rng.cut_text ("" until every player cut)
    # The players cut with their first presses of the game (``Game.first_press_cuts``), not
    # with "Cut the deck" before it: kept per game, so a game begun before its game cut in
    # play resumes and audits as it was dealt.
    cut_in_play: bool = False

    def cut_agrees(self) -> bool:
        """In a game whose first presses cut, the cut stored is the one its entries make
        ("" until every player has pressed): an entry lost or changed, or a cut changed,
        is found before the game is resumed (it would deal again) or called fair."""
        return not self.cut_in_play or self.played_cut() == self.cut

    def start(self) -> State:
        """The game before any action: dealt, unless its players' first presses cut."""
        game = registry.get(self.game_key)
        seed = None if self.cut_in_play else self.seed
        return game.new_state_with_deck(self.seats, self.options, seed, self.deck_list)

    def played_cut(self, entries: Sequence[JournaledAction] | None = None) -> str:
        """The cut that ``entries`` (default: all) make in a game whose first presses cut:
        each player's first action at its moment; "" until every player has acted."""
        chosen = self.entries if entries is None else entries
        return first_press_cut(((entry.seat, entry.at) for entry in chosen), self.seats)

    def first_presses(self) -> dict[int, int]:
        """Each player's first press so far (seat -> microseconds), in press order."""
        return first_presses((entry.seat, entry.at) for entry in self.entries)

    def deal_if_cut(self, state: State, entries: Sequence[JournaledAction]) -> str:
        """Deal ``state`` from the key and the cut once ``entries`` (those applied to it so
        far) hold every player's first press; the cut it was dealt after, or "" when it was
        not (dealt already, or a player still to press)."""
        if state.dealt:
            return ""
        cut = self.played_cut(entries)
        if cut:
            state.deal(deal_seed(self.key, cut))
        return cut

    def replay(
        self, entries: list[JournaledAction] | None = None, now: float | None = None
    ) -> State:
        """A fresh state with ``entries`` (default: all) applied in order, dealt where the
        table dealt it, and its timers run on to ``now`` when given (an hourglass that ran
        out after the last action)."""
        state = self.start()
        chosen = self.entries if entries is None else entries
        for index, entry in enumerate(chosen):
            deadline = state.next_deadline()
            if deadline is not None and deadline <= entry.at:
                state.advance(entry.at)
            state.apply(entry.seat, entry.action, entry.at)
            self.deal_if_cut(state, chosen[: index + 1])
        deadline = state.next_deadline()
        if now is not None and deadline is not None and deadline <= now and not state.paused:
            state.advance(now)
        return state

    def last_undoable(self) -> JournaledAction | None:
        """The entry undo would take back, if the newest one is pure bookkeeping and taking
        it back leaves the cut as it is (a cut that is complete has dealt the game: undo
        never changes it, so it never deals again)."""
        if not self.entries or not self.entries[-1].undoable:
            return None
        last = self.entries[-1]
        if self.cut and self.cut_in_play and all(e.seat != last.seat for e in self.entries[:-1]):
            return None  # its seat's first press, with the cut complete: the one that dealt
        return last
