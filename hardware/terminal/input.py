"""Reading the keyboard: the terminal mode that delivers single keys, and the reader thread.

The reader blocks in a selector on the input and a self-pipe, so it costs nothing while no
key is pressed and stops at once when closed (no polling timeout to wait out). It also wakes
when the terminal is resized (SIGWINCH, :class:`ResizeSignal`), so the table lays itself out
again at once rather than at the next frame.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import stat
import termios
import threading
from collections.abc import Callable

from ..exc import NoKeyboard

READ_SIZE = 1024


NO_KEYBOARD = ("the simulated table reads its keys from a terminal, and this input is none "
               "(/dev/null or a file): run companion play in a terminal (ssh -t for one "
               "over SSH), or play a script without one: companion script FILE")


def check_keys_can_arrive(fd: int) -> None:
    """Raise :class:`NoKeyboard` unless ``fd`` is a terminal, a pipe or a socket: a file or
    /dev/null cannot be waited on (epoll refuses it with a bare EPERM) and no key comes."""
    mode = os.fstat(fd).st_mode
    if not (os.isatty(fd) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        raise NoKeyboard(NO_KEYBOARD)


class KeyboardMode:
    """Puts a tty into key-at-a-time mode and restores its exact previous settings.

    Echo and line editing go so every key arrives at once and unprinted; signals and flow
    control go so Ctrl-C and Ctrl-Q arrive as keys (the app quits cleanly instead of dying in
    a signal, and Ctrl-Q is not swallowed as XON). Output processing stays as it was.
    A pipe (tests, scripted input) is left alone.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._saved: list | None = None

    def __enter__(self) -> KeyboardMode:
        if os.isatty(self._fd):
            self._saved = termios.tcgetattr(self._fd)
            termios.tcsetattr(self._fd, termios.TCSANOW, key_at_a_time(self._saved))
        return self

    def __exit__(self, *exc: object) -> None:
        if self._saved is not None:
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
            self._saved = None


def key_at_a_time(attributes: list) -> list:
    """A copy of tcgetattr ``attributes`` with echo, line editing, signals and XON/XOFF off."""
    iflag, oflag, cflag, lflag, ispeed, ospeed, cc = attributes
    cc = list(cc)
    cc[termios.VMIN] = 1
    cc[termios.VTIME] = 0
    iflag &= ~(termios.IXON | termios.ICRNL)
    lflag &= ~(termios.ECHO | termios.ICANON | termios.ISIG | termios.IEXTEN)
    return [iflag, oflag, cflag, lflag, ispeed, ospeed, cc]


class ResizeSignal:
    """SIGWINCH as a byte on a pipe, which the reader thread waits on with the keys.

    The handler only writes the byte: Python runs it in the main thread between any two
    bytecodes, so redrawing there could interrupt a paint that holds the table's lock and
    wait for it forever. The reader thread runs ``on_resize`` instead. Made in the main
    thread (the only one that may set a handler); :meth:`close` puts the old handler back.
    """

    def __init__(self, on_resize: Callable[[], None]) -> None:
        self.on_resize = on_resize
        self.fd, self._write_fd = os.pipe()
        os.set_blocking(self._write_fd, False)
        self._previous = signal.signal(signal.SIGWINCH, self._on_signal)

    def _on_signal(self, *_: object) -> None:
        with contextlib.suppress(BlockingIOError):  # bytes already wait: one redraw will do
            os.write(self._write_fd, b"w")

    def take(self) -> None:
        """Read the waiting bytes (any number of signals) and lay out once."""
        os.read(self.fd, READ_SIZE)
        self.on_resize()

    def close(self) -> None:
        signal.signal(signal.SIGWINCH, self._previous)
        os.close(self.fd)
        os.close(self._write_fd)


class KeyReader:
    """A daemon thread handing every chunk read from ``fd`` to ``on_bytes``.

    ``on_end`` runs once when the input ends (the pipe closed, the terminal went away), since
    no key can arrive after that. A ``resize`` signal is taken on the same thread.
    :meth:`close` wakes the thread through a self-pipe.
    """

    def __init__(
        self, fd: int, on_bytes: Callable[[bytes], None], on_end: Callable[[], None],
        resize: ResizeSignal | None = None,
    ) -> None:
        self._fd = fd
        self._on_bytes = on_bytes
        self._on_end = on_end
        self._resize = resize
        self._wake_read, self._wake_write = os.pipe()
        self._selector = selectors.DefaultSelector()
        self._selector.register(fd, selectors.EVENT_READ)
        self._selector.register(self._wake_read, selectors.EVENT_READ)
        if resize is not None:
            self._selector.register(resize.fd, selectors.EVENT_READ)
        self._thread = threading.Thread(target=self._run, name="terminal-keys", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            ready = {key.fd for key, _ in self._selector.select()}
            if self._wake_read in ready:
                return
            if self._resize is not None and self._resize.fd in ready:
                self._resize.take()
            if self._fd not in ready:
                continue
            data = self._read()
            if not data:
                self._on_end()
                return
            self._on_bytes(data)

    def _read(self) -> bytes:
        try:
            return os.read(self._fd, READ_SIZE)
        except OSError:  # EIO: the terminal behind a pty was closed
            return b""

    def close(self) -> None:
        if self._selector.get_map() is None:
            return
        os.write(self._wake_write, b"x")
        self._thread.join()
        self._selector.close()
        os.close(self._wake_read)
        os.close(self._wake_write)
