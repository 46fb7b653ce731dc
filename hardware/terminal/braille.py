"""OLED frames as Unicode braille, pixel for pixel.

Braille patterns are the only widely available terminal glyphs whose 8 dots are set one by
one, so each character cell holds an exact 2x4 block of pixels and a 128x64 frame becomes
64x16 characters with nothing scaled, dithered or guessed.
"""

from __future__ import annotations

from PIL import Image

from ..base import SCREEN_SIZE

BRAILLE_BASE = 0x2800
CELL_WIDTH = 2
CELL_HEIGHT = 4
# The bit of each dot, by (dx, dy) inside the cell: Unicode numbers the dots 1-2-3 down the
# left column and 4-5-6 down the right, then adds 7 and 8 as a fourth row afterwards.
DOT_BITS = {
    (0, 0): 0x01,
    (0, 1): 0x02,
    (0, 2): 0x04,
    (1, 0): 0x08,
    (1, 1): 0x10,
    (1, 2): 0x20,
    (0, 3): 0x40,
    (1, 3): 0x80,
}
ROW_CHARS = SCREEN_SIZE[0] // CELL_WIDTH
ROW_COUNT = SCREEN_SIZE[1] // CELL_HEIGHT


def braille_rows(image: Image.Image) -> list[str]:
    """The frame as 16 strings of 64 braille characters; any non-zero pixel is a lit dot."""
    if image.size != SCREEN_SIZE:
        raise ValueError(f"a seat screen is {SCREEN_SIZE}, not {image.size}")
    pixels = image.convert("L").tobytes()
    return [
        "".join(_cell(pixels, left, top) for left in range(0, SCREEN_SIZE[0], CELL_WIDTH))
        for top in range(0, SCREEN_SIZE[1], CELL_HEIGHT)
    ]


def _cell(pixels: bytes, left: int, top: int) -> str:
    width = SCREEN_SIZE[0]
    code = 0
    for (dx, dy), bit in DOT_BITS.items():
        if pixels[(top + dy) * width + left + dx]:
            code |= bit
    return chr(BRAILLE_BASE + code)
