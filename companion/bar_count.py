"""The bar's count ("3/5") drawn small, for a label too long to leave it its three cells.

A seat counts its PEEK presses by the count: it must always be in view, or a seat that
stepped past the action it wanted cannot tell where it is (Pause picked for Undo). An
action's label takes up to 20 of the bar's 21 cells, so beside such a label the count is
drawn as a stacked fraction in 3x5 digits, the place over the length, in the last seven
pixels of the bar: the label gives way only by its "> ", never by a letter.
"""

from __future__ import annotations

from PIL import Image

DIGIT_WIDTH, DIGIT_HEIGHT = 3, 5
HEIGHT = 2 * DIGIT_HEIGHT + 1  # the place, a rule, the length: the bar's 11 rows
WIDTH = 2 * DIGIT_WIDTH + 1  # room for "12": the longest list a seat is offered
DIGITS = {  # 3x5, row by row, "#" lit
    "0": "### #.# #.# #.# ###", "1": ".#. ##. .#. .#. ###", "2": "### ..# ### #.. ###",
    "3": "### ..# .## ..# ###", "4": "#.# #.# ### ..# ..#", "5": "### #.. ### ..# ###",
    "6": "### #.. ### #.# ###", "7": "### ..# .#. .#. .#.", "8": "### #.# ### #.# ###",
    "9": "### #.# ### ..# ###",
}


def stacked(count: str) -> Image.Image:
    """``count`` ("3/5") as a one-bit mask WIDTH x HEIGHT: the place above a one-pixel rule,
    the length below, each right-aligned."""
    place, length = count.split("/")
    mask = Image.new("1", (WIDTH, HEIGHT), 0)
    _number(mask, place, 0)
    for x in range(WIDTH):
        mask.putpixel((x, DIGIT_HEIGHT), 1)
    _number(mask, length, DIGIT_HEIGHT + 1)
    return mask


def _number(mask: Image.Image, digits: str, top: int) -> None:
    right = WIDTH
    for digit in reversed(digits[-2:]):
        right -= DIGIT_WIDTH
        for y, row in enumerate(DIGITS[digit].split()):
            for x, cell in enumerate(row):
                if cell == "#":
                    mask.putpixel((right + x, top + y), 1)
        right -= 1
