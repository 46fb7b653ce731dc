"""Heroes Love to Lie reaction windows: a claim challenged or let pass, a theft cancelled by
the Giant, the Knights announced, and how each claim then resolves.

The first Challenge press takes the risk. The companion knows every hand, so a challenge is
settled truthfully: a caught liar keeps the card secret and pays; a truthful claimant shows
the card, replaces it, and the claim goes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate, Reveal
from engine.cues import Tune

from .cards import POWERS
from .claims import WINDOWS, Claim, ClaimKind, ReactionWindow, Window
from .combat import fight
from .end import lose_life
from .powers import activate, skip_step, theft
from .turns import draw_hero, end_turn, next_knight, open_claim

if TYPE_CHECKING:
    from .state import HeroesState


# --- whom each window asks, and its clock ----------------------------------------------------


def claim_answerers(state: HeroesState) -> list[int]:
    """A claim may be challenged by every other living seat."""
    return [s for s in state.table.living() if s != state.turn.claim.seat]


def threatened(state: HeroesState) -> list[int]:
    """Only the target of a theft may cancel it as the Giant."""
    return [state.turn.aimed()]


def fight_watchers(state: HeroesState) -> list[int]:
    """After a fight, every other living seat may copy its Gems as the Knight."""
    return [s for s in state.table.living() if s != state.turn.seat]


def start_clock(state: HeroesState, now: float) -> list[Effect]:
    state.data = ReactionWindow(state.window_length, now)
    return []


def window_deadline(state: HeroesState) -> float | None:
    return state.data_of(ReactionWindow).deadline


# --- the answers ------------------------------------------------------------------------------


def offer_challenge(state: HeroesState, seat: int) -> list[Action]:
    if seat not in state.awaited():
        return []
    return [Action("challenge", "Challenge!"), Action("pass", "Let it pass")]


def offer_giant(state: HeroesState, seat: int) -> list[Action]:
    if seat not in state.awaited():
        return []
    return [Action("allow", "Let it happen"), Action("giant", "I am the Giant")]


def offer_knight(state: HeroesState, seat: int) -> list[Action]:
    if seat not in state.awaited():
        return []
    return [Action("pass", "Pass"), Action("knight", "I am the Knight")]


def challenge(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    return challenged(state, state.turn.claim, seat, now)


def cancel_as_giant(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    return open_claim(state, Claim(seat, "Giant", ClaimKind.GIANT), now)


def let_pass(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    """The window closes once the last seat asked has answered."""
    state.acted(seat)
    return [] if state.waiting_for else close_window(state, now)


def announce_knight(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.data_of(ReactionWindow).knights.append(seat)
    return let_pass(state, seat, arg, now)


def close_on_time(state: HeroesState, now: float) -> list[Effect]:
    """A window whose time is up closes as if everyone left had let it pass.

    It closes at its deadline, not at ``now``, so a replay that advances later ends in the
    same state; a window opened by that closing may be over by ``now`` as well.
    """
    effects: list[Effect] = []
    while state.phase in WINDOWS:
        deadline = state.data_of(ReactionWindow).deadline
        if deadline is None or deadline > now:
            break
        effects += close_window(state, deadline)
    return effects


def close_window(state: HeroesState, now: float) -> list[Effect]:
    """Everyone answered or time ran out: silence lets the claim or the theft stand; the
    Knights announced claim one by one, clockwise from the seat on turn."""
    if state.phase == Window.CHALLENGE:
        return [Narrate("No challenge."), *unchallenged(state, state.turn.claim, now)]
    if state.phase == Window.GIANT:
        return theft(state, now)
    order = state.ring.clockwise_from(state.turn.seat)
    state.turn.knights = sorted(state.data_of(ReactionWindow).knights, key=order.index)
    return next_knight(state, now)


# --- resolving a claim ----------------------------------------------------------------------


def challenged(state: HeroesState, claim: Claim, challenger: int, now: float) -> list[Effect]:
    said = Narrate(f"Seat {challenger} challenges Seat {claim.seat}!")
    if claim.hero in state.table.hand(claim.seat):
        return [said, *truth_challenged(state, claim, challenger, now)]
    return [said, *lie_caught(state, claim, now)]


def lie_caught(state: HeroesState, claim: Claim, now: float) -> list[Effect]:
    """The liar keeps the card secret, pays the announced costs and loses a Life Point."""
    seat = claim.seat
    effects: list[Effect] = [Buzz(Tune.ALARM), Reveal(f"Seat {seat} is not the {claim.hero}!")]
    powers = [POWERS[p] for p in claim.powers]
    gems = state.table.pay_gems(seat, sum(p.gem_cost for p in powers))
    glory = state.table.lose_glory(seat, sum(p.glory_cost for p in powers))
    if gems or glory:
        effects.append(Narrate(f"Seat {seat} pays {gems} Gems and {glory} Glory."))
    effects += lose_life(state, seat)
    if state.is_terminal():
        return effects
    if claim.kind == ClaimKind.GIANT:
        return effects + theft(state, now)
    if claim.kind == ClaimKind.KNIGHT:
        return effects + next_knight(state, now)
    return effects + end_turn(state, now)


def truth_challenged(state: HeroesState, claim: Claim, challenger: int,
                     now: float) -> list[Effect]:
    """The card is shown and discarded, the challenger pays, and the claim goes on."""
    seat = claim.seat
    effects: list[Effect] = [
        Buzz(Tune.REVEAL), Reveal(f"Seat {seat} shows the {claim.hero}: true!")
    ]
    state.discard_hero(seat, state.table.hand(seat).index(claim.hero))
    effects += lose_life(state, challenger)
    if state.is_terminal():
        return effects
    if claim.kind in (ClaimKind.GIANT, ClaimKind.KNIGHT):
        effects += draw_hero(state, seat)
    return effects + unchallenged(state, claim, now)


def unchallenged(state: HeroesState, claim: Claim, now: float) -> list[Effect]:
    if claim.kind == ClaimKind.GIANT:
        said = Narrate(f"The Giant of Seat {claim.seat} cancels it.")
        return [said, *skip_step(state, now)]
    if claim.kind == ClaimKind.KNIGHT:
        copied = state.table.gain_gems(claim.seat, claim.gems)
        return [Narrate(f"Seat {claim.seat} copies {copied} Gems."), *next_knight(state, now)]
    if claim.monster is not None:  # a COMBAT claim
        return fight(state, claim.seat, claim.monster, now)
    return activate(state, claim, now)
