"""Starting a game the way a table does in tests: Start, then every player cuts the deck
(unless the game's first presses are the cut: then Start is all)."""

from __future__ import annotations

from companion.app import App
from companion.cut import CUT
from companion.lobby import StartGame


def deal(app: App, request: StartGame, at: float | None = None) -> None:
    """Start ``request`` on ``app`` and have its players cut, in seat order, at ``at`` (default:
    the app's clock now): the fair deal's cut at a moment the test chooses. A game whose first
    presses cut is only started: its players cut as they play."""
    moment = app.clock() if at is None else at
    app.start_game(request, moment)
    if request.game.first_press_cuts:
        return
    for seat in request.seats:
        app.choose(seat, CUT, moment)
