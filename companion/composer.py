"""Each seat's whole screen, decided in one place: the :class:`Face` that render.py draws.

A seat's face starts from what the lobby or the game shows it (its view), and the table adds
to it here and nowhere else: PAUSED (in the title, or leading the body when the title is
long), the restart notice, the commitment (public face; and on the PEEK face while the
players cut with their first presses, with each seat's own cut) and the companion's key (PEEK
face) once the game is over, the hourglass as big digits or a bar, the bottom bar, a notice
over the body, and the alert for seats whose screen is down. While a seat holds PEEK it sees
its secret face instead: a sealed face (see companion/render.py), in pages of three lines
that turn every few seconds while PEEK is held.

The public face (``seat`` None) is built the same way; from its hourglass the composer also
says when the shown seconds next change, so the loop never reads a view to find a deadline.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping

from engine.api import HourglassView, SeatView, SecretFace
from engine.rng import commitment, cut_text
from engine.text import LINE, fit
from hardware.base import Code

from .links import Links
from .record import GameRecord
from .render import SEALED_ROWS, Face
from .seat_ui import SeatUI, notice_lines
from .session import Session

PAUSED = "PAUSED"
RESTARTED = "Restarted: paused"


class Composer:
    def __init__(self, session: Session, ui: Mapping[int, SeatUI], links: Links) -> None:
        self.session = session
        self.ui = ui
        self.links = links

    def view(self, seat: int | None, now: float) -> SeatView:
        """What the lobby or the game shows ``seat`` (None: the public face), with the
        table's own lines."""
        session, state, record = self.session, self.session.state, self.session.record
        if session.cut is not None:
            return session.cut.view(seat)
        if state is None or record is None:
            return session.lobby.view(seat, now)
        view = state.view(seat if seat in state.seats else None, now)
        if state.paused:
            view = paused_view(view, session.restarted)
        if state.is_terminal() and seat is not None:
            view = dataclasses.replace(whole_outcome(view), secret=key_face(record.key))
        if seat is None:  # a seat's screen is too narrow: its PEEK shows the key at the end
            lines = (*view.lines, *fairness_lines(record, state.is_terminal(), state.dealt))
            view = dataclasses.replace(view, lines=lines)
        elif seat in state.seats and not state.dealt:
            view = cutting_in_play(view, seat, record)
        return view

    def face(self, seat: int, now: float) -> Face:
        """The seat's whole screen: its secret face while it holds PEEK, else its public face;
        a notice takes the body for a moment, never the title (whose turn, the seat's role)
        nor the action bar, so what ACT will do is always on screen (a challenge is a race)."""
        ui = self.ui[seat]
        view = self.view(seat, now)
        if ui.peeking:
            return secret_face_for(view, ui.peek_page(now))
        face = face_for(view, *ui.bar(self.session.offers(seat)))
        if ui.reshaped:  # the seat's own action gave its list a new shape: the bar is lit
            face = dataclasses.replace(face, inverted_bar=True)
        question = self.session.menu.question(seat)
        if question:  # the seat answers the table's question: it is the title until answered
            face = dataclasses.replace(face, title=question, inverted_title=True)
        if ui.notice:  # over the body, whole: the title (turn, role) and the bar stay
            face = with_headline(dataclasses.replace(face, notice=notice_lines(ui.notice)))
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
        session, record = self.session, self.session.record
        if session.cut is not None:
            return Code("Commitment", session.cut.commitment)
        if record is None or session.state is None:
            return None
        if session.state.is_terminal():
            return Code("Key", record.key.hex())
        return Code("Commitment", commitment(record.key))


def paused_view(view: SeatView, restarted: bool) -> SeatView:
    """A paused game says so on every seat, its title lit, and still says where it stands:
    PAUSED leads the title when both fit ("PAUSED Your turn"); when not, the title stays
    whole and PAUSED leads the body. After a restart the body says so until someone
    resumes ("Restarted: paused")."""
    title = fit(f"{PAUSED} {view.title}", view.title)
    note = RESTARTED if restarted else None if title != view.title else PAUSED
    view = dataclasses.replace(view, title=title, highlight=True)
    if note is None:
        return view
    return dataclasses.replace(view, lines=(note, *view.lines[: 0 if view.big else 2]))


