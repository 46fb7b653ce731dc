"""The simulated table in a terminal: the default when there is no table.toml.

Every seat's OLED is drawn pixel for pixel in braille inside a labelled frame, the buzzer's
tunes and the app's message show as status lines, a seat's vibration marks its own frame
("~~") while its motor would run, and keys press and hold each seat's ACT
and PEEK (see :mod:`hardware.terminal.keys`). Frames are drawn in the caller's thread when a
screen changes. The reader thread turns bytes into events for the sink; it also redraws, under
the same lock, after keys that only the simulator knows (Tab, 0, ?, the hold toggles), since
the app never learns of those and would otherwise leave the screen stale until its next frame.
When the terminal is resized (SIGWINCH) the reader thread lays the table out again: the grid
gives way to one seat large where it no longer fits (and comes back when it does, unless the
player chose one seat with Tab), and a terminal too small for even one seat says how big it
must be instead of drawing frames cut to pieces.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import IO, Any, TextIO

from PIL import Image

from ..base import (
    ButtonName,
    Buzzer,
    QuitRequested,
    SeatHardware,
    SeatScreen,
    Sink,
    TableHardware,
    Vibrator,
)
from ..closing import Closing
from ..tunes import felt_seconds, heard
from .braille import braille_rows
from .compose import FOCUS_SIZE, Scene, SeatPanel, compose, fits, grid_size, too_small_lines
from .input import KeyboardMode, KeyReader, ResizeSignal, check_keys_can_arrive
from .keys import ACT_DIGITS, KeyDecoder, ViewKey

FALLBACK_SIZE = (80, 24)
TUNES_SHOWN = 6
# Alternate screen (the shell's text comes back on exit), hidden cursor, no line wrap (a line
# too long for a small terminal is cut instead of pushing every frame below it down).
CLEAR = "\x1b[H\x1b[2J"
ENTER_SCREEN = "\x1b[?1049h\x1b[?25l\x1b[?7l" + CLEAR
LEAVE_SCREEN = "\x1b[?7h\x1b[?25h\x1b[?1049l"


class TerminalTable(Closing):
    """The terminal as a whole table; a context manager that restores the terminal on close.

    ``size`` (columns, lines) replaces the output's measured size, for tests; without it the
    table follows the terminal's resizes (SIGWINCH: it must then be made in the main thread).
    """

    def __init__(
        self,
        seat_numbers: Iterable[int],
        sink: Sink,
        out: TextIO = sys.stdout,
        inp: IO[Any] = sys.stdin,
        clock: Callable[[], float] = time.monotonic,
        *,
        size: tuple[int, int] | None = None,
    ) -> None:
        self._seats = checked_seats(seat_numbers)
        self._sink = sink
        self._out = out
        self._inp = inp  # kept: if it were garbage-collected its fd would close under the reader
        self._size = size
        self._lock = threading.Lock()
        self._clock = clock
        self._keys = KeyDecoder(self._seats, clock)
        self._felt_until: dict[int, float] = {}
        self._rows: dict[int, list[str] | None] = dict.fromkeys(self._seats)
        self._offline: set[int] = set()
        self._tunes: deque[str] = deque(maxlen=TUNES_SHOWN)
        self._message = ""
        self._help_shown = False
        self._focus = self._seats[0]
        self._focus_view = not self._grid_fits()
        self._focus_chosen = False  # Tab chose one seat large: a larger terminal keeps it
        self._painted: list[str] = []
        self._closed = False
        self._hardware = TableHardware(
            seats={n: SeatHardware(n, TerminalScreen(self, n), vibrator=TerminalVibrator(self, n))
                   for n in self._seats},
            buzzer=TerminalBuzzer(self),
        )
        self._resources = self._open(self._inp.fileno())

    def _open(self, fd: int) -> contextlib.ExitStack:
        """Take over the terminal; if any step fails, undo the steps already taken."""
        check_keys_can_arrive(fd)  # before the screen is taken over
        with contextlib.ExitStack() as stack:
            stack.enter_context(KeyboardMode(fd))
            self._write(ENTER_SCREEN)
            stack.callback(self._write, LEAVE_SCREEN)
            stack.callback(self._mark_closed)
            with self._lock:
                self._paint()
            resize = None if self._size is not None else ResizeSignal(self._on_resize)
            if resize is not None:
                stack.callback(resize.close)
            stack.callback(KeyReader(fd, self._on_keys, self._on_input_end, resize).close)
            return stack.pop_all()

    def hardware(self) -> TableHardware:
        return self._hardware

    def set_status(self, text: str) -> None:
        """Show ``text`` (narration, a hint) on the message line under the seats."""
        with self._lock:
            self._message = text
            self._paint()

    def set_offline(self, seat: int, offline: bool) -> None:
        with self._lock:
            if offline:
                self._offline.add(seat)
            else:
                self._offline.discard(seat)
            self._paint()

    def close(self) -> None:
        self._resources.close()

    # ------------------------------------------------------------ called by screens, buzzer

    def _draw_seat(self, seat: int, rows: list[str] | None) -> None:
        with self._lock:
            self._rows[seat] = rows
            self._paint()

    def _record_tune(self, tune: str) -> None:
        with self._lock:
            self._tunes.append(tune)
            self._paint()

    def _feel(self, seat: int, seconds: float) -> None:
        """Mark the seat's frame for ``seconds``; a timer repaints it when they are over."""
        with self._lock:
            self._felt_until[seat] = self._clock() + seconds
            self._paint()
        timer = threading.Timer(seconds, self._repaint)
        timer.daemon = True
        timer.start()

    def _repaint(self) -> None:
        with self._lock:
            self._paint()

    # ------------------------------------------------------------ the reader thread

    def _on_keys(self, data: bytes) -> None:
        with self._lock:
            events = self._keys.feed(data)
            for key in (event for event in events if isinstance(event, ViewKey)):
                self._apply_view_key(key)
            self._paint()
        for event in events:
            if not isinstance(event, ViewKey):
                self._sink(event)

    def _on_resize(self) -> None:
        """Lay out for the new size and draw every line anew: the terminal cut or moved
        what it showed."""
        with self._lock:
            self._focus_view = self._focus_chosen or not self._grid_fits()
            self._paint(whole=True)

    def _on_input_end(self) -> None:
        self._sink(QuitRequested("input closed"))

    def _apply_view_key(self, key: ViewKey) -> None:
        if key is ViewKey.HELP:
            self._help_shown = not self._help_shown
        elif key is ViewKey.NEXT_SEAT:
            if self._focus_view:
                self._focus = self._seats[(self._seats.index(self._focus) + 1) % len(self._seats)]
            self._focus_view = self._focus_chosen = True
        elif self._grid_fits():
            self._focus_view = self._focus_chosen = False
        else:
            (columns, lines), (width, height) = grid_size(len(self._seats)), self._terminal_size()
            self._message = f"All seats need {columns}x{lines}; this terminal is {width}x{height}"

    # ------------------------------------------------------------ drawing

    def _grid_fits(self) -> bool:
        return fits(grid_size(len(self._seats)), self._terminal_size())

    def _terminal_size(self) -> tuple[int, int]:
        if self._size is not None:
            return self._size
        try:
            size = os.get_terminal_size(self._out.fileno())
            return size.columns, size.lines
        except (AttributeError, OSError, ValueError):
            return FALLBACK_SIZE

    def _scene(self) -> Scene:
        panels = [
            SeatPanel(
                number=seat,
                rows=self._rows[seat],
                offline=seat in self._offline,
                act_held=self._keys.is_held(seat, ButtonName.ACT),
                peek_held=self._keys.is_held(seat, ButtonName.PEEK),
                felt=self._clock() < self._felt_until.get(seat, -math.inf),
            )
            for seat in self._seats
        ]
        width = self._terminal_size()[0] if self._focus_view else grid_size(len(panels))[0]
        focus = self._focus if self._focus_view else None
        return Scene(panels, focus, self._help_shown, list(self._tunes), self._message, width)

    def _paint(self, *, whole: bool = False) -> None:
        """Rewrite only the lines that changed (cursor moves, no clear: nothing flickers);
        ``whole``: clear the terminal and write every line."""
        if self._closed:
            return
        have = self._terminal_size()
        if self._focus_view and not fits(FOCUS_SIZE, have):
            lines = too_small_lines(FOCUS_SIZE, have)
        else:
            lines = compose(self._scene())
        if whole:
            self._painted = []
        changes = [CLEAR] if whole else []
        changes += [
            f"\x1b[{number};1H{line}\x1b[K"
            for number, line in enumerate(lines, start=1)
            if number > len(self._painted) or self._painted[number - 1] != line
        ]
        if len(lines) < len(self._painted):
            changes.append(f"\x1b[{len(lines) + 1};1H\x1b[J")
        self._painted = lines
        if changes:
            self._write("".join(changes))

    def _mark_closed(self) -> None:
        with self._lock:
            self._closed = True

    def _write(self, text: str) -> None:
        self._out.write(text)
        self._out.flush()


