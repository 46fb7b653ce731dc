"""The public screen: the table's shared view, large, on an HDMI display or in the emulator.

It is only ever handed a :class:`PublicPage`, which the companion makes from ``view(None)``
and which has no field for a secret, so the screen cannot show one by construction; the
tests check the pixels too. Between the app's calls it animates on its own: the hourglass
sand runs down from the last known value (extrapolated on the same monotonic clock), a new
banner pops in, and :meth:`PygamePublicScreen.reveal` shows a public reveal as a card that
pops in and stays a few seconds, and :meth:`PygamePublicScreen.cue` flashes each tune's name
with a note in the title bar's corner for a moment (for whoever did not hear it), and
:meth:`PygamePublicScreen.tell_table` puts words for those at the table only (the table
page's code) on a line at the bottom for a minute. The fair
deal's commitment (the key, once the game is over) stands in the lower right corner, whole
and as a QR code a phone can read.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..base import Code, PublicPage, PublicScreen, Sand
from ..qr import qr_modules
from ..sdl import pygame
from .glass import GlassState, draw_glass
from .loop import PygameLoop

PUBLIC_SIZE = (1280, 720)
FPS = 12  # frames per second while something moves; none while nothing does
POP_SECONDS = 0.45
REVEAL_SECONDS = 5.0
TUNE_SECONDS = 2.0
NOTE_SECONDS = 60.0  # the table's own words (the page's code): time to type six digits
MAX_LINES = 5
MAX_JOINS = 3  # QR codes of free phone seats side by side (more wait for the first to join)
BACKGROUND = (16, 18, 26)
TITLE_BAR = (40, 44, 60)
HIGHLIGHT = (245, 196, 70)
INK = (235, 235, 240)
DARK_INK = (16, 18, 26)
BANNER = (190, 40, 48)
CARD = (250, 244, 228)
QR_DARK = (0, 0, 0)
QR_LIGHT = (255, 255, 255)


@dataclass(frozen=True)
class PublicFrame:
    """Everything the public screen shows at one moment, as text and numbers."""

    title: str
    highlight: bool = False
    big: str | None = None
    lines: tuple[str, ...] = ()
    banner: str | None = None
    glass: GlassState | None = None
    reveal: str | None = None
    code: Code | None = None
    tune: str | None = None  # a tune just played, flashed in the title bar
    joins: tuple[tuple[int, str], ...] = ()  # each joinable phone seat and its link
    note: str | None = None  # words for the table only (the page's code), at the bottom

    def text(self) -> str:
        """Every word drawn, one item per line: what secrecy tests search."""
        code = f"{self.code.label} {self.code.text}" if self.code else ""
        tune = f"♪ {self.tune}" if self.tune else ""
        joins = [f"Phone seat {seat}" for seat, _ in self.joins]
        parts = [self.title, self.big or "", *self.lines, self.banner or "", self.reveal or "",
                 code, tune, *joins, self.note or ""]
        return "\n".join(part for part in parts if part)


def clock_text(seconds: float) -> str:
    """Seconds rounded up ("0:00" only once the sand has run out), as the seat screens do."""
    whole = max(0, math.ceil(seconds - 1e-9))
    return f"{whole // 60}:{whole % 60:02d}"


def sand_left(glass: Sand, shown_at: float, now: float) -> float:
    """The top bulb's seconds at ``now``, run on from the value the app last gave."""
    return glass.left(now - shown_at)


def public_frame(page: PublicPage, shown_at: float, now: float, reveal: str | None = None,
                 tune: str | None = None, links: dict[int, str] | None = None,
                 note: str | None = None) -> PublicFrame:
    """The face for ``page`` (handed over at ``shown_at``) at ``now``, with the ``links`` of
    the phone seats it says are joinable."""
    big, lines, glass = page.big, page.lines[:MAX_LINES], None
    sand = page.sand
    if sand is not None:
        left = sand_left(sand, shown_at, now)
        share = left / sand.length if sand.length else 0.0
        if sand.shown == "exact":
            big, glass = clock_text(left), GlassState(share, sand.running)
        elif sand.shown == "bar":
            glass = GlassState(share, sand.running)
        else:
            state = "Hourglass running" if sand.running else "Hourglass stopped"
            glass, lines = GlassState(None, sand.running), (state, *lines[: MAX_LINES - 1])
    links = links or {}
    joins = tuple((seat, links[seat]) for seat in page.joinable[:MAX_JOINS] if seat in links)
    return PublicFrame(page.title, page.highlight, big, tuple(lines), page.banner, glass, reveal,
                       page.code, tune, joins, note)


