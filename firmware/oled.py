"""The pod's OLED: an SSD1306 or SH1106 on I2C, written window by window from a framebuf.

The pod keeps the screen's RAM image in ``buffer`` (framebuf MONO_VLSB: 8 pages of 128
column bytes, bit 0 the top row of a page, exactly the controller's own layout), so a window
the Pi sends is copied into the buffer and only that window goes over I2C.
"""

import framebuf

from podproto import wire

WIDTH, HEIGHT, PAGES = 128, 64, 8
SH1106_COLUMN_OFFSET = 2  # 128 visible columns centred in the SH1106's 132

# Command lists; the two words after the 0xA1/0xC8 pair flip for a display mounted upside down.
SSD1306_INIT = (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xC8, 0xA8, 0x3F, 0xD3, 0x00, 0xDA, 0x12,
                0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xCF, 0xA4, 0xA6, 0x8D, 0x14)
SH1106_INIT = (0xAE, 0x40, 0xA1, 0xC8, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0xAD, 0x8B,
               0xDA, 0x12, 0x81, 0x80, 0xD9, 0x22, 0xDB, 0x35, 0xA4, 0xA6)
UPRIGHT = {0xA1: 0xA0, 0xC8: 0xC0}


class Oled:
    """``kind`` is "ssd1306" or "sh1106"; ``rotate`` 0 or 180."""

    def __init__(self, i2c, kind: str = "ssd1306", address: int = 0x3C, rotate: int = 0) -> None:
        if kind not in wire.CHIPS:
            raise ValueError("display must be " + " or ".join(wire.CHIPS) + ", not " + str(kind))
        self.i2c = i2c
        self.kind = kind
        self.address = address
        self.buffer = bytearray(WIDTH * PAGES)
        self.canvas = framebuf.FrameBuffer(self.buffer, WIDTH, HEIGHT, framebuf.MONO_VLSB)
        init = SSD1306_INIT if kind == "ssd1306" else SH1106_INIT
        if rotate == 180:
            init = tuple(UPRIGHT.get(command, command) for command in init)
        self._command(*init)

    def power(self, on: bool) -> None:
        self._command(0xAF if on else 0xAE)

    def clear(self) -> None:
        self.canvas.fill(0)

    def write(self, first_page: int, last_page: int, start: int, end: int) -> None:
        """Send columns ``start..end-1`` of pages ``first_page..last_page`` from the buffer."""
        if self.kind == "ssd1306":
            self._command(0x21, start, end - 1, 0x22, first_page, last_page)
            for page in range(first_page, last_page + 1):
                self._data(page, start, end)
            return
        column = start + SH1106_COLUMN_OFFSET
        for page in range(first_page, last_page + 1):
            self._command(0xB0 | page, column & 0x0F, 0x10 | column >> 4)
            self._data(page, start, end)

    def write_all(self) -> None:
        self.write(0, PAGES - 1, 0, WIDTH)

    def _command(self, *commands: int) -> None:
        self.i2c.writeto(self.address, bytes((0x00,) + commands))

    def _data(self, page: int, start: int, end: int) -> None:
        row = memoryview(self.buffer)[page * WIDTH + start : page * WIDTH + end]
        self.i2c.writevto(self.address, (b"\x40", row))
