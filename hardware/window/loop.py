"""The one thread that owns pygame's video: init, the event loop and every draw.

SDL wants its window and event pump on a single thread, while the app loop lives on its own
thread and only hands over frames. So a :class:`PygameLoop` runs a scene in a thread of its
own: it sleeps in ``pygame.event.wait`` until an input arrives, another thread calls
:meth:`PygameLoop.wake` (a new frame), or the scene's next animation frame is due. A static
scene costs no wake-ups at all. The scene draws on a fixed-size canvas that is scaled into the
window, so a small desktop or a resized window still shows everything, and mouse positions are
mapped back to canvas coordinates before the scene sees them.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Protocol

from PIL import Image

from ..closing import Closing
from ..exc import WindowError
from ..sdl import pygame

START_TIMEOUT = 10.0
WAKE = pygame.event.custom_type()
CAPTURE = pygame.event.custom_type()
MOUSE_EVENTS = (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)


class Scene(Protocol):
    """What a loop shows: drawn only on the loop's thread."""

    size: tuple[int, int]

    def handle(self, event: pygame.event.Event, pos: tuple[int, int] | None) -> None:
        """An input event; ``pos`` is the mouse position on the canvas, if it has one."""

    def draw(self, canvas: pygame.Surface, now: float) -> None:
        """Draw everything as of ``now``."""

    def next_frame(self, now: float) -> float | None:
        """When an animation next needs a frame, or None while nothing moves."""


class PygameLoop(Closing):
    """A window (or the whole screen) showing ``scene``; a context manager that closes it."""

    def __init__(
        self,
        scene: Scene,
        clock: Callable[[], float],
        *,
        title: str = "table-companion",
        fullscreen: bool = False,
    ) -> None:
        self._scene = scene
        self._clock = clock
        self._title = title
        self._fullscreen = fullscreen
        self._ready = threading.Event()
        self._failure: Exception | None = None
        self._stopping = False
        self._captured: Image.Image | None = None
        self._capture_done = threading.Event()
        self._capture_lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="pygame", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT) or self._failure is not None:
            self._thread.join(START_TIMEOUT)
            raise WindowError(f"cannot open a window ({self._failure or 'no answer'})")

    def wake(self) -> None:
        """Ask for a redraw from any thread (several wakes before a draw make one frame)."""
        self._post(WAKE)

    def capture(self, timeout: float = START_TIMEOUT) -> Image.Image:
        """Draw a frame now and return the canvas as an RGB image (tests, golden PNGs)."""
        with self._capture_lock:
            self._capture_done.clear()
            self._post(CAPTURE)
            if not self._capture_done.wait(timeout) or self._captured is None:
                raise WindowError("the window did not draw a frame")
            return self._captured

    def close(self) -> None:
        self._stopping = True
        self._post(WAKE)
        self._thread.join(START_TIMEOUT)

    def _post(self, kind: int) -> None:
        with contextlib.suppress(pygame.error):  # after close there is nothing left to wake
            pygame.event.post(pygame.event.Event(kind))

    # ------------------------------------------------------------ the pygame thread

    def _run(self) -> None:
        try:
            window, canvas = self._open()
        except pygame.error as error:
            self._failure = error
            self._ready.set()
            return
        self._ready.set()
        try:
            self._loop(window, canvas)
        finally:
            pygame.display.quit()  # not pygame.quit(): the speaker may still use the mixer

    def _open(self) -> tuple[pygame.Surface, pygame.Surface]:
        pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption(self._title)
        pygame.event.set_blocked(pygame.MOUSEMOTION)  # nothing follows the pointer: no redraws
        if self._fullscreen:
            window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            pygame.mouse.set_visible(False)
        else:
            window = pygame.display.set_mode(_window_size(self._scene.size), pygame.RESIZABLE)
        return window, pygame.Surface(self._scene.size)

    def _loop(self, window: pygame.Surface, canvas: pygame.Surface) -> None:
        while not self._stopping:
            now = self._clock()
            self._scene.draw(canvas, now)
            _present(window, canvas)
            event = _wait(self._scene.next_frame(now), now)
            for pending in [event, *pygame.event.get()]:
                self._dispatch(pending, window, canvas)

    def _dispatch(self, event: pygame.event.Event, window: pygame.Surface,
                  canvas: pygame.Surface) -> None:
        if event.type == CAPTURE:
            self._scene.draw(canvas, self._clock())
            self._captured = _to_image(canvas)
            self._capture_done.set()
        elif event.type not in (WAKE, pygame.NOEVENT):
            pos = _canvas_pos(event, window, canvas) if event.type in MOUSE_EVENTS else None
            self._scene.handle(event, pos)


def _wait(moment: float | None, now: float) -> pygame.event.Event:
    """Sleep until an event or the next animation frame (an empty event then)."""
    if moment is None:
        return pygame.event.wait()
    return pygame.event.wait(max(1, round((moment - now) * 1000)))


def _window_size(canvas: tuple[int, int]) -> tuple[int, int]:
    """The canvas size, shrunk to fit the desktop when it is smaller."""
    info = pygame.display.Info()
    limit_w, limit_h = info.current_w * 0.9, info.current_h * 0.9
    if limit_w <= 0 or limit_h <= 0:
        return canvas
    factor = min(1.0, limit_w / canvas[0], limit_h / canvas[1])
    return round(canvas[0] * factor), round(canvas[1] * factor)


def _fit(window: pygame.Surface, canvas: pygame.Surface) -> pygame.Rect:
    """Where the canvas goes in the window: as large as fits, aspect kept, centred."""
    (win_w, win_h), (can_w, can_h) = window.get_size(), canvas.get_size()
    factor = min(win_w / can_w, win_h / can_h)
    rect = pygame.Rect(0, 0, max(1, round(can_w * factor)), max(1, round(can_h * factor)))
    rect.center = (win_w // 2, win_h // 2)
    return rect


def _present(window: pygame.Surface, canvas: pygame.Surface) -> None:
    target = _fit(window, canvas)
    if target.size == canvas.get_size():
        window.blit(canvas, target)
    else:
        window.fill((0, 0, 0))
        window.blit(pygame.transform.smoothscale(canvas, target.size), target)
    pygame.display.flip()


def _canvas_pos(event: pygame.event.Event, window: pygame.Surface,
                canvas: pygame.Surface) -> tuple[int, int] | None:
    if not hasattr(event, "pos"):
        return None
    target = _fit(window, canvas)
    x = (event.pos[0] - target.x) * canvas.get_width() / target.width
    y = (event.pos[1] - target.y) * canvas.get_height() / target.height
    return int(x), int(y)


def _to_image(canvas: pygame.Surface) -> Image.Image:
    # tostring, not tobytes: Debian bookworm's pygame 2.1.2 (a 32-bit Pi's) has no tobytes.
    return Image.frombytes("RGB", canvas.get_size(), pygame.image.tostring(canvas, "RGB"))
