"""High Card: the rules in short.

A sixth game that lives outside ``engine/games``, to show that a game is a package and
nothing else. Each player is dealt one secret card from 1-9. In turn, clockwise, each player
stays in or folds. The highest card among those who stayed wins; if everyone folds, nobody
does.
"""

from __future__ import annotations

from engine.phases import PhasedGame
from engine.registry import register

from .phases import PHASES
from .state import HighCardState


class HighCard(PhasedGame):
    key = "high-card"
    name = "High Card"
    min_players = 2
    max_players = 4
    phases = PHASES
    state_class = HighCardState


GAME = register(HighCard())
