"""Heroes Love to Lie through the engine: setup, out-of-turn claims, powers, the end."""

from __future__ import annotations

import pytest

from engine.api import GameOver, Reveal, Vibrate
from engine.exc import IllegalAction, SetupError
from engine.games.heroes.cards import HEROES, MONSTERS, monster_entries
from engine.games.heroes.state import HeroesState

from .test_heroes_support import (
    everyone_passes,
    giant_has_fought,
    ids,
    new_game,
    press,
    rig,
    rig_monsters,
    said,
    set_tokens,
    started,
    view_text,
)

# --- setup ------------------------------------------------------------------------------------


def test_data_lists_the_nineteen_heroes_and_eleven_monsters() -> None:
    """The box: 19 Heroes with strengths 0 to 9, 11 Monsters, unstated values unknown."""
    assert sum(h.count for h in HEROES.values()) == 19
    assert sorted(h.strength for h in HEROES.values()) == list(range(10))
    assert sum(m.count for m in MONSTERS.values()) == 11
    assert MONSTERS["Skeleton"].strength == 5 and MONSTERS["Wyvern"].gems == 2
    assert MONSTERS["Specter"].gems == 3 and MONSTERS["Dragon"].strength is None
    # The examples bound what is not printed: the Elf (6) fights the Wyvern, so it is 6.
    assert MONSTERS["Wyvern"].strength == 6 and MONSTERS["Specter"].most == 8


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_deals_one_hero_each_and_sets_one_aside(players: int) -> None:
    """Each seat holds one Hero, one is set aside and the rest form the pile."""
    table = new_game(players).table
    assert all(len(table.hand(s)) == 1 for s in table.order)
    assert len(table.heroes.aside) == 1
    assert len(table.heroes.cards) == 19 - players - 1


def test_setup_two_players_get_three_life_and_one_monster() -> None:
    """The two-player exceptions: 3 Life Points each and a single Monster in play."""
    two, three = new_game(2).table, new_game(3).table
    assert [p.life for p in two.purses.values()] == [3, 3] and len(two.in_play) == 1
    assert [p.life for p in three.purses.values()] == [2, 2, 2] and len(three.in_play) == 2


def test_setup_rejects_one_and_six_players() -> None:
    """Heroes Love to Lie is for 2 to 5 players."""
    for players in (1, 6):
        with pytest.raises(SetupError):
            new_game(players)


def test_setup_monster_values_start_from_what_the_card_data_allows() -> None:
    """The first seat reads unknown values off the cards: "?" until +1, which shows the least
    the data allows (every Monster but the Skeleton is stronger than the Troll's 5); no
    "usual" value is offered, and -1 cannot go below that least."""
    state = new_game(3, monster_values="enter")
    assert state.view(1, 0.0).big == "?" and state.view(1, 0.0).lines == ("Dragon strength",)
    assert ids(state, 1) == ["plus", "ok"] and state.active_seats() == {1}
    assert [a.label for a in state.legal_actions(1)][-1] == "Keep unknown"
    press(state, 1, "plus")
    assert state.view(1, 0.0).big == "6" and ids(state, 1) == ["plus", "ok"]  # no -1 below 6
    press(state, 1, "plus")
    assert ids(state, 1) == ["plus", "ok", "minus"]
    press(state, 1, "minus")
    assert state.view(1, 0.0).big == "6"
    press(state, 1, "plus", "plus", "plus")
    press(state, 1, "ok")  # Dragon strength 9
    assert state.view(1, 0.0).lines == ("Dragon Gems",)
    assert ids(state, 1) == ["plus", "plus:5", "ok"]  # Gems count up in fives too
    press(state, 1, "plus")
    assert state.view(1, 0.0).big == "0"
    press(state, 1, "plus:5", "plus:5")
    assert state.view(1, 0.0).big == "10"
    press(state, 1, *["plus:5"] * 9)
    assert state.view(1, 0.0).big == "30"  # the box holds 30 Gems
    press(state, 1, "minus", "ok")
    assert state.table.strengths["Dragon"] == 9 and state.table.loot["Dragon"] == 29
    assert state.view(1, 0.0).lines == ("Golem strength",)


