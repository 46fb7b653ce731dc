"""They Live engine: setup, the Invader check, waves, turn order, the die and the Preacher."""

from __future__ import annotations

import pytest

from engine.api import Buzz, Narrate
from engine.exc import SetupError
from engine.games.they_live.cards import INVADER
from engine.games.they_live.check import NARRATED, SILENT
from engine.games.they_live.text import identity_phrase
from engine.games.they_live.turns import begin_wave, on_turn
from tests.test_they_live_support import (
    GAME,
    end_wave_turns,
    enter,
    humans,
    invaders,
    kill,
    new_game,
    pick_and_enter,
    press,
    texts,
    to_first_wave,
    to_turns,
)

# --------------------------------------------------------------------------- setup


def test_setup_rejects_two_and_seven_players() -> None:
    """They Live is for 3 to 6 players."""
    for seats in ([1, 2], list(range(1, 8))):
        with pytest.raises(SetupError):
            GAME.new_state(seats, {}, b"s" * 32)


def test_setup_a_taken_character_cannot_be_picked_again() -> None:
    """Once seat 1 is Dixon, Dixon is gone from every other seat's list."""
    state = new_game(3)
    press(state, 1, "pick:Dixon")
    assert "pick:Dixon" not in [a.id for a in state.legal_actions(2)]


def test_setup_asks_only_for_values_the_rulebook_does_not_give() -> None:
    """Frank (15 health known) is asked only for CRITICAL; Dixon only for health. The hand
    limit is printed on the card and no rule of the companion's needs it: never asked."""
    state = new_game(3)
    for seat, name in ((1, "Frank"), (2, "Dixon"), (3, "Billy")):
        press(state, seat, f"pick:{name}")
    assert [e.key for e in state.value_entries[1]] == ["critical"]
    assert [e.key for e in state.value_entries[2]] == ["health"]


def test_setup_entered_value_starts_from_the_least_the_card_allows() -> None:
    """The value reads '?' until the seat presses; no usual value is offered (the rulebook
    gives only Frank's health), the first +1 shows 1, and +5 counts a health up in fives."""
    state = new_game(3)
    for seat, name in ((1, "Frank"), (2, "Dixon"), (3, "Billy")):
        press(state, seat, f"pick:{name}")
    assert state.view(2, 0).big == "?"
    assert [a.label for a in state.legal_actions(2)] == ["+5", "+1"]
    press(state, 2, "+1")
    assert state.view(2, 0).big == "1"
    assert [a.label for a in state.legal_actions(2)] == ["+5", "+1", "OK"]  # no -1 below 1
    for action in ("+1:5", "+1:5", "+1:5", "-1", "ok"):  # 6, 11, 16, then 15
        press(state, 2, action)
    assert state.players[2].max_health == 15


def test_setup_critical_stays_below_the_entered_health() -> None:
    """A CRITICAL value cannot reach the health entered a moment before."""
    state = new_game(3)
    pick_and_enter(state, names=["Nada", "Holly", "Jack"], health=5, critical=9)
    assert all(p.critical == 4 and p.max_health == 5 for p in state.players.values())


def test_setup_three_players_skip_the_invader_check() -> None:
    """With 3 players the first wave starts as soon as everyone has seen the identity."""
    state = new_game(3)
    pick_and_enter(state)
    for seat in state.seats:
        press(state, seat, "done")
    assert state.phase == "resources" and state.wave == 1


# --------------------------------------------------------------------------- Invader check


def _start_check(mode: str, players: int = 5):
    state = new_game(players, check=mode)
    pick_and_enter(state)
    effects = []
    for seat in state.seats:
        effects = press(state, seat, "done", now=100.0)
    return state, effects


