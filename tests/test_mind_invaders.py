"""Mind Invaders engine: the deal, the contest tracker, investigation, elimination, secrecy."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable

import pytest

from companion.render import NOTICE_LINES
from companion.seat_ui import notice_lines
from engine import registry
from engine.api import Buzz, Effect, GameOver, Narrate, Reveal, SeatView
from engine.exc import IllegalAction, SetupError
from engine.games.mind_invaders.cards import ALIEN, HUMAN, character_pool
from engine.games.mind_invaders.state import MindInvadersState
from engine.rng import SeededRandom

GAME = registry.get("mind-invaders")


def seed_of(number: int) -> bytes:
    return number.to_bytes(4, "big") * 8


def new_game(players: int = 4, number: int = 0) -> MindInvadersState:
    state = GAME.new_state(tuple(range(1, players + 1)), {}, seed_of(number))
    assert isinstance(state, MindInvadersState)
    return state


def game_where(players: int, wanted: Callable[[MindInvadersState], bool]) -> MindInvadersState:
    """The first seeded deal that sets up the table a test needs."""
    return next(s for n in range(500) if wanted(s := new_game(players, n)))


def started(state: MindInvadersState) -> MindInvadersState:
    for seat in state.seats:
        state.apply(seat, "ready", 0.0)
    return state


def play_contest(state: MindInvadersState, intensify: frozenset[int] = frozenset()) -> None:
    """Block, one round of II-IV where only ``intensify`` stay green, then all hold."""
    state.apply(state.waiting_for[0], "blocked", 0.0)
    while state.phase in ("hidden", "reveal", "hold"):
        seat = state.waiting_for[0]
        if state.phase == "hidden":
            state.apply(seat, "played", 0.0)
        elif state.phase == "reveal":
            state.apply(seat, "revealed", 0.0)
        elif seat in intensify and state.round == 1:
            state.apply(seat, "intensify", 0.0)
        else:
            state.apply(seat, "hold", 0.0)


def collect_all(state: MindInvadersState) -> None:
    for seat in sorted(state.participants):
        state.apply(seat, "collected", 0.0)


def faces(view: SeatView) -> list[str]:
    """Every text a seat's screen may draw without PEEK."""
    return [view.title, *view.lines, view.big or "", view.banner or ""]


def chi_square(observed: Counter, expected: dict) -> float:
    return sum((observed[key] - value) ** 2 / value for key, value in expected.items())


# --------------------------------------------------------------------------- the deal


def test_deal_rejects_player_counts_outside_two_to_five() -> None:
    """Mind Invaders is for 2 to 5 players."""
    with pytest.raises(SetupError):
        GAME.new_state((1,), {}, seed_of(0))
    with pytest.raises(SetupError):
        GAME.new_state(tuple(range(1, 7)), {}, seed_of(0))


def test_deal_excludes_one_alien_below_five_players() -> None:
    """Two to four players deal from three Aliens and the Human; five from all five cards."""
    assert Counter(character_pool(4)) == {ALIEN: 3, HUMAN: 1}
    assert Counter(character_pool(5)) == {ALIEN: 4, HUMAN: 1}
    for players in (4, 5):
        for number in range(200):
            dealt = Counter(new_game(players, number).characters.values())
            assert dealt == {ALIEN: players - 1, HUMAN: 1}


def test_deal_human_in_play_as_often_as_the_exclusion_implies() -> None:
    """With 2 or 3 players the Human is dealt in 2/4 or 3/4 of the games (chi-square)."""
    deals = 2000
    for players in (2, 3):
        seen = Counter(
            HUMAN in new_game(players, n).characters.values() for n in range(deals)
        )
        share = players / 4
        expected = {True: deals * share, False: deals * (1 - share)}
        assert chi_square(seen, expected) < 10.83  # 1 degree of freedom, p = 0.001


def test_deal_human_goes_to_every_seat_alike() -> None:
    """Over many five-player deals the Human sits at each seat equally often (chi-square)."""
    deals = 2000
    seats = Counter(
        next(s for s, kind in new_game(5, n).characters.items() if kind == HUMAN)
        for n in range(deals)
    )
    assert chi_square(seats, {seat: deals / 5 for seat in range(1, 6)}) < 18.47  # df 4


