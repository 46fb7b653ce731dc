"""They Live engine: inspections, force- and self-reveals, deaths, the spare, every ending."""

from __future__ import annotations

from engine.api import GameOver, Reveal, Vibrate
from engine.games.they_live.cards import HUMAN, INVADER
from engine.games.they_live.force_reveal import Accusation
from engine.games.they_live.text import Outcome, identity_phrase, spare_phrase
from engine.games.they_live.turns import Turn, on_turn
from tests.test_they_live_support import (
    end_wave_turns,
    humans,
    invaders,
    kill,
    new_game,
    press,
    texts,
    to_turns,
)


def _to_vote(state, caller: int, accused: int) -> None:
    end_wave_turns(state)
    press(state, caller, "call")
    press(state, caller, f"accuse:{accused}")


def _vote(state, yes: set[int]):
    effects = []
    for seat in sorted(state.data_of(Accusation).vote.voters):
        effects += press(state, seat, "vote:yes" if seat in yes else "vote:no")
    return effects


# --------------------------------------------------------------------------- inspection


def test_inspect_only_critical_seats_are_offered() -> None:
    """Hoffman Lenses list only CRITICAL seats; none CRITICAL means no Inspect button."""
    state = new_game(4)
    to_turns(state, health=10, critical=3)
    me = on_turn(state)
    assert "inspect" not in [a.id for a in state.legal_actions(me)]
    target = next(s for s in state.seats if s != me)
    state.players[target].left = 3
    press(state, me, "inspect")
    assert [a.id for a in state.legal_actions(me)] == [f"inspect:{target}", "cancel"]


def test_inspect_result_only_on_the_inspectors_peek() -> None:
    """The identity appears on the inspector's PEEK face; the table hears only the inspection."""
    state = new_game(5)
    to_turns(state, health=10, critical=3)
    me = on_turn(state)
    target = next(s for s in state.seats if s != me)
    state.players[target].left = 2
    press(state, me, "inspect")
    effects = press(state, me, f"inspect:{target}")
    phrase = identity_phrase(target, state.identities[target])
    assert phrase in state.view(me, 0).secret.lines
    assert not any(phrase in t for t in texts(effects))
    assert texts(effects) == [f"Seat {me} inspects seat {target}: discard the Hoffman Lenses"]
    assert Vibrate(me, "long") in effects


# --------------------------------------------------------------------------- force-reveal


def test_force_reveal_human_hurts_yes_voters_and_locks() -> None:
    """A Human revealed: yes-voters drop to CRITICAL (3 damage at least); no more reveals."""
    state = new_game(5)
    to_turns(state, health=10, critical=3)
    accused = humans(state)[0]
    yes = {s for s in state.seats if s != accused}
    _to_vote(state, min(yes), accused)
    state.players[min(yes)].left = 5
    effects = _vote(state, yes)
    assert any(isinstance(e, Reveal) and identity_phrase(accused, HUMAN) in e.text
               for e in effects)
    assert state.players[min(yes)].left == 2
    assert all(state.players[s].left == 3 for s in yes - {min(yes)})
    assert state.players[accused].left == 10
    press(state, accused, "drawn")
    end_wave_turns(state)
    assert state.phase == "resources" and state.wave == 3


def test_force_reveal_invader_is_public_without_heal() -> None:
    """An Invader revealed stays at its health and is told it loses the ally."""
    state = new_game(5)
    to_turns(state, health=10, critical=3)
    accused = invaders(state)[0]
    state.players[accused].left = 6
    _to_vote(state, humans(state)[0], accused)
    effects = _vote(state, set(state.seats))
    assert state.players[accused].revealed and state.players[accused].left == 6
    assert any(f"Seat {accused}: no heal, no ally" in t for t in texts(effects))
    assert not state.force_locked


def test_force_reveal_needs_more_than_half_of_the_living() -> None:
    """Two yes of four living players is not enough; the accused stays hidden."""
    state = new_game(4)
    to_turns(state, health=10, critical=3)
    _to_vote(state, 1, 2)
    effects = _vote(state, {1, 3})
    assert not state.players[2].revealed
    assert "No reveal" in texts(effects)


def test_force_reveal_every_voter_sees_the_same_buttons() -> None:
    """All living seats vote at once with the same two buttons, the caller and accused too."""
    state = new_game(6)
    to_turns(state)
    _to_vote(state, 1, 4)
    lists = {tuple((a.id, a.label) for a in state.legal_actions(s)) for s in state.seats}
    assert lists == {(("vote:yes", "Yes: reveal"), ("vote:no", "No"))}