def test_check_narrated_reads_the_four_steps_with_cues() -> None:
    """'Everyone hide', 'Invaders wake', 'Invaders hide', 'Everyone wake', each with a buzz."""
    state, effects = _start_check("narrated")
    heard = list(effects)
    while state.phase == "check":
        heard += state.advance(state.next_deadline())
    spoken = [e.text for e in heard if isinstance(e, Narrate)]
    assert spoken[:4] == [step.text for step in NARRATED.steps]
    assert [e.tune for e in heard if isinstance(e, Buzz)][:4] == [s.tune for s in NARRATED.steps]
    assert state.phase == "resources"


def test_check_steps_keep_their_timing_and_nobody_can_act() -> None:
    """Each step changes at its scripted time; no seat has a button meanwhile."""
    state, _ = _start_check("narrated")
    assert state.next_deadline() == 100.0 + NARRATED.steps[0].seconds
    assert state.active_seats() == frozenset()
    assert state.advance(100.0 + NARRATED.steps[0].seconds - 0.01) == []


def test_check_pause_holds_the_script() -> None:
    """A pause mid-check delays every later step by the length of the pause."""
    state, _ = _start_check("narrated")
    state.apply(None, "pause", 101.0)
    assert state.next_deadline() is None
    state.apply(None, "resume", 131.0)
    assert state.next_deadline() == 130.0 + NARRATED.steps[0].seconds


def test_check_silent_faces_differ_only_in_words() -> None:
    """While all hold PEEK an Invader sees the others; a Human a neutral face of the same shape."""
    state, _ = _start_check("silent", players=6)
    state.advance(100.0 + SILENT.steps[0].seconds)
    publics = {(state.view(seat, 106.0).title, state.view(seat, 106.0).lines)
               for seat in state.seats}
    assert len(publics) == 1
    faces = {seat: state.view(seat, 106.0).secret for seat in state.seats}
    assert len({(f.title, len(f.lines)) for f in faces.values()}) == 1
    bad = invaders(state)
    for seat in bad:
        others = [identity_phrase(s, INVADER) for s in bad if s != seat]
        assert all(line in faces[seat].lines for line in others)
    human = next(s for s in state.seats if s not in bad)
    assert not any(INVADER in line for line in faces[human].lines)


def test_check_silent_every_seat_hears_the_same() -> None:
    """The silent check's effects are the same buzz and text whoever is an Invader."""
    heard = []
    for seed_no in range(3):
        state = new_game(4, seed_no=seed_no, check="silent")
        pick_and_enter(state)
        effects = [e for seat in state.seats for e in press(state, seat, "done")]
        while state.phase == "check":
            effects += state.advance(state.next_deadline())
        heard.append(effects)
    assert heard[0] == heard[1] == heard[2]


# --------------------------------------------------------------------------- waves


def test_wave_draws_two_cards_per_player() -> None:
    """A 5-player wave asks for 10 cards."""
    state = new_game(5)
    to_first_wave(state)
    assert "draw 10" in state.view(1, 0).lines[0].lower()


def test_wave_after_a_death_draws_two_cards_per_living_player() -> None:
    """The They Live rulebook: "draw War Table cards equal to 2 x the number of players" and
    "When the last player takes their turn, there will only be 2 cards left in the middle".
    Five players with one dead take four turns, so the next wave draws 8, not 10."""
    state = new_game(5)
    to_turns(state)
    kill(state, humans(state)[0])
    end_wave_turns(state)
    said: list[str] = []
    while state.phase == "force":
        said += texts(press(state, next(iter(state.active_seats())), "pass"))
    assert state.wave == 2
    assert "Wave 2: draw 8 cards" in said
    assert state.view(None, 0).lines[0] == "Draw 8 cards"


def test_wave_enemy_goes_back_at_a_random_depth_in_waves_one_to_three() -> None:
    """'Enemy drawn' names a depth below the top card; from wave 4 the button is gone."""
    state = new_game(3)
    to_first_wave(state)
    depths = set()
    for _ in range(40):
        said = texts(press(state, 1, "enemy"))[0]
        depths.add(int(said.split("back ")[1].split(" ")[0]))
    assert min(depths) >= 1 and len(depths) > 20
    for _ in range(3):
        press(state, 1, "drawn")
        end_wave_turns(state)
        while state.phase == "force":
            press(state, next(iter(state.active_seats())), "pass")
    assert state.wave == 4
    assert "enemy" not in [a.id for a in state.legal_actions(1)]


