"""Heroes Love to Lie: the companion holds the Hero cards, so every lie is checked truthfully.

Rules in brief (the Heroes Love to Lie rulebook): 2 to 5 players each hold one secret Hero out
of 19 (strengths 0-9); one more is set aside face down. On a turn a player takes POWER (draw,
discard one of two Heroes face up, then claim a Hero and one or two of its powers), COMBAT
(claim a Hero at least as strong as a Monster in play, win 1 Glory and its Gems; a strength
left unknown counts as 6, since "The Troll (strength 5) can only fight the Skeleton") or
UNMASKING (pay 6 Gems, name a seat's Hero: if right, that seat loses a Life Point and changes
Hero). Any claim may be challenged by the first seat to dare: a caught liar pays the
announced costs and loses a Life Point; a truthful claimant shows and replaces the card and
the challenger loses a Life Point. The Giant may cancel a theft and the Knight may copy a
fight's Gems, out of turn, and those claims can be challenged too. The first seat to 4 Glory,
or the last seat with Life Points, wins. The Bard's reshuffle takes "the face-down discarded
Hero cards", read as the ones its other power put face down onto the set-aside card: they and
the set-aside card join the draw pile, while the face-up discards stay (an empty pile, by
contrast, is rebuilt from every discard).

The whole flow is the table in ``phases.py``: setup (Monster values read off the cards; the
best liar presses to start), then the steps of a turn: ``turns`` (actions and claims),
``challenges`` (the reaction windows), ``powers`` and ``unmasking`` (what a claim does),
``end`` (the two ways to win). ``state`` keeps the table and the turn under way; ``steps``
what one phase keeps while it lasts, and the menus of the seat on turn.
"""

from __future__ import annotations

from engine.api import Option
from engine.phases import PhasedGame
from engine.registry import register

from .phases import PHASES
from .state import HeroesState

OPTIONS = (
    Option("challenge_time", "Challenge", ("10 s", "20 s", "30 s", "5 s", "no limit")),
    Option("monster_values", "Monsters", ("enter", "unknown")),
)


class HeroesLoveToLie(PhasedGame):
    key = "heroes-love-to-lie"
    name = "Heroes Love to Lie"
    min_players = 2
    max_players = 5
    options = OPTIONS
    phases = PHASES
    state_class = HeroesState


register(HeroesLoveToLie())
