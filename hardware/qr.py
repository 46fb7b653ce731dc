"""QR codes as rows of modules: the one way the table makes one (segno, pure Python).

The public screen draws the fair deal's code with it, in the window and in a browser alike,
so every screen shows the same matrix for the same text.
"""

from __future__ import annotations

from functools import cache

import segno

QUIET_ZONE = 4  # modules of light border a reader needs around the code


@cache
def qr_modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``text`` as rows of dark (True) modules, with its quiet zone."""
    code = segno.make(text, error="m", micro=False)
    return tuple(tuple(bool(m) for m in row) for row in code.matrix_iter(border=QUIET_ZONE))