def test_deal_first_player_is_uniform() -> None:
    """The companion picks who holds the 1st Initiative card fairly (chi-square)."""
    deals = 2000
    firsts = Counter(new_game(4, n).first for n in range(deals))
    assert chi_square(firsts, {seat: deals / 4 for seat in range(1, 5)}) < 16.27  # df 3


def test_peek_shows_own_character_and_conditions() -> None:
    """Each seat's PEEK face names its own Character and its victory condition, then what
    setup expects of it."""
    state = new_game(4, 3)
    for seat in state.seats:
        secret = state.view(seat, 0.0).secret
        assert secret is not None
        assert secret.title == f"Seat {seat}: {state.characters[seat]}"
        assert secret.lines[0].startswith("Win: 4x")
        assert secret.lines[2] == "?: on Character cards"  # the rulebook lost the icons
        assert secret.lines[3:] == ("Keep your Character", "secret until told")


def test_setup_shows_initiative_and_hotel_size() -> None:
    """Setup tells each seat its Initiative card; the first player deals floors of N+1."""
    state = new_game(4, 1)
    first = state.view(state.first, 0.0)
    assert "Initiative: 1st" in first.lines
    assert "Hotel: 2 rows of 5" in first.lines
    other = next(s for s in state.seats if s != state.first)
    assert f"Initiative: {state.initiative_of(other)}" in state.view(other, 0.0).lines


# --------------------------------------------------------------------------- the contest


def test_contest_starts_with_block_by_initiative_one() -> None:
    """When all are ready, only the 1st Initiative seat is asked to block."""
    state = started(new_game(4, 2))
    assert set(state.awaited()) == {state.first}
    assert [a.id for a in state.legal_actions(state.first)][0] == "blocked"
    assert state.view(state.first, 0.0).highlight


def test_contest_phases_follow_initiative_order() -> None:
    """Phase II, III and IV each go 1st, 2nd, 3rd, 4th: clockwise from the first player."""
    state = started(new_game(4, 2))
    state.apply(state.first, "blocked", 0.0)
    order = state.initiative_order()
    assert order == [*state.seats[state.seats.index(state.first):],
                     *state.seats[:state.seats.index(state.first)]]
    for phase, action in (("hidden", "played"), ("reveal", "revealed"), ("hold", "intensify")):
        for seat in order:
            assert state.phase == phase and set(state.awaited()) == {seat}
            state.apply(seat, action, 0.0)


def test_contest_rulebook_example_intensify_repeats_for_green_seats_only() -> None:
    """Maria (1st) holds and Andrea (2nd) intensifies: only Andrea plays II-IV again."""
    state = started(game_where(2, lambda s: s.first == 1))
    maria, andrea = 1, 2
    state.apply(maria, "blocked", 0.0)
    for action in ("played", "revealed"):
        state.apply(maria, action, 0.0)
        state.apply(andrea, action, 0.0)
    state.apply(maria, "hold", 0.0)
    assert state.view(maria, 0.0).lines[-1] == "1st: RED"
    state.apply(andrea, "intensify", 0.0)
    assert state.phase == "hidden" and state.waiting_for == [andrea]
    assert "Resource needs Power" in state.view(andrea, 0.0).lines
    assert state.view(andrea, 0.0).lines[-1] == "2nd: GREEN"
    state.apply(andrea, "played", 0.0)
    state.apply(andrea, "revealed", 0.0)
    effects = state.apply(andrea, "hold", 0.0)
    assert state.phase == "collect"
    assert any(isinstance(e, Narrate) and "Collect" in e.text for e in effects)


def test_collection_lists_ties_in_initiative_order() -> None:
    """Collection shows the Initiative order that breaks Power ties, then cleanup follows."""
    state = started(game_where(3, lambda s: s.first == 2))
    play_contest(state)
    assert "ties: 2 3 1" in state.view(1, 0.0).lines
    collect_all(state)
    assert state.phase == "cleanup"


def test_cleanup_passes_initiative_left() -> None:
    """After a contest the 1st card moves one seat clockwise: the old 2nd is now 1st."""
    state = started(game_where(4, lambda s: s.first == 4))
    play_contest(state)
    collect_all(state)
    assert state.first == 1
    assert state.view(4, 0.0).lines[-1] == "Initiative: 4th"