def test_setup_known_monster_values_are_not_asked_again() -> None:
    """Values the table entered before (even "left unknown") skip the entry, unless the card
    data does not allow them (a strength 5 once taken as a "usual" value is asked again);
    the first seat may change them from "Who lies best?", each showing the value in use."""
    from engine.known import as_options

    names = [e.key for e in monster_entries()]
    known = as_options({name: 6 for name in names} | {"gems:Dragon": None})
    state = new_game(3, monster_values="enter", **known)
    assert state.phase == "who_starts"
    assert state.table.strengths["Dragon"] == 6 and state.table.loot["Dragon"] is None
    assert ids(state, 1) == ["start", "change"] and ids(state, 2) == ["start"]
    press(state, 1, "change")
    assert state.view(1, 0.0).big == "6" and ids(state, 1)[-1] == "ok"
    press(state, 1, "ok", "ok")  # the Dragon's strength kept; its Gems, "?", still unknown
    assert state.view(1, 0.0).lines == ("Golem strength",)
    press(state, 1, *["ok"] * (len(names) - 2))
    assert state.phase == "who_starts" and state.table.loot["Dragon"] is None

    invented = as_options({name: 6 for name in names} | {"strength:Golem": 5})
    state = new_game(3, monster_values="enter", **invented)
    assert state.phase == "monster_values" and state.view(1, 0.0).lines == ("Golem strength",)
    assert state.view(1, 0.0).big == "?"


def test_troll_can_only_fight_the_skeleton() -> None:
    """The rulebook: "The Troll (strength 5) can only fight the Skeleton (strength 5)", so a
    COMBAT claim never offers the Troll against another Monster, whatever its strength."""
    from engine.known import as_options

    names = [e.key for e in monster_entries()]
    state = new_game(3, **as_options({name: 6 for name in names}), monster_values="enter")
    press(state, 1, "start")
    rig_monsters(state, ["Golem", "Skeleton"])
    press(state, 1, "combat", "fight:0")
    assert "claim:Troll" not in ids(state, 1) and "claim:Elf" in ids(state, 1)
    press(state, 1, "back", "combat", "fight:1")
    assert "claim:Troll" in ids(state, 1) and "claim:Goblin" not in ids(state, 1)


def test_setup_best_liar_starts_the_game() -> None:
    """Every seat may press to start; whoever does takes the first turn."""
    state = new_game(4)
    assert state.active_seats() == {1, 2, 3, 4}
    press(state, 3, "start")
    assert state.active_seats() == {3} and ids(state, 3)[0] == "power"


# --- challenges out of turn -------------------------------------------------------------------


def test_knight_claim_caught_costs_a_life_and_no_gems() -> None:
    """A false Knight, challenged, loses a Life Point and copies nothing."""
    state = giant_has_fought("Wyvern")
    press(state, 2, "knight")
    press(state, 3, "pass")
    effects = press(state, 1, "challenge")
    assert state.table.purses[2].life == 1 and state.table.purses[2].gems == 0
    assert "Troll" not in said(effects)


def test_true_knight_challenged_is_replaced_and_still_copies() -> None:
    """A real Knight shows the card, copies the Gems and draws anew; the challenger pays."""
    state = started(3)
    rig(state, {1: "Giant", 2: "Knight", 3: "Elf"}, top=["Bard"])
    rig_monsters(state, ["Wyvern", "Skeleton"])
    press(state, 1, "combat", "fight:0", "claim:Giant")
    everyone_passes(state)
    press(state, 2, "knight")
    press(state, 3, "pass")
    press(state, 3, "challenge")
    assert state.table.purses[3].life == 1 and state.table.purses[2].gems == 2
    assert state.table.hand(2) == ["Bard"]


def goblin_aims_at_seat_2() -> HeroesState:
    """Seat 1 claims the Goblin unchallenged and aims its theft at seat 2 (2 Gems)."""
    state = started(3)
    rig(state, {1: "Goblin", 2: "Troll", 3: "Elf"}, top=["Dwarf"])
    set_tokens(state, 2, gems=2)
    press(state, 1, "power", "discard:1", "claim:Goblin", "use:goblin_steal")
    everyone_passes(state)
    press(state, 1, "target:2")
    return state


