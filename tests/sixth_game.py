"""High Card, a sixth game in one module: a small game needs nothing but this.

Each player is dealt one secret card from 1-9 and looks at it (PEEK), then says Ready. In
turn, clockwise, each player stays in or folds. The highest card among those who stayed
wins; if everyone folds, nobody does.

The flow is all in :data:`PHASES`: ``look`` waits for every seat and gives way to
``decide`` once the last is ready; ``decide`` waits for the seats one at a time, in seat
order, and when the last has decided its ``end`` shows the cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.api import Action, Effect, Narrate, Reveal, SeatView, SecretFace
from engine.cues import Tune
from engine.dealing import deal_one_each
from engine.phases import (
    EVERY_SEAT,
    OVER,
    Phase,
    PhasedGame,
    PhasedState,
    Waits,
    answered,
    over_phase,
)
from engine.registry import register
from engine.rng import SeededRandom

CARDS = tuple(range(1, 10))
READY, STAY, FOLD = "Ready", "Stay in", "Fold"


def card_phrase(seat: int, card: int) -> str:
    return f"Seat {seat} holds {card}"


class HighCardState(PhasedState):
    """Who holds which card and who folded: whose turn it is, the phase's wait says."""

    def __init__(self, seats: Sequence[int], options: Mapping[str, str], seed: bytes) -> None:
        super().__init__(seats, options, seed)
        self.cards: dict[int, int] = deal_one_each(CARDS, seats, SeededRandom(seed)).hands
        self.folded: set[int] = set()

    def staying(self) -> list[int]:
        return [seat for seat in self.seats if seat not in self.folded]

    def secrets_hidden_from(self, seat: int | None) -> frozenset[str]:
        """Every card but the seat's own, until the cards are shown at the end."""
        if self.is_terminal():
            return frozenset()
        return frozenset(card_phrase(s, c) for s, c in self.cards.items() if s != seat)


# --- look: every player looks at their card and says Ready --------------------------------


def offer_look(state: HighCardState, seat: int) -> list[Action]:
    return [Action("ready", READY)] if seat in state.waiting_for else []


# --- decide: in turn, stay in or fold -------------------------------------------------------


def first_decides(state: HighCardState, now: float) -> list[Effect]:
    return [Narrate(f"Seat {state.awaited()[0]} decides first")]


def offer_decide(state: HighCardState, seat: int) -> list[Action]:
    return [Action("stay", STAY), Action("fold", FOLD)] if seat in state.awaited() else []


def fold(state: HighCardState, seat: int, arg: str, now: float) -> list[Effect]:
    state.folded.add(seat)
    state.acted(seat)
    return []


def show_cards(state: HighCardState, now: float) -> list[Effect]:
    """The end: the cards still in are shown, and the highest wins."""
    shown: list[Effect] = [Reveal(card_phrase(seat, state.cards[seat])) for seat in state.staying()]
    if not shown:
        return state.finish("Everyone folded", Tune.END)
    winner = max(state.staying(), key=state.cards.__getitem__)
    return [*shown, *state.finish(f"Seat {winner} wins", Tune.WIN)]


# --- what each seat sees: its own card on PEEK only -----------------------------------------


def view_play(state: HighCardState, seat: int | None, now: float) -> SeatView:
    title = "Look at your card" if state.phase == "look" else f"Seat {state.awaited()[0]} decides"
    folded = ", ".join(str(s) for s in sorted(state.folded)) or "none"
    return SeatView(title, (f"Folded: {folded}",), secret=_secret(state, seat))


def view_over(state: HighCardState, seat: int | None, now: float) -> SeatView:
    return SeatView("Game over", (state.outcome or "",), secret=_secret(state, seat))


def _secret(state: HighCardState, seat: int | None) -> SecretFace | None:
    if seat is None:
        return None
    return SecretFace("YOUR CARD", (card_phrase(seat, state.cards[seat]),))


PHASES: dict[str, Phase] = {
    "look": Phase(offer=offer_look, rules={"ready": answered}, view=view_play,
                  waits=EVERY_SEAT, next="decide"),
    "decide": Phase(offer=offer_decide, rules={"stay": answered, "fold": fold}, view=view_play,
                    begin=first_decides, waits=Waits(lambda state: state.seats, in_turn=True),
                    end=show_cards),
    OVER: over_phase(view_over),
}


class HighCard(PhasedGame):
    key = "high-card"
    name = "High Card"
    min_players = 2
    max_players = 4
    phases = PHASES
    state_class = HighCardState


GAME = register(HighCard())
