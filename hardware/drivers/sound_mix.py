"""Sounds mixed into one stream of 16-bit samples, in plain Python (no numpy, no audioop).

The speaker plays up to three sounds at once (a prompt, the masking noise, a tune) through one
ALSA device, so it adds them itself, a period at a time. Python 3.13 has no ``audioop``; a
period is a few hundred samples, and ``map`` over builtins and ``operator`` functions keeps
every per-sample step in C, the clip to 16 bits included (a Zero 2 W mixes while the table
plays).
"""

from __future__ import annotations

import array
import operator
from collections.abc import Sequence
from itertools import repeat

LOWEST, HIGHEST = -32768, 32767


class Track:
    """One sound being played: its samples at a gain, from where it has got to.

    A looping track (the masking noise) plays until its ``frames`` run out; any track may fade
    in over its first ``fade_in`` frames and be faded out from where it is (:meth:`fade_out`).
    """

    def __init__(self, samples: Sequence[int], gain: float, *, loop: bool = False,
                 frames: int | None = None, fade_in: int = 0) -> None:
        self.samples = samples
        self.gain = gain
        self.loop = loop
        self.left = len(samples) if frames is None else frames
        self.fade_in = fade_in
        self.played = 0
        self._fade_end: int | None = None
        self._fade_length = 0

    @property
    def done(self) -> bool:
        return self.left <= 0 or not self.samples

    def fade_out(self, frames: int) -> None:
        """Fade to nothing over the next ``frames`` and end there."""
        self._fade_end, self._fade_length = self.played + frames, max(1, frames)
        self.left = min(self.left, frames)

    def take(self, frames: int) -> list[float]:
        """The next ``frames`` samples at their gain (fewer at the sound's end)."""
        count = 0 if self.done else min(frames, self.left)
        chunk: list[int] = []
        size = len(self.samples)
        while len(chunk) < count:
            at = self.played % size if self.loop else self.played
            end = min(size, at + count - len(chunk))
            chunk.extend(self.samples[at:end])
            self.played += end - at
        self.left -= count
        start = self.played - count
        if start >= self.fade_in and self._fade_end is None:
            return list(map(self.gain.__mul__, chunk))
        return [sample * self._level(start + i) for i, sample in enumerate(chunk)]

    def _level(self, frame: int) -> float:
        level = self.gain
        if frame < self.fade_in:
            level *= frame / self.fade_in
        if self._fade_end is not None:
            level *= max(0, self._fade_end - frame) / self._fade_length
        return level


def mix(parts: Sequence[Sequence[float]]) -> bytes:
    """Parts of tracks (:meth:`Track.take`) added together, clipped to 16 bits, as native
    samples; as long as the longest of them."""
    total = [0.0] * max(map(len, parts), default=0)
    for part in parts:
        total[:len(part)] = map(operator.add, total, part)
    clipped = map(min, repeat(HIGHEST), map(max, repeat(LOWEST), map(round, total)))
    return array.array("h", clipped).tobytes()
