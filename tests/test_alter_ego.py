"""Alter Ego engine: setup draws, the turn guide's counts, the city's books and the endings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from engine import registry
from engine.api import Buzz, Effect, GameOver, Narrate, Reveal, SeatView
from engine.exc import IllegalAction
from engine.games.alter_ego.state import (
    AlterEgoState,
    Counting,
    Ending,
    cards_to_draw,
    henchmen_to_draw,
    income,
)
from engine.rng import SeededRandom

GAME = registry.get("alter-ego")


def seed_of(number: int) -> bytes:
    return number.to_bytes(4, "big") * 8


def new_game(players: int = 3, number: int = 0, ending: str = "all-win") -> AlterEgoState:
    state = GAME.new_state(tuple(range(1, players + 1)), {"ending": ending}, seed_of(number))
    assert isinstance(state, AlterEgoState)
    return state


def press(state: AlterEgoState, seat: int, *action_ids: str) -> list[Effect]:
    return [effect for action in action_ids for effect in state.apply(seat, action, 0.0)]


def ids(state: AlterEgoState, seat: int) -> list[str]:
    return [action.id for action in state.legal_actions(seat)]


# Three piles of 3: two counted with +1, the last holding what they left.
PILES = ("add:1", "add:1", "add:1", "ok", "add:1", "add:1", "add:1", "ok", "ok")


def set_up(state: AlterEgoState, piles: Sequence[int] = (3, 3, 3),
           supply: Sequence[int] = (5, 5, 5)) -> AlterEgoState:
    """Play setup: everyone ready, the pile sizes and CIV pools counted, Nemeses taken."""
    for seat in state.seats:
        press(state, seat, "ready")
    for size in piles[:-1]:
        press(state, state.host, *["add:1"] * size, "ok")
    press(state, state.host, "ok")  # the last pile holds what the others left
    press(state, state.host, "taken")
    for count in supply:
        press(state, state.host, *["add:1"] * count, "ok")
    for seat in state.seats:
        press(state, seat, "ready")
    return state


def enter_display(state: AlterEgoState, job: int = 0, community: int = 0,
                  family: int = 0) -> None:
    seat = state.current
    press(state, seat, *["more:Job"] * job, *["more:Community"] * community,
          *["more:Family"] * family, "done")


def bring_henchman(state: AlterEgoState, hostages: Sequence[int] = (0,)) -> str:
    """From the Income screen: patrol, and the chosen henchman takes these CIV types."""
    press(state, state.current, "next", "next", *[f"take:{civ}" for civ in hostages], "done")
    return f"H{state.city.henchmen_seen}"


def to_fight(state: AlterEgoState) -> None:
    while state.phase in ("cops", "support", "equip"):
        press(state, state.current, ids(state, state.current)[0])


def faces(view: SeatView) -> list[str]:
    return [view.title, *view.lines, view.big or "", view.banner or ""]


def chi_square(observed: Counter, expected: dict) -> float:
    return sum((observed[key] - value) ** 2 / value for key, value in expected.items())


# --------------------------------------------------------------------------- setup


def test_setup_arch_villain_pick_is_uniform_within_each_pile() -> None:
    """Each pile's chosen card is uniform over the pile size the table counted (chi-square)."""
    deals = 1500
    threes = Counter(set_up(new_game(2, n)).picks[0] for n in range(deals))
    assert chi_square(threes, {card: deals / 3 for card in (1, 2, 3)}) < 13.82  # df 2
    fours = Counter(set_up(new_game(2, n), piles=(4, 3, 2)).picks[0] for n in range(deals))
    assert chi_square(fours, {card: deals / 4 for card in (1, 2, 3, 4)}) < 16.27  # df 3


def test_setup_arch_villain_piles_share_the_nine_cards_of_the_box() -> None:
    """The Alter Ego rulebook's components: "9 Arch Villain Cards (3 types)". Piles of 4 and
    4 leave 1 card for the third pile, which is offered exactly that (4 + 4 + 4 is refused,
    so no pick names a card that is not there); no pile can take a card another needs."""
    state = new_game(3, 0)
    for seat in state.seats:
        press(state, seat, "ready")
    press(state, state.host, *["add:1"] * 9)
    assert "Count: 7" in state.view(state.host, 0.0).lines
    press(state, state.host, *["add:-1"] * 3, "ok", *["add:1"] * 5)
    assert "Count: 4" in state.view(state.host, 0.0).lines
    press(state, state.host, "ok")
    assert state.data_of(Counting).count().value == 1 and ids(state, state.host) == ["ok"]
    assert "Count: 1" in state.view(state.host, 0.0).lines
    press(state, state.host, "ok")
    assert state.picks[2] == 1


