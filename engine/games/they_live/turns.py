"""They Live waves: New Resources, the player turns, health, city areas and the die.

A wave runs New Resources, then every living player's turn, then (unless it is locked) the
chance to call a force-reveal (:mod:`.force_reveal`), then the next wave. The turn order is
worked out afresh after every turn, as the rulebook asks ("the remaining players then look at
their remaining health values"), so damage taken mid-wave moves players up the order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from engine.api import Action, Buzz, Effect, Narrate, Vibrate
from engine.cues import Pattern, Tune

from .cards import CITY_AREAS, KICK_ASS
from .deck import PUT_BACK_WAVES, draw_virtual, put_enemy_back, wave_draw
from .end import check_win, kill
from .menus import DEATH, offer_menu

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


# --- the wave goes round: resources, turns, the force-reveal, the next wave ------------------


def begin_wave(state: TheyLiveState) -> list[Effect]:
    state.wave += 1
    state.phase = "resources"
    state.preacher_rolled.clear()
    state.preacher_first.clear()
    state.enemy_note = None
    count = wave_draw(state)
    effects: list[Effect] = [Buzz(Tune.TURN), Narrate(f"Wave {state.wave}: draw {count} cards")]
    if state.wave == PUT_BACK_WAVES + 1:
        effects.append(Narrate("From now on, drawn enemies stay"))
    if state.deck is not None:
        effects += draw_virtual(state, state.deck, count)
    return effects


def _begin_turns(state: TheyLiveState) -> list[Effect]:
    state.phase = "turns"
    state.to_play = {seat for seat in state.seats if state.players[seat].alive}
    return _next_turn(state)


def _next_turn(state: TheyLiveState) -> list[Effect]:
    waiting = [state.players[s] for s in state.to_play if state.players[s].alive]
    state.on_turn = next_to_play(waiting, state.preacher_first, state.seats)
    if state.on_turn is None:
        return begin_force_reveal(state)
    player = state.players[state.on_turn]
    return [Buzz(Tune.TURN), Vibrate(state.on_turn, Pattern.TURN),
            Narrate(f"Seat {state.on_turn} ({player.character}) plays")]


def begin_force_reveal(state: TheyLiveState) -> list[Effect]:
    """After the last turn: a force-reveal may be called, unless one went wrong already."""
    state.on_turn = None
    state.menus.clear()
    if state.force_locked or not any(state.accusable(s) for s in state.living()):
        return begin_wave(state)
    state.phase = "force"
    state.passed = set()
    return [Buzz(Tune.TURN), Narrate("Force-reveal? Call one (Hoffman Lenses) or pass")]


# --- New Resources ----------------------------------------------------------------------------


def offer_resources(state: TheyLiveState, seat: int) -> list[Action]:
    if state.drawn and state.shown_card < len(state.drawn) - 1:
        actions = [Action("next", "Next card")]
    else:
        actions = [Action("drawn", "Cards are out")]
        if state.deck is None and state.wave <= PUT_BACK_WAVES:
            actions.append(Action("enemy", "Enemy drawn"))
    if seat not in state.preacher_rolled:
        label = "Preacher roll" if state.options["die"] == "virtual" else "Preacher: Kick Ass"
        actions.append(Action("preacher", label))
    return actions


def next_card(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.shown_card += 1
    return []


def enemy_drawn(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    return put_enemy_back(state)


def cards_out(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.deck_left = max(0, state.deck_left - wave_draw(state))
    state.drawn = []
    return _begin_turns(state)


def preacher(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    """The Preacher's Kick Ass (rolled here, or on the table's die) makes a seat go first."""
    state.preacher_rolled.add(seat)
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


# --- player turns -----------------------------------------------------------------------------


def offer_turns(state: TheyLiveState, seat: int) -> list[Action]:
    if seat in state.menus:
        return offer_menu(state, seat)
    player = state.players[seat]
    damage = Action("damage", "-1 health", undoable=player.left > 1, repeat=True)
    roll = [Action("roll", "Roll die")] if state.options["die"] == "virtual" else []
    if seat != state.on_turn:
        return [damage, *roll]
    actions = [Action("end", "End turn"), damage]
    if player.left < player.max_health:
        actions.append(Action("heal", "+1 health", undoable=True, repeat=True))
    if state.areas_free():
        actions.append(Action("area", "+1 city area"))
    actions += roll
    if state.inspect_targets(seat):
        actions.append(Action("inspect", "Inspect..."))
    if player.areas:
        actions.append(Action("unarea", "-1 city area", undoable=True))
    if not player.revealed:
        actions.append(Action("reveal", "Self-reveal..."))
    return actions


def not_your_turn(state: TheyLiveState, seat: int, action_id: str) -> str:
    if action_id in TURN_ONLY and seat != state.on_turn:
        return f"Seat {state.on_turn}'s turn"
    if action_id == "area" and not state.areas_free():
        return f"All {CITY_AREAS} city areas are held"
    return "Not now"


def end_turn(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    state.to_play.discard(seat)
    return _next_turn(state)


def take_damage(state: TheyLiveState, seat: int, arg: str, now: float) -> list[Effect]:
    """The last point of health asks for the death to be confirmed instead."""
    player = state.players[seat]
    if player.left == 1:
        state.menus[seat] = DEATH
        return [Vibrate(seat, Pattern.WARNING)]
    player.left -= 1
    return [Vibrate(seat, Pattern.SHORT)]


def confirm_death(state: TheyLiveState, seat: int, killer: str, now: float) -> list[Effect]:
    """The death stands, "die:enemy" or "die:N" for a kill by seat N; if it was this seat's
    turn, the next seat plays."""
    del state.menus[seat]
    state.players[seat].left = 0
    effects = kill(state, seat, None if killer == "enemy" else int(killer))
    if not state.is_terminal() and seat == state.on_turn:
        state.to_play.discard(seat)
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
