"""The per-game random generator.

A game's seed is 32 bytes chosen once (by the companion, with ``secrets.token_bytes``) and
kept in the state. Every shuffle and deal draws from a SHA-256 counter stream over that seed,
so a game replays identically from its journal on any Python version, and ``companion audit``
can re-derive every deal once the seed is revealed at the end. The engine never touches the
global ``random`` module.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

SEED_BYTES = 32


def commitment(seed: bytes) -> str:
    """The short public hash shown at setup: binds the table to the seed without revealing it."""
    return hashlib.sha256(b"table-companion commit:" + seed).hexdigest()[:12]


class SeededRandom:
    """A deterministic generator expanded from one seed.

    Uniform integers come from rejection sampling, so no value is more likely than another
    (``x % n`` alone would favour small values).
    """

    def __init__(self, seed: bytes) -> None:
        if len(seed) < 16:
            raise ValueError("a game seed needs at least 16 bytes")
        self._seed = bytes(seed)
        self._counter = 0
        self._pool = b""

    def _bytes(self, count: int) -> bytes:
        while len(self._pool) < count:
            block = self._counter.to_bytes(8, "big")
            self._pool += hashlib.sha256(self._seed + block).digest()
            self._counter += 1
        out, self._pool = self._pool[:count], self._pool[count:]
        return out

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        width = (n - 1).bit_length()
        nbytes = (width + 7) // 8
        mask = (1 << width) - 1
        while True:
            value = int.from_bytes(self._bytes(nbytes), "big") & mask
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
