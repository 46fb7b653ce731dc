"""Heroes Love to Lie's words: what the table hears of a claim, the labels of its choices, and
the lines its screens show, each within one screen line (:mod:`engine.text`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.text import fit

from .cards import HEROES, POWERS
from .claims import WINDOWS, Claim, ClaimKind, Window
from .steps import MenuName

if TYPE_CHECKING:
    from .state import HeroesState


def claim_speech(state: HeroesState, claim: Claim) -> str:
    said = f"Seat {claim.seat}: I am the {claim.hero}"
    if claim.kind == ClaimKind.POWER:
        return f"{said}: {' and '.join(POWERS[p].label for p in claim.powers)}."
    if claim.monster is not None:  # a COMBAT claim
        return f"{said} and I fight the {state.table.in_play[claim.monster]}."
    if claim.kind == ClaimKind.GIANT:
        return f"{said} and I cancel that."
    return f"{said} and I copy {claim.gems} Gems."


def hero_lines(hero: str) -> tuple[str, str, str]:
    """A Hero on its owner's PEEK face: its name and strength, then its two powers from the
    card (cost in Gems; a reaction says so). Three lines for every Hero, so the face's shape
    never tells which one it is."""
    card = HEROES[hero]
    first, second = (_power_line(power.id) for power in card.powers)
    return card.label, first, second


def _power_line(power_id: str) -> str:
    """A power as its card says it, with its cost: the rulebook's words where the button's
    label is too terse; a reaction says so."""
    power = POWERS[power_id]
    words = (power.summary or power.label) + power.cost_text
    return fit(f"React: {words}", words) if power.lightning else fit(words)


def monster_label(state: HeroesState, index: int) -> str:
    name = state.table.in_play[index]
    return f"{name} ({state.table.strength_text(name)})"


def step_label(state: HeroesState) -> str:
    step = state.turn.todo[0]
    return "Unmask" if step == "unmask" else POWERS[step].label


# --- headlines: one line on the step under way, for the seat acting or everyone else -------


def step(state: HeroesState) -> str:
    """The step under way: the menu the seat on turn has open, else the phase."""
    opened = state.menus.get(state.turn.seat)
    return state.phase if opened is None else opened.name


def _turn(state: HeroesState) -> str:
    return f"Seat {state.turn.seat}"


def choosing(state: HeroesState, seat: int | None) -> str:
    """The turn's actions, or the Monster to fight (its menu)."""
    if step(state) == MenuName.FIGHT:
        return picking_fight(state, seat)
    return "Choose an action" if seat == state.turn.seat else f"{_turn(state)} chooses"


def discarding(state: HeroesState, seat: int | None) -> str:
    return "Discard: PEEK to see" if seat == state.turn.seat else f"{_turn(state)} drew a Hero"


def claiming_hero(state: HeroesState, seat: int | None) -> str:
    """The Hero claimed, or its powers (their menu)."""
    if step(state) == MenuName.POWERS:
        return claiming_powers(state, seat)
    return "Claim a Hero aloud" if seat == state.turn.seat else f"{_turn(state)} announces..."


def claiming_powers(state: HeroesState, seat: int | None) -> str:
    if seat == state.turn.seat:
        hero = state.menus[seat].arg
        return fit(f"{hero}: powers?", "Which powers?")
    return f"{_turn(state)} announces..."


def picking_fight(state: HeroesState, seat: int | None) -> str:
    return "Fight which Monster?" if seat == state.turn.seat else f"{_turn(state)} picks a fight"


def renewing(state: HeroesState, seat: int | None) -> str:
    return "Renew which Monster?" if seat == state.turn.seat else f"{_turn(state)} renews one"


def targeting(state: HeroesState, seat: int | None) -> str:
    """The power's target, or the Hero an unmasking names (its menu)."""
    if step(state) == MenuName.GUESS:
        return guessing(state, seat)
    if seat == state.turn.seat:
        return fit(f"{step_label(state)}: who?", "Choose a seat")
    return f"{_turn(state)} picks a seat"


def guessing(state: HeroesState, seat: int | None) -> str:
    if seat == state.turn.seat:
        return f"Seat {state.turn.aimed()}'s Hero is?"
    return f"{_turn(state)} names a Hero"


def betting(state: HeroesState, seat: int | None) -> str:
    return f"{_turn(state)} bets Gems"


def reading_loot(state: HeroesState, seat: int | None) -> str:
    return f"{_turn(state)} reads the Gems"


