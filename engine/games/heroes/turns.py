"""Heroes Love to Lie turns: the three actions, the claim, and the end of a turn.

A claim is entered step by step (the Hero, then its powers, or the Monster and then the Hero)
and opens a reaction window in which every other living seat may challenge at once
(``challenges.py``). What a seat may claim is computed from public facts only (Gems, Glory,
the Monsters in play), never from the card it holds: lying is the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate, Reveal, Vibrate
from engine.cues import Tune
from engine.text import page_of

from .cards import COMPONENTS, HERO_ORDER, HEROES, VARIABLE_COST, Power, combo_id, combo_label
from .claims import WINDOWS, Claim, ClaimKind, Window
from .state import Turn
from .steps import MenuName, Paging
from .text import claim_speech, monster_label

if TYPE_CHECKING:
    from .state import HeroesState

PAGE = 5  # Heroes per page when a list would not fit the eight-action limit
WHOLE = PAGE + 2  # a list this long still fits whole, with "Other action" beside it


def why_not(state: HeroesState, seat: int, action_id: str) -> str:
    """A refusal that tells only what the table can see: out, waiting, or short of Gems."""
    if not state.table.alive(seat):
        return "You are out"
    if seat not in state.active_seats():
        return "Wait for the others" if state.phase in WINDOWS else "Not your turn"
    if action_id == "unmask":
        return f"Unmasking costs {COMPONENTS.unmask_cost} Gems"
    return "Not possible now"


# --- choosing the action --------------------------------------------------------------------


def fighters(state: HeroesState, index: int) -> list[str]:
    """The Heroes that may fight the Monster in play at ``index``: strong enough for it (an
    unknown strength, at its least) and not held to another by their "can only fight"."""
    monster = state.table.in_play[index]
    needed = state.table.strength_needed(monster)
    return [h for h in HERO_ORDER if HEROES[h].may_fight(monster, needed)]


def fightable(state: HeroesState) -> list[int]:
    """Monsters some Hero may fight."""
    return [i for i in range(len(state.table.in_play)) if fighters(state, i)]


def offer_actions(state: HeroesState, seat: int) -> list[Action]:
    if seat != state.turn.seat:
        return []
    actions = [Action("power", "POWER")]
    if fightable(state):
        actions.append(Action("combat", "COMBAT"))
    if state.table.purses[seat].gems >= COMPONENTS.unmask_cost:
        actions.append(Action("unmask", f"UNMASK ({COMPONENTS.unmask_cost} Gems)"))
    return actions


def take_power(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.turn.fight = None
    return [Narrate(f"Seat {seat} takes POWER."), *draw_hero(state, seat),
            *state.set_phase("discard", now)]


def take_combat(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    """With one Monster to fight, the claim of a Hero comes at once; else the seat picks."""
    monsters = fightable(state)
    if len(monsters) == 1:
        state.turn.fight = monsters[0]
        return state.set_phase("claim_hero", now)
    state.open_menu(seat, MenuName.FIGHT)
    return []


def take_unmask(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.turn.todo = ["unmask"]
    return state.set_phase("target", now)


def back_to_actions(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    return state.set_phase("turn", now)


def close_menu(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    """A menu's way back: the seat is offered again what the phase offers."""
    state.close_menu(seat)
    return []


def offer_discard(state: HeroesState, seat: int) -> list[Action]:
    if seat != state.turn.seat:
        return []
    return [Action("discard:1", "Discard new Hero"), Action("discard:0", "Discard old Hero")]


