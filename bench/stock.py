"""luma's stock full-frame driver as a seat screen: the baseline our partial updates beat.

Every ``show`` is luma's own ``display()``: the whole 1 KiB frame, whatever changed. Swapped in
for :class:`hardware.drivers.oled.OledScreen` it lets the same presses, on the same table, be
counted on the bus both ways in one run.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager

from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306
from PIL import Image

from hardware.base import SeatScreen
from hardware.drivers.bus import RecordingBus

ADDRESS = 0x3C


class StockScreen(SeatScreen):
    def __init__(self, bus: RecordingBus) -> None:
        self.bus = bus
        with _quiet_luma():  # luma's init clears the screen with a whole frame
            self.device = ssd1306(i2c(bus=bus, address=ADDRESS))

    def show(self, image: Image.Image) -> None:
        with _quiet_luma():
            self.device.display(image)

    def conceal(self, image: Image.Image) -> None:
        self.device.hide()
        with _quiet_luma():
            self.device.display(image)
        self.device.show()

    def blank(self) -> None:
        self.device.hide()
        with _quiet_luma():
            self.device.clear()

    def close(self) -> None:
        self.device.persist = True  # luma's exit hook must not write to a closed bus
        self.bus.close()


@contextmanager
def _quiet_luma() -> Iterator[None]:
    """luma's ``display()`` calls ``Image.getdata``, deprecated in Pillow 12 (we pin < 14)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Image.Image.getdata", DeprecationWarning)
        yield
