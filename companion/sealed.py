"""The sealed card's rows: every character cell carries about the same ink, whatever it says.

A neighbour a metre away sees a seat's screen blurred over about one character cell (a
Gaussian of 2.5 pixels). Dark words on a lit card would still show through that blur: a
short line, a light word ("Out: 3x ?") or a heavy one ("Invader") each leave their own
smudge. So each 6x11 cell is drawn as its glyph, a clear margin round it, and a fine
checker of dots topped up until the cell's blurred image matches a blank cell's (a plain
checker): the seat holding PEEK reads solid strokes on a grey card, the glance sees the same
even grey in every cell, a space or a letter.

The dots are chosen per glyph, once, greedily: each adds the one dot that brings the blurred
cell nearest the blank cell's. Nearness is measured with the Gaussian's self-correlation,
``exp(-d^2 / 4 sigma^2)`` for a pair of pixels d apart, so a cell is worked out in a few
milliseconds. A dot never touches a stroke side on (light glyphs, punctuation, keep a
margin all round: a ":" must stay a colon) and a dot beside another dot counts against it,
so the grey stays a checker.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine.api import LINE

CELL_WIDTH, CELL_HEIGHT = 6, 11  # the small font's advance and a sealed row's pitch
GLANCE_BLUR = 2.5  # pixels: a glance from about a metre, one character cell
LIGHT_GLYPH = 14  # glyphs with less ink keep a margin round them on the diagonals too
DIAGONAL_COST = 0.4  # a dot touching a stroke corner to corner (heavier glyphs), and
BESIDE_COST = 0.3  # a dot beside another dot: each weighed against the ink it balances

Pixel = tuple[int, int]
SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))
AROUND = (*SIDES, (1, 1), (1, -1), (-1, 1), (-1, -1))
CELL = tuple((x, y) for y in range(CELL_HEIGHT) for x in range(CELL_WIDTH))
BLANK = frozenset((x, y) for x, y in CELL if (x + y) % 2 == 0)  # a space: the plain checker


@lru_cache(maxsize=256)
def _near(dx: int, dy: int) -> float:
    """How much two pixels ``(dx, dy)`` apart overlap once blurred (1 for the same pixel)."""
    return math.exp(-(dx * dx + dy * dy) / (4 * GLANCE_BLUR * GLANCE_BLUR))


def _pull(pixel: Pixel, ink: frozenset[Pixel] | set[Pixel]) -> float:
    return sum(_near(pixel[0] - x, pixel[1] - y) for x, y in ink)


def _touches(pixel: Pixel, ink: frozenset[Pixel] | set[Pixel], around: tuple) -> int:
    return sum((pixel[0] + dx, pixel[1] + dy) in ink for dx, dy in around)


@cache
def glyph(ch: str, font: ImageFont.ImageFont) -> frozenset[Pixel]:
    """The pixels ``ch`` inks in its cell in ``font``."""
    mask = Image.new("1", (CELL_WIDTH, CELL_HEIGHT), 0)
    ImageDraw.Draw(mask).text((0, 0), ch, font=font, fill=1)
    return frozenset(p for p in CELL if mask.getpixel(p))


@cache
def cell(ch: str, font: ImageFont.ImageFont) -> frozenset[Pixel]:
    """``ch``'s glyph and the dots that give its cell a blank cell's blurred ink."""
    ink = glyph(ch, font)
    if not ink:
        return BLANK
    margin = AROUND if len(ink) < LIGHT_GLYPH else SIDES
    free = [p for p in CELL if p not in ink and not _touches(p, ink, margin)]
    cost = {p: DIAGONAL_COST * bool(_touches(p, ink, AROUND)) for p in free}
    # gain[p]: half the change in squared blurred difference from the blank cell when a dot
    # goes at p, less the dot's own overlap; a dot is worth adding while it is negative.
    gain = {p: _pull(p, ink) - _pull(p, BLANK) for p in free}
    dots: set[Pixel] = set()
    while True:
        score = {p: 2 * gain[p] + 1 + cost[p] + BESIDE_COST * _touches(p, dots, SIDES)
                 for p in free if p not in dots}
        best = min(score, key=score.__getitem__, default=None)
        if best is None or score[best] >= 0:
            return ink | frozenset(dots)
        dots.add(best)
        for p in free:
            gain[p] += _near(p[0] - best[0], p[1] - best[1])


@lru_cache(maxsize=512)
def row_mask(text: str, font: ImageFont.ImageFont) -> Image.Image:
    """A whole sealed row: ``text`` (at most a line) and blank cells to the line's end, as the
    mask of its dark pixels, one column of margin each side (128 pixels in all)."""
    mask = Image.new("1", (2 + CELL_WIDTH * LINE, CELL_HEIGHT), 0)
    for index, ch in enumerate(text.ljust(LINE)[:LINE]):
        for x, y in cell(ch, font):
            mask.putpixel((1 + CELL_WIDTH * index + x, y), 1)
    return mask
