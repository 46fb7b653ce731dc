"""Mind Invaders (2-5 players): secret Characters and the contest tracker.

The Mind Invaders rulebook, as the companion runs it:

- Setup: five Characters, four Aliens and one Human (inferred, see the data file); with 2-4
  players one Alien is excluded before dealing, so at 2-3 players the Human may be in the box.
  Each seat sees its Character and its conditions on PEEK. The companion picks the first
  player; Initiative cards 1st..Nth go clockwise from them. Each hotel floor holds players + 1.
- A contest: Initiative 1 blocks a lower-floor card (I) -- if its holder sits the contest
  out with no Power cards in hand, the rulebook does not say who blocks, so the lowest
  Initiative among the seats playing does; in Initiative order each seat still green plays
  face down (II), reveals and resolves (III), then holds (red) or intensifies (green) (IV);
  II-IV repeat for the green seats until all hold. Collection follows (highest Power first,
  ties in Initiative order), then cleanup: the floors slide and refill, the Initiative cards
  pass left, and only seats with Power cards in hand play the next contest (if none has any,
  everyone takes their Power cards back).
- At any time a seat may investigate another (after discarding four cards with the
  investigation icon): that Character is revealed to all; an Alien unmasking the Human wins.
  A seat whose cards meet its victory condition wins; one meeting an elimination condition
  (or both at once) leaves, the highest Initiative card leaves the game, and the floors
  shrink at the next cleanup. The rulebook does not say who gets the leaver's Initiative
  card, so the seats after it each take the card before theirs (the companion names each
  handover): the survivors keep their order and the highest card is the one left over.
  The last seat left wins.

The companion cannot see the cards, so victory, elimination and the investigation's discard
are declared on the seat's buttons; the Characters live only in the companion.
"""

from __future__ import annotations

from engine import registry
from engine.phases import PhasedGame

from .cards import DATA
from .phases import PHASES
from .state import MindInvadersState


class MindInvaders(PhasedGame):
    key = "mind-invaders"
    name = "Mind Invaders"
    min_players = DATA["min_players"]
    max_players = DATA["max_players"]
    phases = PHASES
    state_class = MindInvadersState


registry.register(MindInvaders())
