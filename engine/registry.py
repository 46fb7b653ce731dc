"""The games the companion knows, by key.

Each package in :mod:`engine.games` registers its game at import, so adding a game is adding a
package and nothing else. :func:`get` imports only the package whose name begins the key
(``staying_alive`` for ``staying-alive``, ``heroes`` for ``heroes-love-to-lie``), and all of
them only if that finds nothing: a table resuming a game loads that game, not five (a
noticeable part of start-up on a Pi Zero). :func:`all_games` imports them all.
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
    if key not in _GAMES:
        _load_builtin(key)
    try:
        return _GAMES[key]
    except KeyError:
        names = ", ".join(sorted(_GAMES))
        raise UnknownGame(f"no game '{key}' (games: {names})") from None


def all_games() -> list[Game]:
    _load_builtin()
    return sorted(_GAMES.values(), key=lambda g: g.name)


def _load_builtin(key: str | None = None) -> None:
    """Import the game packages: the one ``key`` names if it finds the game, else all."""
    from . import games

    names = [module.name for module in pkgutil.iter_modules(games.__path__)]
    if key is not None:
        wanted = key.replace("-", "_")
        for name in names:
            if wanted.startswith(name):
                importlib.import_module(f"{games.__name__}.{name}")
        if key in _GAMES:
            return
    for name in names:
        importlib.import_module(f"{games.__name__}.{name}")
