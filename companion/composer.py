"""Each seat's whole screen, decided in one place: the :class:`Face` that render.py draws.

A seat's face starts from what the table's mode shows it (its view, with the mode's own
lines: a game's PAUSED, commitment and key, see :mod:`companion.game_mode`), and the seat's
side is added here and nowhere else: the hourglass as big digits or a bar, the bottom bar,
the question the seat answers, a notice over the body, and the alert for seats whose screen
is down. While a seat holds PEEK it sees
its secret face instead: a sealed face (see companion/render.py), in pages of three lines
that turn every few seconds while PEEK is held.

The public face (``seat`` None) is built the same way; from its hourglass the composer also
says when the shown seconds next change, so the loop never reads a view to find a deadline.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping

from engine.api import LINE, HourglassView, SeatView, SecretFace
from engine.text import fit
from hardware.base import Code

from .links import Links
from .render import SEALED_ROWS, Face
from .seat_ui import SeatUI, notice_lines
from .session import Session


class Composer:
    def __init__(self, session: Session, ui: Mapping[int, SeatUI], links: Links,
                 phone_links: Mapping[int, str] | None = None) -> None:
        self.session = session
        self.ui = ui
        self.links = links
        self.phone_links = phone_links or {}  # each phone seat's link (its key in it)

    def view(self, seat: int | None, now: float) -> SeatView:
        """What the table's mode shows ``seat`` (None: the public face), with its own lines."""
        return self.session.mode.view(seat, now)

    def face(self, seat: int, now: float) -> Face:
        """The seat's whole screen: its secret face while it holds PEEK, else its public face;
        a notice takes the body for a moment, never the title (whose turn, the seat's role)
        nor the action bar, so what ACT will do is always on screen (a challenge is a race)."""
        ui = self.ui[seat]
        view = self.view(seat, now)
        if ui.peeking:
            face = secret_face_for(view, ui.peek_page(now))
            # a one-button seat's one button is the held PEEK: it has no ACT to press
            return dataclasses.replace(face, bar=RELEASE_BAR) if ui.one_button else face
        face = face_for(view, *ui.bar(self.session.offers(seat)))
        if ui.reshaped:  # the seat's own action gave its list a new shape: the bar is lit
            face = dataclasses.replace(face, inverted_bar=True)
        question = self.session.mode.question(seat)
        if question:  # the seat answers the table's question: it is the title until answered
            face = dataclasses.replace(face, title=question, inverted_title=True)
        if ui.notice:  # over the body, whole: the title (turn, role) and the bar stay
            face = with_headline(dataclasses.replace(face, notice=notice_lines(ui.notice)))
        if ui.notice_title:  # a result read again says so, where the title was
            face = dataclasses.replace(face, title=ui.notice_title, inverted_title=True)
        if ui.code is not None and ui.code in self.phone_links and not self.links.is_up(ui.code):
            return dataclasses.replace(face, qr=self.phone_links[ui.code], notice=(),
                                       lines=(f"Phone seat {ui.code}", "Scan it close",
                                              "to open it"))
        down = [n for n in self.links.down() if n != seat]
        if not down:
            return face
        seats = ",".join(str(n) for n in down)
        alert = fit(f"! Seat {seats} offline", f"! Offline: {seats}",
                    f"! {len(down)} seats offline")
        return dataclasses.replace(face, lines=(alert, *face.lines))

    def public_code(self) -> Code | None:
        """What the public screen shows whole and as a QR code: the commitment from the cut
        to the end, then the key (each public by then), so a phone can note it."""
        return self.session.mode.public_code()


def with_headline(face: Face) -> Face:
    """When a notice covers the body's big figure (the running sand's "1:23", a "WIN"), the
    figure moves to the title's right-hand corner, if both fit: the clock stays in view."""
    headline = face.banner or face.big
    shown = any(part.kind in ("banner", "big") for part in face.parts())
    if not headline or shown or len(face.title) + 1 + len(headline) > LINE:
        return face
    return dataclasses.replace(face, title=face.title + headline.rjust(LINE - len(face.title)))


def next_second(glass: HourglassView | None, now: float) -> float | None:
    """When the seconds shown for ``glass`` (as of ``now``) next change."""
    if glass is None or not glass.running or glass.remaining <= 0:
        return None
    fraction = glass.remaining - math.floor(glass.remaining)
    return now + (fraction if fraction > 1e-6 else 1.0)


# --- a view as a face --------------------------------------------------------------------------


def clock_text(seconds: float) -> str:
    """Remaining sand as "1:23"; rounded up, so "0:00" means the glass has run out."""
    whole = max(0, math.ceil(seconds - 1e-9))
    return f"{whole // 60}:{whole % 60:02d}"


def face_for(view: SeatView, bar: str = "", bar_right: str = "") -> Face:
    """The face a seat shows for ``view`` (its public face: the secret is never read here)."""
    big, lines, sand = view.big, view.lines, None
    glass = view.hourglass
    if glass is not None:
        big, lines, sand = _hourglass_parts(glass, view)
    return Face(
        title=view.title,
        inverted_title=view.highlight,
        big=big,
        lines=tuple(lines),
        banner=view.banner,
        sand=sand,
        bar=bar,
        bar_right=bar_right,
    )


NOTHING_SECRET = SecretFace("Nothing secret", ("You hold no secret", "in this game:",
                                                "all is on the table"))


PAGE_BAR = "ACT: next page"  # ACT under a held PEEK turns the page (companion/gestures.py)
ONE_PAGE_BAR = "ACT does nothing here"  # ... and does nothing else: the game is behind
RELEASE_BAR = "release PEEK"  # a one-button seat: its one button is held, there is no ACT


def secret_face_for(view: SeatView, page: int = 0) -> Face:
    """The PEEK face, sealed, only ever drawn while the seat holds PEEK: page ``page`` (taken
    round) of its lines, three a page. A game gives a number of lines that the table may know
    (it depends on public facts only), so the page count tells nobody anything either. Its
    bar says what ACT does there, which is never anything to the game."""
    secret = view.secret or NOTHING_SECRET
    pages = max(1, -(-len(secret.lines) // SEALED_ROWS))
    first = page % pages * SEALED_ROWS
    bar = PAGE_BAR if pages > 1 else ONE_PAGE_BAR
    return Face(title=secret.title_of(page % pages),
                lines=secret.lines[first : first + SEALED_ROWS],
                bar=bar, bar_right=f"{page % pages + 1}/{pages}" if pages > 1 else "",
                sealed=True)


def _hourglass_parts(glass: HourglassView, view: SeatView):
    if glass.shown == "exact":
        return clock_text(glass.remaining), view.lines[:1], None
    if glass.shown == "bar":
        return view.big, view.lines[:2], glass.remaining / glass.length if glass.length else 0
    state = "Hourglass running" if glass.running else "Hourglass stopped"
    return view.big, (state, *view.lines[:2]), None
