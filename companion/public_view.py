"""The public view as a page for the public screen: the one place an engine view becomes one.

Hardware knows nothing of the engine (the layer test holds it to that), so the app turns
``view(None)`` into a :class:`hardware.base.PublicPage` here. A page has no field for a
secret, and this copies only the public fields, so a secret cannot reach the big screen.
"""

from __future__ import annotations

from engine.api import SeatView
from hardware.base import Code, PublicPage, Sand


def public_page(view: SeatView, code: Code | None = None,
                joinable: tuple[int, ...] = ()) -> PublicPage:
    """The page the public screen shows for ``view``, the fairness ``code`` (the commitment,
    or the key once the game is over) and the phone seats a phone may join now;
    ``view.secret`` is never read."""
    glass = view.hourglass
    sand = None if glass is None else Sand(glass.remaining, glass.length, glass.running,
                                           glass.shown)
    return PublicPage(view.title, view.lines, view.big, sand, view.banner, view.highlight,
                      code, joinable)
