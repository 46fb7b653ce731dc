"""The hourglass on the public screen: a large sand glass whose sand really runs.

Both bulbs are triangles meeting at the neck, so sand levels follow from areas: a fraction
``f`` of the top bulb's area sits in a triangle of height ``H * sqrt(f)`` above the neck, and
the bottom bulb's empty part is a triangle of height ``H * sqrt(1 - f)`` below it. The glass
therefore empties the way a real one looks, fast at first in height and slow at the end.
While it runs, a stream of grains falls through the neck; the grains move with ``now``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..sdl import pygame

GLASS = (190, 200, 215)
SAND = (232, 190, 96)
FRAME = (120, 84, 48)
GRAIN_SPACING = 0.09  # of the bulb height, between two falling grains
FALL_SPEED = 1.6  # bulb heights per second


@dataclass(frozen=True)
class GlassState:
    """What the glass shows: ``sand`` (top bulb's share, 0..1) or None when it must not tell."""

    sand: float | None
    running: bool


def draw_glass(surface: pygame.Surface, rect: pygame.Rect, glass: GlassState, now: float) -> None:
    """Draw the glass filling ``rect`` (taller than wide looks best)."""
    width = min(rect.width, rect.height * 0.62)
    bulb = (rect.height - 2 * _cap(rect)) / 2
    neck_x, neck_y = rect.centerx, rect.top + _cap(rect) + bulb
    half = width / 2
    top = [(neck_x - half, neck_y - bulb), (neck_x + half, neck_y - bulb), (neck_x, neck_y)]
    bottom = [(neck_x - half, neck_y + bulb), (neck_x + half, neck_y + bulb), (neck_x, neck_y)]
    if glass.sand is not None:
        _top_sand(surface, top, glass.sand)
        _bottom_sand(surface, bottom, 1.0 - glass.sand)
    if glass.running and glass.sand != 0.0:
        _stream(surface, neck_x, neck_y, _stream_end(bottom, glass.sand), bulb, now)
    line = max(2, round(rect.height / 120))
    pygame.draw.polygon(surface, GLASS, top, line)
    pygame.draw.polygon(surface, GLASS, bottom, line)
    _caps(surface, rect, neck_x, width)


def _cap(rect: pygame.Rect) -> int:
    return max(4, round(rect.height * 0.04))


def _caps(surface: pygame.Surface, rect: pygame.Rect, centre: float, width: float) -> None:
    cap_w = width * 1.15
    for y in (rect.top, rect.bottom - _cap(rect)):
        pygame.draw.rect(surface, FRAME, (centre - cap_w / 2, y, cap_w, _cap(rect)),
                         border_radius=_cap(rect) // 2)


def _top_sand(surface: pygame.Surface, bulb: list[tuple[float, float]], share: float) -> None:
    """Sand rests on the neck: a smaller triangle with its point at the neck."""
    (left, top), (right, _), (neck_x, neck_y) = bulb
    depth = (neck_y - top) * math.sqrt(max(0.0, min(1.0, share)))
    if depth < 1:
        return
    half = (right - left) / 2 * depth / (neck_y - top)
    pygame.draw.polygon(surface, SAND, [(neck_x - half, neck_y - depth),
                                        (neck_x + half, neck_y - depth), (neck_x, neck_y)])


def _bottom_sand(surface: pygame.Surface, bulb: list[tuple[float, float]], share: float) -> None:
    """Sand fills from the base: everything below the empty triangle under the neck."""
    (left, base), (right, _), (neck_x, neck_y) = bulb
    height = base - neck_y
    empty = height * math.sqrt(max(0.0, min(1.0, 1.0 - share)))
    if height - empty < 1:
        return
    half = (right - left) / 2 * empty / height
    pygame.draw.polygon(surface, SAND, [(neck_x - half, neck_y + empty),
                                        (neck_x + half, neck_y + empty), (right, base),
                                        (left, base)])


def _stream_end(bottom: list[tuple[float, float]], sand: float | None) -> float:
    """Where falling grains land: on the bottom sand, or the base when the level is hidden."""
    (_, base), _, (_, neck_y) = bottom
    if sand is None:
        return base
    return neck_y + (base - neck_y) * math.sqrt(max(0.0, min(1.0, sand)))


def _stream(surface: pygame.Surface, x: float, start: float, end: float, bulb: float,
            now: float) -> None:
    radius = max(1, round(bulb / 60))
    spacing = bulb * GRAIN_SPACING
    offset = (now * FALL_SPEED * bulb) % spacing
    y = start + offset
    while y < end - radius:
        pygame.draw.circle(surface, SAND, (round(x), round(y)), radius)
        y += spacing