def test_giant_cancels_a_goblin_theft() -> None:
    """The target announces the Giant; unchallenged, the Gem stays where it is."""
    state = goblin_aims_at_seat_2()
    assert state.active_seats() == {2} and ids(state, 2) == ["allow", "giant"]
    press(state, 2, "giant")
    assert state.active_seats() == {1, 3}
    everyone_passes(state)
    assert state.table.purses[2].gems == 2 and state.table.purses[1].gems == 0


def test_false_giant_caught_loses_a_life_and_the_theft_happens() -> None:
    """A challenged false Giant loses a Life Point and the Goblin still steals."""
    state = goblin_aims_at_seat_2()
    press(state, 2, "giant")
    press(state, 1, "challenge")
    assert state.table.purses[2].life == 1
    assert state.table.purses[2].gems == 1 and state.table.purses[1].gems == 1


def test_challenge_window_closes_at_its_deadline() -> None:
    """Nobody answers in 10 seconds: the claim stands as if everyone let it pass."""
    state = started(3)
    rig(state, {1: "Troll", 2: "Mage", 3: "Elf"}, top=["Knight"])
    press(state, 1, "power", "discard:1", "claim:Dwarf", "use:dwarf_gems", now=5.0)
    assert state.next_deadline() == 15.0 and state.advance(14.9) == []
    state.advance(15.0)
    assert state.table.purses[1].gems == 2 and state.active_seats() == {2}


def test_challenge_window_pause_keeps_the_time_left() -> None:
    """A pause freezes the window; after resuming, the seconds left still count."""
    state = started(3)
    rig(state, {1: "Troll", 2: "Mage", 3: "Elf"}, top=["Knight"])
    press(state, 1, "power", "discard:1", "claim:Dwarf", "use:dwarf_gems", now=0.0)
    state.apply(None, "pause", 4.0)
    assert state.next_deadline() is None and state.view(2, 50.0).hourglass.remaining == 6.0
    state.apply(None, "resume", 100.0)
    assert state.next_deadline() == 106.0


def test_challenge_window_without_limit_waits_for_everyone() -> None:
    """With "no limit" the window has no deadline and ends once every seat has passed."""
    state = started(3, challenge_time="no limit")
    rig(state, {1: "Troll", 2: "Mage", 3: "Elf"}, top=["Knight"])
    press(state, 1, "power", "discard:1", "claim:Dwarf", "use:dwarf_gems")
    assert state.next_deadline() is None
    press(state, 2, "pass")
    assert state.active_seats() == {3}
    press(state, 3, "pass")
    assert state.table.purses[1].gems == 2


def test_claims_offered_do_not_depend_on_the_card_held() -> None:
    """A liar and a truthful player see exactly the same choices at every step."""
    menus = []
    for held in ("Bard", "Knight"):
        state = started(3)
        rig(state, {1: held, 2: "Mage", 3: "Elf"}, top=["Troll"])
        set_tokens(state, 1, gems=4, glory=2)
        seen = [ids(state, 1)]
        for action in ("power", "discard:1", "page"):
            press(state, 1, action)
            seen.append(ids(state, 1))
        menus.append(seen)
    assert menus[0] == menus[1]


# --- powers -----------------------------------------------------------------------------------


def test_mage_sees_a_hero_only_on_the_mage_peek_face() -> None:
    """The Mage's PEEK face names the card; no other screen does; it goes when it changes."""
    state = started(3)
    rig(state, {1: "Mage", 2: "Knight", 3: "Elf"}, top=["Bard", "Dwarf"])
    press(state, 1, "power", "discard:1", "claim:Mage", "use:mage_peek")
    everyone_passes(state)
    effects = press(state, 1, "target:2")
    assert Vibrate(1, "long") in effects and "Knight" not in said(effects)
    assert "Seat 2 is Knight" in state.view(1, 0.0).secret.lines
    assert "Knight" not in view_text(state, 3) + view_text(state, None)
    press(state, 2, "power", "discard:0")
    assert "Seat 2 is Knight" not in view_text(state, 1)


