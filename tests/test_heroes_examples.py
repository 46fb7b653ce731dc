"""The rulebook's worked examples, played through the engine as the table would press them."""

from __future__ import annotations

from engine.api import Vibrate
from engine.games.heroes.state import HeroesState

from .test_heroes_support import (
    everyone_passes,
    giant_has_fought,
    press,
    rig,
    rig_monsters,
    said,
    set_tokens,
    started,
)


def test_example_caught_lie_sami_dwarf() -> None:
    """Sami claims the Dwarf, Bebert challenges: Sami loses a Life, keeps his card secret."""
    state = started(3)
    rig(state, {1: "Troll", 2: "Mage", 3: "Elf"}, top=["Knight"])
    press(state, 1, "power", "discard:1", "claim:Dwarf", "use:dwarf_gems")
    effects = press(state, 2, "challenge")
    assert state.table.purses[1].life == 1 and state.table.purses[1].gems == 0
    assert state.table.hand(1) == ["Troll"]
    assert "Troll" not in said(effects) and "not the Dwarf" in said(effects)
    assert state.active_seats() == {2}


def test_example_wrong_challenge_alex_goblin() -> None:
    """Alex is the Goblin: Krystel loses a Life, Alex steals her Gem, discards and draws."""
    state = started(3)
    rig(state, {1: "Goblin", 2: "Mage", 3: "Elf"}, top=["Dwarf", "Bard"])
    set_tokens(state, 2, gems=2)
    press(state, 1, "power", "discard:1", "claim:Goblin", "use:goblin_steal")
    effects = press(state, 2, "challenge")
    assert "Seat 1 shows the Goblin" in said(effects) and state.table.purses[2].life == 1
    press(state, 1, "target:2")
    effects = press(state, 2, "allow")
    assert state.table.purses[1].gems == 1 and state.table.purses[2].gems == 1
    assert state.table.hand(1) == ["Bard"] and "Goblin" in state.table.heroes.discards
    assert Vibrate(1) in effects and state.active_seats() == {2}


def exorcist_unmasks(top: list[str]) -> HeroesState:
    """Seat 1, with 3 Gems, claims the Exorcist's unmasking and bet unchallenged; seat 2
    holds the Knight."""
    state = started(3)
    rig(state, {1: "Exorcist", 2: "Knight", 3: "Elf"}, top=top)
    set_tokens(state, 1, gems=3)
    press(state, 1, "power", "discard:1", "claim:Exorcist", "use:exorcist_unmask+exorcist_bet")
    everyone_passes(state)
    return state


def test_example_exorcist_bet_melanie() -> None:
    """Mélanie bets 3 that Bebert is the Knight: he is; he loses a Life, she gains 3 Gems."""
    state = exorcist_unmasks(top=["Dwarf", "Bard"])
    press(state, 1, "target:2", "guess:Knight")
    assert state.view(1, 0.0).big == "1"
    effects = press(state, 1, "plus", "plus", "ok")
    assert "Seat 2 shows the Knight" in said(effects)
    assert state.table.purses[2].life == 1 and state.table.hand(2) == ["Bard"]
    assert state.table.purses[1].gems == 6


def test_exorcist_lost_bet_goes_to_the_reserve() -> None:
    """A failed unmasking loses the Gems bet and nobody loses a Life Point."""
    state = exorcist_unmasks(top=["Dwarf"])
    effects = press(state, 1, "target:2", "guess:Giant", "plus", "ok")
    assert "Seat 2 is not the Giant" in said(effects)
    assert state.table.purses[1].gems == 1 and state.table.purses[2].life == 2
    assert state.table.hand(2) == ["Knight"]


def test_example_wood_spirit_roseline() -> None:
    """Roseline discards the Mage (7) and challenges Quentin, who is lower: he loses a Life."""
    state = started(3)
    rig(state, {1: "Troll", 2: "Goblin", 3: "Elf"}, top=["Mage"])
    effects = press(state, 1, "power", "discard:1")
    assert "Seat 1 discards the Mage (7)" in said(effects)
    press(state, 1, "claim:Wood Spirit", "use:wood_compare")
    everyone_passes(state)
    effects = press(state, 1, "target:2")
    assert "Seat 2 declares LOWER" in said(effects) and "Goblin" not in said(effects)
    assert state.table.purses[2].life == 1 and state.table.purses[1].life == 2


def test_wood_spirit_higher_costs_the_active_player() -> None:
    """An equal strength is HIGHER (the active seat loses) unless the +1 is paid."""
    for combo, loser in (("wood_compare", 1), ("wood_compare+wood_boost", 2)):
        state = started(3)
        rig(state, {1: "Troll", 2: "Mage", 3: "Elf"}, top=["Mage"])
        set_tokens(state, 1, gems=2)
        press(state, 1, "power", "discard:1", "claim:Wood Spirit", f"use:{combo}")
        everyone_passes(state)
        press(state, 1, "target:2")
        assert state.table.purses[loser].life == 1


def test_example_combat_marius_lies_unchallenged() -> None:
    """Marius, a Dwarf, claims the Elf against the Wyvern: unchallenged, 1 Glory and 2 Gems."""
    state = started(3)
    rig(state, {1: "Dwarf", 2: "Mage", 3: "Elf"})
    rig_monsters(state, ["Skeleton", "Wyvern"], top=["Golem"])
    press(state, 1, "combat", "fight:1", "claim:Elf")
    effects = everyone_passes(state)
    assert state.table.purses[1].glory == 1 and state.table.purses[1].gems == 2
    assert state.table.in_play == ["Skeleton", "Golem"] and "Dwarf" not in said(effects)
    assert state.phase == "knights"


def test_example_knight_copies_nacim_s_gems() -> None:
    """Nacim's Giant beats the Specter (3 Gems); Bebert's Knight copies them unchallenged."""
    state = giant_has_fought("Specter")
    assert state.table.purses[1].gems == 3
    press(state, 2, "knight")
    press(state, 3, "pass")
    assert state.phase == "challenge" and state.turn.claim.hero == "Knight"
    everyone_passes(state)
    assert state.table.purses[2].gems == 3 and state.table.purses[2].glory == 0
    assert state.active_seats() == {2}
