"""The end of the game, in one place: the highest card still in wins."""

from __future__ import annotations

from engine.api import Effect, Reveal
from engine.cues import Tune

from .state import HighCardState
from .text import card_phrase


def show_cards(state: HighCardState) -> list[Effect]:
    shown: list[Effect] = [Reveal(card_phrase(seat, state.cards[seat])) for seat in state.staying()]
    if not shown:
        return state.finish("Everyone folded", Tune.END)
    winner = max(state.staying(), key=state.cards.__getitem__)
    return [*shown, *state.finish(f"Seat {winner} wins", Tune.WIN)]
