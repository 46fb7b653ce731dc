"""Helpers shared by the They Live tests: start a game, get through setup, press buttons.

Tests may read ``state.identities`` to know whom to kill or accuse; the secrecy tests are what
check that no screen does.
"""

from __future__ import annotations

import hashlib

from engine.api import Effect, Narrate, Reveal
from engine.games.they_live import TheyLive
from engine.games.they_live.cards import CHARACTERS, HUMAN, INVADER
from engine.games.they_live.state import TheyLiveState
from engine.games.they_live.turns import on_turn

GAME = TheyLive()
NAMES = list(CHARACTERS)


def seed(number: int) -> bytes:
    return hashlib.sha256(f"they-live test {number}".encode()).digest()


def new_game(players: int = 4, seed_no: int = 0, deck: tuple[str, ...] | None = None,
             **options: str) -> TheyLiveState:
    seats = list(range(1, players + 1))
    return GAME.new_state_with_deck(seats, options, seed(seed_no), deck)


def press(state: TheyLiveState, seat: int, action_id: str, now: float = 0.0) -> list[Effect]:
    return state.apply(seat, action_id, now)


def texts(effects: list[Effect]) -> list[str]:
    return [e.text for e in effects if isinstance(e, (Narrate, Reveal))]


def enter(state: TheyLiveState, seat: int, value: int) -> None:
    """Set the value on screen with +1/-1 presses (as far as it goes), then OK."""
    entry = state.value_entries[seat][0]
    press(state, seat, "+1")
    while entry.value != value:
        before = entry.value
        press(state, seat, "+1" if entry.value < value else "-1")
        if entry.value == before:
            break
    press(state, seat, "ok")


def pick_and_enter(state: TheyLiveState, names: list[str] | None = None,
                   health: int = 10, critical: int = 3, hand: int = 4) -> None:
    """Every seat picks a character and enters the values its card would show."""
    names = names or NAMES[: len(state.seats)]
    for seat, name in zip(state.seats, names, strict=True):
        press(state, seat, f"pick:{name}")
    wanted = {"health": health, "critical": critical, "hand_limit": hand}
    for seat in state.seats:
        while state.value_entries[seat]:
            field = state.value_entries[seat][0].key
            enter(state, seat, wanted.get(field, 1))


def to_first_wave(state: TheyLiveState, **values: int) -> float:
    """Setup, identities and the Invader check; returns the time the first wave starts."""
    pick_and_enter(state, **values)
    for seat in state.seats:
        press(state, seat, "done")
    now = 0.0
    while state.phase == "check":
        now = state.next_deadline()
        state.advance(now)
    return now


def to_turns(state: TheyLiveState, **values: int) -> None:
    to_first_wave(state, **values)
    press(state, state.seats[0], "drawn")


def seats_of(state: TheyLiveState, identity: str) -> list[int]:
    return [s for s in state.seats if state.identities[s] == identity]


def humans(state: TheyLiveState) -> list[int]:
    return seats_of(state, HUMAN)


def invaders(state: TheyLiveState) -> list[int]:
    return seats_of(state, INVADER)


def kill(state: TheyLiveState, seat: int, by: int | str = "enemy") -> list[Effect]:
    """Damage a seat down to nothing and confirm the death (by an enemy or seat ``by``)."""
    effects: list[Effect] = []
    while state.players[seat].left > 1:
        effects += press(state, seat, "damage")
    effects += press(state, seat, "damage")
    return effects + press(state, seat, f"die:{by}")


def end_wave_turns(state: TheyLiveState) -> None:
    """Every living seat ends its turn in the order the engine calls them."""
    while state.phase == "turns":
        press(state, on_turn(state), "end")
