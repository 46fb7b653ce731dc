"""The window's font has a glyph for every character the table can say, so none is drawn as
a box (pygame's own face had no ♪, the tunes' mark on the status line).

What the table can say is gathered three ways: every string written in the engine, the
companion and the window (labels, notices, the status line's ♪), the games' card data, and
every view, offer and effect of a few seeded random plays of each of the five games (names
and numbers put together at run time).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pygame

from hardware.window.public import font
from tests.test_behaviour_trace import trace
from tests.test_conformance import KEYS

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("engine", "companion", "hardware/window")
SEEDS = range(3)


def written_text() -> str:
    constants = [
        node.value
        for folder in SOURCES
        for path in sorted((ROOT / folder).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]
    data = [path.read_text(encoding="utf-8") for path in sorted(ROOT.glob("engine/data/*.toml"))]
    return "".join(constants + data)


def played_text() -> str:
    return "".join(json.dumps(trace(key, seed), ensure_ascii=False, default=repr)
                   for key in KEYS for seed in SEEDS)


def test_window_font_has_every_character_the_table_says() -> None:
    pygame.font.init()
    characters = sorted({c for c in written_text() + played_text() if c.isprintable()})
    assert "♪" in characters and len(characters) > 80  # the gathering found the table's text
    face = font(22)
    box = _pixels(face, NO_GLYPH)  # what the face draws for a character it has no glyph for
    missing = [c for c in characters if _pixels(face, c) == box]
    assert missing == []


NO_GLYPH = "\ue000"  # private use: no font has it


def _pixels(face: pygame.font.Font, character: str) -> bytes:
    """The character as drawn (pygame's Font.metrics gives a missing glyph the box's)."""
    return pygame.image.tostring(face.render(character, False, (255, 255, 255)), "RGB")
