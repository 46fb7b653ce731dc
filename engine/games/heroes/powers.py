"""Heroes Love to Lie powers, resolved truthfully by the companion.

After a claim stands, its powers run in the printed order from the turn's ``todo``; a power
that needs a choice (a target, a Monster) waits in its phase, and a theft waits for its target's
Giant. Everything that needs a hidden card (the Mage's look, the Wood Spirit's comparison) is
read from the hands here and told only as the rules tell it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate, Reveal, Vibrate
from engine.cues import Pattern, Tune

from .cards import HEROES, POWERS
from .claims import Claim, Window
from .combat import collect
from .end import check_glory, lose_life
from .steps import MenuName, Paging
from .text import monster_label
from .turns import draw_hero, end_turn, finish_action

if TYPE_CHECKING:
    from .state import HeroesState

MODIFIERS = ("exorcist_bet", "wood_boost")  # change another power; no step of their own
THEFTS = ("goblin_steal", "goblin_steal_more", "elf_swap")
TARGETED = (*THEFTS, "mage_peek", "mage_glory", "giant_wound", "knight_glory",
            "wood_compare", "exorcist_unmask", "unmask")
UNMASKS = ("exorcist_unmask", "unmask")


def activate(state: HeroesState, claim: Claim, now: float) -> list[Effect]:
    """Pay the announced Gems, then use the powers one by one."""
    effects: list[Effect] = []
    paid = state.table.pay_gems(claim.seat, sum(POWERS[p].gem_cost for p in claim.powers))
    if paid:
        effects.append(Narrate(f"Seat {claim.seat} pays {paid} Gems."))
    state.turn.announced = claim.powers
    state.turn.todo = [p for p in claim.powers if p not in MODIFIERS]
    return effects + run_todo(state, now)


def run_todo(state: HeroesState, now: float) -> list[Effect]:
    """Use the powers left until one needs a choice, the turn ends, or the game does."""
    seat, todo = state.turn.seat, state.turn.todo
    effects: list[Effect] = []
    while not state.is_terminal():
        if not state.table.alive(seat):
            return effects + end_turn(state, now)
        if not todo:
            return effects + finish_action(state, now)
        step = todo[0]
        if step in TARGETED:
            return effects + state.set_phase("target", now)
        if step == "troll_renew" and len(state.table.in_play) > 1:
            return effects + state.set_phase("pick_monster", now)
        todo.pop(0)
        effects += USES[step](state, seat)
    return effects


def skip_step(state: HeroesState, now: float) -> list[Effect]:
    state.turn.todo.pop(0)
    return run_todo(state, now)


# --- targets --------------------------------------------------------------------------------


def offer_targets(state: HeroesState, seat: int) -> list[Action]:
    if seat != state.turn.seat:
        return []
    step = state.turn.todo[0]
    others = [s for s in state.table.living() if s != seat]
    actions = [Action(f"target:{s}", target_label(state, step, s)) for s in others]
    if step == "unmask":
        actions.append(Action("back", "Other action", undoable=True))
    return actions


def target_label(state: HeroesState, step: str, seat: int) -> str:
    purse = state.table.purses[seat]
    if step in THEFTS:
        return f"Seat {seat} ({purse.gems} Gems)"
    if step in ("mage_glory", "knight_glory"):
        return f"Seat {seat} ({purse.glory} Glory)"
    if step == "giant_wound":
        return f"Seat {seat} ({purse.life} Life)"
    return f"Seat {seat}"


def choose_target(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    """An unmasking goes on to the guess (a menu: the seat may still pick another target)."""
    state.turn.target = int(arg)
    step = state.turn.todo[0]
    if step in UNMASKS:
        state.data_of(Paging).page = 0
        state.open_menu(seat, MenuName.GUESS)
        return []
    if step in THEFTS:
        return threaten(state, seat, step, now)
    state.turn.todo.pop(0)
    return USES[step](state, seat) + run_todo(state, now)


# --- thefts and the Giant -------------------------------------------------------------------


def threaten(state: HeroesState, seat: int, step: str, now: float) -> list[Effect]:
    target = state.turn.aimed()
    if step != "elf_swap" and state.table.purses[target].gems == 0:
        return [Narrate(f"Seat {target} has no Gem to steal."), *skip_step(state, now)]
    verb = "swaps Gems with" if step == "elf_swap" else "steals a Gem from"
    said = Narrate(f"Seat {seat} {verb} Seat {target}. Giant?")
    return [*state.set_phase(Window.GIANT, now), said]


def theft(state: HeroesState, now: float) -> list[Effect]:
    """Nobody cancelled: the Gems move."""
    seat, target = state.turn.seat, state.turn.aimed()
    step = state.turn.todo.pop(0)
    if step == "elf_swap":
        mine, theirs = state.table.purses[seat], state.table.purses[target]
        mine.gems, theirs.gems = theirs.gems, mine.gems
        said = Narrate(f"Seats {seat} and {target} swap their Gems.")
    else:
        moved = state.table.move_gems(target, seat, 1)
        said = Narrate(f"Seat {seat} steals {moved} Gem from Seat {target}.")
    return [said, *run_todo(state, now)]


# --- powers used at once --------------------------------------------------------------------


def reshuffle_heroes(state: HeroesState, seat: int) -> list[Effect]:
    state.table.bard_reshuffle()
    return [Narrate("Shuffle only the set-aside card(s) into the Hero pile; set a new one"
                    " aside.")]


def stash_hero(state: HeroesState, seat: int) -> list[Effect]:
    """After a wrong challenge the hand is empty: only the draw remains."""
    effects: list[Effect] = []
    if state.table.hand(seat):
        state.table.stash_hero(seat)
        effects.append(Narrate(f"Seat {seat} puts a card face down on the set-aside card."))
    return effects + draw_hero(state, seat)


def gain_gems(state: HeroesState, seat: int) -> list[Effect]:
    gained = state.table.gain_gems(seat, POWERS["dwarf_gems"].gems)
    return [Narrate(f"Seat {seat} gains {gained} Gems.")]


def gain_life(state: HeroesState, seat: int) -> list[Effect]:
    if state.table.gain_life(seat):
        return [Narrate(f"Seat {seat} gains a Life Point.")]
    return [Narrate("No Life Point is left in the reserve.")]


def buy_life_with_glory(state: HeroesState, seat: int) -> list[Effect]:
    cost = POWERS["elf_life"].glory_cost
    state.table.lose_glory(seat, cost)
    return [Narrate(f"Seat {seat} pays {cost} Glory."), *gain_life(state, seat)]


def renew_monster(state: HeroesState, seat: int, index: int = 0) -> list[Effect]:
    old = state.table.in_play[index]
    new = state.table.replace_monster(index)
    return [Narrate(f"The {old} leaves; the {new} comes into play.")]


def fight_the_troll_monster(state: HeroesState, seat: int) -> list[Effect]:
    power = POWERS["troll_fight"]
    if power.monster not in state.table.in_play:
        return [Narrate(f"No {power.monster} to fight: the Gem is lost.")]
    return collect(state, seat, state.table.in_play.index(power.monster), power.glory,
                   power.gems)


# --- powers on a target ---------------------------------------------------------------------


def look_at_hero(state: HeroesState, seat: int) -> list[Effect]:
    """Only the Mage's PEEK screen will show the card, until it leaves that hand."""
    target = state.turn.aimed()
    state.peeks[seat] = (target, state.table.hand(target)[0])
    told = Narrate(f"Seat {seat} looks at Seat {target}'s Hero.")
    return [Vibrate(seat, Pattern.LONG), told]


