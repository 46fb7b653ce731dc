"""Golden PNGs: a captured frame is compared with ``tests/golden/<name>.png``.

To rewrite them after a deliberate change of the drawing, run the tests once with
``TABLE_COMPANION_REGENERATE_GOLDEN=1``, look at every changed PNG (git shows them), and
commit them. While the switch is on, ``test_golden_regeneration_is_switched_off`` fails, so a
run (or a Makefile, or CI) that keeps it on can never pass: golden files are never rewritten
behind anyone's back. A failing comparison leaves the frame it got in the temp directory.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from PIL import Image, ImageChops

GOLDEN_DIR = Path(__file__).parent / "golden"
SWITCH = "TABLE_COMPANION_REGENERATE_GOLDEN"
CHANNEL_SLACK = 24  # per-channel difference ignored (anti-aliasing of a different build)
PIXEL_SLACK = 0.001  # share of pixels allowed to differ by more than that


def regenerating() -> bool:
    return os.environ.get(SWITCH, "") not in ("", "0")


def assert_golden(image: Image.Image, name: str) -> None:
    """Fail unless ``image`` looks like the golden PNG ``name`` (or rewrite it, when asked)."""
    image = image.convert("RGB")
    path = GOLDEN_DIR / f"{name}.png"
    if regenerating():
        GOLDEN_DIR.mkdir(exist_ok=True)
        image.save(path)
        return
    assert path.exists(), f"no golden {path.name}: run once with {SWITCH}=1 and review it"
    expected = Image.open(path).convert("RGB")
    assert expected.size == image.size, f"{name}: size {image.size}, golden {expected.size}"
    changed = _changed_pixels(expected, image)
    if changed > PIXEL_SLACK * image.width * image.height:
        actual = Path(tempfile.gettempdir()) / f"golden-actual-{name}.png"
        image.save(actual)
        raise AssertionError(f"{name}: {changed} pixels differ from the golden PNG; "
                             f"got {actual}")


def _changed_pixels(expected: Image.Image, actual: Image.Image) -> int:
    difference = ImageChops.difference(expected, actual).convert("L")
    return sum(difference.histogram()[CHANNEL_SLACK + 1:])