def test_setup_last_arch_villain_pile_is_offered_what_is_left() -> None:
    """After piles of 4 and 3, the third pile's OK accepts the 2 cards left of the nine."""
    state = new_game(3, 0)
    for seat in state.seats:
        press(state, seat, "ready")
    press(state, state.host, *["add:1"] * 4, "ok", *["add:1"] * 3, "ok")
    assert state.data_of(Counting).count().value == 2
    press(state, state.host, "ok")
    assert state.picks[2] in (1, 2)


def test_setup_one_arch_villain_of_each_type_is_revealed() -> None:
    """The pick names one card in each of the three piles, for everyone to see."""
    state = new_game(3, 1)
    for seat in state.seats:
        press(state, seat, "ready")
    effects = press(state, state.host, *PILES)
    reveal = next(e for e in effects if isinstance(e, Reveal))
    assert all(f"pile {i}: card" in reveal.text for i in (1, 2, 3))
    assert state.view(None, 0.0).lines[0].startswith("Pile 1: #")


def test_setup_pile_size_starts_at_question_mark_with_no_size_offered() -> None:
    """How the 9 cards split among the types is not given: the pile shows '?', the host
    counts it with +1 from 1, and OK comes beside +1 only once a size shows."""
    state = new_game(3, 0)
    for seat in state.seats:
        press(state, seat, "ready")
    assert "Count: ?" in state.view(state.host, 0.0).lines
    assert ids(state, state.host) == ["add:1"]
    press(state, state.host, "add:1")
    assert "Count: 1" in state.view(state.host, 0.0).lines
    assert ids(state, state.host) == ["add:1", "ok"]


def test_setup_civ_pools_count_in_fives_and_may_be_left_uncounted() -> None:
    """A CIV pool cannot be confirmed empty; +5 counts it, with OK after the ups (a pool of
    10 is two presses, two PEEKs and OK), and a pool showing "?" may be left uncounted: its supply
    shows "?", its hostages are still taken, and the table says when it has run out."""
    state = new_game(3, 0)
    for seat in state.seats:
        press(state, seat, "ready")
    press(state, state.host, *PILES, "taken")
    assert ids(state, state.host) == ["add:5", "add:1", "skip"]
    press(state, state.host, "add:5", "add:5")
    assert ids(state, state.host) == ["add:5", "add:1", "ok", "add:-1"]
    assert "Count: 10" in state.view(state.host, 0.0).lines
    press(state, state.host, "ok", "skip", "add:1", "ok")
    assert state.city.supply == [10, None, 1]
    for seat in state.seats:
        press(state, seat, "ready")
    enter_display(state)
    press(state, state.current, "next", "next")  # Income, then the henchman chosen
    assert "+1 CIV 2 (? left)" in [a.label for a in state.legal_actions(state.current)]
    press(state, state.current, "take:1")
    assert state.city.supply[1] is None and state.city.hostages() == 1
    empty = next(a for a in state.legal_actions(state.current) if a.id == "empty:1")
    assert empty.confirm  # the companion asks a second press: it ends the game
    press(state, state.current, "empty:1")
    assert state.is_terminal() and "no CIV 2 token left" in state.result()


def test_setup_nemesis_rows_are_dealt_fairly() -> None:
    """Each seat gets a different card of the row, each place equally likely (chi-square)."""
    deals = 1500
    for number in range(50):
        assert sorted(new_game(4, number).nemesis_row.values()) == [1, 2, 3, 4]
    rows = Counter(new_game(4, n).nemesis_row[1] for n in range(deals))
    assert chi_square(rows, {row: deals / 4 for row in (1, 2, 3, 4)}) < 16.27  # df 3


