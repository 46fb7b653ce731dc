"""Seat OLEDs (SSD1306, SH1106) driven through luma, sending only the bytes that changed.

luma's ``display()`` always sends the whole 1 KiB frame (23 ms at 400 kHz, so 187 ms for 8
seats): too slow for a running hourglass. We keep the controller RAM we last wrote (8 pages of
128 column bytes, bit 0 = top row of the page, exactly luma's bit order), and for a new frame
send only the changed column spans: the addressing through luma's ``command()``, the bytes as
``i2c_rdwr`` writes of up to :data:`I2C_BLOCK` bytes (luma's ``data()`` on a bus it was given
sends SMBus blocks of 32, each a transfer of its own):

- SSD1306 (horizontal addressing, set by luma's init): a window ``COLUMNADDR start end`` +
  ``PAGEADDR first last`` then the bytes; the write pointer wraps from page to page inside the
  window, so one window can cover a digit that spans several pages.
- SH1106 (page addressing only): per page ``0xB0|page``, low and high column nibbles (with the
  panel's +2 column offset), then the bytes of that page.

The plan is the cheapest in bytes on the wire (see :mod:`hardware.drivers.bus` for the count):
nearby spans on a page merge when one write is cheaper than two; for the SSD1306 consecutive pages
merge into one window when that is cheaper; a frame that changed everywhere becomes one
whole-frame window.
"""

from __future__ import annotations

import errno
import re
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property

import luma.core.device
import luma.core.error
from luma.core.device import device as LumaDevice
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image
from smbus2 import i2c_msg

from ..base import SCREEN_SIZE, SeatScreen
from .bus import BusWriter, I2cBus

WIDTH, HEIGHT = SCREEN_SIZE
PAGES = HEIGHT // 8
FRAME_BYTES = WIDTH * PAGES
BLANK_FRAME = bytes(FRAME_BYTES)

DISPLAY_OFF = 0xAE
DISPLAY_ON = 0xAF
NOP = 0xE3  # the same on both controllers: a harmless probe
COMMAND_MODE = 0x00
DATA_MODE = 0x40  # the control byte before display RAM bytes (luma's, and ours)
_DATA_PREFIX = bytes((DATA_MODE,))
# The RAM bytes of one transfer (an ``i2c_rdwr`` message, not luma's 32-byte SMBus blocks):
# each transfer costs its address and control bytes and the driver's set-up, so a longer one
# sends fewer, and a press behind a redraw still waits for one transfer only (3 ms at 400 kHz).
I2C_BLOCK = 128
SH1106_COLUMN_OFFSET = 2  # 128 visible columns centred in the SH1106's 132-column RAM


def page_bytes(image: Image.Image) -> bytes:
    """The controller RAM for ``image``: page-major, 128 bytes a page, bit 0 = top row.

    Transposing makes each image column a row of 64 pixels, which PIL's ``1;R`` raw mode
    packs least significant bit first into 8 bytes, one per page, the page's top row in bit
    0: the controller's own byte, made in C.
    """
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes("raw", "1;R")
    return b"".join(columns[page::PAGES] for page in range(PAGES))


@dataclass(frozen=True)
class Window:
    """A rectangle of controller RAM: pages ``first..last``, columns ``start..end-1``."""

    first_page: int
    last_page: int
    start: int
    end: int

    @property
    def size(self) -> int:
        return (self.end - self.start) * (self.last_page - self.first_page + 1)

    def cut(self, frame: bytes) -> bytes:
        """The window's bytes in the order the controller's write pointer visits them."""
        pages = range(self.first_page, self.last_page + 1)
        return b"".join(frame[p * WIDTH + self.start : p * WIDTH + self.end] for p in pages)


