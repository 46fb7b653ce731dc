"""The desktop emulator window: keys and clicks as seat buttons, OLEDs drawn from real frames."""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pygame
import pytest
from PIL import Image, ImageDraw

from companion.app import App
from companion.clock import FakeClock
from companion.lobby import Lobby
from hardware.base import ButtonEdge, ButtonName, QuitRequested
from hardware.window.input import ButtonLatch, key_button
from hardware.window.seats import OLED_SCALE
from hardware.window.table import WindowScene, WindowTable

from .golden import assert_golden

ACT, PEEK = ButtonName.ACT, ButtonName.PEEK
NOW = 7.0


@pytest.fixture
def events() -> queue.Queue:
    return queue.Queue()


@pytest.fixture
def window(events: queue.Queue) -> Iterator[WindowTable]:
    with WindowTable(range(1, 5), events.put, clock=lambda: NOW) as table:
        yield table


def post(kind: int, **fields) -> None:
    pygame.event.post(pygame.event.Event(kind, **fields))


def next_event(events: queue.Queue) -> object:
    return events.get(timeout=5)


def test_keys_hold_is_a_real_hold(window, events):
    """A key held down holds the seat's button until the key comes up."""
    post(pygame.KEYDOWN, key=pygame.K_w, mod=0)
    assert next_event(events) == ButtonEdge(2, PEEK, True, NOW)
    post(pygame.KEYUP, key=pygame.K_w, mod=0)
    assert next_event(events) == ButtonEdge(2, PEEK, False, NOW)


def test_keys_of_seats_not_at_the_table_do_nothing(window, events):
    """Seat 8's ACT key at a four-seat table presses nothing; the next real key arrives first."""
    post(pygame.KEYDOWN, key=pygame.K_k, mod=0)
    post(pygame.KEYDOWN, key=pygame.K_1, mod=0)
    assert next_event(events) == ButtonEdge(1, ACT, True, NOW)


def test_keys_ctrl_q_and_closing_the_window_quit(window, events):
    """Ctrl-Q and the window's close button both ask the companion to stop."""
    post(pygame.KEYDOWN, key=pygame.K_q, mod=pygame.KMOD_LCTRL)
    assert next_event(events) == QuitRequested("ctrl-q")
    post(pygame.QUIT)
    assert next_event(events) == QuitRequested("window closed")


def test_keys_losing_focus_lets_every_button_go(window, events):
    """A key held when the window loses focus is released: its key-up will never come."""
    post(pygame.KEYDOWN, key=pygame.K_a, mod=0)
    assert next_event(events).pressed
    post(pygame.WINDOWFOCUSLOST)
    assert next_event(events) == ButtonEdge(1, ACT, False, NOW)


def test_keys_two_holders_make_one_press():
    """Seat 1's two ACT keys held together press once and release when the last comes up."""
    latch = ButtonLatch()
    assert latch.press((1, ACT), ("key", pygame.K_1))
    assert not latch.press((1, ACT), ("key", pygame.K_a))
    assert latch.release(("key", pygame.K_1)) is None
    assert latch.release(("key", pygame.K_a)) == (1, ACT)


def test_keys_are_the_terminal_simulators():
    """The window reads the terminal simulator's map: 1-8/asdf... for ACT, qwer... for PEEK."""
    seats = range(1, 9)
    assert key_button("3", seats) == (3, ACT)
    assert key_button("d", seats) == (3, ACT)
    assert key_button("e", seats) == (3, PEEK)
    assert key_button("z", seats) is None


def test_mouse_press_on_mousedown_release_on_mouseup():
    """A click on a seat's PEEK button holds it from mouse-down to mouse-up, wherever it ends."""
    got: list[object] = []
    scene = WindowScene([1, 2, 3], got.append, lambda: NOW)
    target = scene.panels[3].button(PEEK).center
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=target), target)
    assert got == [ButtonEdge(3, PEEK, True, NOW)]
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(0, 0)), (0, 0))
    assert got[-1] == ButtonEdge(3, PEEK, False, NOW)


def test_mouse_click_beside_the_buttons_presses_nothing():
    """A click on a seat's screen (not its buttons) is not a press."""
    got: list[object] = []
    scene = WindowScene([1, 2], got.append, lambda: NOW)
    scene.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(0, 0)),
                 scene.panels[1].oled.center)
    assert got == []


def test_oled_drawn_at_scale_from_the_hardware_frame(window):
    """Each lit pixel of the frame a seat's screen gets is a lit block in the window."""
    frame = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(frame).rectangle((10, 5, 40, 20), fill=1)
    window.hardware().seats[2].screen.show(frame)
    oled = window.scene.panels[2].oled
    shown = window.capture().crop(oled.topleft + oled.bottomright)
    seen = shown.resize((128, 64), Image.NEAREST).convert("L").point(lambda v: 255 * (v > 60))
    assert seen.convert("1").tobytes() == frame.tobytes()
    assert shown.size == (128 * OLED_SCALE, 64 * OLED_SCALE)


def test_oled_blank_screen_shows_nothing(window):
    """A blanked seat (start-up, shut-down) shows no lit pixel."""
    frame = Image.new("1", (128, 64), 1)
    screen = window.hardware().seats[1].screen
    screen.show(frame)
    screen.blank()
    oled = window.scene.panels[1].oled
    shown = window.capture().crop(oled.topleft + oled.bottomright).convert("L")
    assert shown.getextrema()[1] < 60


def test_emulator_golden_lobby(window):
    """The whole emulator at the lobby: public screen, four seats, status line, as reviewed."""
    app = App(window.hardware(), clock=FakeClock(), lobby=Lobby.prepared([1, 2, 3, 4], [1, 2]),
              on_status=window.set_status)
    app.start()
    window.set_status("Press ACT to join")
    assert_golden(window.capture(), "emulator_lobby")


def test_emulator_app_reads_the_windows_presses(window, events):
    """ACT tapped in the window joins that seat at the app: the seat's frame changes."""
    app = App(window.hardware(), clock=FakeClock(), lobby=Lobby.prepared([1, 2, 3, 4]))
    app.start()
    before = app.screens.faces[3].text()
    post(pygame.KEYDOWN, key=pygame.K_3, mod=0)
    post(pygame.KEYUP, key=pygame.K_3, mod=0)
    for _ in range(2):
        app.handle(next_event(events))
    assert app.session.lobby.joined == [3]
    assert app.screens.faces[3].text() != before