# --- what a step expects of a seat, from the rulebook: after the Heroes on the PEEK face --
# Public words: how many follows the step and the seat's part in it, never its Hero; and no
# Hero is named, so the face names only the seat's own.

_VALUES_HELP = ("Read each Monster's", "values off its card")
_ON_TURN_HELP = {
    "monster_values": _VALUES_HELP,
    "change_values": _VALUES_HELP,
    "turn": ("Pick 1 action: POWER,", "COMBAT or UNMASKING"),
    "discard": ("POWER: discard one of", "your 2 Heroes face up"),
    "fight_monster": ("COMBAT: your Hero's", "strength >= Monster's"),
    "claim_hero": ("Announce a Hero: you", "may lie about it"),
    "claim_powers": ("Name 1 or 2 powers,", "no target yet"),
    "target": ("Now name the seat", "your power targets"),
    "pick_monster": ("Renew: a Monster goes", "and a new one comes"),
    "guess": ("Right: it loses 1", "Life, draws anew"),
    "bet": ("Bet Gems: doubled if", "unmasked, else lost"),
    "loot_gems": ("Read the Gems off", "the Monster's card"),
}
_WAITING_HELP = ("Wait: you may", "challenge its claim")
_WHO_STARTS_HELP = ("The best liar starts;", "play goes clockwise")
_CHALLENGE_HELP = ("Challenge: if it lied", "it loses 1 Life, else", "you lose 1 Life")
_CHALLENGED_HELP = ("Challenged and true:", "discard it, go on,", "draw a new Hero")
_GIANT_HELP = ("Cancel this theft?", "Claim it now")  # no Hero named: the face names
_KNIGHT_HELP = ("Copy the Gems (no", "Glory)? Claim it now")  # only the seat's own


def phase_help(state: HeroesState, seat: int) -> tuple[str, ...]:
    """What the step under way expects of ``seat``, in a line or three."""
    if state.phase == Window.CHALLENGE:
        return _CHALLENGED_HELP if state.turn.claim.seat == seat else _CHALLENGE_HELP
    if state.phase in WINDOWS:
        return _GIANT_HELP if state.phase == Window.GIANT else _KNIGHT_HELP
    if state.phase == "who_starts":
        return _WHO_STARTS_HELP
    setting_up = state.phase in ("monster_values", "change_values")
    acting = state.seats[0] if setting_up else state.turn.seat
    if seat == acting:
        return _ON_TURN_HELP.get(step(state), ())
    return _WAITING_HELP if step(state) in _ON_TURN_HELP else ()


# --- the lines of the screens ----------------------------------------------------------------


def claim_lines(state: HeroesState, claim: Claim) -> tuple[str, ...]:
    if claim.kind == ClaimKind.POWER:
        return tuple(fit(POWERS[p].label + POWERS[p].cost_text) for p in claim.powers)
    if claim.monster is not None:  # a COMBAT claim
        return (f"fights the {state.table.in_play[claim.monster]}",)
    if claim.kind == ClaimKind.GIANT:
        return ("cancels the theft",)
    return (f"copies {claim.gems} Gems",)


def theft_lines(state: HeroesState, seat: int | None) -> tuple[str, ...]:
    turn = state.turn
    swap = turn.todo and turn.todo[0] == "elf_swap"
    victim = "you" if seat == turn.target else f"Seat {turn.target}"
    if swap:
        return (f"Seat {turn.seat} swaps Gems", f"with {victim}")
    return (f"Seat {turn.seat} steals a Gem", f"from {victim}")


def stats_line(state: HeroesState, seat: int) -> str:
    purse = state.table.purses[seat]
    return fit(
        f"Life {purse.life} Gems {purse.gems} Glory {purse.glory}",
        f"Life {purse.life} Gems {purse.gems} Gl {purse.glory}",
    )


def monsters_line(state: HeroesState) -> str:
    shown = [f"{name} {state.table.strength_text(name)}" for name in state.table.in_play]
    return fit(" ".join(shown), " ".join(s[:4] + s[s.rfind(" "):] for s in shown))


def life_line(state: HeroesState) -> str:
    pairs = " ".join(f"{s}:{state.table.purses[s].life}" for s in state.seats)
    return fit(f"Life {pairs}", f"L {pairs}")


def glory_line(state: HeroesState) -> str:
    pairs = " ".join(f"{s}:{state.table.purses[s].glory}" for s in state.seats)
    return fit(f"Glory {pairs}", f"G {pairs}")