# --------------------------------------------------------------------------- self-reveal


def _self_reveal(state, seat: int):
    effects = []
    for action in ("reveal", "reveal2", "reveal3"):
        effects += press(state, seat, action)
    return effects


def test_self_reveal_heals_an_invader_fully_and_publicly() -> None:
    """Two confirmations, then a public reveal and a full heal."""
    state = new_game(3)
    to_turns(state, health=10, critical=3)
    bad = invaders(state)[0]
    state.data_of(Turn).seat = bad
    state.players[bad].left = 2
    effects = _self_reveal(state, bad)
    assert any(isinstance(e, Reveal) and identity_phrase(bad, INVADER) in e.text
               for e in effects)
    assert state.players[bad].left == 10 and state.players[bad].revealed


def test_self_reveal_cannot_happen_by_accident() -> None:
    """Pressing ACT repeatedly on the self-reveal menu only cancels."""
    state = new_game(3)
    to_turns(state)
    me = on_turn(state)
    press(state, me, "reveal")
    press(state, me, state.legal_actions(me)[0].id)
    assert not state.players[me].revealed and me not in state.menus


def test_self_reveal_by_a_human_ends_like_a_cancel() -> None:
    """A Human's "Sure?" has no effect at all, not even a private buzz: the menu closes as
    an Invader's Cancel closes it, and the table's Undo is the same after both."""
    state = new_game(3)
    to_turns(state)
    good = humans(state)[0]
    state.data_of(Turn).seat = good
    assert _self_reveal(state, good) == []
    assert not state.players[good].revealed and good not in state.menus
    press(state, good, "reveal")
    press(state, good, "reveal2")
    undoable = {a.id: a.undoable for a in state.legal_actions(good)}
    assert undoable == {"cancel": False, "reveal3": False}


# --------------------------------------------------------------------------- death and endings


def test_death_reveals_identity_and_the_spare_for_an_invader() -> None:
    """An Invader dying in a 4-player game reveals the identity and then the spare card."""
    state = new_game(4, seed_no=3)
    to_turns(state)
    bad = invaders(state)[0]
    reveals = [e.text for e in kill(state, bad) if isinstance(e, Reveal)]
    assert identity_phrase(bad, INVADER) in reveals[0]
    assert spare_phrase(state.spare) in reveals[1]
    assert not state.players[bad].alive and state.players[bad].areas == 0


def test_death_of_a_human_keeps_the_spare_hidden() -> None:
    """A Human's death reveals only that Human."""
    state = new_game(6)
    to_turns(state)
    reveals = [e.text for e in kill(state, humans(state)[0]) if isinstance(e, Reveal)]
    assert len(reveals) == 1 and not state.spare_revealed


def test_death_by_a_player_hands_the_killer_every_city_area() -> None:
    """The They Live rulebook: "If you are killed by another player, your killer takes all
    your cards - including your completed city locations". The dying seat names its killer
    (the seat on turn is offered first); the victim's 2 areas join the killer's 1."""
    state = new_game(5)
    to_turns(state)
    victim = next(s for s in humans(state) if s != on_turn(state))
    killer = on_turn(state)
    state.players[victim].areas, state.players[killer].areas = 2, 1
    while state.players[victim].left > 1:
        press(state, victim, "damage")
    press(state, victim, "damage")
    offered = [a.label for a in state.legal_actions(victim)]
    assert offered[:3] == ["Cancel", "By an enemy", f"By Seat {killer} "
                           f"{state.players[killer].character}"]
    said = texts(press(state, victim, f"die:{killer}"))
    assert f"Seat {killer} takes all seat {victim}'s cards and areas" in said
    assert state.players[killer].areas == 3 and state.players[victim].areas == 0


def test_death_by_an_enemy_shuffles_the_areas_back() -> None:
    """The They Live rulebook: "If you are killed by an enemy card, the cards in your hand,
    and any locations you have captured, are shuffled back into the War Table deck"."""
    state = new_game(5)
    to_turns(state)
    victim = humans(state)[0]
    state.players[victim].areas = 2
    said = texts(kill(state, victim))
    assert f"Shuffle seat {victim}'s cards and areas into the deck" in said
    assert sum(p.areas for p in state.players.values()) == 0


def test_death_by_an_invader_taking_the_areas_can_win_the_city() -> None:
    """The victim's areas count for the killer at once: an Invader who reaches as many areas
    as there are players by the kill wins the city for the Invaders."""
    state = new_game(4, seed_no=1)
    to_turns(state)
    killer, victim = invaders(state)[0], humans(state)[0]
    state.players[killer].areas, state.players[victim].areas = 2, 2
    kill(state, victim, by=killer)
    assert state.result() == Outcome.INVADERS_WIN_CITY


