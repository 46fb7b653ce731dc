"""Staying Alive: the rules in short (the Staying Alive rulebook), 3-5 players.

The players escape a zombie city together. On a turn you draw 1 card, take up to 2 actions,
then check your strain (5 or more strain in hand: lose 1 stamina) or, once the deck is empty,
stay (lose 1) or escape (lose as much stamina as your strain). Only the player on turn may
speak. The Lookout may turn the 90-second hourglass over at any time for 1 stamina. Everyone
escaping wins; the hourglass running out, or anyone having to lose stamina they do not have,
loses. Target modules (1-5) must be fulfilled before anyone escapes. The cards stay on the
table: the companion keeps the deck count, stamina, who holds which role, the target modules
marked done, who escaped, and the hourglass.

Readings of the rulebook made here:

- The Lookout's first turn-over ("begins by turning the hourglass over") is part of the setup
  and costs no stamina; the Lookout card's cost applies to every later turn-over.
- Module 4: the example says the group wins or loses at once when the Key is used, so it has
  no "done" mark: the player on turn enters how the Key went (once the other target modules
  are done), and nobody escapes on foot while it is in play.
- The 8-stamina Lookout option belongs to the player who starts as Lookout, not to the role
  card: their limit is 8 until they have lost 2 stamina in all, then 6. A limit stops gains;
  it takes nothing away.
- An escaped player's role card leaves with them: once the Lookout has escaped nobody flips.
- Stamina gains and deck corrections come from cards the companion cannot see, so the player
  on turn enters them; rarely used ones sit behind "More..." to keep each list short.
"""

from __future__ import annotations

from engine.games.staying_alive.cards import OPTIONS
from engine.games.staying_alive.phases import PHASES
from engine.games.staying_alive.state import StayingAliveState
from engine.phases import PhasedGame
from engine.registry import register


class StayingAlive(PhasedGame):
    key = "staying-alive"
    name = "Staying Alive"
    min_players = 3
    max_players = 5
    options = OPTIONS
    phases = PHASES
    state_class = StayingAliveState


register(StayingAlive())