def test_cleanup_only_seats_with_power_cards_play_next() -> None:
    """Seats without Power cards in hand sit the next contest out."""
    state = started(new_game(4, 5))
    play_contest(state)
    collect_all(state)
    for seat in state.seats:
        state.apply(seat, "power:yes" if seat in (1, 3) else "power:no", 0.0)
    assert state.phase == "block" and state.participants == {1, 3}
    assert state.view(2, 0.0).lines[-1].endswith("no Power cards")
    state.apply(state.waiting_for[0], "blocked", 0.0)
    assert set(state.waiting_for) == {1, 3}


def test_cleanup_the_block_skips_a_1st_holder_without_power_cards() -> None:
    """The Mind Invaders rulebook: "ONLY the players who still have Power cards in hand will
    participate in the next contest". The 1st Initiative's holder without Power cards sits
    the block out too: the next seat playing, in Initiative order, blocks."""
    state = started(game_where(4, lambda s: s.first == 4))
    play_contest(state)
    collect_all(state)
    assert state.first == 1 and state.initiative_order() == [1, 2, 3, 4]
    effects = [e for seat in state.seats
               for e in state.apply(seat, "power:no" if seat == 1 else "power:yes", 0.0)]
    assert state.phase == "block" and set(state.awaited()) == {2}
    assert Narrate("Contest 2: Seat 2 blocks a card on the lower floor.") in effects
    assert "blocked" not in [a.id for a in state.legal_actions(1)]
    state.apply(2, "blocked", 0.0)
    assert state.phase == "hidden" and state.waiting_for == [2, 3, 4]


def test_cleanup_nobody_with_power_cards_takes_them_all_back() -> None:
    """If no seat has Power cards in hand, all take theirs back and all play."""
    state = started(new_game(3, 5))
    play_contest(state)
    collect_all(state)
    effects = [e for seat in state.seats for e in state.apply(seat, "power:no", 0.0)]
    assert state.participants == {1, 2, 3}
    assert any(isinstance(e, Narrate) and "takes back" in e.text for e in effects)


# --------------------------------------------------------------------------- investigation


def test_investigation_alien_unmasking_human_wins() -> None:
    """An Alien who investigates the Human wins at once; the Human is revealed to all."""
    state = started(game_where(4, lambda s: s.characters[3] == HUMAN))
    state.apply(1, "investigate", 0.0)
    state.apply(1, "target:3", 0.0)
    effects = state.apply(1, "reveal:3", 0.0)
    assert Reveal("Seat 3: Human") in effects
    assert state.is_terminal() and state.result() == "Seat 1 wins: unmasked the Human"
    assert any(isinstance(e, GameOver) for e in effects)


def test_investigation_revealing_an_alien_changes_nothing() -> None:
    """An Alien revealed is shown to all and the game goes on."""
    state = started(game_where(4, lambda s: s.characters[2] == ALIEN and s.characters[1] == ALIEN))
    state.apply(1, "investigate", 0.0)
    state.apply(1, "target:2", 0.0)
    effects = state.apply(1, "reveal:2", 0.0)
    assert Reveal("Seat 2: Alien") in effects
    assert not state.is_terminal()
    state.apply(3, "investigate", 0.0)
    assert "target:2" not in [a.id for a in state.legal_actions(3)]


def test_investigation_by_the_human_wins_nothing() -> None:
    """The Human can only ever reveal an Alien, so its investigation ends nothing."""
    state = started(game_where(4, lambda s: s.characters[1] == HUMAN))
    state.apply(1, "investigate", 0.0)
    state.apply(1, "target:2", 0.0)
    state.apply(1, "reveal:2", 0.0)
    assert not state.is_terminal()


def test_investigation_can_be_cancelled() -> None:
    """Opening the investigation menu by mistake costs nothing: Cancel goes back."""
    state = started(new_game(4, 0))
    state.apply(2, "investigate", 0.0)
    assert [a.id for a in state.legal_actions(2)][-1] == "cancel"
    state.apply(2, "cancel", 0.0)
    assert "investigate" in [a.id for a in state.legal_actions(2)]


