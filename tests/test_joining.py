"""Joining a phone seat from the table's screens: in the lobby the HDMI screen shows each free
phone seat's link as a QR code (module for module), and so does a wired seat's OLED on
request; no screen a network can read gets a link: the browser's public page says only which
phone seats are free."""

from __future__ import annotations

import queue

import pygame
import pytest
from PIL import Image

from companion.app import App
from companion.clock import FakeClock
from companion.render import BAR_TOP
from companion.scripts import ScriptRunner, parse
from hardware.base import SeatLink, TableHardware
from hardware.headless import HeadlessTable
from hardware.qr import qr_modules
from hardware.web.table import phone_seats, with_browser_public
from hardware.window.public import (
    QR_DARK,
    QR_LIGHT,
    PublicScene,
    PygamePublicScreen,
    draw_public,
)

from .listener import Listener
from .phones import WAIT
from .test_oled import Ram

SIZE = (1280, 720)


@pytest.fixture(autouse=True, scope="module")
def fonts() -> None:
    pygame.font.init()


def drawn_modules(image: Image.Image, box: tuple[int, int, int, int], count: int) -> list[str]:
    """The modules of a QR code drawn in ``box`` (count by count cells), read at each cell's
    centre as a camera would: 1 dark, 0 light."""
    left, top, right, bottom = box
    cell = (right - left) / count
    return ["".join("1" if image.getpixel((round(left + (c + 0.5) * cell),
                                          round(top + (r + 0.5) * cell))) == QR_DARK else "0"
                    for c in range(count)) for r in range(count)]


def qr_boxes(image: Image.Image) -> list[tuple[int, int, int, int]]:
    """Each QR code's box: the runs of rows holding its exact light and dark colours."""
    width, height = image.size
    rows = [y for y in range(height)
            if any(image.getpixel((x, y)) == QR_LIGHT for x in range(width // 2, width))]
    boxes, start = [], rows[0]
    for previous, row in zip(rows, rows[1:] + [None], strict=True):
        if row != previous + 1:
            xs = [x for x in range(width) if image.getpixel((x, start)) in (QR_LIGHT, QR_DARK)]
            boxes.append((xs[0], start, xs[-1] + 1, previous + 1))
            if row is not None:
                start = row
    return boxes


def test_the_lobby_shows_each_free_phone_seats_link_as_a_qr_code_on_the_table_screen():
    events: queue.Queue[object] = queue.Queue()
    clock = FakeClock()
    seats = phone_seats(range(1, 3), events.put, port=0, listen="127.0.0.1",
                        public_host="127.0.0.1", clock=clock)
    hardware = TableHardware(seats=seats)
    scene = PublicScene()
    hardware.public = PygamePublicScreen(scene, wake=lambda: None)
    server = with_browser_public(hardware)
    assert server is not None
    links = {n: seat.phone_link for n, seat in seats.items() if seat.phone_link}
    hardware.public.give_links(links)
    listener = Listener(f"ws://127.0.0.1:{server.port}/ws/table")
    app = App(hardware, clock=clock)
    try:
        app.start()
        app.step(*[events.get_nowait() for _ in range(events.qsize())])  # no phone is on yet
        face = scene.face(clock.now)[0]
        assert face.joins == ((1, links[1]), (2, links[2]))
        surface = pygame.Surface(SIZE)
        draw_public(surface, face, clock.now)
        image = Image.frombytes("RGB", SIZE, pygame.image.tobytes(surface, "RGB"))
        boxes = qr_boxes(image)
        assert len(boxes) == 2
        for seat, box in zip((1, 2), boxes, strict=True):
            modules = qr_modules(links[seat])
            assert drawn_modules(image, box, len(modules)) == [
                "".join("1" if m else "0" for m in row) for row in modules]

        pages = [listener.received.get(timeout=WAIT)]
        while b'"joinable":[1,2]' not in pages[-1]:  # the page as of the start, then this one
            pages.append(listener.received.get(timeout=WAIT))
        for link in links.values():  # the browser's page names the seats, never a key
            key = link.split("#")[1].encode()
            assert not any(key in page for page in pages)
    finally:
        listener.close()
        app.close()
        hardware.close()


def test_a_wired_seat_shows_a_phone_seats_link_as_a_qr_code_on_its_oled():
    """On request in the lobby, read back from the bytes on the seat's I2C bus: every module
    one lit or dark pixel, the quiet zone lit; it goes once a phone is on that seat."""
    events: queue.Queue[object] = queue.Queue()
    clock = FakeClock()
    table = HeadlessTable(range(1, 3), events.put, clock=clock)
    table.hardware.seats.update(phone_seats([3], events.put, port=0, listen="127.0.0.1",
                                            public_host="127.0.0.1", clock=clock))
    link = table.hardware.seats[3].phone_link
    assert link is not None
    app = App(table.hardware, clock=clock)

    def pump() -> None:
        app.step(*[events.get_nowait() for _ in range(events.qsize())])

    try:
        app.start()
        runner = ScriptRunner(app, clock, table.drive, pump)
        runner.run(parse('join 1\nchoose 1 "Show seat 3\'s link"')[1])
        glass = Ram("ssd1306").feed(table.buses[1].transfers).image()
        modules = qr_modules(link)
        top = (BAR_TOP - len(modules)) // 2
        assert len(modules) <= BAR_TOP  # a version 5 code, one pixel a module, fits
        drawn = ["".join("0" if glass.getpixel((x, top + y)) else "1"
                         for x in range(len(modules))) for y in range(len(modules))]
        assert drawn == ["".join("1" if m else "0" for m in row) for row in modules]
        assert "Phone seat 3" in app.screens.faces[1].text()

        app.step(SeatLink(3, up=True))  # a phone opened it: the seat's own screen is back
        assert app.screens.faces[1].qr is None
    finally:
        app.close()
        table.close()
