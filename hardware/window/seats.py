"""Seat panels in the emulator window: each seat's OLED at scale, its buttons and its keys.

The OLED is drawn from exactly the 128x64 one-bit frame the hardware would get, scaled by
whole pixels (nearest neighbour), so what the window shows is what a seat's display shows.
A panel's geometry is fixed (:class:`PanelLayout`); the window lays panels out in a grid and
asks them where their ACT and PEEK buttons are, so a mouse click lands on the right seat.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageOps

from ..base import SCREEN_SIZE, ButtonName, SeatScreen
from ..sdl import pygame
from ..terminal.keys import ACT_DIGITS, ACT_TAP_KEYS, PEEK_TAP_KEYS
from .public import font

OLED_SCALE = 2
OLED_LIT = (150, 215, 255)
PANEL_SIZE = (288, 240)
MARGIN = 16
HEADER = 28
BUTTON_HEIGHT = 36
PANEL = (28, 31, 40)
BEZEL = (6, 6, 8)
OFF = (22, 22, 26)
LABEL = (220, 222, 230)
HINT = (140, 146, 160)
BUTTON_UP = (70, 76, 96)
BUTTON_DOWN = (245, 196, 70)
FELT = (120, 200, 140)  # the frame of a panel whose motor runs


def oled_surface(image: Image.Image) -> pygame.Surface:
    """A seat frame (mode "1") as lit OLED pixels, scaled by whole pixels."""
    lit = ImageOps.colorize(image.convert("L"), black=(0, 0, 0), white=OLED_LIT)
    # fromstring: Debian bookworm's pygame 2.1.2 (a 32-bit Pi's) has no frombytes.
    surface = pygame.image.fromstring(lit.tobytes(), image.size, "RGB")
    size = (image.width * OLED_SCALE, image.height * OLED_SCALE)
    return pygame.transform.scale(surface, size)


def key_hint(seat: int) -> str:
    act, peek = ACT_TAP_KEYS[seat - 1], PEEK_TAP_KEYS[seat - 1]
    return f"keys: ACT {ACT_DIGITS[seat - 1]} or {act}   PEEK {peek}"


@dataclass(frozen=True)
class PanelLayout:
    """Where one seat's panel and its parts are on the window canvas."""

    seat: int
    origin: tuple[int, int]

    @property
    def oled(self) -> pygame.Rect:
        width, height = SCREEN_SIZE
        return pygame.Rect(self._at(MARGIN, HEADER), (width * OLED_SCALE, height * OLED_SCALE))

    def button(self, name: ButtonName) -> pygame.Rect:
        width = (self.oled.width - MARGIN) // 2
        left = MARGIN if name is ButtonName.ACT else MARGIN * 2 + width
        return pygame.Rect(self._at(left, self.oled.bottom - self.origin[1] + 12),
                           (width, BUTTON_HEIGHT))

    def button_at(self, pos: tuple[int, int]) -> ButtonName | None:
        return next((name for name in ButtonName if self.button(name).collidepoint(pos)), None)

    def _at(self, x: int, y: int) -> tuple[int, int]:
        return self.origin[0] + x, self.origin[1] + y


def draw_panel(canvas: pygame.Surface, layout: PanelLayout, oled: pygame.Surface | None,
               is_down: Callable[[ButtonName], bool], shake: int | None = None) -> None:
    """One seat: its number, its OLED (dark when blanked), its buttons as they are held;
    ``shake`` (pixels, None: still) while its motor runs: the OLED jitters, the panel's
    edge lights and "~~" follows its number."""
    panel = pygame.Rect(layout.origin, PANEL_SIZE).inflate(-6, -6)
    canvas.fill(PANEL, panel)
    if shake is not None:
        pygame.draw.rect(canvas, FELT, panel, width=3)
    label = f"Seat {layout.seat}" + ("  ~~" if shake is not None else "")
    title = font(26).render(label, True, FELT if shake is not None else LABEL)
    canvas.blit(title, (layout.oled.left, layout.origin[1] + 6))
    screen = layout.oled.move(shake or 0, 0)
    canvas.fill(BEZEL, screen.inflate(8, 8))
    if oled is None:
        canvas.fill(OFF, screen)
    else:
        canvas.blit(oled, screen)
    for name in ButtonName:
        rect, down = layout.button(name), is_down(name)
        pygame.draw.rect(canvas, BUTTON_DOWN if down else BUTTON_UP, rect, border_radius=8)
        caption = font(24).render(name.name, True, PANEL if down else LABEL)
        canvas.blit(caption, caption.get_rect(center=rect.center))
    hint = font(18).render(key_hint(layout.seat), True, HINT)
    canvas.blit(hint, (layout.oled.left, layout.button(ButtonName.ACT).bottom + 8))


class WindowSeatScreen(SeatScreen):
    """One seat's OLED in the window: it keeps the latest frame and asks for a redraw."""

    def __init__(self, keep: Callable[[int, Image.Image | None], None], seat: int) -> None:
        self._keep = keep
        self._seat = seat

    def show(self, image: Image.Image) -> None:
        self._keep(self._seat, image.copy())

    def conceal(self, image: Image.Image) -> None:
        """The public frame replaces the secret in one draw: no frame shows both."""
        self.show(image)

    def blank(self) -> None:
        self._keep(self._seat, None)
