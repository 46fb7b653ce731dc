"""Braille rendering of seat frames: every OLED pixel maps to exactly one braille dot."""

import pytest
from PIL import Image

from hardware.terminal.braille import braille_rows

DARK = "\u2800"

# The Unicode braille dot that a lit pixel at (dx, dy) of a 2x4 cell raises.
DOT_CHARS = {
    (0, 0): "⠁",
    (0, 1): "⠂",
    (0, 2): "⠄",
    (0, 3): "⡀",
    (1, 0): "⠈",
    (1, 1): "⠐",
    (1, 2): "⠠",
    (1, 3): "⢀",
}


def frame(fill: int = 0) -> Image.Image:
    return Image.new("1", (128, 64), fill)


@pytest.mark.parametrize(("dx", "dy"), sorted(DOT_CHARS))
def test_braille_single_pixel_lights_its_own_dot(dx: int, dy: int) -> None:
    """One lit pixel shows as the matching dot in the right cell and nowhere else."""
    image = frame()
    image.putpixel((10 + dx, 12 + dy), 1)
    rows = braille_rows(image)
    assert rows[3][5] == DOT_CHARS[(dx, dy)]
    others = "".join(rows).replace(DOT_CHARS[(dx, dy)], "", 1)
    assert set(others) == {DARK}


def test_braille_full_frame_is_64_by_16_full_cells() -> None:
    """A white frame is 16 rows of 64 cells with all eight dots raised."""
    rows = braille_rows(frame(1))
    assert len(rows) == 16
    assert all(row == "⣿" * 64 for row in rows)


def test_braille_dark_frame_is_blank_cells() -> None:
    """A black frame raises no dot at all."""
    assert braille_rows(frame()) == [DARK * 64] * 16


def test_braille_checkerboard_is_exact() -> None:
    """A one-pixel checkerboard alternates dots inside every cell, with no smoothing."""
    image = frame()
    for y in range(64):
        for x in range(128):
            image.putpixel((x, y), (x + y) % 2 == 0)
    assert braille_rows(image) == ["⢕" * 64] * 16


def test_braille_rejects_a_frame_of_another_size() -> None:
    """A frame that is not 128x64 is refused rather than shown cropped."""
    with pytest.raises(ValueError, match="128"):
        braille_rows(Image.new("1", (64, 32)))
