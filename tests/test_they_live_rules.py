"""They Live rules as plain functions: turn order, force-reveal damage, pools, deck lists."""

from __future__ import annotations

import pytest

from engine.exc import SetupError
from engine.games.they_live.cards import CHARACTERS, INVADER, identity_pool
from engine.games.they_live.deck import card_name, is_enemy, parse_deck_list
from engine.games.they_live.force_reveal import force_penalty
from engine.games.they_live.state import Player
from engine.games.they_live.turns import next_to_play
from tests.test_they_live_support import new_game

# chi-square critical values at p = 0.001 (df = 1 for Invader/Human per seat)
CHI2_DF1_P001 = 10.828
DEALS = 3000


def _player(seat: int, left: int, critical: int) -> Player:
    return Player(seat, "x", max_health=15, critical=critical, hand_limit=4, left=left)


def test_turn_order_rulebook_dixon_and_billy() -> None:
    """The rulebook's example: 12 vs 11 Billy first; tied Dixon first; 10 vs 11 Dixon first."""
    order = (1, 2)
    assert next_to_play([_player(1, 12, 3), _player(2, 11, 2)], (), order) == 2
    assert next_to_play([_player(1, 11, 3), _player(2, 11, 2)], (), order) == 1
    assert next_to_play([_player(1, 10, 3), _player(2, 11, 2)], (), order) == 1


def test_turn_order_preacher_kick_ass_goes_first() -> None:
    """A Preacher's Kick Ass beats any remaining health."""
    players = [_player(1, 2, 3), _player(2, 14, 2)]
    assert next_to_play(players, {2}, (1, 2)) == 2


def test_turn_order_full_tie_goes_to_first_seat_clockwise() -> None:
    """Same health and same CRITICAL value: the seat listed first plays first."""
    assert next_to_play([_player(6, 9, 3), _player(4, 9, 3)], (), (4, 6)) == 4


@pytest.mark.parametrize(
    ("left", "critical", "after"),
    [(12, 3, 3), (5, 3, 2), (4, 3, 1), (3, 3, 0), (2, 3, 0), (8, 5, 5)],
)
def test_force_penalty_down_to_critical_with_three_at_least(left, critical, after) -> None:
    """Yes-voters drop to CRITICAL; at or 1-2 above it they take 3 damage."""
    assert force_penalty(left, critical) == after


def test_identity_pools_match_the_setup_table() -> None:
    """3: 2H+1I, 4: 3H+2I, 5: 3H+2I, 6: 4H+3I."""
    expected = {3: (2, 1), 4: (3, 2), 5: (3, 2), 6: (4, 3)}
    for players, (h, i) in expected.items():
        pool = identity_pool(players)
        assert (len(pool) - pool.count(INVADER), pool.count(INVADER)) == (h, i)


def test_characters_only_rulebook_values_are_known() -> None:
    """Dixon CRITICAL 3, Billy 2, Frank 15 health and 4 cards; everything else is unknown."""
    known = {(n, f): v for n, c in CHARACTERS.items()
             for f, v in vars(c).items() if f != "name" and v is not None}
    assert known == {("Dixon", "critical"): 3, ("Billy", "critical"): 2,
                     ("Frank", "health"): 15, ("Frank", "hand_limit"): 4}
    assert len(CHARACTERS) == 8


def _chi2(observed: int, total: int, p: float) -> float:
    expected = (total * p, total * (1 - p))
    counts = (observed, total - observed)
    return sum((o - e) ** 2 / e for o, e in zip(counts, expected, strict=True))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_deal_every_seat_and_the_spare_equally_likely_invader(players) -> None:
    """Over thousands of seeded deals each seat (and the spare) is an Invader at the pool rate."""
    pool = identity_pool(players)
    p = pool.count(INVADER) / len(pool)
    seat_counts = dict.fromkeys(range(1, players + 1), 0)
    spare_count = 0
    for number in range(DEALS):
        state = new_game(players, seed_no=10_000 + number)
        for seat in seat_counts:
            seat_counts[seat] += state.identities[seat] == INVADER
        spare_count += state.spare == INVADER
    for count in seat_counts.values():
        assert _chi2(count, DEALS, p) < CHI2_DF1_P001
    if len(pool) > players:
        assert _chi2(spare_count, DEALS, p) < CHI2_DF1_P001
    else:
        assert spare_count == 0


def test_deal_statistic_rejects_a_biased_deal() -> None:
    """The chi-square check would catch a seat that is an Invader too often."""
    assert _chi2(DEALS // 2, DEALS, 0.4) > CHI2_DF1_P001


def test_deck_list_counts_comments_and_enemy_tags() -> None:
    """'3 x Name' repeats a card, '#' starts a comment, '[enemy]' marks enemies."""
    cards = parse_deck_list("# War Table\n3 x Police Station\nPump Shotgun  # gun\n"
                            "2x Ghoul [enemy]\n\n12 Gauge Shells\n")
    assert cards.count("Police Station") == 3
    assert [c for c in cards if is_enemy(c)] == ["Ghoul [enemy]"] * 2
    assert "12 Gauge Shells" in cards
    assert card_name("Ghoul [enemy]") == "Ghoul"


@pytest.mark.parametrize("text", ["", "# only a comment\n", "0 x Police Station", "2 x [enemy]"])
def test_deck_list_rejects_empty_or_zero_counts(text) -> None:
    """A list without cards, a zero count or a nameless enemy is a setup error."""
    with pytest.raises(SetupError):
        parse_deck_list(text)
