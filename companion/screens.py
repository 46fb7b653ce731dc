"""Keeping every seat's screen in step with its face, and surviving screens that vanish.

A frame is drawn only when its pixels differ from what the seat already shows. Leaving a
peek goes through :meth:`SeatScreen.conceal` (display off before the public face is written).
A display that raises OSError is marked offline, the other seats say so, and it is retried
every few seconds and redrawn in full when it answers again: the table never stops for it.
"""

from __future__ import annotations

import dataclasses
import logging

from engine.api import Action, SeatView
from hardware.base import TableHardware

from .clock import Clock
from .render import Face, face_for, render, secret_face_for
from .seat_ui import SeatUI

log = logging.getLogger(__name__)

RETRY_EVERY = 2.0


class ScreenKeeper:
    def __init__(self, hardware: TableHardware, ui: dict[int, SeatUI], clock: Clock) -> None:
        self.hardware = hardware
        self.ui = ui
        self.clock = clock
        self.faces: dict[int, Face] = {}
        self._pixels: dict[int, bytes] = {}
        self._secret_shown: set[int] = set()
        self._retry_at: dict[int, float] = {}

    def blank_all(self) -> None:
        for number, seat in self.hardware.seats.items():
            try:
                seat.screen.blank()
            except OSError as error:
                self._went_offline(number, error)
            self._pixels.pop(number, None)
            self.faces.pop(number, None)

    def draw(self, number: int, view: SeatView, actions: list[Action]) -> None:
        ui = self.ui[number]
        if ui.offline:
            return
        face = secret_face_for(view) if ui.peeking else self._public_face(number, view, actions)
        if face == self.faces.get(number) and number in self._pixels:
            return  # the same words and numbers draw the same pixels: skip drawing at all
        image = render(face)
        pixels = image.tobytes()
        if self._pixels.get(number) == pixels:
            self.faces[number] = face
            return
        screen = self.hardware.seats[number].screen
        try:
            if number in self._secret_shown and not ui.peeking:
                screen.conceal(image)
            else:
                screen.show(image)
        except OSError as error:
            self._went_offline(number, error)
            return
        self._pixels[number] = pixels
        self.faces[number] = face
        self._secret_shown.discard(number)
        if ui.peeking:
            self._secret_shown.add(number)

    def _public_face(self, number: int, view: SeatView, actions: list[Action]) -> Face:
        """The seat's face; a notice takes the title bar for a moment, never the action bar,
        so what ACT will do is always on screen (a challenge is a race)."""
        ui = self.ui[number]
        face = face_for(view, *ui.bar(actions))
        if ui.notice:
            face = dataclasses.replace(face, title=ui.notice, inverted_title=True)
        gone = [n for n, ui in self.ui.items() if ui.offline and n != number]
        if not gone:
            return face
        alert = "! Seat " + ",".join(str(n) for n in gone) + " offline"
        return dataclasses.replace(face, lines=(alert, *face.lines))

    # --- offline seats -------------------------------------------------------------------------

    def set_offline(self, number: int, offline: bool) -> None:
        """A link-level report (a pod went quiet or came back)."""
        self.ui[number].offline = offline
        if not offline:
            self._pixels.pop(number, None)

    def _went_offline(self, number: int, error: OSError) -> None:
        reason = error.strerror or error
        log.warning("seat %s: display not answering (%s); retrying", number, reason)
        self.ui[number].offline = True
        self._pixels.pop(number, None)
        self._retry_at[number] = self.clock() + RETRY_EVERY

    def retry_offline(self, now: float) -> None:
        for number, moment in list(self._retry_at.items()):
            if now < moment:
                continue
            try:
                self.hardware.seats[number].screen.reconnect()
            except OSError:
                self._retry_at[number] = now + RETRY_EVERY
                continue
            del self._retry_at[number]
            self.ui[number].offline = False
            log.info("seat %s: display back", number)

    def next_deadline(self) -> float | None:
        return min(self._retry_at.values(), default=None)
