"""The force-reveal at the end of a wave: a call with Hoffman Lenses, then a vote of the living.

More than half must say yes. Revealing an Invader costs him his heal and his ally; revealing
a Human drops every yes-voter to CRITICAL (3 damage at least) and locks force-reveals for the
rest of the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate, Reveal
from engine.cues import Tune
from engine.votes import Vote

from .cards import INVADER
from .end import kill
from .menus import Verb, targets, undoable_cancel
from .state import PhaseName
from .text import identity_phrase

if TYPE_CHECKING:
    from .state import TheyLiveState


def force_penalty(left: int, critical: int) -> int:
    """Health after voting to reveal a Human: down to CRITICAL, and at least 3 damage."""
    return max(0, min(critical, left - 3))


# --- the call: every living seat passes, or one calls -------------------------------------


def offer_call(state: TheyLiveState, now: float) -> list[Effect]:
    return [Buzz(Tune.TURN), Narrate("Force-reveal? Call one (Hoffman Lenses) or pass")]


def offer_force(state: TheyLiveState, seat: int) -> list[Action]:
    if seat not in state.waiting_for:
        return []
    actions = [Action("pass", "No reveal")]
    if state.accusable(seat):
        actions.append(Action("call", "Call reveal..."))
    return actions


def offer_accuse(state: TheyLiveState, seat: int) -> list[Action]:
    return [*targets(state, Verb.ACCUSE, state.accusable(seat)), undoable_cancel()]


def accuse(state: TheyLiveState, seat: int, accused: str, now: float) -> list[Effect]:
    """The call is made: every living seat votes at once. The vote is on this call, so the
    rule that makes the call makes the vote's data, as the vote begins."""
    accusation = Accusation(Vote(voters=frozenset(state.living())), int(accused), seat)
    return state.set_phase(PhaseName.VOTE, now, accusation) + [
        Buzz(Tune.ALARM),
        Narrate(f"Seat {seat} calls a force-reveal of seat {accused}: everyone vote"),
    ]


# --- the vote: every living seat at once, then the reveal or not ----------------------------


@dataclass
class Accusation:
    """The ``vote`` phase's own data: the vote, on whom, and who called it."""

    vote: Vote
    accused: int
    caller: int


def offer_vote(state: TheyLiveState, seat: int) -> list[Action]:
    if seat in state.data_of(Accusation).vote.ballots:
        return []
    return [Action("vote:yes", "Yes: reveal"), Action("vote:no", "No")]


def already_voted(state: TheyLiveState, seat: int, action_id: str) -> str:
    return "You have voted" if seat in state.data_of(Accusation).vote.ballots else "Not now"


def cast_vote(state: TheyLiveState, seat: int, choice: str, now: float) -> list[Effect]:
    state.data_of(Accusation).vote.cast(seat, choice)
    return []


def all_voted(state: TheyLiveState) -> bool:
    return state.data_of(Accusation).vote.is_complete()


def resolve(state: TheyLiveState, now: float) -> list[Effect]:
    """The vote's end: more than half of the living players must say yes for the reveal."""
    accusation = state.data_of(Accusation)
    vote = accusation.vote
    yes = sorted(s for s, choice in vote.ballots.items() if choice == "yes")
    told = Narrate(f"Force-reveal: {len(yes)} of {len(vote.voters)} say yes")
    if not vote.more_than_half("yes"):
        return [told, Narrate("No reveal")]
    seat = accusation.accused
    accused = state.players[seat]
    accused.revealed = True
    identity = state.identities[seat]
    effects = [told, Buzz(Tune.REVEAL),
               Reveal(f"{accused.character}: {identity_phrase(seat, identity)}"),
               Narrate(f"Seat {accusation.caller}: discard the Hoffman Lenses")]
    if identity == INVADER:
        effects.append(Narrate(f"Seat {seat}: no heal, no ally; enemies ignore"))
        return effects
    return effects + _punish_yes_voters(state, yes)


def _punish_yes_voters(state: TheyLiveState, yes: list[int]) -> list[Effect]:
    state.force_locked = True
    seats = ", ".join(str(s) for s in yes)
    effects: list[Effect] = [
        Narrate(f"Yes-voters drop to CRITICAL, 3 damage at least: seats {seats}"),
        Narrate("No more force-reveals this game"),
    ]
    for seat in yes:
        player = state.players[seat]
        player.left = force_penalty(player.left, player.critical)
    for seat in yes:
        if state.players[seat].left == 0 and not state.is_terminal():
            effects += kill(state, seat, killer=None)
    return effects
