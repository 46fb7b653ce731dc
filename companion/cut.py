"""Cutting the deck: between the lobby's Start and the deal, the players add their chance.

(A game that opens with a public phase has no such step: its players' first presses of the
game are the cut, see ``Game.first_press_cuts`` and :class:`CutInPlay` below.)

The companion has drawn its key and shown its commitment (engine/rng.py, docs/fairness.md);
now every seated player presses ACT once. Each press is stamped in microseconds of the game
clock; the presses, in order, are the cut, and the seed is derived from the key and the cut.
So the companion, bound by its commitment, cannot pick the deal, and the players, who do not
know the key, cannot aim for one. Cutting is the only thing offered (one press per seat, so
it is quick), and a seat that has cut offers nothing more: an eager second press changes
nothing. A player who left: anyone may press that seat's ACT; a wrong game: cut, then End
game from the menu.
It is one of the table's modes (:class:`companion.mode.Mode`), so the seats, the scripts and
the tests drive it with the same buttons.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from engine import registry
from engine.api import Action, Buzz, Effect, SeatView, SecretFace, State
from engine.cues import Tune
from engine.exc import IllegalAction
from engine.rng import commitment, cut_text, micros
from engine.text import fit
from hardware.base import Code

from .effects import Status
from .mode import Applied, Deal, StartGame
from .record import GameRecord

CUT = "cut"
TITLE = "Cut the deck"


@dataclass
class Cut:
    """One game's cut: its request, the companion's key, and the presses so far."""

    request: StartGame
    key: bytes
    presses: list[tuple[int, int]] = field(default_factory=list)

    @property
    def commitment(self) -> str:
        return commitment(self.key)

    @property
    def text(self) -> str:
        return cut_text(self.presses)

    def done(self) -> bool:
        return not self.waiting()

    def waiting(self) -> list[int]:
        cut = {seat for seat, _ in self.presses}
        return [seat for seat in self.request.seats if seat not in cut]

    def offers(self, seat: int) -> list[Action]:
        return [Action(CUT, "Cut the deck")] if seat in self.waiting() else []

    def apply(self, seat: int, action: Action, at: float) -> Applied:
        """One player's cut; the last one deals the game."""
        if action.id != CUT or seat not in self.waiting():
            raise IllegalAction("Not now")
        self.presses.append((seat, micros(at)))
        if not self.done():
            return Applied(effects=(Buzz(Tune.JOIN),))
        return Applied(then=Deal(self.request, self.key, self.text))

    def question(self, seat: int) -> str | None:
        return None

    def public_code(self) -> Code | None:
        return Code("Commitment", self.commitment)

    def view(self, seat: int | None, now: float) -> SeatView:
        """Who still cuts, and each seat's own cut; PEEK (and the public screen) shows the
        commitment, to note before the deal."""
        waiting = " ".join(map(str, self.waiting())) or "none"
        to_cut = fit(f"Waiting: {waiting}", f"To cut: {waiting}", f"To cut:{waiting}")
        own = next((f"{s}@{m}" for s, m in self.presses if s == seat), None)
        if seat is None:
            lines = (f"Commitment {self.commitment}", f"Cut: {self.text or '-'}",
                     f"Waiting: seats {waiting}")
            return SeatView(title=TITLE, lines=lines)
        first = fit(f"Your cut {own}", f"Cut {own}") if own else "ACT: cut the deck"
        lines = (first, to_cut, "PEEK: commitment")
        secret = SecretFace("Commitment", (self.commitment[:16], self.commitment[16:]))
        return SeatView(title=TITLE, lines=lines, secret=secret,
                        highlight=own is None and seat in self.request.seats)


@dataclass(frozen=True)
class CutInPlay:
    """The cut made by the players' first presses of a game that opens in public
    (``Game.first_press_cuts``): the game is begun at Start without its seed, each player's
    first press of the game is that player's cut, and the press that completes the cut deals
    it. The record replays it the same way (``GameRecord.deal_if_cut``); this is the live
    table's side of it, the one place that deals and shows it. In a game cut before it began
    every state is dealt, so none of this does anything."""

    record: GameRecord

    def deal(self, state: State) -> tuple[Effect, ...]:
        """After the record took a press (not journaled yet): the press that completes the
        cut deals ``state``, and the journal writes the cut and the seed with that press."""
        cut = self.record.deal_if_cut(state, self.record.entries)
        if not cut:
            return ()
        assert state.seed is not None  # dealt just now
        self.record.cut, self.record.seed = cut, state.seed
        name = registry.get(self.record.game_key).name
        return (Status(f"{name}: dealt after the cut {cut}"),)

    def seat_view(self, view: SeatView, seat: int) -> SeatView:
        """While the players cut (docs/fairness.md): the seat's face says where the
        commitment is, then shows its own cut once it has pressed; its PEEK face opens with
        the commitment, in two lines of 16, and its cut, before the game's own."""
        shown = commitment(self.record.key)
        own = self.record.first_presses().get(seat)
        cut = fit(f"Your cut {seat}@{own}", f"Cut {seat}@{own}") if own is not None else None
        line = cut or "Hold PEEK: commitment"
        game = view.secret.lines if view.secret else ()
        secret = SecretFace("Commitment",
                            (shown[:16], shown[16:], cut or "Your cut: not yet", *game))
        return dataclasses.replace(view, lines=(*view.lines, line), secret=secret)

    def public_line(self) -> str:
        """The cut so far, for the public screen."""
        return f"Cut: {cut_text(self.record.first_presses().items()) or '-'}"
