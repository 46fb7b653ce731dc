"""Helpers shared by the Heroes Love to Lie tests: start a game, rig the cards, press buttons.

Rigging rebuilds the decks from all 19 Heroes and 11 Monsters, so no card is ever invented or
lost; the secrecy tests are what check that no screen shows a card it should not.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from engine.api import Effect, Narrate, Reveal
from engine.games.heroes import HeroesLoveToLie
from engine.games.heroes.cards import hero_deck, monster_deck
from engine.games.heroes.state import HeroesState

GAME = HeroesLoveToLie()


def seed(number: int) -> bytes:
    return hashlib.sha256(f"heroes test {number}".encode()).digest()


def new_game(players: int = 3, seed_no: int = 0, **options: str) -> HeroesState:
    """A game in setup, Monster values left unknown unless asked for."""
    options.setdefault("monster_values", "unknown")
    return GAME.new_state(list(range(1, players + 1)), options, seed(seed_no))


def started(players: int = 3, first: int = 1, **options: str) -> HeroesState:
    state = new_game(players, **options)
    state.apply(first, "start", 0.0)
    return state


def press(state: HeroesState, seat: int, *action_ids: str, now: float = 0.0) -> list[Effect]:
    effects: list[Effect] = []
    for action_id in action_ids:
        effects += choose(state, seat, action_id, now)
    return effects


def choose(state: HeroesState, seat: int, action_id: str, now: float = 0.0) -> list[Effect]:
    """Press ``action_id``, turning the pages of a Hero list until it shows."""
    for _ in range(3):
        if action_id in ids(state, seat):
            return state.apply(seat, action_id, now)
        if "page" not in ids(state, seat):
            break
        state.apply(seat, "page", now)
    raise AssertionError(f"{action_id} not offered to seat {seat}: {ids(state, seat)}")


def ids(state: HeroesState, seat: int) -> list[str]:
    return [action.id for action in state.legal_actions(seat)]


def everyone_passes(state: HeroesState, now: float = 0.0) -> list[Effect]:
    effects: list[Effect] = []
    for seat in sorted(state.active_seats()):
        effects += state.apply(seat, "pass", now)
    return effects


def said(effects: Iterable[Effect]) -> str:
    return "\n".join(e.text for e in effects if isinstance(e, Narrate | Reveal))


def _take(pool: list[str], cards: Iterable[str]) -> None:
    for card in cards:
        pool.remove(card)


def rig(state: HeroesState, hands: dict[int, str], top: Sequence[str] = (),
        aside: str | None = None) -> None:
    """Give these seats these Heroes; ``top`` are the next draws, first one first."""
    table = state.table
    pool = hero_deck()
    for seat, purse in table.purses.items():
        purse.hand = [hands[seat]] if seat in hands else list(purse.hand)
        _take(pool, purse.hand)
    _take(pool, top)
    if aside is not None:
        _take(pool, [aside])
    table.heroes.aside = [aside] if aside is not None else [pool.pop()]
    table.heroes.cards = pool + list(reversed(top))
    table.heroes.discards = []


def rig_monsters(state: HeroesState, in_play: Sequence[str], top: Sequence[str] = ()) -> None:
    pool = monster_deck()
    _take(pool, [*in_play, *top])
    state.table.in_play = list(in_play)
    state.table.monsters.cards = pool + list(reversed(top))
    state.table.monsters.discards = []


def set_tokens(state: HeroesState, seat: int, gems: int | None = None,
               glory: int | None = None, life: int | None = None) -> None:
    purse = state.table.purses[seat]
    purse.gems = purse.gems if gems is None else gems
    purse.glory = purse.glory if glory is None else glory
    purse.life = purse.life if life is None else life


def view_text(state: HeroesState, seat: int | None, now: float = 0.0) -> str:
    """Every word a seat's screen could show, its PEEK face included."""
    view = state.view(seat, now)
    parts = [view.title, view.banner or "", view.big or "", *view.lines]
    if view.secret is not None:
        parts += [view.secret.title, *view.secret.lines]
    return "\n".join(parts)


def giant_has_fought(monster: str) -> HeroesState:
    """Seat 1 (holding the Giant) claims it to fight ``monster``, and nobody challenges."""
    state = started(3)
    rig(state, {1: "Giant", 2: "Troll", 3: "Elf"})
    rig_monsters(state, [monster, "Skeleton"])
    press(state, 1, "combat", "fight:0", "claim:Giant")
    everyone_passes(state)
    return state
