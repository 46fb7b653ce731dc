"""A table of careful Staying Alive players, as far as the bench needs one.

It only reads what the seats are offered (action ids) and the public hourglass, so every move
goes through the same lobby, menus and buttons a person would use. It plays to keep the game
moving: setup steps at once, turns ended with little strain, the Lookout flipping when the sand
runs low, everyone escaping once the deck is empty, then "Play again". A one-button seat has
no PEEK to move its highlight (a short press is ACT, a hold peeks): it only ever takes the
action on its screen, staying when escaping is not the first choice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from companion.app import App
from engine import registry

GAME = "staying-alive"
BENCH_KEY = hashlib.sha256(b"table-companion bench").digest()  # the companion's key
FLIP_BELOW = 20.0  # seconds of sand left when the Lookout turns the glass
# What a seat does when offered it, most wanted first.
PREFERRED = ("done", "ready", "start", "check:low", "escape", "strain:0", "end", "stay")


def next_move(app: App) -> tuple[int, str] | None:
    """The (seat, action id) to choose next, or None outside a game."""
    state = app.session.state
    if state is None:  # the players cut the deck before the deal (after "Play again" too)
        cutter = next((seat for seat in app.seat_numbers
                       if any(a.id == "cut" for a in app.actions(seat))), None)
        return None if cutter is None else (cutter, "cut")
    if state.is_terminal():  # "Play again", and yes when the table asks to be sure
        seat = state.seats[0]
        return seat, "sys:yes" if any(a.id == "sys:yes" for a in app.actions(seat)) else \
            "sys:again"
    offered = {seat: reachable(app, seat) for seat in state.seats}
    glass = app.view(None).hourglass
    if glass is not None and glass.running and glass.remaining < FLIP_BELOW:
        flipper = next((s for s, ids in offered.items() if "flip" in ids), None)
        if flipper is not None:
            return flipper, "flip"
    for wanted in PREFERRED:
        for seat, ids in offered.items():
            if wanted in ids:
                return seat, wanted
    return None


def reachable(app: App, seat: int) -> list[str]:
    """The action ids ``seat``'s buttons can reach: all it is offered, or on a one-button
    seat the highlighted one alone."""
    actions = app.actions(seat)
    if not app.ui[seat].one_button:
        return [a.id for a in actions]
    current, _ = app.ui[seat].current(actions)
    return [] if current is None else [current.id]


def label_of(app: App, seat: int, action_id: str) -> str:
    return next(a.label for a in app.actions(seat) if a.id == action_id)


def game_name() -> str:
    return registry.get(GAME).name


def open_game(choose: Callable[[int, str], None], players: int) -> None:
    """Seats 1..players join, seat 1 starts the bench's game, and every player cuts."""
    for seat in range(1, players + 1):
        choose(seat, "Join")
    choose(1, "Choose game")
    choose(1, game_name())
    choose(1, "Start")
    for seat in range(1, players + 1):
        choose(seat, "Cut the deck")