class TerminalScreen(SeatScreen):
    """One seat's frame in the terminal."""

    def __init__(self, table: TerminalTable, seat: int) -> None:
        self._table = table
        self._seat = seat

    def show(self, image: Image.Image) -> None:
        self._table._draw_seat(self._seat, braille_rows(image))

    def conceal(self, image: Image.Image) -> None:
        """The new frame replaces the secret in one write: no moment shows both."""
        self.show(image)

    def blank(self) -> None:
        self._table._draw_seat(self._seat, None)


class TerminalBuzzer(Buzzer):
    """The buzzer as text: the last tunes played, on the status line (a speaker, if any,
    makes the sound)."""

    def __init__(self, table: TerminalTable) -> None:
        self._table = table

    def sounds(self) -> bool:
        return False

    def play(self, tune: str, volume: float = 1.0) -> None:
        self._table._record_tune(heard(tune, volume))


class TerminalVibrator(Vibrator):
    """A seat's motor as a mark on that seat's own frame, for as long as the pattern runs."""

    def __init__(self, table: TerminalTable, seat: int) -> None:
        self._table = table
        self._seat = seat

    def pulse(self, pattern: str) -> None:
        self._table._feel(self._seat, felt_seconds(pattern))


def checked_seats(seat_numbers: Iterable[int]) -> list[int]:
    """The table's seats in order; the keyboard has keys for seats 1-8 only."""
    seats = sorted(seat_numbers)
    if not seats or len(set(seats)) != len(seats):
        raise ValueError(f"seat numbers must be distinct and at least one: {seats}")
    if not all(1 <= seat <= len(ACT_DIGITS) for seat in seats):
        raise ValueError(f"the terminal table has seats 1-{len(ACT_DIGITS)}, not {seats}")
    return seats

