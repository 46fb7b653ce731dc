"""Cutting the deck: between the lobby's Start and the deal, the players add their chance.

(A game that opens with a public phase has no such step: its players' first presses of the
game are the cut, see ``Game.first_press_cuts`` and :mod:`companion.session`.)

The companion has drawn its key and shown its commitment (engine/rng.py, docs/fairness.md);
now every seated player presses ACT once. Each press is stamped in microseconds of the game
clock; the presses, in order, are the cut, and the seed is derived from the key and the cut.
So the companion, bound by its commitment, cannot pick the deal, and the players, who do not
know the key, cannot aim for one. Cutting is the only thing offered (one press per seat, so
it is quick), and a seat that has cut offers nothing more: an eager second press changes
nothing. A player who left: anyone may press that seat's ACT; a wrong game: cut, then End
game from the menu.
It speaks the lobby's language (``legal_actions``,
``apply``, ``view``), so the seats, the scripts and the tests drive it with the same buttons.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.api import Action, SeatView, SecretFace
from engine.exc import IllegalAction
from engine.rng import commitment, cut_text, micros
from engine.text import fit

from .lobby import StartGame

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

    def legal_actions(self, seat: int) -> list[Action]:
        return [Action(CUT, "Cut the deck")] if seat in self.waiting() else []

    def apply(self, seat: int, action: Action, at: float) -> None:
        if action.id != CUT or seat not in self.waiting():
            raise IllegalAction("Not now")
        self.presses.append((seat, micros(at)))

    def view(self, seat: int | None) -> SeatView:
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
