"""They Live: The Card Game, with the companion holding the Identity cards.

The rules in short (the They Live rulebook). Three to six players each play a character; in
secret some are Humans and some Invaders (3: 2H+1I; 4: 3H+2I, one card aside; 5: 3H+2I;
6: 4H+3I, one aside). With four or more players the Invaders learn each other in an Invader
check. Each wave: New Resources (2 cards for each living player, since the dead take no
turn and the last player finds 2 cards left; in waves 1-3 drawn enemies go back at a random
depth), player turns (lowest remaining health first, ties to the higher starting CRITICAL
value, a Preacher's Kick Ass first), then an optional force-reveal vote. CRITICAL
players may be inspected with Hoffman Lenses. Death reveals the identity (and, for an Invader
in a 4- or 6-player game, the spare card); the dying seat says who killed it: a killing player
takes all its cards and city areas (an enemy's victim, or a force-reveal's, shuffles them
back), and a revealed Invader killing a Human, or a Human killing an Invader when more than
one is in play, heals 2. Humans win when every Invader in play is dead;
Invaders win when every Human is dead or when they hold as many city areas as there are
players (of the 9 in the box, which the table can never hold more than between them).

As at the physical table, the characters are chosen in the open first and the identities
dealt after. So They Live has no "Cut the deck" press: each player's first character pick
is that player's cut of the fair deal (docs/fairness.md), and the identities (and a table's
War Table deck) are dealt once every player has picked, from the companion's key and those
picks. "Change character" before then, or after, never changes a player's cut.

A self-reveal is the rulebook's "during your turn by telling the group that you are the
Invader": only then is it public. Up to that point it is the same for every seat, Human or
Invader: every seat not yet revealed is offered "Self-reveal..." on its turn, the menu asks
twice ("Invaders only", then "Cannot be undone") with the same words, choices, order and cues,
and only the seat's PEEK face says what "Sure?" will do for it. An Invader's "Sure?" is the
public reveal. A Human's "Sure?" ends the menu exactly as a Cancel does: no buzz, no vibration,
no notice, the same screens after it, and (neither press being undoable) the same Undo, so
neighbours see and hear what an Invader who cancels at that step gives them. The one thing
left is the seat's own bar, which shows the choice its player highlights: reading the very
label pressed, a neighbour sees the attempt, as they would hear it said aloud.

The companion runs the identities and everything that touches them; the players keep every
other card and report health, city areas and deaths with their seat buttons. The flow is the
table in :mod:`.phases`; every ending is in :mod:`.end`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.api import Option, resolve_options
from engine.phases import PhasedGame
from engine.registry import register

from .deck import parse_deck_list
from .phases import PHASES
from .state import TheyLiveState


class TheyLive(PhasedGame):
    key = "they-live"
    name = "They Live"
    min_players = 3
    max_players = 6
    options = (
        Option("check", "Check", ("narrated", "silent")),
        Option("die", "Die", ("physical", "virtual")),
    )
    phases = PHASES
    state_class = TheyLiveState
    first_press_cuts = True  # the character pick: public, and every seat makes one

    def parse_deck_list(self, text: str) -> tuple[str, ...]:
        return parse_deck_list(text)

    def new_state_with_deck(
        self,
        seats: Sequence[int],
        options: Mapping[str, str],
        seed: bytes | None,
        deck_list: Sequence[str] | None,
    ) -> TheyLiveState:
        """The hook for a table-supplied War Table deck list (see parse_deck_list)."""
        self.check_players(seats)
        resolved = resolve_options(self.options, options)
        state = TheyLiveState(seats, resolved, seed, deck_list=deck_list)
        state.start(self.phases)
        return state


register(TheyLive())
