"""Alter Ego: a cooperative deck builder; the companion keeps the city's books.

The rules (the Alter Ego rulebook, v2.4) as the companion runs them:

- Setup: one Arch Villain of each of the three types at random (the host counts the three
  piles, which share the box's 9 cards: a pile leaves at least one card to each pile after
  it, and the last is offered what is left); each player 4 Family, 4 Job and 4 Community
  cards (display 4, hand 4); CIV tokens in three pools by type; each player a secret Nemesis
  ("Deal each player 1 Nemesis card": the table shuffles them and lays one face down by
  each seat, and the companion tells each seat, on PEEK, which is its own: named by the
  seat it lies by, so the same for wherever one sits). The end is
  one of the rulebook's four endings (the option "ending").
- A turn, in six phases: Income ($1 per Job card, plus $ Trophies with a Job card shown);
  Patrol (draw 1 henchman, +1 per Community card, + Community Trophies with a Community card
  shown; keep one, which takes CIV hostages; Call the Cops may remove a henchman, its hostages
  rescued); Support (draw 2 per Family card, + Family Trophies with a Family card shown;
  Teamwork with 3+ Family icons); Equip; Crime-fighting (rescue hostages; the last one freed
  defeats the villain, a henchman becomes a Trophy); Recoup. Then the next seat clockwise.
- Arch Villains come in when enough Arch Villain tokens are on them and take hostages too.
  While one is in play, hostages freed from henchmen leave the game.
- A hostage needed from an empty supply: the Villains win at once. The chosen ending is
  checked when the last Arch Villain falls or a Nemesis is defeated.

The cards stay on the table: a seat enters what the companion cannot see (its display, a
henchman's hostages, a trophy's icons) and the companion does the counting and the books.
Card names are unknown (see the data file), so the Arch Villains are drawn by position in
piles the table sorts, and the Nemeses by the seat whose face-down card is one's own.
"""

from __future__ import annotations

from engine import registry
from engine.api import Option
from engine.phases import PhasedGame

from .city import DATA
from .phases import PHASES
from .state import AlterEgoState


class AlterEgo(PhasedGame):
    key = "alter-ego"
    name = "Alter Ego"
    min_players = DATA["players"]["derived_min"]
    max_players = DATA["players"]["derived_max"]
    options = (Option("ending", "Ending", tuple(DATA["endings"])),)
    phases = PHASES
    state_class = AlterEgoState


registry.register(AlterEgo())
