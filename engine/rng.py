"""The per-game random generator, and the fair deal that gives it its seed.

A game's seed comes from a commit-reveal with the players (docs/fairness.md is the recipe a
player can run):

1. the companion draws its **key** (32 random bytes) and shows its **commitment**, the
   first 128 bits of SHA-256(key), before anyone presses anything;
2. every seated player **cuts**: presses ACT once ("Cut the deck"), or, in a game that opens
   with a public phase (``Game.first_press_cuts``), makes the first press of the game; the
   press moments, in microseconds of the game clock, with their seats, in press order, are
   the **cut** text ``"3@1250000 1@1330000"``;
3. the **seed** is HMAC-SHA-256 keyed with the key over ``CUT_LABEL`` + cut: neither the
   companion (its key is fixed by the commitment before the presses) nor the players (the
   key is hidden from them until the end) chooses it alone.

Every shuffle and deal draws from a SHA-256 counter stream over the seed, so a game replays
identically from its journal on any Python version, and ``companion audit`` re-derives the
commitment, the seed and every deal once the key is revealed at the end. The engine never
touches the global ``random`` module. A state made before its seed exists holds a generator
without one, and any draw from it raises :class:`NotDealt`.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Collection, Iterable, MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

KEY_BYTES = 32
SEED_BYTES = 32  # an HMAC-SHA-256 output
COMMITMENT_HEX = 32  # 128 bits: two PEEK lines of 16 hex digits
CUT_LABEL = b"table-companion cut v1 "


class NotDealt(RuntimeError):
    """A draw before the seed arrived: a bug in a game, never a refusal a player could meet
    (so deliberately not an EngineError, which a session would show as a notice)."""


def micros(at: float) -> int:
    """A moment of the game clock in whole microseconds: the unit of a cut."""
    return round(at * 1_000_000)


def commitment(key: bytes) -> str:
    """What the table sees before the cut: binds the companion to ``key`` unseen."""
    return hashlib.sha256(key).hexdigest()[:COMMITMENT_HEX]


def cut_text(presses: Iterable[tuple[int, int]]) -> str:
    """The cut as signed into the seed: ``seat@microseconds`` per press, in press order."""
    return " ".join(f"{seat}@{micros}" for seat, micros in presses)


def first_presses(presses: Iterable[tuple[int | None, float]]) -> dict[int, int]:
    """In a game whose players cut with their first press (``Game.first_press_cuts``): each
    seat's first of ``presses`` (seat, moment) in microseconds, in press order. A seat's
    later presses, and the table's own (seat None), never count."""
    first: dict[int, int] = {}
    for seat, at in presses:
        if seat is not None and seat not in first:
            first[seat] = micros(at)
    return first


def first_press_cut(presses: Iterable[tuple[int | None, float]], seats: Collection[int]) -> str:
    """The cut those first presses make, once every one of ``seats`` has pressed; else ""."""
    first = first_presses(presses)
    return cut_text(first.items()) if set(first) >= set(seats) else ""


def parse_cut(text: str) -> list[tuple[int, int]]:
    """The presses of a cut text (the inverse of :func:`cut_text`); ValueError if malformed."""
    presses = []
    for item in text.split():
        seat, at, micros = item.partition("@")
        if not at or not seat.isdigit() or not micros.isdigit():
            raise ValueError(f"a cut press is seat@microseconds, not {item!r}")
        presses.append((int(seat), int(micros)))
    if cut_text(presses) != text:
        raise ValueError("a cut text has one space between presses and no leading zeros")
    return presses


def deal_seed(key: bytes, cut: str) -> bytes:
    """The game's seed: the companion's key and the players' cut, neither alone."""
    return hmac.new(key, CUT_LABEL + cut.encode("ascii"), hashlib.sha256).digest()


class SeededRandom:
    """A deterministic generator expanded from one seed.

    Uniform integers come from rejection sampling, so no value is more likely than another
    (``x % n`` alone would favour small values). ``seed`` None: the seed has not arrived yet
    (the players are still cutting); every draw raises :class:`NotDealt` until the state is
    dealt with a generator of its own.
    """

    def __init__(self, seed: bytes | None) -> None:
        if seed is not None and len(seed) < 16:
            raise ValueError("a game seed needs at least 16 bytes")
        self._seed = None if seed is None else bytes(seed)
        self._counter = 0
        self._pool = b""

    def _bytes(self, seed: bytes, count: int) -> bytes:
        """The next ``count`` bytes of the stream this generator's ``seed`` expands to."""
        while len(self._pool) < count:
            block = self._counter.to_bytes(8, "big")
            self._pool += hashlib.sha256(seed + block).digest()
            self._counter += 1
        out, self._pool = self._pool[:count], self._pool[count:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        seed = self._seed
        if seed is None:  # every draw comes here, even one with a single outcome
            raise NotDealt("a draw before the deal: the players have not all cut yet")
        if n == 1:
            return 0
        width = (n - 1).bit_length()
        nbytes = (width + 7) // 8
        mask = (1 << width) - 1
        while True:
            value = int.from_bytes(self._bytes(seed, nbytes), "big") & mask
            if value < n:
                return value

    def between(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, both ends included."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place: every order equally likely."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]
