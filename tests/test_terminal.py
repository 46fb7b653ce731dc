"""The terminal table end to end: frames in the output, keys through a pipe, terminal modes."""

from __future__ import annotations

import codecs
import contextlib
import fcntl
import io
import os
import queue
import re
import signal
import struct
import termios
import threading
from collections.abc import Iterator

import pytest
from PIL import Image

from hardware.base import ButtonEdge, ButtonName, QuitRequested
from hardware.terminal.compose import FRAME_WIDTH, display_width
from hardware.terminal.table import CLEAR, LEAVE_SCREEN, TerminalTable

GRID = (200, 60)
POSITIONED_LINE = re.compile(r"\x1b\[(\d+);1H(?:\x1b\[J|(.*?)\x1b\[K)", re.S)
STYLE = re.compile(r"\x1b\[[0-9;]*m")


class Keyboard:
    """A pipe standing in for the keyboard, and the queue the table hands events to."""

    def __init__(self) -> None:
        read_end, self.write_end = os.pipe()
        self.inp = open(read_end, "rb", buffering=0)  # noqa: SIM115 - closed by the fixture
        self.events: queue.Queue[object] = queue.Queue()

    def type(self, keys: bytes) -> None:
        os.write(self.write_end, keys)

    def next_event(self) -> object:
        return self.events.get(timeout=2)

    def type_and_settle(self, keys: bytes) -> None:
        """Type ``keys`` then seat 1's tap, and wait for the tap: ``keys`` are handled by then."""
        self.type(keys + b"1")
        self.next_event()
        self.next_event()

    def close(self) -> None:
        self.inp.close()
        if self.write_end >= 0:
            os.close(self.write_end)

    def hang_up(self) -> None:
        os.close(self.write_end)
        self.write_end = -1


@pytest.fixture
def keyboard() -> Iterator[Keyboard]:
    board = Keyboard()
    yield board
    board.close()


def make_table(keyboard: Keyboard, seats=(1, 2, 3), size=GRID) -> tuple[TerminalTable, io.StringIO]:
    out = io.StringIO()
    table = TerminalTable(
        seats, keyboard.events.put, out=out, inp=keyboard.inp, clock=lambda: 42.0, size=size
    )
    return table, out


@contextlib.contextmanager
def open_table(keyboard: Keyboard, **layout) -> Iterator[tuple[TerminalTable, io.StringIO]]:
    table, out = make_table(keyboard, **layout)
    with table:
        yield table, out


def screen(output: str) -> list[str]:
    """The terminal's lines after replaying the table's positioned writes, styles removed."""
    rows: dict[int, str] = {}
    for match in POSITIONED_LINE.finditer(output):
        number, text = int(match[1]), match[2]
        if text is None:
            rows = {row: line for row, line in rows.items() if row < number}
        else:
            rows[number] = STYLE.sub("", text)
    return [rows.get(row, "") for row in range(1, max(rows, default=0) + 1)]


def white() -> Image.Image:
    return Image.new("1", (128, 64), 1)


def test_table_frame_shown_on_seat_2_appears_at_its_place(keyboard: Keyboard) -> None:
    """A white frame on seat 2 fills the middle frame of the grid and no other."""
    with open_table(keyboard) as (table, out):
        table.hardware().seats[2].screen.show(white())
        lines = screen(out.getvalue())
    frame_rows = lines[1:17]
    assert all(line[FRAME_WIDTH + 1 : 2 * FRAME_WIDTH - 1] == "⣿" * 64 for line in frame_rows)
    assert all(line.count("⣿") == 64 for line in frame_rows)
    assert "Seat 2" in lines[0][FRAME_WIDTH : 2 * FRAME_WIDTH]


def test_table_blank_shows_a_dark_frame_marked_off(keyboard: Keyboard) -> None:
    """Blanking a seat after a frame leaves its frame dark and labelled off."""
    with open_table(keyboard) as (table, out):
        screen_2 = table.hardware().seats[2].screen
        screen_2.show(white())
        screen_2.blank()
        lines = screen(out.getvalue())
    assert "⣿" not in "".join(lines)
    assert "Seat 2 ─" in lines[0] and " off " in lines[0][FRAME_WIDTH : 2 * FRAME_WIDTH]


