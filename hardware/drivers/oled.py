"""Seat OLEDs (SSD1306, SH1106) driven through luma, sending only the bytes that changed.

luma's ``display()`` always sends the whole 1 KiB frame (23 ms at 400 kHz, so 187 ms for 8
seats): too slow for a running hourglass. We keep the controller RAM we last wrote and for a
new frame send only the changed column spans (:mod:`hardware.drivers.planner`), through the
screen's chorus (:mod:`hardware.drivers.chorus`: the screens behind one mux that show the same
frame get its bytes once). luma builds and initialises each device and rotates its images;
the addressing and the bytes go as luma's ``command()`` and ``data()`` would put them on the
wire, the bytes as ``i2c_rdwr`` writes of up to :data:`~hardware.drivers.planner.I2C_BLOCK`
bytes (luma's ``data()`` on a bus it was given sends SMBus blocks of 32, each a transfer of
its own):

- SSD1306 (horizontal addressing, set by luma's init): a window ``COLUMNADDR start end`` +
  ``PAGEADDR first last`` then the bytes; the write pointer wraps from page to page inside the
  window, so one window can cover a digit that spans several pages.
- SH1106 (page addressing only): per page ``0xB0|page``, low and high column nibbles (with the
  panel's +2 column offset), then the bytes of that page.
"""

from __future__ import annotations

import errno
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import luma.core.device
import luma.core.error
from luma.core.device import device as LumaDevice
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from ..base import SCREEN_SIZE, SeatScreen
from .bus import BusWriter, I2cBus
from .chorus import COMMAND_MODE, NOP, Chorus, Part
from .planner import BLANK_FRAME, Addressing, page_bytes

SH1106_COLUMN_OFFSET = 2  # 128 visible columns centred in the SH1106's 132-column RAM


class PublicRam:
    """The controller RAM of the public images shown last, made once for every screen.

    A table shows few public faces, and the seats that show the same one are handed the
    same image (companion/screens.py draws each once and shares it; no screen changes
    one): a turn change hands seven seats one frame. Its RAM (a transpose and two copies in
    C, some 70 us here, ten times that on a Zero 2 W) is made for the first and found for
    the others. Kept by identity, each with its image (so no other image takes its ``id``)
    and its rotation. A private image (:meth:`OledScreen.disclose`) is never kept: its RAM
    is made for its seat each time, so how long that takes never tells whether the same
    secret was shown before, here or on another seat.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._kept: OrderedDict[tuple[int, int], tuple[Image.Image, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, image: Image.Image, rotate: int, make: Callable[[], bytes]) -> bytes:
        key = (id(image), rotate)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and kept[0] is image:
                self._kept.move_to_end(key)
                return kept[1]
        frame = make()
        with self._lock:
            self._kept[key] = (image, frame)
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return frame


PUBLIC_RAM = PublicRam(16)  # as many as companion/screens.py keeps public faces drawn



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


class OledScreen(SeatScreen):
    """A seat's SSD1306 or SH1106 on an I2C bus (an ``SMBus``, a mux channel, a recorder).

    The screen starts offline: :meth:`reconnect` probes the display and runs luma's init
    sequence (display off, clear, display on). Probing first keeps a display that stays
    unplugged for an evening from costing a whole init sequence on each retry.

    An update is handed to the screen's :class:`Chorus` as the frame to reach; with a wire's
    :class:`BusWriter` the chorus sends it transfer by transfer on the writer's thread, planned
    from the RAM the device really holds, so a newer frame that arrives while an older one is
    queued or half sent replaces it. ``chorus``: the chorus of the screens at this address
    behind the same mux (its writer is this screen's); without one the screen is a chorus of
    one on ``writer``.
    """

    def __init__(
        self, bus: I2cBus, *, driver: str = "ssd1306", address: int = 0x3C, rotate: int = 0,
        writer: BusWriter | None = None, chorus: Chorus | None = None,
    ) -> None:
        if driver not in CONTROLLERS:
            raise ValueError(f"unknown OLED driver {driver!r}; known: {', '.join(CONTROLLERS)}")
        controller = CONTROLLERS[driver]
        if chorus is None:
            chorus = Chorus(address, controller, writer)
        elif (chorus.address, chorus.controller, chorus.writer) != (address, controller, writer):
            raise ValueError("a chorus's screens share its address, its driver and its writer")
        self._bus = bus
        self._controller = controller
        self._address = address
        self._rotate = rotate
        self._writer = writer
        self._chorus = chorus
        self._part = Part(bus, self._failed)
        chorus.join(self._part)
        if writer is not None:
            writer.attach()
        self._device: LumaDevice | None = None
        self._lit = False  # as it will be once every update handed over is sent
        self._failure: OSError | None = None  # a handed-over update that failed, not yet told
        self._urgent = False  # the next update answers a press on this seat
        self._closed = False

    @property
    def online(self) -> bool:
        return self._device is not None

    def wire(self) -> BusWriter | None:
        return self._writer

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
        with self._chorus.lock:
            self._part.present = True

    def show(self, image: Image.Image) -> None:
        frame = self._frame_of(image, public=True)
        self._update(frame, off_first=False, on_after=not self._lit)

    def disclose(self, image: Image.Image) -> None:
        frame = self._frame_of(image, public=False)
        self._update(frame, off_first=False, on_after=not self._lit, whole=True)

    def conceal(self, image: Image.Image) -> None:
        frame = self._frame_of(image, public=True)
        self._update(frame, off_first=True, on_after=True, whole=True)

    def blank(self) -> None:
        self._raise_failure()
        self._require_device()
        with self._chorus.lock:
            self._part.held = None
        self._update(BLANK_FRAME, off_first=True, on_after=False, wait=True)

    def close(self) -> None:
        if self._closed:  # a table and its owner may both close it
            return
        self._closed = True
        self._retire()
        self._now(self._bus.close)
        self._chorus.leave(self._part)
        if self._writer is not None:
            self._writer.release()

    def _frame_of(self, image: Image.Image, *, public: bool) -> bytes:
        """The controller RAM for ``image``: a public one's made once for every screen
        (:class:`PublicRam`), a private one's each time."""
        if image.mode != "1" or image.size != SCREEN_SIZE:
            raise ValueError(f"a seat screen shows 128x64 mode-1 images, not {image!r}")
        self._raise_failure()
        device = self._require_device()
        if public:
            return PUBLIC_RAM.of(image, self._rotate, lambda: page_bytes(device.preprocess(image)))
        return page_bytes(device.preprocess(image))

    def _update(self, frame: bytes, *, off_first: bool, on_after: bool, whole: bool = False,
                wait: bool = False) -> None:
        """Hand ``frame`` over (``whole``: every byte, the same windows whatever the frame;
        ``wait``: and wait until it is sent, as blanking at start and stop does)."""
        self._require_device()
        self._lit = on_after or (self._lit and not off_first)
        urgent, self._urgent = self._urgent, False
        part = self._part
        with self._chorus.lock:
            part.want, part.whole = frame, part.whole or whole
            if off_first:
                part.off, part.on = True, on_after
            else:
                part.on = part.on or on_after
            self._chorus.handed(part, urgent=urgent)
        if self._writer is None or wait:
            self._now(self._chorus.drain)
            self._raise_failure()  # a transfer that failed just now fails this call
        else:
            self._chorus.submit(urgent)

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
        self._chorus.forget(self._part, present=self._device is not None)

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