def remove_glory(state: HeroesState, seat: int) -> list[Effect]:
    target = state.turn.aimed()
    lost = state.table.lose_glory(target)
    return [Narrate(f"Seat {target} loses {lost} Glory.")]


def wound(state: HeroesState, seat: int) -> list[Effect]:
    return lose_life(state, state.turn.aimed())


def steal_glory(state: HeroesState, seat: int) -> list[Effect]:
    target = state.turn.aimed()
    stolen = state.table.lose_glory(target)
    state.table.purses[seat].glory += stolen
    said = Narrate(f"Seat {seat} steals {stolen} Glory from Seat {target}.")
    return [said, *check_glory(state, seat)]


def compare_strength(state: HeroesState, seat: int) -> list[Effect]:
    """The target's truthful answer, computed: LOWER costs them a Life, HIGHER costs us."""
    turn, target = state.turn, state.turn.aimed()
    bar = turn.discarded_strength + ("wood_boost" in turn.announced)
    lower = HEROES[state.table.hand(target)[0]].strength < bar
    answer = "LOWER" if lower else "HIGHER"
    told = Reveal(f"Seat {target} declares {answer} than {bar}.")
    return [Buzz(Tune.REVEAL), told, *lose_life(state, target if lower else seat)]


# The powers that run without a further choice (or once their target is chosen), by id.
USES: dict[str, Callable[[HeroesState, int], list[Effect]]] = {
    "bard_reshuffle": reshuffle_heroes,
    "bard_stash": stash_hero,
    "dwarf_gems": gain_gems,
    "dwarf_life": gain_life,
    "elf_life": buy_life_with_glory,
    "troll_renew": renew_monster,
    "troll_fight": fight_the_troll_monster,
    "mage_peek": look_at_hero,
    "mage_glory": remove_glory,
    "giant_wound": wound,
    "knight_glory": steal_glory,
    "wood_compare": compare_strength,
}


# --- Monsters -------------------------------------------------------------------------------


def offer_renewals(state: HeroesState, seat: int) -> list[Action]:
    if seat != state.turn.seat:
        return []
    return [
        Action(f"renew:{i}", monster_label(state, i)) for i in range(len(state.table.in_play))
    ]


def renew_chosen_monster(state: HeroesState, seat: int, arg: str, now: float) -> list[Effect]:
    state.turn.todo.pop(0)
    return renew_monster(state, seat, int(arg)) + run_todo(state, now)
