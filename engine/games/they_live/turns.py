"""They Live waves: New Resources, the player turns, health, city areas and the die.

A wave runs New Resources, then every living player's turn, then (unless it is locked) the
chance to call a force-reveal (:mod:`.force_reveal`), then the next wave. The turn order is
worked out afresh after every turn, as the rulebook asks ("the remaining players then look at
their remaining health values"), so damage taken mid-wave moves players up the order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate, Vibrate
from engine.cues import Pattern, Tune

from .cards import CITY_AREAS, KICK_ASS
from .deck import PUT_BACK_WAVES, draw_virtual, drawn_told, enemy_depth, wave_draw
from .end import check_win, kill
from .menus import MenuName, Verb, undoable_cancel
from .text import seat_label

if TYPE_CHECKING:
    from .state import Player, TheyLiveState

# The actions only the seat on turn has; another seat trying one is told whose turn it is.
TURN_ONLY = ("end", "heal", "area", "unarea", "inspect", "reveal")


def turn_key(player: Player, preacher_first: bool, position: int) -> tuple[int, int, int, int]:
    """Sort key of the next turn: a Preacher's Kick Ass, then the lowest remaining health,
    then the highest starting CRITICAL value; the rulebook stops there, so a full tie goes
    to the seat listed first (clockwise from the first seat)."""
    return (0 if preacher_first else 1, player.left, -(player.critical or 0), position)


def next_to_play(
    players: Iterable[Player], preacher_first: Iterable[int], order: Sequence[int]
) -> int | None:
    """The seat that plays next among ``players`` (those who have not played this wave)."""
    first = set(preacher_first)
    ranked = sorted(players, key=lambda p: turn_key(p, p.seat in first, order.index(p.seat)))
    return ranked[0].seat if ranked else None


# --- New Resources: the cards of the wave go out ------------------------------------------


@dataclass
class Resources:
    """The ``resources`` phase's own data: the named cards to take (with a deck list) and
    the one on screen, where the last enemy went back, and who has tried the Preacher."""

    drawn: list[str] = field(default_factory=list)
    shown_card: int = 0
    enemy_note: str | None = None
    preacher_rolled: set[int] = field(default_factory=set)


def begin_wave(state: TheyLiveState, now: float) -> list[Effect]:
    """A new wave: its New Resources go out, named on screen with a deck list."""
    state.wave += 1
    state.data = data = Resources()
    state.preacher_first.clear()
    count = wave_draw(state)
    effects: list[Effect] = [Buzz(Tune.TURN), Narrate(f"Wave {state.wave}: draw {count} cards")]
    if state.wave == PUT_BACK_WAVES + 1:
        effects.append(Narrate("From now on, drawn enemies stay"))
    if state.deck is not None:
        data.drawn = draw_virtual(state, state.deck, count)
        effects.append(drawn_told(data.drawn, count))
    return effects


def offer_resources(state: TheyLiveState, seat: int) -> list[Action]:
    data = state.data_of(Resources)
    if data.drawn and data.shown_card < len(data.drawn) - 1:
        actions = [Action("next", "Next card")]
    else:
        actions = [Action("drawn", "Cards are out")]
        if state.deck is None and state.wave <= PUT_BACK_WAVES:
            actions.append(Action("enemy", "Enemy drawn"))
    if seat not in data.preacher_rolled:
        label = "Preacher roll" if state.options["die"] == "virtual" else "Preacher: Kick Ass"
        actions.append(Action("preacher", label))
    return actions


def next_card(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.data_of(Resources).shown_card += 1
    return []


def enemy_drawn(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    """From the real deck: the enemy goes back at a depth drawn here, then the table draws
    again."""
    depth = enemy_depth(state)
    state.data_of(Resources).enemy_note = f"Enemy: {depth} cards down"
    return [Narrate(f"Put the enemy back {depth} cards down (or at the bottom),"
                    " then draw again")]


def cards_out(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    """Whoever says the cards are out ends New Resources for the table."""
    return state.end_phase(now)


def cards_taken(state: TheyLiveState, now: float) -> list[Effect]:
    """The end of New Resources: the wave's cards have left the deck."""
    state.deck_left = max(0, state.deck_left - wave_draw(state))
    return []