def with_headline(face: Face) -> Face:
    """When a notice covers the body's big figure (the running sand's "1:23", a "WIN"), the
    figure moves to the title's right-hand corner, if both fit: the clock stays in view."""
    headline = face.banner or face.big
    shown = any(part.kind in ("banner", "big") for part in face.parts())
    if not headline or shown or len(face.title) + 1 + len(headline) > LINE:
        return face
    return dataclasses.replace(face, title=face.title + headline.rjust(LINE - len(face.title)))


def whole_outcome(view: SeatView) -> SeatView:
    """A finished game's screen shows its outcome whole: when a banner or the hourglass
    would leave room for only its first line, the banner's words join the title instead
    ("Game over: LOST") and the sand, no longer running, gives way."""
    room = 3 if not (view.banner or view.big or view.hourglass) else 1
    if len(view.lines) <= room:
        return view
    title = fit(f"{view.title}: {view.banner}", view.banner) if view.banner else view.title
    return dataclasses.replace(view, title=title, banner=None, big=None, hourglass=None,
                               highlight=True)


def key_face(key: bytes) -> SecretFace:
    """The companion's key, revealed on every seat's PEEK face once the game is over: four
    rows of 16 hex digits (the title and three lines), to check against the commitment shown
    before the cut (docs/fairness.md)."""
    digits = key.hex()
    rows = [digits[start : start + 16] for start in range(0, len(digits), 16)]
    return SecretFace(f"Key {rows[0]}", tuple(rows[1:4]))


def cutting_in_play(view: SeatView, seat: int, record: GameRecord) -> SeatView:
    """While the players cut with their first presses (docs/fairness.md): the seat's face
    says where the commitment is, then shows its own cut once it has pressed; its PEEK face
    opens with the commitment, in two lines of 16, and its cut, before the game's own."""
    shown = commitment(record.key)
    own = record.first_presses().get(seat)
    cut = fit(f"Your cut {seat}@{own}", f"Cut {seat}@{own}") if own is not None else None
    line = cut or "Hold PEEK: commitment"
    game = view.secret.lines if view.secret else ()
    secret = SecretFace("Commitment", (shown[:16], shown[16:], cut or "Your cut: not yet", *game))
    return dataclasses.replace(view, lines=(*view.lines, line), secret=secret)


def fairness_lines(record: GameRecord, over: bool, dealt: bool) -> tuple[str, ...]:
    """The public screen keeps the commitment in view all game (a table can note it whenever
    it likes), with the cut so far while the players cut in play, and shows the companion's
    key once the game is over."""
    if over:
        digits = record.key.hex()
        return ("Key revealed:", digits[:32], digits[32:])
    shown = (f"Commitment {commitment(record.key)}",)
    if dealt:
        return shown
    return (*shown, f"Cut: {cut_text(record.first_presses().items()) or '-'}")


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


def secret_face_for(view: SeatView, page: int = 0) -> Face:
    """The PEEK face, sealed, only ever drawn while the seat holds PEEK: page ``page`` (taken
    round) of its lines, three a page. A game gives a number of lines that the table may know
    (it depends on public facts only), so the page count tells nobody anything either."""
    secret = view.secret or NOTHING_SECRET
    pages = max(1, -(-len(secret.lines) // SEALED_ROWS))
    first = page % pages * SEALED_ROWS
    return Face(title=secret.title, lines=secret.lines[first : first + SEALED_ROWS],
                bar="release PEEK", bar_right=f"{page % pages + 1}/{pages}" if pages > 1 else "",
                sealed=True)


def _hourglass_parts(glass: HourglassView, view: SeatView):
    if glass.shown == "exact":
        return clock_text(glass.remaining), view.lines[:1], None
    if glass.shown == "bar":
        return view.big, view.lines[:2], glass.remaining / glass.length if glass.length else 0
    state = "Hourglass running" if glass.running else "Hourglass stopped"
    return view.big, (state, *view.lines[:2]), None
