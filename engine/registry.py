"""The games the companion knows, by key."""

from __future__ import annotations

from .api import Game
from .exc import UnknownGame

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.key in _GAMES:
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
    from . import games  # noqa: F401  (importing registers every built-in game)
