"""PEEK on the real luma device classes over a recording bus: dark first, on time, bounded.

The controller RAM and the on/off state are rebuilt from the bytes on each seat's bus, so these
tests see what the glass would show, not what the app meant to show.
"""

from __future__ import annotations

import queue

import pytest

from companion.app import App
from companion.clock import FakeClock
from companion.composer import secret_face_for
from companion.journal_sqlite import SqliteJournal
from companion.render import render
from companion.seat_ui import MAX_PEEK
from hardware.base import ButtonName
from hardware.drivers.chorus import DISPLAY_OFF, DISPLAY_ON
from hardware.drivers.planner import page_bytes
from hardware.headless import HeadlessTable
from tests.secrecy import Table
from tests.test_oled import COLUMN_OFFSET, Ram

BLANK_WITHIN = 0.1
KEYS = ["they-live", "mind-invaders", "heroes-love-to-lie", "alter-ego"]


def _commands(transfers) -> list[int]:
    return [byte for t in transfers if t.control == 0x00 for byte in t.data]


def _peeking_table(key: str) -> tuple[Table, int]:
    table = Table(seats=4)
    table.start(key, 4)
    seat = table.app.session.state.seats[1]
    table.press(seat, ButtonName.PEEK, True)
    table.wait(1.0)
    assert table.app.ui[seat].peeking
    return table, seat


@pytest.mark.parametrize("key", KEYS)
def test_peek_release_sends_display_off_before_any_other_byte(key: str) -> None:
    """On release the first byte on the bus is display-off; the RAM then holds the public
    face and the display comes back on last."""
    table, seat = _peeking_table(key)
    with table:
        bus = table.headless.buses[seat]
        ram = Ram("ssd1306").feed(bus.transfers)
        assert ram.visible() == page_bytes(render(table.app.screens.faces[seat]))
        secret = ram.visible()
        bus.clear()
        table.press(seat, ButtonName.PEEK, False)
        first = bus.transfers[0]
        assert (first.control, first.data[:1]) == (0x00, bytes([DISPLAY_OFF]))
        assert _commands(bus.transfers)[-1] == DISPLAY_ON
        ram = Ram("ssd1306")
        ram.cells[:] = secret
        ram.feed(bus.transfers)
        assert ram.visible() == page_bytes(render(table.app.screens.faces[seat]))
        assert ram.visible() != secret


@pytest.mark.parametrize("bounces", [0, 1, 3])
def test_peek_seat_dark_within_100_ms_of_release_even_when_it_bounces(bounces: int) -> None:
    """The release is taken on its first edge: the display is off before 100 ms have passed,
    however the contact bounces afterwards."""
    table, seat = _peeking_table("they-live")
    with table:
        bus = table.headless.buses[seat]
        bus.clear()
        released_at = table.clock()
        table.press(seat, ButtonName.PEEK, False)
        for _ in range(bounces):
            table.clock.advance(0.004)
            table.press(seat, ButtonName.PEEK, True)
            table.clock.advance(0.004)
            table.press(seat, ButtonName.PEEK, False)
        assert table.clock() - released_at < BLANK_WITHIN
        assert DISPLAY_OFF in _commands(bus.transfers)
        table.wait(BLANK_WITHIN)
        assert not table.app.ui[seat].peeking


def test_peek_held_too_long_goes_dark_at_the_maximum() -> None:
    """A PEEK held past the maximum peek time is concealed on its own (display off first)."""
    table, seat = _peeking_table("mind-invaders")
    with table:
        bus = table.headless.buses[seat]
        started = table.app.ui[seat].peek_until - MAX_PEEK
        table.wait(started + MAX_PEEK - 0.05 - table.clock())
        assert table.app.ui[seat].peeking
        bus.clear()
        table.wait(0.1)
        assert not table.app.ui[seat].peeking
        assert bus.transfers and _commands(bus.transfers[:1])[0] == DISPLAY_OFF


def test_peek_startup_clears_every_seat_before_a_resumed_game(tmp_path) -> None:
    """Restarting into a journaled game: the crash left each seat lit with its PEEK face;
    every seat is switched off and that face overwritten before the glass lights again."""
    path = tmp_path / "journal.sqlite3"
    with Table(seats=4, journal=SqliteJournal(path)) as before:
        before.start("they-live", 4)
        peeked = {n: page_bytes(render(secret_face_for(before.app.view(n)))) for n in range(1, 5)}
        before.app.session.journal.close()
    clock, events = FakeClock(), queue.Queue()
    with HeadlessTable(range(1, 5), events.put, clock=clock) as headless:
        for bus in headless.buses.values():
            bus.clear()
        app = App(headless.hardware, clock=clock, journal=SqliteJournal(path))
        app.start()
        assert app.session.state is not None
        for number, bus in headless.buses.items():
            _assert_dark_until_overwritten(CrashedRam("ssd1306", peeked[number]), bus.transfers)
        app.close()


class CrashedRam(Ram):
    """A seat's controller as a crash left it: lit, showing ``frame``. It keeps which cells
    of the glass no transfer has written since: there, the old face is still in RAM."""

    def __init__(self, driver: str, frame: bytes) -> None:
        super().__init__(driver)
        glass = [page * self.width + COLUMN_OFFSET[driver] + x for page in range(8)
                 for x in range(128)]
        for cell, value in zip(glass, frame, strict=True):
            self.cells[cell] = value
        self.lit = True
        self.stale = set(glass)

    def _write(self, value: int) -> None:
        self.stale.discard(self.page * self.width + self.column)
        super()._write(value)

    def old_pixels(self) -> int:
        """How many cells of the glass still show lit pixels of the crash's face."""
        return sum(1 for cell in self.stale if self.cells[cell])


def _assert_dark_until_overwritten(ram: CrashedRam, transfers) -> None:
    """Replay the transfers one by one: the display is never lit while the glass still
    holds any lit pixel of the PEEK face the crash left behind."""
    for index in range(len(transfers)):
        ram.feed(transfers[: index + 1])
        assert not (ram.lit and ram.old_pixels()), f"transfer {index}: {ram.old_pixels()} lit"
    assert DISPLAY_OFF in _commands(transfers[:1])