def test_kill_heals_a_revealed_invader_and_a_human_among_several_invaders() -> None:
    """The They Live rulebook: "When a revealed Invader player kills a Human player, they heal
    2 points of damage. If you're playing a game with multiple Invaders, the Human player heals
    2 damage when they kill an Invader." A hidden Invader's kill heals nothing."""
    state = new_game(5, seed_no=2)
    to_turns(state)
    bad, good = invaders(state), humans(state)
    for seat in (bad[0], good[0]):
        for _ in range(5):
            press(state, seat, "damage")
    before = state.players[bad[0]].left
    said = texts(kill(state, good[1], by=bad[0]))
    assert state.players[bad[0]].left == before and not any("heals 2" in t for t in said)
    state.players[bad[0]].revealed = True
    said = texts(kill(state, good[2], by=bad[0]))
    assert state.players[bad[0]].left == before + 2
    assert f"Seat {bad[0]} heals 2 for the kill" in said
    before = state.players[good[0]].left
    kill(state, bad[1], by=good[0])
    assert state.players[good[0]].left == before + 2


def test_kill_of_the_only_invader_in_play_heals_nobody() -> None:
    """With one Invader in play (a 4-player game whose spare is the other), a Human's kill of
    that Invader is not a game "with multiple Invaders": no heal."""
    seed_no = next(n for n in range(40) if new_game(4, seed_no=n).spare == INVADER)
    state = new_game(4, seed_no=seed_no)
    to_turns(state)
    good = humans(state)[0]
    press(state, good, "damage")
    before = state.players[good].left
    said = texts(kill(state, invaders(state)[0], by=good))
    assert state.players[good].left == before and not any("heals 2" in t for t in said)


def test_ending_humans_win_when_every_invader_in_play_dies() -> None:
    """Killing each Invader in play ends the game for the Humans, whatever the spare."""
    for seed_no in range(4):
        state = new_game(6, seed_no=seed_no)
        to_turns(state)
        effects = [e for seat in invaders(state) for e in kill(state, seat)]
        assert GameOver(Outcome.HUMANS_WIN) in effects and state.result() == Outcome.HUMANS_WIN


def test_ending_invaders_win_when_every_human_dies() -> None:
    """The last Human's death hands the game to the Invaders and reveals everyone: a
    notice for each side, so each fits one screen."""
    state = new_game(5)
    to_turns(state)
    effects = [e for seat in humans(state) for e in kill(state, seat)]
    assert state.result() == Outcome.INVADERS_WIN_KILLS
    end = next(i for i, e in enumerate(effects) if isinstance(e, GameOver))
    sides = [e.text for e in effects[end:] if isinstance(e, Reveal)]
    assert len(sides) == 2 and sides[0].count("Invader") >= 1 and "Human" not in sides[0]
    everyone = " ".join(sides)
    assert all(identity_phrase(s, state.identities[s]) in everyone for s in state.seats)


def test_ending_invaders_win_holding_as_many_areas_as_players() -> None:
    """In a 4-player game the Invaders' fourth city area together wins."""
    state = new_game(4, seed_no=1)
    to_turns(state)
    bad = invaders(state)
    for seat in bad:
        state.players[seat].areas = 1
    state.players[bad[0]].areas = 4 - len(bad)
    state.data_of(Turn).seat = bad[0]
    assert state.phase == "turns"
    assert GameOver(Outcome.INVADERS_WIN_CITY) in press(state, bad[0], "area")


def test_ending_human_areas_never_win() -> None:
    """A Human holding every area does not win the city for anyone."""
    state = new_game(3)
    to_turns(state)
    good = humans(state)[0]
    state.data_of(Turn).seat = good
    for _ in range(6):
        press(state, good, "area")
    assert not state.is_terminal()


def test_ending_whole_game_with_force_penalty_deaths() -> None:
    """A failed reveal that kills low yes-voters can end the game in the Invaders' favour."""
    state = new_game(3)
    to_turns(state, health=10, critical=3)
    good = humans(state)
    bad = invaders(state)[0]
    for seat in good:
        state.players[seat].left = 3
    _to_vote(state, bad, good[0])
    effects = _vote(state, set(good) | {bad})
    assert state.result() == Outcome.INVADERS_WIN_KILLS
    assert GameOver(Outcome.INVADERS_WIN_KILLS) in effects