def test_setup_nemesis_row_is_laid_from_a_shuffled_deck() -> None:
    """The Alter Ego rulebook: "Deal each player 1 Nemesis card, which they keep hidden from
    other players." A row laid from an unshuffled stack would let the table guess whose card
    is whose, so the table is told to shuffle the Nemesis cards before laying the row."""
    state = new_game(3, 0)
    for seat in state.seats:
        press(state, seat, "ready")
    effects = press(state, state.host, *PILES, "taken",
                    *[step for _ in range(3) for step in ("add:5", "ok")])
    said = [e.text for e in effects if isinstance(e, Narrate)]
    assert "Shuffle the Nemesis cards; lay one face down by each seat. PEEK: yours." in said
    assert state.view(None, 0.0).lines[0] == "Shuffle the Nemeses;"


def test_setup_nemesis_is_named_by_a_seat_not_by_where_one_sits() -> None:
    """"Card 1 from the left" means another card to each side of the table: a Nemesis is the
    card lying by a named seat, and the CIV pools are laid clockwise from a named seat."""
    state = set_up(new_game(4, 2))
    for seat in state.seats:
        face = state.view(seat, 0.0).secret
        assert face is not None
        place = state.seats[state.nemesis_row[seat] - 1]
        assert f"card by Seat {place}" in face.lines and not any("left" in x for x in face.lines)
    state = new_game(3, 0)
    for seat in state.seats:
        press(state, seat, "ready")
    press(state, state.host, *PILES, "taken")
    assert "CIV 1 by Seat 1," in state.view(2, 0.0).lines


def test_setup_nemesis_only_on_own_peek() -> None:
    """A seat's Nemesis row is on its PEEK face and on no other seat's screen."""
    state = set_up(new_game(4, 2))
    for seat in state.seats:
        secret = state.view(seat, 0.0).secret
        assert secret is not None
        assert secret.title == f"Seat {seat} Nemesis #{state.nemesis_row[seat]}"
    assert state.view(None, 0.0).secret is None


# --------------------------------------------------------------------------- the turn guide


def test_turn_guide_counts_follow_the_rulebook() -> None:
    """Trophies add to income, henchmen and draws only with a matching card in the display."""
    assert income(job_cards=0, money_trophies=3) == 0
    assert income(job_cards=2, money_trophies=3) == 5
    assert henchmen_to_draw(community_cards=0, community_trophies=2) == 1
    assert henchmen_to_draw(community_cards=2, community_trophies=2) == 5
    assert cards_to_draw(family_cards=0, family_trophies=2) == 0
    assert cards_to_draw(family_cards=2, family_trophies=1) == 5


def test_turn_screens_show_counts_from_display_and_trophies() -> None:
    """A seat with trophies sees its income, henchmen to draw and cards to draw."""
    state = set_up(new_game(2, 3))
    state.trophies[state.current].update({"$": 2, "Community": 1, "Family": 3})
    enter_display(state, job=1, community=2, family=1)
    seat = state.current
    assert state.view(seat, 0.0).big == "$3"
    press(state, seat, "next")
    assert state.view(seat, 0.0).big == "4"  # 1 + 2 Community cards + 1 trophy
    press(state, seat, "next", "take:0", "done", "skip")
    view = state.view(seat, 0.0)
    assert view.lines == ("Draw 5 cards", "3+ Family icons:", "take 1 Teamwork")


def test_turn_patrol_takes_hostages_from_the_supply() -> None:
    """The new henchman's hostages leave the supply, by type."""
    state = set_up(new_game(3, 4), supply=(4, 4, 4))
    enter_display(state)
    key = bring_henchman(state, hostages=(0, 2, 2))
    assert state.city.held[key] == [1, 0, 2]
    assert state.city.supply == [3, 4, 2]
    assert state.view(None, 0.0).lines[0] == "CIV left 3/4/2"


def test_turn_empty_supply_means_the_villains_win_at_once() -> None:
    """A hostage needed from an empty pool ends the game for the Villains, with the buzzer."""
    state = set_up(new_game(3, 4), supply=(1, 5, 5))
    enter_display(state)
    effects = press(state, state.current, "next", "next", "take:0", "take:0")
    assert Buzz("lose") in effects
    assert state.result() == "Lose: no CIV 1 token left, the Villains win"
    assert any(isinstance(e, GameOver) for e in effects)