# --------------------------------------------------------------------------- elimination


def test_elimination_returns_highest_initiative_and_shrinks_floors_at_cleanup() -> None:
    """An eliminated seat leaves; the 4th card goes; floors hold survivors + 1 from cleanup."""
    state = started(game_where(4, lambda s: s.first == 1))
    play_contest(state)
    effects = state.apply(3, "eliminated", 0.0) + state.apply(3, "out", 0.0)
    assert Narrate("Pass Initiative cards down, same side up; the 4th goes back to the"
                   " box.") in effects
    assert Narrate("Seat 4 takes the 3rd.") in effects
    assert state.view(3, 0.0).banner == "ELIMINATED"
    assert state.legal_actions(3) == []
    assert state.floor_size == 5  # unchanged until the next cleanup
    collect_all(state)
    assert state.floor_size == 4
    assert state.initiative_order() == [2, 4, 1]


def test_elimination_tells_each_seat_the_initiative_card_it_now_holds() -> None:
    """The Mind Invaders rulebook: "The highest Initiative card is also returned to the box."
    The seats after the eliminated one take the card before theirs, so every survivor's screen
    names the card in its hand; a seat holding the highest card just boxes it."""
    state = started(game_where(5, lambda s: s.first == 1))
    effects = state.apply(2, "eliminated", 0.0) + state.apply(2, "out", 0.0)
    said = [e.text for e in effects if isinstance(e, Narrate)]
    assert said[-2:] == ["Pass Initiative cards down, same side up; the 5th goes back to the"
                         " box.", "Seat 3 takes the 2nd, Seat 4 the 3rd, Seat 5 the 4th."]
    held = {seat: state.view(seat, 0.0).lines[-1] for seat in state.alive()}
    assert held == {1: "1st: GREEN", 3: "2nd: GREEN", 4: "3rd: GREEN", 5: "4th: GREEN"}
    effects = state.apply(5, "eliminated", 0.0) + state.apply(5, "out", 0.0)
    assert Narrate("Seat 5: the 4th Initiative card goes back to the box.") in effects


def test_elimination_of_the_first_player_passes_the_first_card_on() -> None:
    """If the 1st card's holder is eliminated, the next seat clockwise blocks."""
    state = started(game_where(3, lambda s: s.first == 2))
    state.apply(2, "eliminated", 0.0)
    state.apply(2, "out", 0.0)
    assert state.first == 3 and set(state.awaited()) == {3}


def test_elimination_during_cleanup_drops_the_seat_from_the_next_contest() -> None:
    """The Mind Invaders rulebook: "ONLY the players who still have Power cards in hand will
    participate in the next contest". A seat that answered "I have Power cards" and is then
    eliminated before cleanup ends is not one of them: the next contest, and its Collection,
    go on without it."""
    state = started(game_where(3, lambda s: s.first == 1))
    play_contest(state)
    collect_all(state)
    state.apply(2, "power:yes", 0.0)
    state.apply(2, "eliminated", 0.0)
    state.apply(2, "out", 0.0)
    state.apply(1, "power:yes", 0.0)
    state.apply(3, "power:yes", 0.0)
    assert state.phase == "block" and state.participants == {1, 3}
    play_contest(state)
    assert state.phase == "collect" and set(state.awaited()) == {1, 3}
    collect_all(state)
    assert state.phase == "cleanup"


def test_elimination_last_seat_standing_wins() -> None:
    """When all others are eliminated, the last seat wins and every Character is shown."""
    state = started(new_game(3, 4))
    state.apply(1, "eliminated", 0.0)
    state.apply(1, "out", 0.0)
    state.apply(3, "eliminated", 0.0)
    effects = state.apply(3, "out", 0.0)
    assert state.result() == "Seat 2 wins: last one standing"
    reveal = next(e for e in effects if isinstance(e, Reveal))
    assert all(f"Seat {s}: {state.characters[s]}" in reveal.text for s in state.seats)


def test_victory_claim_ends_the_game() -> None:
    """A seat that meets its victory condition confirms it and wins."""
    state = started(game_where(2, lambda s: s.characters[2] == HUMAN))
    state.apply(2, "victory", 0.0)
    effects = state.apply(2, "win", 0.0)
    assert state.result() == "Seat 2 wins: Human victory"
    assert Buzz("win") in effects
    with pytest.raises(IllegalAction):
        state.apply(1, "investigate", 0.0)


