"""Text for a 128-pixel OLED line: 21 characters of the 6-pixel font."""

from __future__ import annotations

import textwrap

LINE = 21


def screen_lines(text: str, limit: int | None = None) -> tuple[str, ...]:
    """``text`` cut at spaces into screen lines (at most ``limit`` of them)."""
    lines = textwrap.wrap(text, LINE, break_on_hyphens=False)
    return tuple(lines[:limit] if limit is not None else lines)
