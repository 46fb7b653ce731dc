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
from .claims import CHALLENGE, KNIGHTS, Claim, ReactionWindow
from .text import claim_speech, monster_label

if TYPE_CHECKING:
    from .state import HeroesState

STRONGEST = max(hero.strength for hero in HEROES.values())
PAGE = 5  # Heroes per page when a list would not fit the eight-action limit
WHOLE = PAGE + 2  # a list this long still fits whole, with "Other action" beside it


def why_not(state: HeroesState, seat: int, action_id: str) -> str:
    """A refusal that tells only what the table can see: out, waiting, or short of Gems."""
    if not state.table.alive(seat):
        return "You are out"
    if seat not in state.active_seats():
        return "Wait for the others" if state.window else "Not your turn"
    if action_id == "unmask":
        return f"Unmasking costs {COMPONENTS.unmask_cost} Gems"
    return "Not possible now"


# --- choosing the action --------------------------------------------------------------------


def fightable(state: HeroesState) -> list[int]:
    """Monsters some Hero is strong enough for (an unknown strength, at its least)."""
    needed = [state.table.strength_needed(name) for name in state.table.in_play]
    return [i for i, strength in enumerate(needed) if strength <= STRONGEST]


def offer_actions(state: HeroesState, seat: int) -> list[Action]:
    if seat != state.turn_seat:
        return []
    actions = [Action("power", "POWER")]
    if fightable(state):
        actions.append(Action("combat", "COMBAT"))
    if state.table.purses[seat].gems >= COMPONENTS.unmask_cost:
        actions.append(Action("unmask", f"UNMASK ({COMPONENTS.unmask_cost} Gems)"))
    return actions


def take_power(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.mode, state.page = "power", 0
    state.phase = "discard"
    return [Narrate(f"Seat {seat} takes POWER."), *draw_hero(state, seat)]


def take_combat(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    """With one Monster to fight, the claim of a Hero comes at once."""
    state.mode, state.page = "combat", 0
    monsters = fightable(state)
    state.monster = monsters[0] if len(monsters) == 1 else None
    state.phase = "claim_hero" if len(monsters) == 1 else "fight_monster"
    return []


def take_unmask(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.mode, state.page = "unmask", 0
    state.todo = ["unmask"]
    state.phase = "target"
    return []


def back_to_actions(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.phase = "turn"
    return []


def offer_discard(state: HeroesState, seat: int) -> list[Action]:
    if seat != state.turn_seat:
        return []
    return [Action("discard:1", "Discard new Hero"), Action("discard:0", "Discard old Hero")]


def discard_face_up(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    card = state.discard_hero(seat, int(arg))
    state.discarded_strength = HEROES[card].strength
    state.phase = "claim_hero"
    return [Buzz(Tune.REVEAL), Reveal(f"Seat {seat} discards the {HEROES[card].label}.")]


def offer_fights(state: HeroesState, seat: int) -> list[Action]:
    if seat != state.turn_seat:
        return []
    actions = [
        Action(f"fight:{i}", monster_label(state, i), undoable=True) for i in fightable(state)
    ]
    return [*actions, Action("back", "Other action", undoable=True)]


def pick_fight(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.monster = int(arg)
    state.phase, state.page = "claim_hero", 0
    return []


# --- the claim ------------------------------------------------------------------------------


def claimable(state: HeroesState, seat: int) -> list[str]:
    if state.mode == "combat":
        needed = state.table.strength_needed(state.table.in_play[state.monster])
        return [h for h in HERO_ORDER if HEROES[h].strength >= needed]
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
    shown, more = (names, False) if len(names) <= WHOLE else page_of(names, state.page, PAGE)
    actions = [Action(f"{verb}:{n}", HEROES[n].label) for n in shown]
    return [*actions, Action("page", "More Heroes...", undoable=True)] if more else actions


def turn_page(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.page += 1
    return []


def offer_heroes(state: HeroesState, seat: int) -> list[Action]:
    if seat != state.turn_seat:
        return []
    actions = hero_choices(state, claimable(state, seat), "claim")
    if state.mode == "combat":
        actions.append(Action("back", "Other action", undoable=True))
    return actions


def claim_hero(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    """A fight is claimed with the Hero alone; POWER goes on to the powers."""
    if state.mode == "combat":
        return open_claim(state, Claim(seat, arg, "combat", monster=state.monster), now)
    state.claimed = arg
    state.phase = "claim_powers"
    return []


def offer_powers(state: HeroesState, seat: int) -> list[Action]:
    if seat != state.turn_seat:
        return []
    actions = [
        Action(f"use:{combo_id(c)}", combo_label(c)) for c in combos(state, seat, state.claimed)
    ]
    return [*actions, Action("back", "Other Hero", undoable=True)]


def claim_powers(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    powers = tuple(arg.split("+"))
    return open_claim(state, Claim(seat, state.claimed, "power", powers=powers), now)


def back_to_heroes(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.phase = "claim_hero"
    return []


# --- windows and the end of a turn ------------------------------------------------------------


def open_window(state: HeroesState, kind: str, waiting: set[int], now: float,
                claim: Claim | None = None) -> None:
    state.window = ReactionWindow(kind, waiting, state.window_length, now, claim=claim)
    state.phase = "window"


def open_claim(state: HeroesState, claim: Claim, now: float) -> list[Effect]:
    others = {s for s in state.table.living() if s != claim.seat}
    open_window(state, CHALLENGE, others, now, claim=claim)
    return [Buzz(Tune.TICK), Narrate(f"{claim_speech(state, claim)} Any challenge?")]


def draw_hero(state: HeroesState, seat: int) -> list[Effect]:
    """A private cue only: the card itself is for the seat's PEEK face."""
    state.table.draw_hero(seat)
    state.forget_peeks_of(seat)
    return [Narrate(f"Seat {seat} draws a Hero."), Vibrate(seat)]


def finish_action(state: HeroesState, now: float) -> list[Effect]:
    """A Hero shown to a wrong challenge is replaced now; then the Knights may speak."""
    seat = state.turn_seat
    effects = [] if state.table.hand(seat) else draw_hero(state, seat)
    if state.looted:
        others = {s for s in state.table.living() if s != seat}
        open_window(state, KNIGHTS, others, now)
        return [*effects, Narrate(f"Seat {seat} gained {state.looted} Gems. Any Knight?")]
    return effects + end_turn(state, now)


def next_knight(state: HeroesState, now: float) -> list[Effect]:
    while state.knights:
        knight = state.knights.pop(0)
        if state.table.alive(knight):
            return open_claim(state, Claim(knight, "Knight", "knight", gems=state.looted), now)
    return end_turn(state, now)


def end_turn(state: HeroesState, now: float) -> list[Effect]:
    state.reset_turn()
    state.turn_seat = state.ring.left_of(state.turn_seat, gone=state.table.dead())
    state.phase = "turn"
    return [Buzz(Tune.TURN), Narrate(f"Seat {state.turn_seat}'s turn.")]
