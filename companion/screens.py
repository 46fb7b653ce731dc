"""Putting each seat's face on its screen, and surviving screens that vanish.

A public frame is drawn only when its pixels differ from what the seat already shows. A
private (PEEK) face is different: it goes through :meth:`SeatScreen.disclose` at *every*
redraw that reaches the seat while it peeks, as a whole frame, and leaving a peek goes through
:meth:`SeatScreen.conceal` (display off first, the whole public frame, display on). So when,
how often and how much is written to a peeking seat follows the table's redraws (presses,
deadlines, and whether an event waited to cut one short: public), never whether or where its
secret changed.
A display that raises OSError is marked down in :class:`Links`, retried every few seconds,
and redrawn in full when it answers again: the table never stops for it.

Drawing is two stages, :meth:`ScreenKeeper.frame` (render; nothing to send when the seat
already shows it) and :meth:`ScreenKeeper.write`, so the app can render the presser's screen
while the journal's commit flushes and send it once the step is durable.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from hardware.base import TableHardware

from .links import Links
from .render import Face, render

log = logging.getLogger(__name__)


def _draw(face: Face) -> tuple[Image.Image, bytes]:
    """``face`` rendered, and its pixels (what a seat's last frame is compared by)."""
    image = render(face)
    return image, image.tobytes()


# A table shows the same few public faces again and again (a highlight stepped through a
# list and back): the 16 last drawn held 53% of the draws over 120 presses of the bench's
# bot on 8 seats, as many as 64 did. Each is drawn once and
# its image shared, which no screen changes (each reads it, or copies it). A private face is
# never held: it is drawn anew every time, so how long it takes does not tell whether that
# face was shown before (nor that another seat was dealt the same).
_drawn_public = lru_cache(maxsize=16)(_draw)


@dataclass(frozen=True)
class Frame:
    """A seat's face, rendered, to be written (``secret``: its PEEK face)."""

    number: int
    face: Face
    image: Image.Image
    pixels: bytes
    secret: bool


class ScreenKeeper:
    def __init__(self, hardware: TableHardware, links: Links) -> None:
        self.hardware = hardware
        self.links = links
        self.faces: dict[int, Face] = {}  # what each seat shows: table scripts read these
        self._pixels: dict[int, bytes] = {}
        self._secret_shown: set[int] = set()

    def blank_all(self, now: float) -> None:
        for number, seat in self.hardware.seats.items():
            try:
                seat.screen.blank()
            except OSError as error:
                self._went_down(number, error, now)
            self.forget(number)
            self.faces.pop(number, None)

    def frame(self, number: int, face: Face, *, secret: bool) -> Frame | None:
        """``face`` rendered for the seat (``secret``: its PEEK face), or None when there is
        nothing to send: a public face the seat already shows (a private one is sent always)."""
        if not secret and face == self.faces.get(number) and number in self._pixels:
            return None  # the same words and numbers draw the same pixels: skip drawing at all
        image, pixels = _draw(face) if secret else _drawn_public(face)
        if not secret and self._pixels.get(number) == pixels:
            self.faces[number] = face
            return None
        return Frame(number, face, image, pixels, secret)

    def write(self, frame: Frame, now: float, *, awaited: bool = False) -> None:
        """Send ``frame`` to its seat's screen (``awaited``: it answers that seat's press)."""
        number, face, image, pixels, secret = (frame.number, frame.face, frame.image,
                                               frame.pixels, frame.secret)
        screen = self.hardware.seats[number].screen
        if awaited:
            screen.awaited()
        try:
            if secret:
                screen.disclose(image)
            elif number in self._secret_shown:
                screen.conceal(image)
            else:
                screen.show(image)
        except OSError as error:
            self._went_down(number, error, now)
            return
        self._pixels[number] = pixels
        self.faces[number] = face
        self._secret_shown.discard(number)
        if secret:
            self._secret_shown.add(number)

    def forget(self, number: int) -> None:
        """The screen's content is unknown (it was down): the next draw sends it in full."""
        self._pixels.pop(number, None)

    def reconnect(self, number: int, now: float) -> None:
        """Try a display that failed again; it comes back up when it answers."""
        try:
            self.hardware.seats[number].screen.reconnect()
        except OSError:
            self.links.display_failed(number, now)
            return
        self.links.set_up(number)
        log.info("seat %s: display back", number)

    def _went_down(self, number: int, error: OSError, now: float) -> None:
        reason = error.strerror or error
        log.warning("seat %s: display not answering (%s); retrying", number, reason)
        self.links.display_failed(number, now)
        self.forget(number)