def test_wave_virtual_deck_names_cards_and_skips_early_enemies() -> None:
    """With a deck list the companion names the cards, one screen each (the notice says so:
    a list of twelve would not fit one); no enemy is among them in wave 1."""
    deck = tuple(["Ghoul [enemy]"] * 20 + [f"Card {n}" for n in range(30)])
    state = new_game(3, deck=deck)
    pick_and_enter(state)
    effects = [e for seat in state.seats for e in press(state, seat, "done")]
    assert "Take the 6 cards named on screen, one by one." in texts(effects)
    assert state.view(1, 0).lines[0] == "Card 1/6:"
    named = [state.view(1, 0).lines[1]]
    for _ in range(5):
        press(state, 2, "next")
        named.append(state.view(1, 0).lines[1])
    assert all(name.startswith("Card") for name in named) and len(set(named)) == 6
    assert [a.id for a in state.legal_actions(2)][0] == "drawn"


def test_wave_virtual_deck_keeps_enemies_from_wave_four() -> None:
    """An all-enemy deck list puts enemies on the table once wave 4 starts."""
    state = new_game(3, deck=tuple(["Ghoul [enemy]"] * 60))
    to_first_wave(state)
    state.wave = 3
    effects = begin_wave(state, 0.0)
    assert any(t.startswith("Take the") for t in texts(effects))
    assert "Ghoul" in state.view(1, 0).lines[1]


def test_turn_order_rulebook_example_in_play() -> None:
    """Dixon (CRITICAL 3) and Billy (2) tied: Dixon first; after 2 damage he leads again."""
    state = new_game(3)
    to_turns(state, names=["Dixon", "Billy", "Nada"], health=12, hand=4)
    assert on_turn(state) == 1
    press(state, 3, "damage")
    press(state, 3, "damage")
    press(state, 1, "end")
    assert on_turn(state) == 3  # Nada now has the lowest health
    press(state, 1, "damage")
    press(state, 1, "damage")  # Dixon 10 < Billy 12 for the next wave
    end_wave_turns(state)
    while state.phase == "force":
        press(state, next(iter(state.active_seats())), "pass")
    press(state, 1, "drawn")
    assert on_turn(state) == 1


def test_turn_only_the_current_seat_can_heal_or_end() -> None:
    """Others may only take damage (or roll) during someone else's turn."""
    state = new_game(4, die="virtual")
    to_turns(state)
    other = next(s for s in state.seats if s != on_turn(state))
    assert [a.id for a in state.legal_actions(other)] == ["damage", "roll"]
    press(state, other, "damage")
    with pytest.raises(ValueError, match="turn"):
        press(state, other, "end")


def test_turn_city_areas_stop_at_the_nine_in_the_box() -> None:
    """The They Live rulebook: "The city is split into 9 key areas": once the table holds all
    nine between them, nobody can take a tenth, and the seat is told why."""
    state = new_game(4)
    to_turns(state)
    holder = next(s for s in humans(state) if s != on_turn(state))
    state.players[holder].areas = 7
    press(state, on_turn(state), "area")
    press(state, on_turn(state), "area")
    assert sum(p.areas for p in state.players.values()) == 9
    assert "area" not in [a.id for a in state.legal_actions(on_turn(state))]
    with pytest.raises(ValueError, match="All 9 city areas are held"):
        press(state, on_turn(state), "area")
    press(state, on_turn(state), "unarea")
    assert "area" in [a.id for a in state.legal_actions(on_turn(state))]


