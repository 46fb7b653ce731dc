"""The games the companion knows, by key.

Each module in :mod:`engine.games` registers its game at import; :func:`get` imports them all
on first use, so adding a game is adding a module and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil

from .api import Game
from .exc import UnknownGame

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.key in _GAMES and type(_GAMES[game.key]) is not type(game):
        raise ValueError(f"game '{game.key}' is registered twice")
    _GAMES[game.key] = game
    return game


def get(key: str) -> Game:
    _load_builtin()
    try:
        return _GAMES[key]
    except KeyError:
        names = ", ".join(sorted(_GAMES))
        raise UnknownGame(f"no game '{key}' (games: {names})") from None


def all_games() -> list[Game]:
    _load_builtin()
    return sorted(_GAMES.values(), key=lambda g: g.name)


def _load_builtin() -> None:
    from . import games

    for module in pkgutil.iter_modules(games.__path__):
        importlib.import_module(f"{games.__name__}.{module.name}")