@dataclass(frozen=True)
class Addressing:
    """What the planner needs of a display: how a window is addressed and what that costs.

    A :class:`Controller` is one of a chip; the pod link prices windows in its own bytes.
    """

    name: str
    address_bytes: int
    multi_page: bool
    column_offset: int = 0

    def address(self, window: Window) -> tuple[int, ...]:
        if self.multi_page:
            return (0x21, window.start, window.end - 1, 0x22, window.first_page, window.last_page)
        column = window.start + self.column_offset
        return (0xB0 | window.first_page, column & 0x0F, 0x10 | column >> 4)

    def cost(self, window: Window) -> int:
        """What sending ``window`` costs: a window's cost depends on its size only."""
        return self.size_cost(window.size)

    def size_cost(self, size: int) -> int:
        """Bytes on the wire for a window of ``size`` bytes: the addressing command plus the
        data blocks (2 bytes each extra). A link with another cost overrides this."""
        return 2 + self.address_bytes + size + 2 * -(-size // I2C_BLOCK)

    @cached_property
    def costs(self) -> tuple[int, ...]:
        """:meth:`size_cost` of every size a window can have, made once: the planner looks
        costs up (about 65 a frame) rather than calling for each."""
        return tuple(self.size_cost(size) for size in range(FRAME_BYTES + 1))


@dataclass(frozen=True)
class Controller(Addressing):
    """What differs between the two chips: their addressing, and how luma builds the device."""

    build: Callable[[i2c, int], LumaDevice] = field(kw_only=True)


def _build_ssd1306(serial: i2c, rotate: int) -> LumaDevice:
    with _no_exit_hook():
        device = ssd1306(serial, rotate=rotate)
    # Two 8192-entry tables (~0.6 MiB) that only luma's own display() reads; we never call it.
    for table in ("_mask", "_offsets"):
        vars(device).pop(table, None)
    return device


def _build_sh1106(serial: i2c, rotate: int) -> LumaDevice:
    with _no_exit_hook():
        return sh1106(serial, rotate=rotate, page_address_offset=SH1106_COLUMN_OFFSET)


class _NoExitHooks:
    @staticmethod
    def register(hook: Callable[[], None]) -> None:
        pass


@contextmanager
def _no_exit_hook() -> Iterator[None]:
    """Build a luma device without the exit hook luma registers for each one.

    The hook holds its device for the life of the process, so every reconnect and every
    reload (SIGHUP) would keep one more device alive; and all it would do at exit is clean up
    a device we retired or a bus already closed. The table blanks its screens itself on a
    clean stop (``App.close``). Devices are built on the loop thread only.
    """
    saved = luma.core.device.atexit
    luma.core.device.atexit = _NoExitHooks
    try:
        yield
    finally:
        luma.core.device.atexit = saved


CONTROLLERS = {
    "ssd1306": Controller("ssd1306", build=_build_ssd1306, address_bytes=6, multi_page=True),
    "sh1106": Controller("sh1106", build=_build_sh1106, address_bytes=3, multi_page=False,
                         column_offset=SH1106_COLUMN_OFFSET),
}


def plan(old: bytes | None, new: bytes, controller: Addressing) -> list[Window]:
    """The cheapest windows that turn RAM ``old`` (None: unknown) into ``new``.

    Planned on plain integers (``(start, end)`` column runs, costs looked up by size): this
    runs for every changed screen of every event, so no :class:`Window` is made until the
    answer and no cost is computed twice.
    """
    if old == new:
        return []
    cost = controller.costs
    runs = _runs(old, new, cost)
    if not controller.multi_page:
        return [Window(page, page, start, end)
                for page in range(PAGES) for start, end in runs[page]]
    changed = [page for page in range(PAGES) if runs[page]]
    first, last = changed[0], changed[-1] + 1  # pages outside cost nothing either way
    return _merge_pages(runs[first:last], cost, first)


Run = tuple[int, int]
Costs = tuple[int, ...]  # the cost of a window of each size, 0..FRAME_BYTES


def _runs(old: bytes | None, new: bytes, cost: Costs) -> list[list[Run]]:
    """Each page's changed column runs, merged wherever one write costs no more than two.

    A page that did not change is told by one comparison; in one that did, XOR of its two
    rows as integers marks every changed byte non-zero, and a regular expression finds the
    runs: all in C, as this runs for every frame.
    """
    if old is None:
        return [[(0, WIDTH)] for _ in range(PAGES)]
    pages: list[list[Run]] = []
    for base in range(0, FRAME_BYTES, WIDTH):
        spans: list[Run] = []
        before, after = old[base : base + WIDTH], new[base : base + WIDTH]
        if before != after:
            for match in _CHANGED.finditer(_xor(before, after)):
                start, end = match.span()
                if spans:
                    left, right = spans[-1]
                    if cost[end - left] <= cost[right - left] + cost[end - start]:
                        spans[-1] = (left, end)
                        continue
                spans.append((start, end))
        pages.append(spans)
    return pages


_CHANGED = re.compile(rb"[^\x00]+")


def _changed_runs(before: bytes, after: bytes) -> list[Run]:
    """``(start, end)`` of each run of bytes that differ (the planner's reference in the
    tests and the bench's optimum search read one page's runs this way)."""
    return [match.span() for match in _CHANGED.finditer(_xor(before, after))]


def _xor(before: bytes, after: bytes) -> bytes:
    """Every byte that differs non-zero, every other zero: one XOR of two integers, in C."""
    return (int.from_bytes(before, "big") ^ int.from_bytes(after, "big")).to_bytes(
        len(after), "big")


def _merge_pages(runs: list[list[Run]], cost: Costs, first: int) -> list[Window]:
    """Split the pages into groups, each sent page by page or as one window (cheapest overall).

    ``runs`` holds pages ``first``, ``first + 1``...: only the changed stretch is planned. A
    group of one page sends its own runs; a longer group one window bounding all its runs.
    ``best[end]`` is the cheapest plan of the first ``end`` pages and where its last group
    starts; among equal costs the earliest start wins. A page's runs are in column order, so
    its bounds are its first run's start and its last run's end (none: WIDTH..0).
    """
    lows = [page[0][0] if page else WIDTH for page in runs]
    highs = [page[-1][1] if page else 0 for page in runs]
    alone = [sum(cost[end - start] for start, end in page) for page in runs]
    best: list[tuple[int, int]] = [(0, 0)]
    for end in range(1, len(runs) + 1):
        choice, where = best[end - 1][0] + alone[end - 1], end - 1
        left, right = lows[end - 1], highs[end - 1]
        for start in range(end - 2, -1, -1):
            left, right = min(left, lows[start]), max(right, highs[start])
            total = best[start][0] + (cost[(right - left) * (end - start)] if right > left else 0)
            if total <= choice:
                choice, where = total, start
        best.append((choice, where))
    windows: list[Window] = []
    end = len(runs)
    while end > 0:
        start = best[end][1]
        if end - start == 1:
            windows[:0] = [Window(first + start, first + start, low, high)
                           for low, high in runs[start]]
        else:
            left, right = min(lows[start:end]), max(highs[start:end])
            if right > left:
                windows.insert(0, Window(first + start, first + end - 1, left, right))
        end = start
    return windows


Transfer = tuple[tuple[int, ...], tuple[Run, ...]]  # (commands, ()) or ((), RAM spans)


def transfers(windows: list[Window], controller: Addressing) -> list[Transfer]:
    """``windows`` as the I2C transfers luma makes of them: each window's addressing command,
    then its data in blocks of :data:`I2C_BLOCK`, each block as the ``(start, end)`` spans of
    RAM it fills, in the order the write pointer visits them (slices, not byte by byte: the
    writer cuts each block from the frame and marks it held in a few C calls)."""
    out: list[Transfer] = []
    for window in windows:
        out.append((controller.address(window), ()))
        block: list[Run] = []
        room = I2C_BLOCK
        for page in range(window.first_page, window.last_page + 1):
            start, end = page * WIDTH + window.start, page * WIDTH + window.end
            while start < end:
                cut = min(end, start + room)
                block.append((start, cut))
                room -= cut - start
                start = cut
                if not room:
                    out.append(((), tuple(block)))
                    block, room = [], I2C_BLOCK
        if block:
            out.append(((), tuple(block)))
    return out


class OledScreen(SeatScreen):
    """A seat's SSD1306 or SH1106 on an I2C bus (an ``SMBus``, a mux channel, a recorder).

    The screen starts offline: :meth:`reconnect` probes the display and runs luma's init
    sequence (display off, clear, display on). Probing first keeps a display that stays
    unplugged for an evening from costing a whole init sequence on each retry.

    With a wire's :class:`BusWriter`, an update is handed over as the frame to reach: the
    writer calls :meth:`step` for one transfer at a time, and the plan is made there from the
    RAM the device really holds (``_held``, kept transfer by transfer), so a newer frame that
    arrives while an older one is queued or half sent replaces it and is planned from what
    the panel shows, never from a frame that did not all reach it.
    """

    def __init__(
        self, bus: I2cBus, *, driver: str = "ssd1306", address: int = 0x3C, rotate: int = 0,
        writer: BusWriter | None = None,
    ) -> None:
        if driver not in CONTROLLERS:
            raise ValueError(f"unknown OLED driver {driver!r}; known: {', '.join(CONTROLLERS)}")
        self._bus = bus
        self._controller = CONTROLLERS[driver]
        self._address = address
        self._rotate = rotate
        self._writer = writer
        if writer is not None:
            writer.attach()
        self._device: LumaDevice | None = None
        self._lit = False  # as it will be once every update handed over is sent
        self._failure: OSError | None = None  # a handed-over update that failed, not yet told
        self._urgent = False  # the next update answers a press on this seat
        # What the writer works from, under _pending (the loop hands over, the writer sends):
        self._pending = threading.Lock()
        self._held: bytearray | None = None  # the device's RAM as sent (None: unknown)
        self._want: bytes | None = None  # the frame to reach, not yet planned
        self._goal = BLANK_FRAME  # the frame the plan in _plan leads to
        self._plan: deque[Transfer] = deque()
        self._whole = False  # plan the next frame whole (a private face, an unknown RAM)
        self._off = False  # DISPLAY_OFF owed before the next byte of RAM
        self._on = False  # DISPLAY_ON owed once the RAM is all sent

    @property
    def online(self) -> bool:
        return self._device is not None

    def awaited(self) -> None:
        self._urgent = True

    def reconnect(self) -> None:
        self._retire()

        def init() -> None:
            self._bus.write_i2c_block_data(self._address, COMMAND_MODE, [NOP])
            serial = i2c(bus=self._bus, address=self._address)
            self._device = self._controller.build(serial, self._rotate)

        self._now(init)
        self._lit = True

    def show(self, image: Image.Image) -> None:
        frame = self._frame_of(image)
        self._update(frame, off_first=False, on_after=not self._lit)

    def disclose(self, image: Image.Image) -> None:
        frame = self._frame_of(image)
        self._update(frame, off_first=False, on_after=not self._lit, whole=True)

    def conceal(self, image: Image.Image) -> None:
        frame = self._frame_of(image)
        self._update(frame, off_first=True, on_after=True, whole=True)

    def blank(self) -> None:
        self._raise_failure()
        self._require_device()
        with self._pending:
            self._held = None
        self._update(BLANK_FRAME, off_first=True, on_after=False, wait=True)

    def close(self) -> None:
        self._retire()
        self._now(self._bus.close)
        if self._writer is not None:
            self._writer.release()

    def _frame_of(self, image: Image.Image) -> bytes:
        if image.mode != "1" or image.size != SCREEN_SIZE:
            raise ValueError(f"a seat screen shows 128x64 mode-1 images, not {image!r}")
        self._raise_failure()
        return page_bytes(self._require_device().preprocess(image))

    def _update(self, frame: bytes, *, off_first: bool, on_after: bool, whole: bool = False,
                wait: bool = False) -> None:
        """Hand ``frame`` over (``whole``: every byte, the same windows whatever the frame;
        ``wait``: and wait until it is sent, as blanking at start and stop does)."""
        self._require_device()
        self._lit = on_after or (self._lit and not off_first)
        with self._pending:
            self._want, self._whole = frame, self._whole or whole
            self._plan.clear()  # what is left of an older frame: planned anew from _held
            if off_first:
                self._off, self._on = True, on_after
            else:
                self._on = self._on or on_after
        urgent, self._urgent = self._urgent, False
        if self._writer is None or wait:
            self._now(self._send_all)
        else:
            self._writer.submit(self, self._failed, urgent=urgent)

    def _send_all(self) -> None:
        while self.step():
            pass

    def step(self) -> bool:
        """One transfer of the pending update (on the writer's thread); False when done."""
        commands: tuple[int, ...]
        spans: tuple[Run, ...]
        with self._pending:
            device = self._device
            if device is None:  # retired (or failed) since: its reconnect sends a whole frame
                self._want = None
                self._plan.clear()
                return False
            if self._off:
                self._off = False
                commands, spans = (DISPLAY_OFF,), ()
            else:
                if not self._plan and self._want is not None:
                    self._plan_next()
                if self._plan:
                    commands, spans = self._plan.popleft()
                    if not self._plan and self._want is None:
                        self._whole = False
                elif self._on:
                    self._on = False
                    commands, spans = (DISPLAY_ON,), ()
                else:
                    return False
            goal = self._goal
        try:
            if commands:
                device.command(*commands)
            else:
                data = b"".join((_DATA_PREFIX, *(goal[start:end] for start, end in spans)))
                self._bus.i2c_rdwr(i2c_msg.write(self._address, data))
        except luma.core.error.DeviceNotFoundError as error:
            raise OSError(errno.EREMOTEIO, str(error)) from error
        if spans:
            with self._pending:
                held = self._held
                if held is not None:
                    for start, end in spans:
                        held[start:end] = goal[start:end]
        return True

    def _plan_next(self) -> None:
        """Plan the way from the RAM as sent to the wanted frame (under ``_pending``)."""
        goal, self._want = self._want, None
        assert goal is not None
        if self._held is None:  # unknown RAM: written whole, and known as it is sent
            self._whole, self._held = True, bytearray(goal)
        base = None if self._whole else bytes(self._held)
        self._goal = goal
        self._plan.extend(transfers(plan(base, goal, self._controller), self._controller))

    def _now(self, job: Callable[[], None]) -> None:
        """Run ``job`` on the bus now (after anything queued on its writer) and wait."""
        with self._bus_errors():
            if self._writer is None:
                job()
            else:
                self._writer.call(self._converted(job))

    def _converted(self, job: Callable[[], None]) -> Callable[[], None]:
        def converted() -> None:
            try:
                job()
            except luma.core.error.DeviceNotFoundError as error:
                raise OSError(errno.EREMOTEIO, str(error)) from error

        return converted

    def _failed(self, error: OSError) -> None:
        """On the writer's thread: the display stopped answering; say so on the next call."""
        self._device = None
        self._failure = error

    def _raise_failure(self) -> None:
        failure, self._failure = self._failure, None
        if failure is not None:
            self._forget_ram()
            raise failure

    def _require_device(self) -> LumaDevice:
        if self._device is None:
            raise OSError(errno.ENODEV, f"no display at {self._address:#04x}; reconnect() first")
        return self._device

    def _forget_ram(self) -> None:
        """The panel's RAM and power are unknown: the next frame goes whole, lit after."""
        self._lit = False
        with self._pending:
            self._held, self._want = None, None
            self._plan.clear()
            self._off = self._on = False

    def _retire(self) -> None:
        """Drop the luma device (it has no exit hook to keep it alive: see _no_exit_hook)."""
        self._device = None
        self._failure = None
        self._forget_ram()

    @contextmanager
    def _bus_errors(self) -> Iterator[None]:
        """Turn luma's DeviceNotFoundError back into the OSError it was; forget the RAM."""
        try:
            yield
        except luma.core.error.DeviceNotFoundError as error:
            self._forget_ram()
            raise OSError(errno.EREMOTEIO, str(error)) from error
        except OSError:
            self._forget_ram()
            raise