def test_bard_reshuffles_the_face_down_discards_and_set_aside_card_only() -> None:
    """The Heroes Love to Lie rulebook, the Bard: "Shuffle all the face-down discarded Hero
    cards together with the set-aside card to form the new draw pile. Do not forget to set
    aside a new Hero card." The cards stashed face down onto the set-aside card (the Bard's
    other power) go in with it; the face-up discards stay where they are."""
    state = started(3)
    rig(state, {1: "Bard", 2: "Mage", 3: "Elf"}, top=["Dwarf"], aside="Giant")
    heroes = state.table.heroes
    heroes.cards.remove("Knight")
    heroes.aside.append("Knight")  # stashed face down by an earlier Bard
    heroes.cards.remove("Troll")
    heroes.discards.append("Troll")  # discarded face up by an earlier POWER
    pile = len(heroes.cards)
    press(state, 1, "power", "discard:1", "claim:Bard", "use:bard_reshuffle")
    everyone_passes(state)
    assert heroes.discards == ["Troll", "Dwarf"]
    assert len(heroes.aside) == 1 and len(heroes.cards) == pile - 1 + 2 - 1
    assert {"Giant", "Knight"} <= {*heroes.cards, *heroes.aside}


def test_bard_stashes_the_held_card_onto_the_set_aside_card() -> None:
    """The Bard's card goes face down with the set-aside card and a new Hero is drawn."""
    state = started(3)
    rig(state, {1: "Bard", 2: "Mage", 3: "Elf"}, top=["Dwarf", "Knight"], aside="Giant")
    set_tokens(state, 1, gems=2)
    press(state, 1, "power", "discard:1", "claim:Bard", "use:bard_stash")
    everyone_passes(state)
    assert state.table.heroes.aside == ["Giant", "Bard"] and state.table.hand(1) == ["Knight"]
    assert state.table.purses[1].gems == 0


def test_empty_pile_reshuffles_discards_with_the_set_aside_card() -> None:
    """The last card drawn empties the pile; the next draw rebuilds it and sets one aside."""
    state = started(3)
    rig(state, {1: "Troll", 2: "Mage", 3: "Elf"}, top=["Dwarf"], aside="Giant")
    table = state.table
    table.heroes.discards, table.heroes.cards = table.heroes.cards[:-1], ["Dwarf"]
    press(state, 1, "power", "discard:1", "claim:Dwarf", "use:dwarf_gems")
    everyone_passes(state)
    press(state, 2, "power")
    assert len(table.heroes.aside) == 1 and table.heroes.discards == []
    assert len(table.heroes.cards) == 19 - 4 - 1


def test_troll_renews_then_fights_the_skeleton() -> None:
    """Renew a Monster, then fight the Skeleton: 1 Glory and 1 Gem, and the Knights may copy."""
    state = started(3)
    rig(state, {1: "Troll", 2: "Mage", 3: "Elf"}, top=["Dwarf"])
    rig_monsters(state, ["Dragon", "Golem"], top=["Skeleton", "Wyvern"])
    set_tokens(state, 1, gems=1)
    press(state, 1, "power", "discard:1", "claim:Troll", "use:troll_renew+troll_fight")
    everyone_passes(state)
    press(state, 1, "renew:1")
    purse = state.table.purses[1]
    assert (purse.glory, purse.gems) == (1, 1) and state.table.in_play == ["Dragon", "Wyvern"]
    assert state.phase == "knights"


def test_troll_without_a_skeleton_still_pays_the_gem() -> None:
    """No Skeleton in play: the Gem is paid and nothing is fought."""
    state = started(3)
    rig(state, {1: "Troll", 2: "Mage", 3: "Elf"}, top=["Dwarf"])
    rig_monsters(state, ["Dragon", "Golem"])
    set_tokens(state, 1, gems=1)
    press(state, 1, "power", "discard:1", "claim:Troll", "use:troll_fight")
    everyone_passes(state)
    assert state.table.purses[1].gems == 0 and state.table.purses[1].glory == 0
    assert state.active_seats() == {2}


def test_elf_swaps_gems_and_trades_glory_for_life() -> None:
    """The Elf exchanges Gems with a seat, then pays 2 Glory for a Life Point."""
    state = started(3)
    rig(state, {1: "Elf", 2: "Mage", 3: "Troll"}, top=["Dwarf"])
    set_tokens(state, 1, gems=1, glory=2, life=1)
    set_tokens(state, 2, gems=5)
    press(state, 1, "power", "discard:1", "claim:Elf", "use:elf_swap+elf_life")
    everyone_passes(state)
    press(state, 1, "target:2")
    press(state, 2, "allow")
    purse = state.table.purses[1]
    assert (purse.gems, purse.glory, purse.life) == (5, 0, 2)
    assert state.table.purses[2].gems == 1