def test_turn_rescue_returns_tokens_and_defeat_adds_a_trophy() -> None:
    """Freed tokens go back to the supply; the last one defeats the henchman, a Trophy."""
    state = set_up(new_game(2, 5), supply=(3, 3, 3))
    enter_display(state, job=1)
    key = bring_henchman(state, hostages=(1,))
    to_fight(state)
    seat = state.current
    effects = press(state, seat, "rescue", f"pick:{key}", "free:1")
    assert state.city.supply == [3, 3, 3] and key not in state.city.held
    assert any(isinstance(e, Narrate) and "defeated" in e.text for e in effects)
    press(state, seat, "trophy:$", "done", "none", "done", "end")
    assert state.trophies[seat]["$"] == 1
    assert state.current == state.ring.left_of(seat)


def test_turn_hostages_freed_from_henchmen_leave_the_game_while_an_arch_villain_is_in() -> None:
    """With an Arch Villain in play, henchman tokens are removed; its own go back."""
    state = set_up(new_game(2, 6), supply=(5, 5, 5))
    enter_display(state)
    first = bring_henchman(state, hostages=(0,))
    to_fight(state)
    seat = state.current
    press(state, seat, "rescue", f"pick:{first}", "free:0", "done", "arrive:1", "take:2", "done",
          "none", "done", "end")
    enter_display(state)
    second = bring_henchman(state, hostages=(0, 0))
    to_fight(state)
    seat = state.current
    press(state, seat, "rescue", f"pick:{second}", "free:0")
    assert state.city.supply[0] == 3 and state.city.removed == 1
    assert "tokens leave the game" in state.view(seat, 0.0).lines
    press(state, seat, "free:0", "done", "none", "rescue", "pick:AV2", "free:2")
    assert state.city.supply[2] == 5  # the Arch Villain's hostage went back


def test_turn_call_the_cops_returns_the_hostages() -> None:
    """With a Community card shown, the Cops remove a henchman and its hostages go home."""
    state = set_up(new_game(2, 7), supply=(5, 5, 5))
    enter_display(state, community=1)
    key = bring_henchman(state, hostages=(0, 1))
    assert ids(state, state.current) == ["skip", "cops"]
    press(state, state.current, "cops", f"remove:{key}")
    assert state.city.supply == [5, 5, 5] and key not in state.city.held
    assert state.phase == "support"


def test_turn_rescue_list_pages_when_many_henchmen_hold_hostages() -> None:
    """More than seven villains are shown six at a time with a More... entry."""
    state = set_up(new_game(1, 8), supply=(30, 30, 30))
    for _ in range(8):
        enter_display(state)
        bring_henchman(state)
        to_fight(state)
        press(state, state.current, "done", "end")
    enter_display(state)
    bring_henchman(state)
    to_fight(state)
    press(state, state.current, "rescue")
    first_page = ids(state, state.current)
    assert len(first_page) == 8 and first_page[-2:] == ["more", "back"]
    press(state, state.current, "more")
    assert ids(state, state.current)[:3] == ["pick:H7", "pick:H8", "pick:H9"]


# --------------------------------------------------------------------------- the endings


def defeat_arch_villains(state: AlterEgoState, how_many: int = 3) -> list[Effect]:
    """In one turn: a henchman falls, Arch Villains come in and are all beaten."""
    enter_display(state)
    key = bring_henchman(state)
    to_fight(state)
    seat = state.current
    effects = press(state, seat, "rescue", f"pick:{key}", "free:0", "done")
    for index in range(3):
        effects += press(state, seat, f"arrive:{index}", "take:1", "done")
    for index in range(how_many):
        effects += press(state, seat, "rescue", f"pick:AV{index + 1}", "free:1")
    return effects


def test_ending_all_win_when_the_last_arch_villain_falls() -> None:
    """Ending 1: the last Arch Villain defeated means everybody wins."""
    state = set_up(new_game(3, 9, "all-win"))
    effects = defeat_arch_villains(state)
    assert state.result() == "Win: Crime City is saved, everybody wins"
    assert Buzz("win") in effects


def test_ending_all_win_offers_no_nemesis_button() -> None:
    """Only the endings that count Nemeses let a seat declare one beaten."""
    for ending, offered in (("all-win", False), ("personal", True)):
        state = set_up(new_game(2, 9, ending))
        enter_display(state)
        bring_henchman(state)
        to_fight(state)
        assert ("nemesis" in ids(state, state.current)) is offered


def test_ending_names_are_the_options_the_lobby_offers() -> None:
    """The rules compare the option with Ending: each of the data file's endings is one."""
    (option,) = GAME.options
    assert tuple(Ending) == option.choices