def discard_face_up(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    card = state.discard_hero(seat, int(arg))
    state.turn.discarded_strength = HEROES[card].strength
    return [Buzz(Tune.REVEAL), Reveal(f"Seat {seat} discards the {HEROES[card].label}."),
            *state.set_phase("claim_hero", now)]


def offer_fights(state: HeroesState, seat: int) -> list[Action]:
    actions = [
        Action(f"fight:{i}", monster_label(state, i), undoable=True) for i in fightable(state)
    ]
    return [*actions, Action("back", "Other action", undoable=True)]


def pick_fight(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.turn.fight = int(arg)
    return state.set_phase("claim_hero", now)


# --- the claim ------------------------------------------------------------------------------


def start_paging(state: HeroesState, now: float) -> list[Effect]:
    """A phase listing Heroes opens on their first page."""
    state.data = Paging()
    return []


def claimable(state: HeroesState, seat: int) -> list[str]:
    """COMBAT: the Heroes that may fight the Monster; POWER: those with powers to pay."""
    if state.turn.fight is not None:
        return fighters(state, state.turn.fight)
    return [h for h in HERO_ORDER if combos(state, seat, h)]


def combos(state: HeroesState, seat: int, hero: str) -> list[tuple[Power, ...]]:
    return [c for c in HEROES[hero].combos() if affordable(state, seat, c)]


def affordable(state: HeroesState, seat: int, combo: tuple[Power, ...]) -> bool:
    """Costs are checked before any power helps ("6 Gems without the first power")."""
    purse = state.table.purses[seat]
    gems = sum(p.gem_cost for p in combo)
    gems += any(p.cost == VARIABLE_COST for p in combo)
    gems = max([gems, *(p.min_gems for p in combo)])
    return purse.gems >= gems and purse.glory >= sum(p.glory_cost for p in combo)


def hero_choices(state: HeroesState, names: Sequence[str], verb: str) -> list[Action]:
    """Hero choices, a page at a time with "More Heroes" when all would not fit.

    Seven Heroes and a Back still fit the eight buttons, so a list is paged only beyond
    seven (one more than :func:`engine.text.page_of` alone would show whole).
    """
    page = state.data_of(Paging).page
    shown, more = (names, False) if len(names) <= WHOLE else page_of(names, page, PAGE)
    actions = [Action(f"{verb}:{n}", HEROES[n].label) for n in shown]
    return [*actions, Action("page", "More Heroes...", undoable=True)] if more else actions


def turn_page(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.data_of(Paging).page += 1
    return []


def offer_heroes(state: HeroesState, seat: int) -> list[Action]:
    if seat != state.turn.seat:
        return []
    actions = hero_choices(state, claimable(state, seat), "claim")
    if state.turn.fight is not None:
        actions.append(Action("back", "Other action", undoable=True))
    return actions


def claim_hero(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    """A fight is claimed with the Hero alone; POWER goes on to the powers."""
    if state.turn.fight is not None:
        return open_claim(state, Claim(seat, arg, ClaimKind.COMBAT, monster=state.turn.fight),
                          now)
    state.open_menu(seat, MenuName.POWERS, arg)
    return []


def claimed_hero(state: HeroesState, seat: int) -> str:
    """The Hero whose powers the seat is choosing (its powers menu's)."""
    return state.menus[seat].arg


def offer_powers(state: HeroesState, seat: int) -> list[Action]:
    hero = claimed_hero(state, seat)
    actions = [Action(f"use:{combo_id(c)}", combo_label(c)) for c in combos(state, seat, hero)]
    return [*actions, Action("back", "Other Hero", undoable=True)]


def claim_powers(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    powers = tuple(arg.split("+"))
    claim = Claim(seat, claimed_hero(state, seat), ClaimKind.POWER, powers=powers)
    return open_claim(state, claim, now)


# --- windows and the end of a turn ------------------------------------------------------------


def open_claim(state: HeroesState, claim: Claim, now: float) -> list[Effect]:
    """The claim is the turn's latest, and the table may challenge it."""
    state.turn.claims.append(claim)
    return [*state.set_phase(Window.CHALLENGE, now), Buzz(Tune.TICK),
            Narrate(f"{claim_speech(state, claim)} Any challenge?")]


def draw_hero(state: HeroesState, seat: int) -> list[Effect]:
    """A private cue only: the card itself is for the seat's PEEK face."""
    state.table.draw_hero(seat)
    state.forget_peeks_of(seat)
    return [Narrate(f"Seat {seat} draws a Hero."), Vibrate(seat)]


def finish_action(state: HeroesState, now: float) -> list[Effect]:
    """A Hero shown to a wrong challenge is replaced now; then the Knights may speak."""
    turn = state.turn
    effects = [] if state.table.hand(turn.seat) else draw_hero(state, turn.seat)
    if turn.looted:
        effects += state.set_phase(Window.KNIGHTS, now)
        return [*effects, Narrate(f"Seat {turn.seat} gained {turn.looted} Gems. Any Knight?")]
    return effects + end_turn(state, now)


def next_knight(state: HeroesState, now: float) -> list[Effect]:
    turn = state.turn
    while turn.knights:
        knight = turn.knights.pop(0)
        if state.table.alive(knight):
            claim = Claim(knight, "Knight", ClaimKind.KNIGHT, gems=turn.looted)
            return open_claim(state, claim, now)
    return end_turn(state, now)


def end_turn(state: HeroesState, now: float) -> list[Effect]:
    """The choices of the turn are forgotten, and the next living seat clockwise plays (there
    is one: the last seat standing has already won)."""
    seat = state.turn.seat
    living = state.ring.clockwise_from(seat, gone=state.table.dead())
    state.turn = Turn(next(s for s in living if s != seat))
    return [*state.set_phase("turn", now), Buzz(Tune.TURN),
            Narrate(f"Seat {state.turn.seat}'s turn.")]
