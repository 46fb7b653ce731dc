"""Counting instructions under valgrind: the count the Zero 2 W's factor is set against
must be the work's own, the same each time and in proportion to the work."""

from __future__ import annotations

from bench import instructions


def test_a_child_counted_twice_counts_the_same_instructions() -> None:
    child = instructions._child("loop", 1, 0)
    first, second = instructions._instructions(child), instructions._instructions(child)
    assert abs(first - second) < first * 1e-5, (first, second)  # a few hundred in 270 M


def test_twice_the_rounds_count_twice_the_instructions_and_take_longer() -> None:
    one, two = instructions.rate("loop", 1), instructions.rate("loop", 2)
    assert 1.95 < two.instructions / one.instructions < 2.05, (one, two)
    assert one.per_second > 0 and two.seconds > one.seconds


def test_the_table_s_moves_are_timed_after_as_many_played() -> None:
    assert instructions._table(1, 2) > 10 * instructions._table(1, 0)
