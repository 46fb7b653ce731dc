"""Drawing a seat's screen: 128x64, one bit per pixel, legible at arm's length.

Rendering is two steps. The composer (companion/composer.py) decides *what* a seat shows (a
:class:`Face`: plain text and numbers, no pixels), and :func:`draw_face` draws a face with PIL
onto any canvas, as luma's renderers do: it never knows the device. Table scripts and secrecy
tests read the face's text; the hardware gets the pixels. Small text uses Pillow's crisp 6x11
bitmap font; the hourglass digits are a large FreeType face drawn in fixed-width cells aligned
to the controller's 8-pixel pages, so a tick redraws only the digit that changed: about 90
bytes on the bus, not a 1 KiB frame.

A private face (PEEK) is *sealed*: the whole screen is lit and every row, the title and the
bottom bar included, is written dark on it in whole cells to the right edge, each cell's ink
topped up with a fine checker (companion/sealed.py). A neighbour sees the same card with the
same five full grey rows whatever it says: not which lines are lit, nor how far, nor, blurred
as a glance from a metre sees it, how much ink any cell holds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.api import LABEL, LINE
from engine.text import fit
from hardware.qr import qr_modules

from . import bar_count, sealed

WIDTH, HEIGHT = 128, 64
BIG_SIZE = 35  # digits 24 px tall: exactly three 8-px display pages
BIG_TOP = 16  # the top of page 2, so a changed digit touches three pages, not four
BANNER_SIZE = 14
TITLE_BOTTOM = 11
BAR_TOP = 53
QR_CHAR = 6  # pixels a character of the small font takes (21 to the line)
SEALED_ROWS = 3  # body rows of a sealed face: a secret is shown in pages of this many lines
SEALED_TOPS = (TITLE_BOTTOM + 2, TITLE_BOTTOM + 13, TITLE_BOTTOM + 24)
NOTICE_LINES, NOTICE_PITCH = 4, 10  # a notice: at most four lines, 10 px apart, over the body
BIG_BOTTOM, BANNER_BOTTOM, SAND_BOTTOM = 39, 40, 24  # the last pixel rows they ink
INK_TOP, INK_BOTTOM = 2, 10  # the small font's ink, in rows below where a line is drawn


@dataclass(frozen=True)
class Part:
    """One thing drawn in the body: a ``kind`` ("banner", "big", "sand", "line"), its text,
    where it is drawn and the last pixel row it inks."""

    kind: str
    text: str
    top: int
    bottom: int


@dataclass(frozen=True)
class Face:
    """Everything one screen shows at one moment, as text and numbers."""

    title: str
    inverted_title: bool = False
    big: str | None = None
    lines: tuple[str, ...] = ()
    banner: str | None = None
    sand: float | None = None  # 0..1 for the hourglass bar, None when not drawn
    bar: str = ""  # the bottom bar: the highlighted action
    bar_right: str = ""  # e.g. "2/5": more actions behind PEEK taps
    inverted_bar: bool = False  # lit: the list is new in shape, the highlight on its first
    notice: tuple[str, ...] = ()  # a notice's lines: the whole body, until it is read
    sealed: bool = False  # a private face: drawn as a sealed card (see the module's note)
    qr: str | None = None  # a phone seat's link, drawn as a QR code beside the lines

    def body(self) -> tuple[str | None, str | None, tuple[str, ...]]:
        """What the body shows: (banner, big text, small lines), as :func:`draw_face` draws it."""
        if self.sealed:
            return None, None, self.lines[:SEALED_ROWS]
        if self.banner:
            return self.banner, None, self.lines[:1]
        if self.big:
            return None, self.big, self.lines[:1]
        if self.sand is not None:
            return None, None, self.lines[:2]
        return None, None, self.lines[:3]

    def parts(self) -> list[Part]:
        """The body as it is drawn, top to bottom, without what a notice covers: a notice
        of n lines is a panel rising n lines from the action bar, so a one-line notice
        leaves the big digits and the first lines in view."""
        banner, big, lines = self.body()
        parts, top = [], TITLE_BOTTOM + 2
        if banner:
            parts.append(Part("banner", banner, TITLE_BOTTOM + 1, BANNER_BOTTOM))
            top = 42
        elif big:
            parts.append(Part("big", big, BIG_TOP, BIG_BOTTOM))
            top = 42
        elif self.sand is not None:
            parts.append(Part("sand", "", 14, SAND_BOTTOM))
            top = 27
        parts += [Part("line", line, top + 11 * i, top + 11 * i + INK_BOTTOM)
                  for i, line in enumerate(lines)]
        if not self.notice:
            return parts
        return [part for part in parts if part.bottom < notice_top(len(self.notice)) - 1]

    def rows(self) -> list[tuple[str, int]]:
        """Every row of small text the face draws, with the characters it has room for:
        a longer row would be cut where it is drawn (``fit``'s ``~``)."""
        if self.sealed:
            body = self.lines[:SEALED_ROWS]
        else:
            body = (*(p.text for p in self.parts() if p.kind == "line"),
                    *self.notice[:NOTICE_LINES])
        return [(self.title, LINE), *((row, LINE) for row in body), (self.bar, self.bar_room())]

    def bar_room(self) -> int:
        """The characters the bar's action has: the line, less the page count and a space;
        a longer label keeps all but the last cell, where the count is drawn small."""
        if self.stacked_count():
            return LABEL
        return LINE - (len(self.bar_right) + 1 if self.bar_right else 0)

    def stacked_count(self) -> bool:
        """The count is drawn small (companion/bar_count.py): the label leaves it no room.
        Never on a sealed face, whose bar is the same for every secret."""
        wide = len(self.bar) + 1 + len(self.bar_right) > LINE
        return bool(self.bar_right) and wide and not self.sealed

    def text(self) -> str:
        """All the words drawn on the screen, one item per line (a notice is one item, its
        lines joined again), the bar's count too: what table scripts match."""
        words = [self.title, *(part.text for part in self.parts()), " ".join(self.notice),
                 self.bar, self.bar_right]
        return "\n".join(w for w in words if w)


def notice_top(lines: int) -> int:
    """The first pixel row of a notice's panel of ``lines`` lines (four: the whole body)."""
    return BAR_TOP - 1 - NOTICE_PITCH * min(lines, NOTICE_LINES)


@cache
def small_font() -> ImageFont.ImageFont:
    """Pillow's bitmap face. From Pillow 10.1 on it has this name and load_default() is a
    FreeType face; before (Debian bookworm's 9.4, a 32-bit Pi's), load_default() is it."""
    load_bitmap = getattr(ImageFont, "load_default_imagefont", ImageFont.load_default)
    font = load_bitmap()
    assert isinstance(font, ImageFont.ImageFont)
    return font


# Aileron Regular (Sora Sagano, dotcolon.net; public domain, CC0), the subset that Pillow 10.1
# and later embed as load_default(size): shipped here so that every Pillow the companion runs
# on (Debian bookworm's 9.4 included) draws the same digits.
AILERON = Path(__file__).with_name("aileron.ttf")


@cache
def large_font(size: int) -> ImageFont.FreeTypeFont:
    # str: Debian bookworm's Pillow 9.4 takes no Path.
    return ImageFont.truetype(str(AILERON), size, layout_engine=ImageFont.Layout.BASIC)


def render(face: Face, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    image = Image.new("1", size, 0)
    draw_face(ImageDraw.Draw(image), face, size)
    return image


def draw_face(draw: ImageDraw.ImageDraw, face: Face, size: tuple[int, int]) -> None:
    width, _ = size
    if face.sealed:
        _draw_sealed(draw, face, size)
        return
    if face.qr is not None:
        _draw_qr(draw, face, width)
        return
    _draw_title(draw, face, width)
    for part in face.parts():
        if part.kind == "banner":
            _draw_banner(draw, part.text, width)
        elif part.kind == "big":
            _draw_big(draw, part.text, width)
        elif part.kind == "sand":
            _draw_sand(draw, face.sand or 0.0, width)
        else:
            _text(draw, (1, part.top), fit(part.text))
    if face.notice:
        _draw_notice(draw, face.notice, width)
    _draw_bar(draw, face, width)


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int = 0,
          fill: int = 1) -> None:
    """Draw ``text`` from a cached mask: a table shows the same few words again and again,
    and stamping a ready mask is several times cheaper than rasterising the glyphs anew."""
    draw.bitmap((round(xy[0]), round(xy[1])), _text_mask(text, size), fill=fill)


@lru_cache(maxsize=1024)
def _text_mask(text: str, size: int) -> Image.Image:
    """``text`` in the small bitmap font (size 0) or the large face, as a one-bit mask."""
    font = large_font(size) if size else small_font()
    left, top, right, bottom = font.getbbox(text)
    mask = Image.new("1", (max(1, math.ceil(right)), max(1, math.ceil(bottom))), 0)
    ImageDraw.Draw(mask).text((0, 0), text, font=font, fill=1)
    return mask


def _draw_sealed(draw: ImageDraw.ImageDraw, face: Face, size: tuple[int, int]) -> None:
    """Lit edge to edge; the title, three rows and the bar in even cells to the right edge.

    A missing row is blank cells alone, so even a face with fewer lines keeps the card's
    shape; the bar's right part (a page count) takes the last cells of its row.
    """
    width, height = size
    draw.rectangle((0, 0, width - 1, height - 1), fill=1)
    rows = (face.lines[:SEALED_ROWS] + ("",) * SEALED_ROWS)[:SEALED_ROWS]
    right = f" {face.bar_right}" if face.bar_right else ""
    bar = fit(face.bar, width=face.bar_room()).ljust(LINE - len(right)) + right
    for top, row in ((0, face.title), *zip(SEALED_TOPS, rows, strict=True), (BAR_TOP, bar)):
        draw.bitmap((0, top), sealed.row_mask(fit(row), small_font()), fill=0)
    draw.line((0, TITLE_BOTTOM - 1, width - 1, TITLE_BOTTOM - 1), fill=0)
    draw.line((0, BAR_TOP - 1, width - 1, BAR_TOP - 1), fill=0)


def _draw_title(draw: ImageDraw.ImageDraw, face: Face, width: int) -> None:
    if face.inverted_title:
        draw.rectangle((0, 0, width - 1, TITLE_BOTTOM - 1), fill=1)
        _text(draw, (1, 0), fit(face.title), fill=0)
    else:
        _text(draw, (1, 0), fit(face.title))
        draw.line((0, TITLE_BOTTOM - 1, width - 1, TITLE_BOTTOM - 1), fill=1)


def _draw_notice(draw: ImageDraw.ImageDraw, lines: tuple[str, ...], width: int) -> None:
    """A lit panel rising from the action bar: four lines at a 10-pixel pitch fill the body
    (the font's ink is 9 pixels tall), a dark row still parting it from the title."""
    top = notice_top(len(lines))
    draw.rectangle((0, top, width - 1, BAR_TOP - 2), fill=1)
    for index, line in enumerate(lines[:NOTICE_LINES]):
        _text(draw, (1, top + NOTICE_PITCH * index - INK_TOP + 1), fit(line), fill=0)


def _draw_big(draw: ImageDraw.ImageDraw, text: str, width: int) -> None:
    """Fixed-width cells: a digit that does not change keeps exactly the same pixels."""
    cell, top = _big_metrics()
    narrow = {":": cell * 0.45, " ": cell * 0.45}
    widths = [narrow.get(ch, cell) for ch in text]
    x = (width - sum(widths)) / 2
    for ch, w in zip(text, widths, strict=True):
        _text(draw, (round(x + (w - _big_length(ch)) / 2), top), ch, BIG_SIZE)
        x += w


@cache
def _big_metrics() -> tuple[float, float]:
    """The digit cell's width and the text's top: measured once, not on every tick."""
    font = large_font(BIG_SIZE)
    return max(map(_big_length, "0123456789")), BIG_TOP - font.getbbox("0")[1]


@cache
def _big_length(ch: str) -> float:
    return large_font(BIG_SIZE).getlength(ch)


def _draw_banner(draw: ImageDraw.ImageDraw, text: str, width: int) -> None:
    """As large as fits: one big line for "WIN", two smaller ones for a sentence."""
    for size, rows_allowed in ((26, 1), (18, 1), (BANNER_SIZE, 2)):
        font = large_font(size)
        rows = _wrap(text, font, width - 4)
        if len(rows) <= rows_allowed:
            break
    height = 30 // len(rows[:2])
    for index, row in enumerate(rows[:2]):
        length = font.getlength(row)
        top = TITLE_BOTTOM + 1 + height * index - font.getbbox(row)[1] + 2
        draw.text(((width - length) / 2, top), row, font=font, fill=1)


def _wrap(text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    rows: list[str] = []
    for word in text.split():
        if rows and font.getlength(rows[-1] + " " + word) <= width:
            rows[-1] += " " + word
        else:
            rows.append(word)
    return rows


def _draw_sand(draw: ImageDraw.ImageDraw, sand: float, width: int) -> None:
    left, right, top, bottom = 2, width - 3, 14, 24
    draw.rectangle((left, top, right, bottom), outline=1, fill=0)
    filled = round((right - left - 2) * max(0.0, min(1.0, sand)))
    if filled > 0:
        draw.rectangle((left + 1, top + 1, left + 1 + filled - 1, bottom - 1), fill=1)


def _draw_qr(draw: ImageDraw.ImageDraw, face: Face, width: int) -> None:
    """The QR code one pixel a module, its quiet zone lit, above the bar; the lines beside it
    (a version 5 code with its zone is 45 pixels: on a 0.96" panel a phone reads it from a
    hand's width away, docs/phones.md)."""
    assert face.qr is not None
    modules = qr_modules(face.qr)
    top = max(0, (BAR_TOP - len(modules)) // 2)
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if not dark:
                draw.point((x, top + y), fill=1)
    left = len(modules) + 3
    for index, line in enumerate(face.lines[:4]):
        _text(draw, (left, 4 + index * 11), fit(line, width=(width - left) // QR_CHAR))
    _draw_bar(draw, face, width)


def _draw_bar(draw: ImageDraw.ImageDraw, face: Face, width: int) -> None:
    if not face.bar and not face.bar_right:
        return
    ink = 0 if face.inverted_bar else 1
    if face.inverted_bar:
        draw.rectangle((0, BAR_TOP - 1, width - 1, HEIGHT - 1), fill=1)
    else:
        draw.line((0, BAR_TOP - 1, width - 1, BAR_TOP - 1), fill=1)
    _text(draw, (1, BAR_TOP), fit(face.bar, width=face.bar_room()), fill=ink)
    if face.stacked_count():
        draw.bitmap((width - bar_count.WIDTH, BAR_TOP), bar_count.stacked(face.bar_right), fill=ink)
    elif face.bar_right:
        x = width - 1 - 6 * len(face.bar_right)
        _text(draw, (x, BAR_TOP), face.bar_right, fill=ink)