def test_refusal_names_the_seat_waited_for() -> None:
    """Pressing out of turn is refused with a message naming whose turn it is."""
    state = started(game_where(4, lambda s: s.first == 1))
    with pytest.raises(IllegalAction, match="Waiting for Seat 1"):
        state.apply(2, "blocked", 0.0)


# --------------------------------------------------------------------------- whole games


def random_game(players: int, number: int, check: Callable[[MindInvadersState, list[Effect]],
                                                            None] | None = None) -> int:
    """Play at random as the conformance test does; returns the number of steps taken."""
    state = new_game(players, number)
    chooser = SeededRandom(b"chooser-" + seed_of(number))
    now, steps = 0.0, 0
    while not state.is_terminal() and steps < 5000:
        seat = chooser.choice(sorted(state.active_seats()))
        action = chooser.choice(state.legal_actions(seat))
        effects = state.apply(seat, action.id, now)
        if check:
            check(state, effects)
        now += chooser.below(4)
        steps += 1
    assert state.is_terminal()
    return steps


def test_game_random_play_always_ends() -> None:
    """Random legal play of 20 seeded games per player count reaches the end."""
    for players in range(2, 6):
        for number in range(20):
            random_game(players, number)


def test_game_replays_identically_from_seed_and_actions() -> None:
    """The same seed and the same actions give the same Characters, order and outcome."""
    first, second = new_game(4, 9), new_game(4, 9)
    for state in (first, second):
        started(state)
        play_contest(state, intensify=frozenset({2}))
        collect_all(state)
    assert first.characters == second.characters and first.first == second.first
    assert first.view(None, 0.0) == second.view(None, 0.0)


def check_no_leak(state: MindInvadersState, effects: list[Effect]) -> None:
    public = state.secrets_hidden_from(None)
    for text in [getattr(e, "text", "") for e in effects]:
        assert not any(secret in text for secret in public), text
    for seat in [None, *state.seats]:
        view = state.view(seat, 0.0)
        hidden = state.secrets_hidden_from(seat)
        for text in faces(view):
            assert not any(secret in text for secret in hidden), (seat, text)


def test_secrets_never_on_a_public_face_in_random_games() -> None:
    """No screen, public face or effect names a Character the rules have not revealed."""
    for players in range(2, 6):
        for number in range(15):
            random_game(players, 100 + number, check_no_leak)


def test_secrets_public_faces_do_not_depend_on_the_deal() -> None:
    """Swapping two seats' Characters changes nothing on any face but their PEEK screens."""
    state = started(game_where(4, lambda s: s.characters[1] != s.characters[2]))
    play_contest(state, intensify=frozenset({3}))
    twin = copy.copy(state)
    twin.characters = {**state.characters, 1: state.characters[2], 2: state.characters[1]}
    for seat in [None, *state.seats]:
        assert faces(state.view(seat, 0.0)) == faces(twin.view(seat, 0.0))


def test_secrets_refusals_never_name_a_character() -> None:
    """An IllegalAction message carries no Character."""
    state = started(new_game(5, 7))
    for seat in state.seats:
        with pytest.raises(IllegalAction) as refused:
            state.apply(seat, "reveal:1", 0.0)
        assert ALIEN not in str(refused.value) and HUMAN not in str(refused.value)


def test_the_cleanup_is_told_in_notices_of_one_screen_each():
    """The cleanup's steps (discards, the floors, the Initiative passing left) are told in
    order, each whole on one screen of four lines: none crawls, none is cut."""
    state = started(game_where(5, lambda s: s.first == 1))
    play_contest(state)
    said = []
    for seat in sorted(state.participants):
        said += [e.text for e in state.apply(seat, "collected", 0.0) if isinstance(e, Narrate)]
    cleanup = said[said.index(next(t for t in said if t.startswith("Cleanup:"))):][:3]
    assert cleanup[1].startswith("Lower floor") and f"{state.floor_size} cards per floor" in (
        cleanup[2])
    assert all(len(notice_lines(text)) <= NOTICE_LINES for text in cleanup), cleanup