def test_elf_caught_lying_loses_the_two_glory() -> None:
    """"If you lie and are challenged, you risk losing your 2 Glory"."""
    state = started(3)
    rig(state, {1: "Troll", 2: "Mage", 3: "Elf"}, top=["Dwarf"])
    set_tokens(state, 1, glory=3)
    press(state, 1, "power", "discard:1", "claim:Elf", "use:elf_life")
    press(state, 3, "challenge")
    assert state.table.purses[1].glory == 1 and state.table.purses[1].life == 1


def test_dwarf_life_needs_six_gems_before_the_first_power() -> None:
    """Both Dwarf powers need 6 Gems already owned; with 5 only "Gain 2 Gems" is offered."""
    state = started(3)
    rig(state, {1: "Dwarf", 2: "Mage", 3: "Elf"}, top=["Troll"])
    set_tokens(state, 1, gems=5, life=1)
    press(state, 1, "power", "discard:1", "claim:Dwarf")
    assert ids(state, 1) == ["use:dwarf_gems", "back"]
    set_tokens(state, 1, gems=6)
    assert ids(state, 1) == ["use:dwarf_gems", "use:dwarf_life", "use:dwarf_gems+dwarf_life",
                             "back"]
    press(state, 1, "use:dwarf_gems+dwarf_life")
    everyone_passes(state)
    purse = state.table.purses[1]
    assert (purse.gems, purse.life) == (2, 2)


def test_life_reserve_can_run_dry_with_five_players() -> None:
    """Five players hold all 10 Life Points: a Dwarf's Life has none to take."""
    state = started(5)
    rig(state, {1: "Dwarf"}, top=["Troll"])
    set_tokens(state, 1, gems=6)
    press(state, 1, "power", "discard:1", "claim:Dwarf", "use:dwarf_life")
    effects = everyone_passes(state)
    assert state.table.purses[1].life == 2 and "No Life Point" in said(effects)


def test_unmasking_costs_six_gems_and_replaces_the_hero() -> None:
    """A right guess costs the target a Life Point and a new Hero; a wrong one costs nobody."""
    state = started(3)
    rig(state, {1: "Troll", 2: "Mage", 3: "Elf"}, top=["Bard"])
    set_tokens(state, 1, gems=7)
    effects = press(state, 1, "unmask", "target:3", "guess:Elf")
    assert "Seat 3 shows the Elf" in said(effects) and state.table.hand(3) == ["Bard"]
    assert state.table.purses[1].gems == 1 and state.table.purses[3].life == 1
    assert "unmask" not in ids(state, 2)


def test_unmasking_can_be_called_off_before_naming_a_hero() -> None:
    """Choosing a target and going back costs nothing."""
    state = started(3)
    set_tokens(state, 1, gems=6)
    press(state, 1, "unmask", "target:2", "back", "back")
    assert ids(state, 1)[0] == "power" and state.table.purses[1].gems == 6


def test_combat_claim_must_match_the_monster_strength() -> None:
    """Against the Skeleton (5) only Heroes of strength 5 or more may be claimed."""
    state = started(3)
    rig_monsters(state, ["Skeleton", "Dragon"])
    press(state, 1, "combat", "fight:0")
    assert ids(state, 1) == ["claim:Troll", "claim:Elf", "claim:Mage", "claim:Giant",
                             "claim:Knight", "back"]


def test_combat_against_an_unknown_strength_needs_more_than_the_troll() -> None:
    """The Heroes Love to Lie rulebook: "The Troll (strength 5) can only fight the Skeleton
    (strength 5)", so a Monster whose strength is left unknown is stronger than 5: against the
    Dragon no Bard (0) is offered, and the Elf (6) may still fight the Wyvern, as Marius does
    ("I am the Elf and I am fighting the Wyvern")."""
    state = started(3)
    rig_monsters(state, ["Dragon", "Wyvern"])
    assert state.table.strengths["Dragon"] is None
    press(state, 1, "combat", "fight:0")
    assert ids(state, 1) == ["claim:Elf", "claim:Mage", "claim:Giant", "claim:Knight", "back"]
    press(state, 1, "back", "combat", "fight:1")
    assert ids(state, 1)[0] == "claim:Elf"


