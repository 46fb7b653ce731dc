"""Heroes Love to Lie unmasking: UNMASK (6 Gems) or the Exorcist names a seat's Hero.

The companion checks the guess against the hidden hand: if right, that seat shows the card,
loses a Life Point and draws another; if wrong, only "not the <Hero>" is told. The
Exorcist's bet, chosen after the guess, is doubled from the reserve or lost to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate, Reveal
from engine.cues import Tune
from engine.entry import NumberEntry

from .cards import COMPONENTS, HERO_ORDER
from .end import lose_life
from .numbers import number_actions
from .powers import skip_step
from .steps import Bet
from .turns import draw_hero, hero_choices

if TYPE_CHECKING:
    from .state import HeroesState


def give_up_unmasking(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.turn.todo = []
    return state.set_phase("turn", now)


def offer_guesses(state: HeroesState, seat: int) -> list[Action]:
    back = Action("back", "Other target", undoable=True)
    return [*hero_choices(state, HERO_ORDER, "guess"), back]


def name_hero(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    """The guess; the Exorcist then sets the bet, between 1 Gem and all the Gems held."""
    gems = state.table.purses[seat].gems
    if "exorcist_bet" in state.turn.announced and gems > 0:
        bet = NumberEntry("bet", "Bet Gems", 1, gems, value=1)
        return state.set_phase("bet", now, Bet(bet, guess=arg))
    return unmask(state, seat, arg, 0, now)


def offer_bet(state: HeroesState, seat: int) -> list[Action]:
    if seat != state.turn.seat:
        return []
    return number_actions(state.data_of(Bet).number, may_stay_unknown=False)


def place_bet(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    bet = state.data_of(Bet)
    return unmask(state, seat, bet.guess, bet.number.value or 0, now)


def unmask(state: HeroesState, seat: int, guess: str, bet: int, now: float) -> list[Effect]:
    target = state.turn.aimed()
    if state.turn.todo[0] == "unmask":
        state.table.pay_gems(seat, COMPONENTS.unmask_cost)
    effects: list[Effect] = [Narrate(f"Seat {seat} names the {guess} for Seat {target}.")]
    if guess in state.table.hand(target):
        effects += [Buzz(Tune.REVEAL), Reveal(f"Unmasked! Seat {target} shows the {guess}.")]
        effects += settle_bet(state, seat, bet, right=True)
        state.discard_hero(target, state.table.hand(target).index(guess))
        effects += lose_life(state, target)
        if state.table.alive(target):
            effects += draw_hero(state, target)
    else:
        effects.append(Reveal(f"Wrong: Seat {target} is not the {guess}."))
        effects += settle_bet(state, seat, bet, right=False)
    if not state.is_terminal():
        effects += skip_step(state, now)
    return effects


def settle_bet(state: HeroesState, seat: int, bet: int, right: bool) -> list[Effect]:
    """The Exorcist's stake: doubled from the reserve if right, lost to it if wrong."""
    if not bet:
        return []
    if right:
        won = state.table.gain_gems(seat, bet)
        return [Narrate(f"Seat {seat} wins {won} Gems on the bet.")]
    lost = state.table.pay_gems(seat, bet)
    return [Narrate(f"Seat {seat} loses {lost} Gems on the bet.")]
