"""The desktop emulator: one window with the public screen and every seat (``--ui window``).

The top of the window is the public screen (the same drawing the HDMI display gets), below
it one panel per seat with its OLED at scale, its ACT and PEEK buttons (clickable: pressed on
mouse-down, released on mouse-up) and its keys; a seat's vibration shakes that seat's panel
alone (marked "~~") while its motor would run; the bottom line shows the app's message and
the buzzer's last tunes. The app's thread hands frames over through the screens; the pygame
thread (:class:`~hardware.window.loop.PygameLoop`) draws them and turns keys, clicks and the
window's close button into :class:`ButtonEdge` and :class:`QuitRequested` events for the sink.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from functools import partial

from PIL import Image

from ..base import (
    ButtonEdge,
    ButtonName,
    Buzzer,
    QuitRequested,
    SeatHardware,
    Sink,
    TableHardware,
    Vibrator,
)
from ..closing import Closing
from ..sdl import pygame
from ..tunes import felt_seconds, heard
from .input import ButtonLatch, Holder, SeatButton, key_button
from .loop import PygameLoop
from .public import (
    BACKGROUND,
    FPS,
    INK,
    PublicScene,
    PygamePublicScreen,
    draw_public,
    font,
)
from .seats import PANEL_SIZE, PanelLayout, WindowSeatScreen, draw_panel, oled_surface

MAX_SEATS = 8
COLUMNS = 4
MIN_COLUMNS = 3  # keeps the public screen wide enough to read with few seats
PUBLIC_SHARE = 0.42  # the public screen's height as a share of the window's width
STATUS_HEIGHT = 34
TUNES_SHOWN = 4
QUIT_KEYS = {pygame.K_q: "ctrl-q", pygame.K_c: "ctrl-c"}


def checked_seats(seat_numbers: Iterable[int]) -> list[int]:
    """The table's seats in order; the keyboard has keys for seats 1-8 only."""
    seats = sorted(seat_numbers)
    if not seats or len(set(seats)) != len(seats) or not all(1 <= s <= MAX_SEATS for s in seats):
        raise ValueError(f"the emulator has 1 to 8 distinct seats numbered 1-8, not {seats}")
    return seats