def test_unknown_loot_is_read_off_the_card_when_won() -> None:
    """The Skeleton's Gems are not in the rulebook: the fighter enters them once."""
    state = started(3)
    rig(state, {1: "Troll", 2: "Mage", 3: "Elf"})
    rig_monsters(state, ["Skeleton", "Dragon"], top=["Skeleton"])
    press(state, 1, "combat", "fight:0", "claim:Troll")
    everyone_passes(state)
    assert state.view(1, 0.0).big == "?" and ids(state, 1) == ["plus", "plus:5"]
    press(state, 1, "plus", "plus", "ok")  # the first +1 shows 0, the least
    assert state.table.purses[1].gems == 1 and state.table.loot["Skeleton"] == 1


# --- the end ----------------------------------------------------------------------------------


def test_end_four_glory_wins_at_once() -> None:
    """The fourth Glory ends the game before any Knight may speak."""
    state = started(3)
    rig(state, {1: "Giant", 2: "Mage", 3: "Elf"})
    rig_monsters(state, ["Wyvern", "Skeleton"])
    set_tokens(state, 1, glory=3)
    press(state, 1, "combat", "fight:0", "claim:Giant")
    effects = everyone_passes(state)
    assert state.is_terminal() and state.result() == "Seat 1 wins: 4 Glory"
    assert GameOver("Seat 1 wins: 4 Glory") in effects
    assert state.view(1, 0.0).banner == "YOU WIN" and state.view(2, 0.0).banner == "GAME OVER"


def test_end_last_seat_with_life_wins() -> None:
    """A wrong challenge that takes the last Life Point of the other seat ends the game."""
    state = started(2)
    rig(state, {1: "Dwarf", 2: "Mage"}, top=["Troll"])
    set_tokens(state, 2, life=1)
    press(state, 1, "power", "discard:1", "claim:Dwarf", "use:dwarf_gems")
    press(state, 2, "challenge")
    assert state.is_terminal() and state.result() == "Seat 1 wins: last one standing"
    with pytest.raises(IllegalAction):
        state.apply(1, "power", 0.0)


def test_eliminated_seat_is_skipped_and_holds_no_card() -> None:
    """A seat at 0 Life Points is out: its card is discarded and its turn never comes."""
    state = started(3)
    rig(state, {1: "Giant", 2: "Mage", 3: "Elf"}, top=["Troll"])
    set_tokens(state, 1, gems=6)
    set_tokens(state, 2, life=1)
    press(state, 1, "power", "discard:1", "claim:Giant", "use:giant_wound")
    everyone_passes(state)
    press(state, 1, "target:2")
    assert state.table.hand(2) == [] and state.active_seats() == {3}
    assert state.view(2, 0.0).banner == "OUT" and state.legal_actions(2) == []
    assert "Mage" not in said(press(state, 3, "power"))
    press(state, 3, "discard:1", "claim:Dwarf", "use:dwarf_gems")
    assert state.view(2, 0.0).lines == ("Seat 3: Dwarf?",) and state.active_seats() == {1}


def test_knight_steals_the_winning_glory() -> None:
    """Stealing a Glory can be the fourth one."""
    state = started(3)
    rig(state, {1: "Knight", 2: "Mage", 3: "Elf"}, top=["Troll"])
    set_tokens(state, 1, gems=5, glory=3)
    set_tokens(state, 2, glory=1)
    press(state, 1, "power", "discard:1", "claim:Knight", "use:knight_glory")
    everyone_passes(state)
    press(state, 1, "target:2")
    assert state.result() == "Seat 1 wins: 4 Glory"


def test_discard_reveal_names_only_the_discarded_card() -> None:
    """Discarding face up tells the table that card, never the one kept."""
    state = started(3)
    rig(state, {1: "Troll", 2: "Mage", 3: "Elf"}, top=["Dwarf"])
    effects = press(state, 1, "power", "discard:0")
    reveals = [e.text for e in effects if isinstance(e, Reveal)]
    assert reveals == ["Seat 1 discards the Troll (5)."]
    assert "Dwarf" in state.view(1, 0.0).secret.lines[0]