def test_turn_lethal_damage_asks_to_confirm() -> None:
    """The last health square needs 'Yes: I am dead'; Cancel keeps the player alive."""
    state = new_game(4)
    to_turns(state, health=2, critical=1)
    press(state, 3, "damage")
    press(state, 3, "damage")
    assert state.players[3].left == 1 and [a.id for a in state.legal_actions(3)][0] == "cancel"
    press(state, 3, "cancel")
    assert state.players[3].alive and state.players[3].left == 1


def test_die_rolls_only_configured_faces() -> None:
    """A die entered as all Chew Bubblegum never rolls a Kick Ass."""
    state = new_game(3, die="virtual")
    for seat, name in zip(state.seats, ["Nada", "Holly", "Jack"], strict=True):
        press(state, seat, f"pick:{name}")
    for seat in state.seats:
        while state.value_entries[seat]:
            field = state.value_entries[seat][0].key
            enter(state, seat, 1 if field.startswith("die:Chew") else
                  0 if field.startswith("die:") else 10 if field == "health" else 3)
    for seat in state.seats:
        press(state, seat, "done")
    press(state, 1, "drawn")
    rolls = {texts(press(state, 2, "roll"))[0] for _ in range(30)}
    assert rolls == {"Seat 2 rolls: Chew Bubblegum"}


def test_preacher_kick_ass_goes_first() -> None:
    """A seat reporting the Preacher's Kick Ass plays first despite the highest health."""
    state = new_game(4)
    to_first_wave(state)
    state.players[4].left = 10
    for seat in (1, 2, 3):
        state.players[seat].left = 3
    press(state, 4, "preacher")
    press(state, 1, "drawn")
    assert on_turn(state) == 4


def test_preacher_virtual_roll_goes_first_only_on_kick_ass() -> None:
    """A virtual Preacher roll moves the seat first exactly when it shows a Kick Ass."""
    for seed_no in range(8):
        state = new_game(3, seed_no=seed_no, die="virtual")
        to_first_wave(state)
        state.players[3].left = 11
        said = texts(press(state, 3, "preacher"))[0]
        press(state, 1, "drawn")
        assert (on_turn(state) == 3) == ("Kick Ass" in said)


def test_setup_known_values_are_not_asked_again() -> None:
    """Values the table entered before come in as known options and skip the entry; what
    each seat enters comes out as Learned, for the companion to remember."""
    from engine.known import Learned, as_options

    known = as_options({"Nada.health": 12, "Nada.critical": 4, "Holly.health": 11})
    state = GAME.new_state([1, 2, 3], known, b"k" * 32)
    for seat, name in ((1, "Nada"), (2, "Holly"), (3, "Dixon")):
        press(state, seat, f"pick:{name}")
    assert state.value_entries[1] == []
    assert [e.key for e in state.value_entries[2]] == ["critical"]
    assert (state.players[1].max_health, state.players[1].critical) == (12, 4)
    for _ in range(3):
        press(state, 2, "+1")
    learned = press(state, 2, "ok")
    assert Learned({"Holly.critical": 3}) in learned


def test_setup_change_values_asks_again_from_the_values_in_use() -> None:
    """With every value known the table goes straight to identities; "Change values"
    asks that seat's values again, each showing the remembered one (OK keeps it)."""
    from engine.known import as_options

    known = as_options({"Nada.health": 12, "Nada.critical": 4, "Holly.health": 11,
                        "Holly.critical": 2, "Dixon.health": 9})
    state = GAME.new_state([1, 2, 3], known, b"k" * 32)
    for seat, name in ((1, "Nada"), (2, "Holly"), (3, "Dixon")):
        press(state, seat, f"pick:{name}")
    assert state.phase == "identity"
    assert [a.id for a in state.legal_actions(1)] == ["done", "change"]
    press(state, 1, "change")
    assert state.view(1, 0).big == "12"
    press(state, 1, "+1")
    press(state, 1, "ok")
    press(state, 1, "ok")  # the CRITICAL shows 4
    assert (state.players[1].max_health, state.players[1].critical) == (13, 4)
    assert state.players[1].left == 13
    assert [a.id for a in state.legal_actions(1)] == ["done", "change"]