def test_table_conceal_replaces_the_secret(keyboard: Keyboard) -> None:
    """After conceal the seat shows the public frame; no dot of the secret stays."""
    with open_table(keyboard) as (table, out):
        seat = table.hardware().seats[1].screen
        seat.show(white())
        seat.conceal(Image.new("1", (128, 64), 0))
        lines = screen(out.getvalue())
    assert "⣿" not in "".join(lines)


def test_table_act_tap_reaches_the_sink(keyboard: Keyboard) -> None:
    """Key 2 hands seat 2's ACT press and release, stamped by the clock, to the sink."""
    with open_table(keyboard) as (_table, _out):
        keyboard.type(b"2")
        assert keyboard.next_event() == ButtonEdge(2, ButtonName.ACT, True, 42.0)
        assert keyboard.next_event() == ButtonEdge(2, ButtonName.ACT, False, 42.0)


def test_table_peek_hold_toggle_shows_in_the_frame(keyboard: Keyboard) -> None:
    """Shift+W holds seat 2's PEEK and its frame says so until Shift+W again."""
    with open_table(keyboard) as (_table, out):
        keyboard.type(b"W")
        assert keyboard.next_event() == ButtonEdge(2, ButtonName.PEEK, True, 42.0)
        assert "PEEK held" in screen(out.getvalue())[0][FRAME_WIDTH : 2 * FRAME_WIDTH]
        keyboard.type(b"W")
        assert keyboard.next_event() == ButtonEdge(2, ButtonName.PEEK, False, 42.0)
        assert "PEEK held" not in screen(out.getvalue())[0]


def test_table_act_hold_toggle_shows_in_the_frame(keyboard: Keyboard) -> None:
    """Shift+D holds seat 3's ACT and its frame says ACT held."""
    with open_table(keyboard) as (_table, out):
        keyboard.type(b"D")
        assert keyboard.next_event() == ButtonEdge(3, ButtonName.ACT, True, 42.0)
        assert "ACT held" in screen(out.getvalue())[0][2 * FRAME_WIDTH :]


@pytest.mark.parametrize("key", [b"\x11", b"\x03"])
def test_table_ctrl_q_and_ctrl_c_quit(keyboard: Keyboard, key: bytes) -> None:
    """Ctrl-Q or Ctrl-C hands a quit request to the sink."""
    with open_table(keyboard):
        keyboard.type(key)
        assert isinstance(keyboard.next_event(), QuitRequested)


def test_table_keys_of_absent_seats_are_ignored(keyboard: Keyboard) -> None:
    """With seats 1-3, key 5 presses nothing: the next event is seat 1's tap."""
    with open_table(keyboard):
        keyboard.type(b"5tT1")
        assert keyboard.next_event() == ButtonEdge(1, ButtonName.ACT, True, 42.0)


def test_table_end_of_input_quits(keyboard: Keyboard) -> None:
    """When the input closes no key can come, so the table asks the app to quit."""
    with open_table(keyboard):
        keyboard.hang_up()
        assert keyboard.next_event() == QuitRequested("input closed")


def test_table_buzzer_tune_and_message_show_in_status(keyboard: Keyboard) -> None:
    """A tune played and a message set both appear on the status lines."""
    with open_table(keyboard) as (table, out):
        table.hardware().buzzer.play("warning")
        table.set_status("Night falls")
        lines = screen(out.getvalue())
    assert "♪ warning" in lines[-4] and lines[-3] == "» Night falls"


def test_table_offline_seat_is_marked(keyboard: Keyboard) -> None:
    """A seat marked offline says OFFLINE in its frame, and loses it when back."""
    with open_table(keyboard) as (table, out):
        table.set_offline(3, True)
        assert "OFFLINE" in screen(out.getvalue())[0][2 * FRAME_WIDTH :]
        table.set_offline(3, False)
        assert "OFFLINE" not in screen(out.getvalue())[0]


def test_table_six_seats_fit_a_200_by_60_terminal(keyboard: Keyboard) -> None:
    """Six seats start in the grid, which fits 200 columns and 60 lines."""
    with open_table(keyboard, seats=range(1, 7)) as (table, out):
        for seat in table.hardware().seats.values():
            seat.screen.show(white())
        lines = screen(out.getvalue())
    assert len(lines) <= 60 and max(map(display_width, lines)) <= 200
    assert sum(line.count("⣿" * 64) for line in lines) == 6 * 16


