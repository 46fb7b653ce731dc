"""Text for a seat's screen: one way to fit, wrap and page, to the views' line width.

The width is the view contract's (``engine.api.LINE``); every game writes its lines through
these helpers, so no line is cut where a player would not notice.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import TypeVar

from .api import LINE

T = TypeVar("T")


def fits(text: str, width: int = LINE) -> bool:
    return len(text) <= width


def fit(*wordings: str, width: int = LINE) -> str:
    """The first wording that fits ``width`` characters (a line, unless something shares it);
    the last one, cut with ``~``, if none does.

    Give a shorter wording after the natural one ("Seat 3 is the Lookout", "Lookout: 3")
    so the cut is never needed.
    """
    for text in wordings:
        if fits(text, width):
            return text
    return wordings[-1][: width - 1] + "~"


def screen_lines(text: str, limit: int | None = None) -> tuple[str, ...]:
    """``text`` cut at spaces into screen lines (at most ``limit`` of them)."""
    lines = textwrap.wrap(text, LINE, break_on_hyphens=False)
    return tuple(lines[:limit] if limit is not None else lines)


def page_of(items: Sequence[T], page: int, size: int) -> tuple[list[T], bool]:
    """The ``page``-th group of ``size`` items (wrapping round) and whether there are more.

    A list of choices longer than the buttons can page through shows one group at a time
    with a "More..." action after it; a list that fits in ``size + 1`` is shown whole,
    since the "More..." would take the place of the last item anyway.
    """
    if len(items) <= size + 1:
        return list(items), False
    pages = -(-len(items) // size)
    start = (page % pages) * size
    return list(items[start:start + size]), True