# --------------------------------------------------------------------------- drawing


# DejaVu Sans Bold, cut to the blocks the table's text uses (fonts/README.md): pygame's own
# bold face has no ♪ (the tunes' mark on the status line) and drew it as a box. Sizes are
# scaled as pygame scales its own face, so every layout keeps its measure.
FONT_FILE = Path(__file__).parent / "fonts" / "DejaVuSans-Bold-table.ttf"
SIZE_SCALE = 0.6875


@cache
def font(size: int) -> pygame.font.Font:
    return pygame.font.Font(FONT_FILE, max(8, round(size * SIZE_SCALE)))


def _text(text: str, size: int, width: int, colour: tuple[int, int, int]) -> pygame.Surface:
    """``text`` at ``size`` or smaller, until it fits ``width``."""
    while size > 12 and font(size).size(text)[0] > width:
        size = round(size * 0.9)
    return font(size).render(text, True, colour)


def draw_public(surface: pygame.Surface, face: PublicFrame, now: float, pop: float = 1.0,
                reveal_pop: float = 1.0) -> None:
    """Draw ``face`` on the whole ``surface``; ``pop`` 0..1 scales a banner as it appears."""
    width, height = surface.get_size()
    surface.fill(BACKGROUND)
    bar = round(height * 0.14)
    _title(surface, face, bar)
    if face.tune:
        _tune_badge(surface, face.tune, bar, DARK_INK if face.highlight else INK)
    body = pygame.Rect(0, bar, width, height - bar).inflate(-round(width * 0.04), -bar // 2)
    if face.note:
        note = _text(face.note, round(bar * 0.5), body.width, HIGHLIGHT)
        surface.blit(note, note.get_rect(midbottom=(body.centerx, height - bar // 8)))
        body.height -= note.get_height()
    if face.code is not None or face.joins:
        column = round(body.height * 0.55)
        area = pygame.Rect(body.right - column, body.top, column, body.height)
        if face.code is not None:
            _code(surface, face.code, area)
        else:
            _joins(surface, face.joins, area)
        body.width -= column + body.width // 40
    if face.glass is not None:
        glass_rect = pygame.Rect(body.left, body.top, round(body.width * 0.3), body.height)
        draw_glass(surface, glass_rect, face.glass, now)
        body = pygame.Rect(glass_rect.right + body.width // 20, body.top,
                           body.right - glass_rect.right - body.width // 20, body.height)
    _body(surface, face, body, pop)
    if face.reveal:
        _reveal_card(surface, face.reveal, reveal_pop)


def _tune_badge(surface: pygame.Surface, tune: str, bar: int,
                colour: tuple[int, int, int]) -> None:
    """A note and the tune's name at the right end of the title bar."""
    name = _text(tune, round(bar * 0.5), surface.get_width() // 5, colour)
    right, middle = surface.get_width() - bar // 3, bar // 2
    surface.blit(name, name.get_rect(midright=(right, middle)))
    head = round(bar * 0.12)
    x = right - name.get_width() - bar // 3
    note_head = (x - head * 2, middle + head // 2, head * 2, head * 3 // 2)
    pygame.draw.ellipse(surface, colour, note_head)
    pygame.draw.line(surface, colour, (x - 1, middle + head), (x - 1, middle - bar // 3), 3)
    pygame.draw.line(surface, colour, (x - 1, middle - bar // 3), (x + head, middle - bar // 5), 3)


def _joins(surface: pygame.Surface, joins: tuple[tuple[int, str], ...],
           area: pygame.Rect) -> None:
    """Each joinable phone seat, one above the other: its number and its link's QR code."""
    cell = area.height // len(joins)
    for index, (seat, link) in enumerate(joins):
        box = pygame.Rect(area.left, area.top + index * cell, area.width, cell)
        label = _text(f"Phone seat {seat}", round(area.width * 0.12), area.width, INK)
        surface.blit(label, label.get_rect(midtop=(box.centerx, box.top)))
        _qr(surface, link, pygame.Rect(box.left, box.top + label.get_height(), box.width,
                                       box.height - label.get_height()))


def _qr(surface: pygame.Surface, text: str, area: pygame.Rect) -> None:
    """The QR code of ``text``, as large as whole pixels per module allow, at the bottom of
    ``area``."""
    modules = qr_modules(text)
    cell = max(1, min(area.width, area.height) // len(modules))
    left = area.centerx - cell * len(modules) // 2
    top = area.bottom - cell * len(modules)
    for r, cells in enumerate(modules):
        for c, dark in enumerate(cells):
            colour = QR_DARK if dark else QR_LIGHT
            surface.fill(colour, (left + c * cell, top + r * cell, cell, cell))


def _code(surface: pygame.Surface, code: Code, area: pygame.Rect) -> None:
    """``code`` in ``area``: its label, its text in rows of 16 (as a seat's PEEK shows it),
    and its QR code below."""
    size = round(area.width * 0.14)
    rows = [code.label] + [code.text[i : i + 16] for i in range(0, len(code.text), 16)]
    y = area.top
    for row in rows:
        image = _text(row, size, area.width, INK)
        surface.blit(image, image.get_rect(midtop=(area.centerx, y)))
        y += image.get_height()
    side = min(area.width, area.bottom - y - size // 2)
    _qr(surface, code.text, pygame.Rect(area.left, area.bottom - side, area.width, side))


def _title(surface: pygame.Surface, face: PublicFrame, bar: int) -> None:
    width = surface.get_width()
    surface.fill(HIGHLIGHT if face.highlight else TITLE_BAR, (0, 0, width, bar))
    text = _text(face.title, round(bar * 0.75), width - bar, DARK_INK if face.highlight else INK)
    surface.blit(text, text.get_rect(center=(width // 2, bar // 2)))


def _body(surface: pygame.Surface, face: PublicFrame, body: pygame.Rect, pop: float) -> None:
    """The banner (popping in) or the big text, then the lines, centred as one block."""
    head = None
    if face.banner:
        head = _popped(_banner(face.banner, body.width, round(body.height * 0.4)), pop)
    elif face.big:
        head = _text(face.big, round(body.height * 0.5), body.width, INK)
    share = 0.11 if head else 0.16  # lines alone may be larger
    rows = [_text(line, round(body.height * share), body.width, INK) for line in face.lines]
    gap = round(body.height * 0.03)
    blocks = ([head] if head else []) + rows
    total = sum(block.get_height() + gap for block in blocks)
    y = body.top + max(0, (body.height - total) // 2)
    for block in blocks:
        surface.blit(block, block.get_rect(midtop=(body.centerx, y)))
        y += block.get_height() + gap


def _popped(image: pygame.Surface, pop: float) -> pygame.Surface:
    """An ease-out growth from 30% to full size."""
    scale = 0.3 + 0.7 * (1 - (1 - max(0.0, min(1.0, pop))) ** 3)
    if scale >= 1.0:
        return image
    size = (max(1, round(image.get_width() * scale)), max(1, round(image.get_height() * scale)))
    return pygame.transform.smoothscale(image, size)


def _banner(text: str, width: int, height: int) -> pygame.Surface:
    band = pygame.Surface((width, height))
    band.fill(BANNER)
    label = _text(text, round(height * 0.7), width - width // 10, INK)
    band.blit(label, label.get_rect(center=band.get_rect().center))
    return band


def _reveal_card(surface: pygame.Surface, text: str, pop: float) -> None:
    """A card over the lower part of the screen: the title (whose turn) stays in sight."""
    width, height = surface.get_size()
    card = pygame.Surface((round(width * 0.84), round(height * 0.36)), pygame.SRCALPHA)
    pygame.draw.rect(card, CARD, card.get_rect(), border_radius=height // 30)
    size = round(card.get_height() * 0.22)
    rows = _wrap(text, font(size), card.get_width() - size)[:3]
    y = (card.get_height() - len(rows) * size * 1.1) / 2
    for row in rows:
        image = font(size).render(row, True, DARK_INK)
        card.blit(image, image.get_rect(midtop=(card.get_width() // 2, round(y))))
        y += size * 1.1
    shown = _popped(card, pop)
    surface.blit(shown, shown.get_rect(center=(width // 2, round(height * 0.76))))


def _wrap(text: str, face_font: pygame.font.Font, width: int) -> list[str]:
    rows: list[str] = []
    for word in text.split():
        if rows and face_font.size(rows[-1] + " " + word)[0] <= width:
            rows[-1] += " " + word
        else:
            rows.append(word)
    return rows


# --------------------------------------------------------------------------- the live screen


@dataclass
class _Shown:
    page: PublicPage = field(default_factory=lambda: PublicPage(title=""))
    at: float = 0.0
    banner_since: float = -math.inf
    reveal: str | None = None
    reveal_since: float = -math.inf
    tune: str | None = None
    tune_since: float = -math.inf
    note: str | None = None
    note_since: float = -math.inf


class PublicScene:
    """The latest public page and its animations; written by the app, drawn by pygame."""

    size = PUBLIC_SIZE

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._shown = _Shown()
        self._links: dict[int, str] = {}

    def update(self, page: PublicPage, now: float) -> None:
        with self._lock:
            shown = self._shown
            if page.banner and page.banner != shown.page.banner:
                shown.banner_since = now
            shown.page, shown.at = page, now

    def reveal(self, text: str, now: float) -> None:
        with self._lock:
            self._shown.reveal, self._shown.reveal_since = text, now

    def give_links(self, links: dict[int, str]) -> None:
        with self._lock:
            self._links = dict(links)

    def cue(self, tune: str, now: float) -> None:
        with self._lock:
            self._shown.tune, self._shown.tune_since = tune, now

    def tell_table(self, text: str, now: float) -> None:
        with self._lock:
            self._shown.note, self._shown.note_since = text, now

    def face(self, now: float) -> tuple[PublicFrame, float, float]:
        """The face at ``now`` with the banner's and the reveal card's pop (0..1)."""
        with self._lock:
            shown = self._shown
            reveal = shown.reveal if now - shown.reveal_since < REVEAL_SECONDS else None
            tune = shown.tune if now - shown.tune_since < TUNE_SECONDS else None
            note = shown.note if now - shown.note_since < NOTE_SECONDS else None
            face = public_frame(shown.page, shown.at, now, reveal, tune, self._links, note)
            return face, _pop(now - shown.banner_since), _pop(now - shown.reveal_since)

    def handle(self, event: pygame.event.Event, pos: tuple[int, int] | None) -> None:
        """The HDMI screen takes no input: the seats drive the table."""

    def draw(self, canvas: pygame.Surface, now: float) -> None:
        face, pop, reveal_pop = self.face(now)
        draw_public(canvas, face, now, pop, reveal_pop)

    def next_frame(self, now: float) -> float | None:
        with self._lock:
            shown = self._shown
            glass = shown.page.sand
            moving = glass is not None and sand_left(glass, shown.at, now) > 0 and glass.running
            popping = any(0 <= now - since < POP_SECONDS
                          for since in (shown.banner_since, shown.reveal_since))
            if moving or popping:
                return now + 1 / FPS
            ends = (shown.reveal_since + REVEAL_SECONDS, shown.tune_since + TUNE_SECONDS,
                    shown.note_since + NOTE_SECONDS)
            return min((end for end in ends if now < end), default=None)


def _pop(age: float) -> float:
    return max(0.0, min(1.0, age / POP_SECONDS))


class PygamePublicScreen(PublicScreen):
    """The :class:`PublicScreen` the app draws on; ``wake`` asks the pygame thread to redraw."""

    def __init__(self, scene: PublicScene, wake: Callable[[], None]) -> None:
        self.scene = scene
        self._wake = wake

    def show(self, page: PublicPage, now: float) -> None:
        self.scene.update(page, now)
        self._wake()

    def reveal(self, text: str, now: float) -> None:
        """Show a public reveal (the rules' Reveal effect) as a card for a few seconds."""
        self.scene.reveal(text, now)
        self._wake()

    def cue(self, tune: str, now: float) -> None:
        self.scene.cue(tune, now)
        self._wake()

    def give_links(self, links: dict[int, str]) -> None:
        """The window stands at the table: it shows a joinable phone seat's link as a QR code."""
        self.scene.give_links(links)
        self._wake()

    def tell_table(self, text: str, now: float) -> None:
        """The HDMI screen is read at the table only: it shows the table's own words."""
        self.scene.tell_table(text, now)
        self._wake()


class PublicWindow(PygamePublicScreen):
    """The HDMI display as the table's public screen: full screen, its own pygame thread."""

    def __init__(self, clock: Callable[[], float], *, fullscreen: bool = True) -> None:
        scene = PublicScene()
        self._loop = PygameLoop(scene, clock, title="table-companion: public",
                                fullscreen=fullscreen)
        super().__init__(scene, self._loop.wake)

    def capture(self):
        return self._loop.capture()

    def close(self) -> None:
        self._loop.close()