def test_ending_game_goes_on_while_an_arch_villain_remains() -> None:
    """Two Arch Villains down of three: the game is not over."""
    state = set_up(new_game(3, 9))
    defeat_arch_villains(state, how_many=2)
    assert not state.is_terminal() and state.view(None, 0.0).lines[2] == "AV: 1 in, 2/3 down"


def at_the_fight(players: int, number: int, ending: str) -> AlterEgoState:
    """A game set up, its first turn at the fight with a henchman in: the endings' start."""
    state = set_up(new_game(players, number, ending))
    enter_display(state)
    bring_henchman(state)
    to_fight(state)
    return state


def test_ending_personal_victories_are_named() -> None:
    """Ending 2: all win together; seats that beat their Nemesis win a Personal Victory."""
    state = at_the_fight(3, 10, "personal")
    hero = state.current
    press(state, hero, "nemesis", "confirm", "done", "end")
    defeat_arch_villains(state)
    assert state.result() == (
        f"Win: City saved, all win; Personal Victory: Seat {hero}"
    )


def test_ending_all_nemeses_needed_or_the_nemeses_win() -> None:
    """Ending 3: with a Nemesis still undefeated, the last Arch Villain's fall is a loss."""
    state = at_the_fight(2, 11, "all-nemeses")
    press(state, state.current, "nemesis", "confirm", "done", "end")
    effects = defeat_arch_villains(state)
    assert state.result() == "Lose: the Nemeses not defeated overtake Crime City"
    assert Buzz("lose") in effects


def test_ending_first_nemesis_ends_the_game_for_that_seat() -> None:
    """Ending 4: the first Nemesis defeated ends the game; that seat wins."""
    state = at_the_fight(3, 12, "first-nemesis")
    hero = state.current
    effects = press(state, hero, "nemesis", "confirm")
    assert state.result() == f"Seat {hero} wins: their Nemesis is defeated"
    assert any(isinstance(e, GameOver) for e in effects)


def test_refusal_names_whose_turn_it_is() -> None:
    """Another seat's press during a turn is refused with the turn's seat."""
    state = set_up(new_game(3, 0))
    other = state.ring.left_of(state.current)
    with pytest.raises(IllegalAction, match=f"Seat {state.current}'s turn"):
        state.apply(other, "done", 0.0)


# --------------------------------------------------------------------------- whole games


def random_game(
    players: int, number: int, ending: str,
    check: Callable[[AlterEgoState, list[Effect]], None] | None = None,
) -> AlterEgoState:
    """Play at random as the conformance test does, running ``check`` after every step."""
    state = new_game(players, number, ending)
    chooser = SeededRandom(b"chooser-" + seed_of(number))
    steps = 0
    while not state.is_terminal() and steps < 5000:
        seat = chooser.choice(sorted(state.active_seats()))
        effects = state.apply(seat, chooser.choice(state.legal_actions(seat)).id, float(steps))
        if check:
            check(state, effects)
        steps += 1
    assert state.is_terminal()
    return state


def check_no_leak(state: AlterEgoState, effects: list[Effect]) -> None:
    public = state.secrets_hidden_from(None)
    for effect in effects:
        assert not any(secret in getattr(effect, "text", "") for secret in public)
    for seat in [None, *state.seats]:
        hidden = state.secrets_hidden_from(seat)
        for text in faces(state.view(seat, 0.0)):
            assert not any(secret in text for secret in hidden), (seat, text)


def test_game_random_play_always_ends() -> None:
    """Random legal play reaches the end for 20 seeds at every player count and ending."""
    for players in range(1, 7):
        for number in range(20):
            random_game(players, number, GAME.options[0].choices[number % 4])


def test_game_replays_identically_from_seed_and_actions() -> None:
    """The same seed and presses give the same picks, Nemesis rows and books."""
    first, second = (set_up(new_game(4, 13), piles=(4, 3, 2)) for _ in range(2))
    for state in (first, second):
        enter_display(state, job=2)
        bring_henchman(state, hostages=(0, 1))
    assert first.picks == second.picks and first.nemesis_row == second.nemesis_row
    assert first.view(None, 0.0) == second.view(None, 0.0)


def test_secrets_never_on_a_public_face_in_random_games() -> None:
    """No screen, public face or effect shows another seat's Nemesis."""
    for players in (2, 4, 6):
        for number in range(10):
            random_game(players, 200 + number, "personal", check_no_leak)