def preacher(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    """The Preacher's Kick Ass (rolled here, or on the table's die) makes a seat go first."""
    state.data_of(Resources).preacher_rolled.add(seat)
    if state.options["die"] == "virtual":
        result = _roll(state)
        if result not in KICK_ASS:
            return [Narrate(f"Seat {seat} Preacher roll: {result}")]
        text = f"Seat {seat} Preacher roll: {result}: goes first"
    else:
        text = f"Seat {seat} Preacher: Kick Ass: goes first"
    state.preacher_first.add(seat)
    return [Narrate(text)]


def _roll(state: TheyLiveState) -> str:
    sides = [result for result, count in state.die_sides.items() for _ in range(count)]
    return state.rng.choice(sides)


# --- player turns: every living seat once, the order worked out after every turn -----------


@dataclass
class Turn:
    """The ``turns`` phase's own data: the seat whose turn it is."""

    seat: int


def first_turn(state: TheyLiveState, now: float) -> list[Effect]:
    """The phase waits for every living seat: the first to play is told."""
    state.data = Turn(_next_to_play(state))
    return _told_to_play(state)


def _next_to_play(state: TheyLiveState) -> int:
    seat = next_to_play([state.players[s] for s in state.waiting_for], state.preacher_first,
                        state.seats)
    if seat is None:
        raise RuntimeError("a turn is asked of nobody")
    return seat


def _next_turn(state: TheyLiveState) -> list[Effect]:
    """The seat on turn is done: the next plays, if any is left (else the phase is done)."""
    if not state.waiting_for:
        return []
    state.data_of(Turn).seat = _next_to_play(state)
    return _told_to_play(state)


def _told_to_play(state: TheyLiveState) -> list[Effect]:
    seat = state.data_of(Turn).seat
    return [Buzz(Tune.TURN), Vibrate(seat, Pattern.TURN),
            Narrate(f"Seat {seat} ({state.players[seat].character}) plays")]


def on_turn(state: TheyLiveState) -> int:
    return state.data_of(Turn).seat


def offer_turns(state: TheyLiveState, seat: int) -> list[Action]:
    player = state.players[seat]
    damage = Action("damage", "-1 health", undoable=player.left > 1, repeat=True)
    roll = [Action("roll", "Roll die")] if state.options["die"] == "virtual" else []
    if seat != on_turn(state):
        return [damage, *roll]
    actions = [Action("end", "End turn"), damage]
    if player.left < player.max_health:
        actions.append(Action("heal", "+1 health", undoable=True, repeat=True))
    if state.areas_free():
        actions.append(Action("area", "+1 city area"))
    actions += roll
    if state.inspect_targets(seat):
        actions.append(Action(Verb.INSPECT.value, "Inspect..."))
    if player.areas:
        actions.append(Action("unarea", "-1 city area", undoable=True))
    if not player.revealed:
        actions.append(Action(Verb.REVEAL.value, "Self-reveal..."))
    return actions


def not_your_turn(state: TheyLiveState, seat: int, action_id: str) -> str:
    if action_id in TURN_ONLY and seat != on_turn(state):
        return f"Seat {on_turn(state)}'s turn"
    if action_id == "area" and not state.areas_free():
        return f"All {CITY_AREAS} city areas are held"
    return "Not now"


def end_turn(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.acted(seat)
    return _next_turn(state)


def take_damage(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    """The last point of health asks for the death to be confirmed instead."""
    player = state.players[seat]
    if player.left == 1:
        state.open_menu(seat, MenuName.DEATH)
        return [Vibrate(seat, Pattern.WARNING)]
    player.left -= 1
    return [Vibrate(seat, Pattern.SHORT)]


def offer_death(state: TheyLiveState, seat: int) -> list[Action]:
    """A kill by an enemy, or by a player: the seat on turn (the usual attacker) first."""
    others = [s for s in state.living() if s != seat]
    others.sort(key=lambda s: s != on_turn(state))
    killers = [Action(f"{Verb.DIE}:{s}", "By " + seat_label(s, state.players[s].character))
               for s in others]
    return [undoable_cancel(), Action(f"{Verb.DIE}:enemy", "By an enemy"), *killers]


def confirm_death(state: TheyLiveState, seat: int, killer: str, now: float) -> list[Effect]:
    """The death stands, "die:enemy" or "die:N" for a kill by seat N; if it was this seat's
    turn, the next seat plays."""
    state.players[seat].left = 0
    effects = kill(state, seat, None if killer == "enemy" else int(killer))
    if not state.is_terminal() and seat == on_turn(state):
        effects += _next_turn(state)
    return effects


def heal(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.players[seat].left += 1
    return []


def take_area(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.players[seat].areas += 1
    return check_win(state)


def give_up_area(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.players[seat].areas -= 1
    return []


def roll_die(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    return [Narrate(f"Seat {seat} rolls: {_roll(state)}")]


def force_reveal_possible(state: TheyLiveState) -> bool:
    """After the last turn a force-reveal may be called, unless one went wrong already or
    no living seat has anyone left to accuse."""
    return not state.force_locked and any(state.accusable(s) for s in state.living())