def test_table_starts_in_focus_view_when_the_terminal_is_small(keyboard: Keyboard) -> None:
    """In 80x24 a six-seat table starts with one seat large, fitting the terminal."""
    with open_table(keyboard, seats=range(1, 7), size=(80, 24)) as (table, out):
        table.hardware().seats[1].screen.show(white())
        lines = screen(out.getvalue())
    assert len(lines) <= 24 and max(map(display_width, lines)) <= 80
    assert "Seat 1" in lines[0] and "Seat 2" not in lines[0]
    assert sum("⣿" * 64 in line for line in lines) == 16


def test_table_tab_cycles_the_focused_seat(keyboard: Keyboard) -> None:
    """Tab shows the first seat large, Tab again the next seat."""
    with open_table(keyboard) as (_table, out):
        keyboard.type(b"\t")
        keyboard.type_and_settle(b"\t")
        lines = screen(out.getvalue())
    assert "Seat 2" in lines[0] and "Seat 1" not in lines[0]
    assert len(lines) <= 24


def test_table_zero_returns_to_the_grid(keyboard: Keyboard) -> None:
    """After Tab, 0 shows all seats side by side again."""
    with open_table(keyboard) as (_table, out):
        keyboard.type_and_settle(b"\t0")
        top = screen(out.getvalue())[0]
    assert all(f"Seat {seat}" in top for seat in (1, 2, 3))


def test_table_zero_in_a_small_terminal_says_why_it_stays(keyboard: Keyboard) -> None:
    """In 80x24, 0 keeps the focus view and says how big the grid would need the terminal."""
    with open_table(keyboard, seats=range(1, 7), size=(80, 24)) as (_table, out):
        keyboard.type_and_settle(b"0")
        text = "\n".join(screen(out.getvalue()))
    assert "need 198x40" in text and "Seat 2 ─" not in text


def test_table_question_mark_toggles_help(keyboard: Keyboard) -> None:
    """? shows the key help in place of the seats; ? again brings the seats back."""
    with open_table(keyboard) as (_table, out):
        keyboard.type_and_settle(b"?")
        assert "PEEK  hold / release" in "\n".join(screen(out.getvalue()))
        keyboard.type_and_settle(b"?")
        lines = screen(out.getvalue())
    assert "Seat 1" in lines[0] and "hold / release" not in "\n".join(lines)


def test_table_close_restores_cursor_and_stops_the_reader(keyboard: Keyboard) -> None:
    """Closing shows the cursor again, leaves the alternate screen and ends the thread."""
    table, out = make_table(keyboard)
    table.close()
    table.close()
    assert out.getvalue().endswith(LEAVE_SCREEN)
    assert not any(thread.name == "terminal-keys" for thread in threading.enumerate())


def test_table_draws_nothing_after_close(keyboard: Keyboard) -> None:
    """A frame sent after close does not scribble on the restored terminal."""
    table, out = make_table(keyboard)
    table.close()
    table.hardware().seats[1].screen.show(white())
    assert out.getvalue().endswith(LEAVE_SCREEN)


def test_table_rejects_seats_without_keys(keyboard: Keyboard) -> None:
    """Seat 9 has no keys, so a table with it is refused at once."""
    with pytest.raises(ValueError, match="1-8"):
        make_table(keyboard, seats=(1, 9))


# ---------------------------------------------------------------- a real terminal (pty)


@pytest.fixture
def pty() -> Iterator[tuple[int, int]]:
    master, slave = os.openpty()
    yield master, slave
    os.close(master)
    os.close(slave)


def pty_table(slave: int, events: queue.Queue[object]) -> TerminalTable:
    inp = os.fdopen(slave, "rb", buffering=0, closefd=False)
    return TerminalTable((1, 2), events.put, out=io.StringIO(), inp=inp, size=GRID)


def test_table_pty_mode_is_key_at_a_time_then_restored(pty: tuple[int, int]) -> None:
    """While open the tty has no echo or line editing; after close its mode is as before."""
    _master, slave = pty
    before = termios.tcgetattr(slave)
    with pty_table(slave, queue.Queue()):
        during = termios.tcgetattr(slave)
        assert not during[3] & (termios.ECHO | termios.ICANON | termios.ISIG)
    assert termios.tcgetattr(slave) == before


