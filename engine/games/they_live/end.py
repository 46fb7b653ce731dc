"""Every way a game of They Live ends: deaths, the spare card they turn over, the win checks.

Humans win when every Invader in play is dead; Invaders win when every Human is dead or when
they hold as many city areas as there are players. The checks run after every death and every
city area taken, and :func:`check_win` holds the only call that ends the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Buzz, Effect, Narrate, Reveal
from engine.cues import Tune

from .cards import HUMAN, INVADER, SPARE_COUNTS
from .text import Outcome, identity_phrase, invaders_in_play_phrase, spare_phrase

if TYPE_CHECKING:
    from .state import TheyLiveState


def kill(state: TheyLiveState, seat: int, killer: int | None) -> list[Effect]:
    """A death reveals the identity (an Invader's may turn the spare over), hands the city
    areas to the killing seat (``None``: no player killed) and may end it all."""
    player = state.players[seat]
    areas = player.areas
    player.alive, player.revealed, player.areas = False, True, 0
    state.close_menu(seat)
    state.stop_waiting_for(seat)
    identity = state.identities[seat]
    effects: list[Effect] = [
        Buzz(Tune.REVEAL),
        Reveal(f"{player.character} died. {identity_phrase(seat, identity)}"),
    ]
    if killer is None:
        effects.append(Narrate(f"Shuffle seat {seat}'s cards and areas into the deck"))
    else:
        effects += _spoils(state, seat, killer, areas)
    if identity == INVADER:
        effects += _reveal_spare(state)
    return effects + check_win(state)


def _spoils(state: TheyLiveState, seat: int, killer: int, areas: int) -> list[Effect]:
    """"If you are killed by another player, your killer takes all your cards - including your
    completed city locations"; some kills also heal the killer 2."""
    taker = state.players[killer]
    taker.areas += areas
    effects: list[Effect] = [Narrate(f"Seat {killer} takes all seat {seat}'s cards and areas")]
    if _kill_heals(state, seat, killer):
        taker.left = min(taker.max_health, taker.left + 2)
        effects.append(Narrate(f"Seat {killer} heals 2 for the kill"))
    return effects


def _kill_heals(state: TheyLiveState, seat: int, killer: int) -> bool:
    """The rulebook's Self-Reveal page: "When a revealed Invader player kills a Human player,
    they heal 2 points of damage. If you're playing a game with multiple Invaders, the Human
    player heals 2 damage when they kill an Invader"."""
    if state.identities[killer] == INVADER:
        return state.players[killer].revealed and state.identities[seat] == HUMAN
    return state.identities[seat] == INVADER and len(state.other_invaders(None)) > 1


def _reveal_spare(state: TheyLiveState) -> list[Effect]:
    """The first Invader death of a 4- or 6-player game tells how many Invaders are in play."""
    if len(state.seats) not in SPARE_COUNTS or state.spare is None or state.spare_revealed:
        return []
    state.spare_revealed = True
    in_play = sum(1 for s in state.seats if state.identities[s] == INVADER)
    return [Reveal(f"{spare_phrase(state.spare)}. {invaders_in_play_phrase(in_play)}")]


def check_win(state: TheyLiveState) -> list[Effect]:
    """End the game if one side has won, showing every identity."""
    outcome = _outcome(state)
    if outcome is None:
        return []
    return state.finish(outcome, Tune.WIN) + state.end_reveals()


def _outcome(state: TheyLiveState) -> Outcome | None:
    alive = state.living()
    invaders = [s for s in alive if state.identities[s] == INVADER]
    humans = [s for s in alive if state.identities[s] == HUMAN]
    if not invaders and not humans:
        return Outcome.NOBODY_WINS
    if not invaders:
        return Outcome.HUMANS_WIN
    if not humans:
        return Outcome.INVADERS_WIN_KILLS
    if sum(state.players[s].areas for s in invaders) >= len(state.seats):
        return Outcome.INVADERS_WIN_CITY
    return None
