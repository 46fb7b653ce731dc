"""The planner: which bytes of a seat OLED's RAM to send for a new frame, and how.

The controller RAM is 8 pages of 128 column bytes, bit 0 = top row of the page (luma's bit
order). The plan is the cheapest in bytes on the wire (see :mod:`hardware.drivers.bus` for the
count): nearby spans on a page merge when one write is cheaper than two; for a controller that
addresses several pages at once (the SSD1306) consecutive pages merge into one window when that
is cheaper; a frame that changed everywhere becomes one whole-frame window. The screens
(:mod:`hardware.drivers.oled`, through :mod:`hardware.drivers.chorus`) and the pods' links
(:mod:`hardware.pods.screen`) plan with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from PIL import Image

from ..base import SCREEN_SIZE

WIDTH, HEIGHT = SCREEN_SIZE
PAGES = HEIGHT // 8
FRAME_BYTES = WIDTH * PAGES
BLANK_FRAME = bytes(FRAME_BYTES)

# The RAM bytes of one transfer (an ``i2c_rdwr`` message, not luma's 32-byte SMBus blocks):
# each transfer costs its address and control bytes and the driver's set-up, so a longer one
# sends fewer, and a press behind a redraw still waits for one block only (3 ms at 400 kHz).
I2C_BLOCK = 128


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

    One XOR of the two frames as integers marks every changed byte non-zero; a page that
    did not change is told by one comparison of its row, and in one that did a regular
    expression finds the runs: all in C, as this runs for every frame.
    """
    if old is None:
        return [[(0, WIDTH)] for _ in range(PAGES)]
    changed = _xor(old, new)
    pages: list[list[Run]] = []
    for base in range(0, FRAME_BYTES, WIDTH):
        spans: list[Run] = []
        row = changed[base : base + WIDTH]
        if row != _UNCHANGED_ROW:
            for match in _CHANGED.finditer(row):
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
_UNCHANGED_ROW = bytes(WIDTH)


def _changed_runs(before: bytes, after: bytes) -> list[Run]:
    """``(start, end)`` of each run of bytes that differ (the planner's reference in the
    tests and the bench's optimum search read one page's runs this way)."""
    return [match.span() for match in _CHANGED.finditer(_xor(before, after))]


def differing(before: bytes, after: bytes) -> int:
    """How many bytes differ between ``before`` and ``after`` (of one length), in C."""
    return len(after) - _xor(before, after).count(0)


def _xor(before: bytes, after: bytes) -> bytes:
    """Every byte that differs non-zero, every other zero: one XOR of two integers, in C."""
    return (int.from_bytes(before, "big") ^ int.from_bytes(after, "big")).to_bytes(
        len(after), "big")


def _merge_pages(runs: list[list[Run]], cost: Costs, first: int) -> list[Window]:
    """Split the pages into groups, each sent page by page or as one window (cheapest overall).

    ``runs`` holds pages ``first``, ``first + 1``...: only the changed stretch is planned. A
    group of one page sends its own runs; a longer group one window bounding all its runs.
    ``best[end]`` is the cost of the cheapest plan of the first ``end`` pages and ``group[end]``
    where its last group starts; among equal costs the earliest start wins. A page's runs
    are in column order, so its bounds are its first run's start and its last run's end
    (none: WIDTH..0). (Plain comparisons, not ``min`` and ``max``, in the inner loop: it runs
    some thirty times a frame.)
    """
    lows = [page[0][0] if page else WIDTH for page in runs]
    highs = [page[-1][1] if page else 0 for page in runs]
    alone = [sum(cost[end - start] for start, end in page) for page in runs]
    best, group = [0], [0]
    for end in range(1, len(runs) + 1):
        choice, where = best[end - 1] + alone[end - 1], end - 1
        left, right = lows[end - 1], highs[end - 1]
        for start in range(end - 2, -1, -1):
            if lows[start] < left:
                left = lows[start]
            if highs[start] > right:
                right = highs[start]
            total = best[start] + (cost[(right - left) * (end - start)] if right > left else 0)
            if total <= choice:
                choice, where = total, start
        best.append(choice)
        group.append(where)
    windows: list[Window] = []
    end = len(runs)
    while end > 0:
        start = group[end]
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