class WindowScene:
    """Everything the window shows and every input it reads (drawn on the pygame thread)."""

    def __init__(self, seats: list[int], sink: Sink, clock: Callable[[], float]) -> None:
        self._sink = sink
        self._clock = clock
        self._lock = threading.Lock()
        columns = max(MIN_COLUMNS, min(COLUMNS, len(seats)))
        width = columns * PANEL_SIZE[0]
        self.public_rect = pygame.Rect(0, 0, width, round(width * PUBLIC_SHARE))
        self.panels = self._panels(seats, columns, width)
        rows = math.ceil(len(seats) / min(COLUMNS, len(seats)))
        self.size = (width, self.public_rect.bottom + rows * PANEL_SIZE[1] + STATUS_HEIGHT)
        self.public = PublicScene()
        self.latch = ButtonLatch()
        self._frames: dict[int, Image.Image | None] = dict.fromkeys(seats)
        self._drawn: dict[int, tuple[Image.Image | None, pygame.Surface | None]] = {}
        self._message = ""
        self._tunes: deque[str] = deque(maxlen=TUNES_SHOWN)
        self._felt_until: dict[int, float] = {}

    def _panels(self, seats: list[int], columns: int, width: int) -> dict[int, PanelLayout]:
        per_row = min(COLUMNS, len(seats))
        indent = (width - per_row * PANEL_SIZE[0]) // 2
        return {
            seat: PanelLayout(seat, (indent + (i % per_row) * PANEL_SIZE[0],
                                     self.public_rect.bottom + (i // per_row) * PANEL_SIZE[1]))
            for i, seat in enumerate(seats)
        }

    # ------------------------------------------------------------ written by the app's thread

    def keep_frame(self, seat: int, image: Image.Image | None) -> None:
        with self._lock:
            self._frames[seat] = image

    def set_message(self, text: str) -> None:
        with self._lock:
            self._message = text

    def add_tune(self, tune: str) -> None:
        with self._lock:
            self._tunes.append(tune)

    def feel(self, seat: int, seconds: float) -> None:
        with self._lock:
            self._felt_until[seat] = self._clock() + seconds

    def felt(self, seat: int, now: float) -> bool:
        """Whether the seat's motor runs at ``now``: its panel shakes."""
        with self._lock:
            return now < self._felt_until.get(seat, -math.inf)

    # ------------------------------------------------------------ the pygame thread

    def handle(self, event: pygame.event.Event, pos: tuple[int, int] | None) -> None:
        if event.type == pygame.QUIT:
            self._sink(QuitRequested("window closed"))
        elif event.type == pygame.KEYDOWN:
            self._key_down(event)
        elif event.type == pygame.KEYUP:
            self._let_go(("key", event.key))
        elif event.type == pygame.MOUSEBUTTONDOWN and pos is not None:
            self._click(pos, event.button)
        elif event.type == pygame.MOUSEBUTTONUP:
            self._let_go(("mouse", event.button))
        elif event.type == pygame.WINDOWFOCUSLOST:
            for seat, button in self.latch.release_all():
                self._edge((seat, button), False)

    def _key_down(self, event: pygame.event.Event) -> None:
        if event.mod & pygame.KMOD_CTRL and event.key in QUIT_KEYS:
            self._sink(QuitRequested(QUIT_KEYS[event.key]))
            return
        button = key_button(pygame.key.name(event.key), self.panels)
        if button is not None:
            self._take(button, ("key", event.key))

    def _click(self, pos: tuple[int, int], mouse_button: int) -> None:
        for seat, layout in self.panels.items():
            name = layout.button_at(pos)
            if name is not None:
                self._take((seat, name), ("mouse", mouse_button))

    def _take(self, button: SeatButton, holder: Holder) -> None:
        if self.latch.press(button, holder):
            self._edge(button, True)

    def _let_go(self, holder: Holder) -> None:
        button = self.latch.release(holder)
        if button is not None:
            self._edge(button, False)

    def _edge(self, button: SeatButton, pressed: bool) -> None:
        self._sink(ButtonEdge(button[0], button[1], pressed, self._clock()))

    def draw(self, canvas: pygame.Surface, now: float) -> None:
        canvas.fill(BACKGROUND)
        face, pop, reveal_pop = self.public.face(now)
        draw_public(canvas.subsurface(self.public_rect), face, now, pop, reveal_pop)
        with self._lock:
            frames = dict(self._frames)
        for seat, layout in self.panels.items():
            shake = (3 if int(now * FPS) % 2 else -3) if self.felt(seat, now) else None
            draw_panel(canvas, layout, self._oled(seat, frames[seat]),
                       partial(self._button_down, seat), shake)
        line = font(22).render(self.status_text()[:160], True, INK)
        canvas.blit(line, (12, self.size[1] - STATUS_HEIGHT + 8))

    def _button_down(self, seat: int, name: ButtonName) -> bool:
        return self.latch.is_down((seat, name))

    def _oled(self, seat: int, frame: Image.Image | None) -> pygame.Surface | None:
        """The scaled OLED, converted again only when its frame changed."""
        last_frame, surface = self._drawn.get(seat, (None, None))
        if frame is not last_frame:
            surface = None if frame is None else oled_surface(frame)
            self._drawn[seat] = (frame, surface)
        return surface

    def status_text(self) -> str:
        """The status line: the last message, then the buzzer's last tunes."""
        with self._lock:
            message, tunes = self._message, list(self._tunes)
        return message + ("   buzzer: " + ", ".join(tunes) if tunes else "")

    def next_frame(self, now: float) -> float | None:
        if any(self.felt(seat, now) for seat in self.panels):
            return now + 1 / FPS  # a panel shakes
        return self.public.next_frame(now)


class WindowBuzzer(Buzzer):
    """The buzzer as text on the window's status line (a speaker, if any, makes the sound)."""

    def __init__(self, scene: WindowScene, wake: Callable[[], None]) -> None:
        self._scene = scene
        self._wake = wake

    def sounds(self) -> bool:
        return False

    def play(self, tune: str, volume: float = 1.0) -> None:
        self._scene.add_tune(heard(tune, volume))
        self._wake()


class WindowVibrator(Vibrator):
    """A seat's motor as its panel shaking, for as long as the pattern runs."""

    def __init__(self, scene: WindowScene, seat: int, wake: Callable[[], None]) -> None:
        self._scene = scene
        self._seat = seat
        self._wake = wake

    def pulse(self, pattern: str) -> None:
        self._scene.feel(self._seat, felt_seconds(pattern))
        self._wake()


class WindowTable(Closing):
    """The emulator window as a whole table; a context manager that closes the window."""

    def __init__(
        self,
        seat_numbers: Iterable[int],
        sink: Sink,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        seats = checked_seats(seat_numbers)
        self.scene = WindowScene(seats, sink, clock)
        self._loop = PygameLoop(self.scene, clock, title="table-companion emulator")
        self._hardware = TableHardware(
            seats={n: SeatHardware(n, WindowSeatScreen(self._keep_frame, n),
                                   vibrator=WindowVibrator(self.scene, n, self._loop.wake))
                   for n in seats},
            buzzer=WindowBuzzer(self.scene, self._loop.wake),
            public=PygamePublicScreen(self.scene.public, self._loop.wake),
        )

    def hardware(self) -> TableHardware:
        return self._hardware

    def set_status(self, text: str) -> None:
        """Show ``text`` (narration, a hint) on the status line."""
        self.scene.set_message(text)
        self._loop.wake()

    def capture(self) -> Image.Image:
        """The window's canvas as drawn now (tests, golden PNGs)."""
        return self._loop.capture()

    def close(self) -> None:
        self._loop.close()

    def _keep_frame(self, seat: int, image: Image.Image | None) -> None:
        self.scene.keep_frame(seat, image)
        self._loop.wake()