def test_table_pty_mode_is_restored_after_an_exception(pty: tuple[int, int]) -> None:
    """An exception inside the table's block still leaves the tty as it was."""
    _master, slave = pty
    before = termios.tcgetattr(slave)
    with pytest.raises(RuntimeError), pty_table(slave, queue.Queue()):
        raise RuntimeError("the app crashed")
    assert termios.tcgetattr(slave) == before


def test_table_pty_ctrl_c_and_ctrl_q_arrive_as_keys(pty: tuple[int, int]) -> None:
    """On a real tty Ctrl-C quits through the sink instead of raising KeyboardInterrupt."""
    master, slave = pty
    events: queue.Queue[object] = queue.Queue()
    with pty_table(slave, events):
        os.write(master, b"\x03\x11")
        assert events.get(timeout=2) == QuitRequested("ctrl-c")
        assert events.get(timeout=2) == QuitRequested("ctrl-q")


QUIT_KEYS = "Ctrl-C quit"  # on the last line of the grid and of one seat large


class PtyScreen:
    """What a terminal emulator on a pty's master side shows: a thread reads all the table
    writes (so the table never blocks on a full pty) and the test waits for a screen."""

    def __init__(self, master: int) -> None:
        self._master = master
        self._text = ""
        self._clears = 0  # clears written before the last resize
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")()
        while True:
            try:
                chunk = os.read(self._master, 65536)
            except OSError:  # EIO: every slave side closed
                return
            with self._changed:
                self._text += decoder.decode(chunk)
                self._changed.notify_all()

    def resize(self, columns: int, lines: int) -> None:
        """Set the pty's size and signal it, as a terminal emulator does (the kernel signals
        only a terminal's own session, and the test process is not in the pty's)."""
        fcntl.ioctl(self._master, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        with self._changed:
            self._clears = self._text.count(CLEAR)
        os.kill(os.getpid(), signal.SIGWINCH)

    def shows(self, last: str) -> list[str]:
        """The screen drawn since a clear after the last resize, once its last line (written
        last, so the whole screen has arrived) has ``last`` in it."""
        def now() -> list[str]:
            return screen(self._text.rsplit(CLEAR, 1)[-1])

        def drawn() -> bool:
            return self._text.count(CLEAR) > self._clears and last in (now() or [""])[-1]

        with self._changed:
            assert self._changed.wait_for(drawn, timeout=10), now()
            return now()

    def join(self) -> None:
        self._thread.join()


def test_table_pty_shrunk_terminal_lays_out_again() -> None:
    """Shrunk, the grid gives way to one seat large; too small for one seat, the terminal
    says how big it must be and draws no cut frame; enlarged, the grid comes back."""
    master, slave = os.openpty()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
    terminal = PtyScreen(master)
    out = open(os.dup(slave), "w", encoding="utf-8")  # noqa: SIM115 - closed below
    inp = os.fdopen(slave, "rb", buffering=0)
    try:
        with TerminalTable((1, 2, 3), queue.Queue[object]().put, out=out, inp=inp) as table:
            assert all(f"Seat {n}" in terminal.shows(QUIT_KEYS)[0] for n in (1, 2, 3))
            table.hardware().seats[2].screen.show(white())
            terminal.resize(80, 24)
            lines = terminal.shows(QUIT_KEYS)
            assert "Seat 1" in lines[0] and "Seat 2 ─" not in "\n".join(lines)
            assert len(lines) <= 24 and max(map(display_width, lines)) <= 80
            terminal.resize(40, 10)
            lines = terminal.shows("Ctrl-Q quits")
            assert "Make it 79x22" in lines and "Terminal 40x10:" in lines
            assert max(map(display_width, lines)) <= 40 and "Seat" not in "\n".join(lines)
            terminal.resize(200, 60)
            lines = terminal.shows(QUIT_KEYS)
            assert all(f"Seat {n}" in lines[0] for n in (1, 2, 3))
            assert sum(line.count("⣿" * 64) for line in lines) == 16
    finally:
        out.close()
        inp.close()
        terminal.join()
        os.close(master)
