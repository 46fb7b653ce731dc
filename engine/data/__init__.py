"""Card and role data, one TOML file per game in ``engine/data``.

Reading a packaged resource is the engine's only contact with files, done once per game
module at import: the state itself never reads anything. Values the rulebooks leave out are
written as the string ``"unknown"`` in the data files, never invented; :func:`known` turns
them into ``None`` so features can degrade gracefully.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

UNKNOWN = "unknown"


def load(name: str) -> dict[str, Any]:
    text = resources.files("engine.data").joinpath(f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def known(value: Any) -> Any:
    """``None`` for a value the rulebook does not give, else the value."""
    return None if value == UNKNOWN else value
