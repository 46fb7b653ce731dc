"""Card values a table already entered: in, through the options; out, as an effect.

The rulebooks leave some card values out (a character's health, a Monster's strength), so a
table reads them off its cards once. The companion remembers them for that table and hands
them to the next game as options named ``known:<name>`` (``"known:Nada.health": "14"``,
``"known:strength:Dragon": "unknown"``): they are journaled with the other options, so a
replayed game sets up exactly as it was played, and the state stays pure. A setup phase
skips what is known and says what the table entered with :class:`Learned`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .api import KNOWN_PREFIX, Effect
from .data import UNKNOWN
from .exc import SetupError


@dataclass(frozen=True)
class Learned(Effect):
    """The table read these values off its cards (None: it chose to leave one unknown)."""

    values: Mapping[str, int | None] = field(default_factory=dict)


def known_values(options: Mapping[str, str]) -> dict[str, int | None]:
    """The known card values among ``options``, by name; "unknown" reads as None."""
    values: dict[str, int | None] = {}
    for key, text in options.items():
        if not key.startswith(KNOWN_PREFIX):
            continue
        name = key.removeprefix(KNOWN_PREFIX)
        if text == UNKNOWN:
            values[name] = None
        elif text.isascii() and text.isdigit():
            values[name] = int(text)
        else:
            raise SetupError(f"known value {name}: '{text}' is not a number or '{UNKNOWN}'")
    return values


def as_options(values: Mapping[str, int | None]) -> dict[str, str]:
    """``values`` as the options that hand them to a new game."""
    return {f"{KNOWN_PREFIX}{name}": UNKNOWN if value is None else str(value)
            for name, value in values.items()}
