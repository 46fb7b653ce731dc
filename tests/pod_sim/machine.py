"""Test-only stand-in for MicroPython's ``machine`` on the unix port (no Pico needed).

The firmware runs unmodified on top of it. Input pins read levels the test writes as lines
``"<gpio> <0|1>"`` to the file named by POD_SIM_PINS (a pipe); output pins append
``"<gpio> <value>"`` lines to POD_SIM_OUTPUTS. The I2C bus carries one emulated display
(SSD1306 or SH1106, POD_SIM_DISPLAY) whose RAM is a real ``framebuf.FrameBuffer``; after
every transfer the stand-in writes ``on/off byte + 1024 RAM bytes`` to POD_SIM_SCREEN.
"""

import os
import select

import framebuf

_levels = {}
_control = None
_poller = None


def _pump():
    """Apply the level changes the test has written since the last read."""
    global _control, _poller
    if _control is None:
        path = os.getenv("POD_SIM_PINS")
        if not path:
            return
        _control = open(path, "rb")  # noqa: SIM115 - read for the whole run
        _poller = select.poll()
        _poller.register(_control, select.POLLIN)
    while _poller.poll(0):
        line = _control.readline()
        if not line:
            return
        gpio, level = line.split()
        _levels[int(gpio)] = int(level)


def _record(gpio, value):
    path = os.getenv("POD_SIM_OUTPUTS")
    if path:
        with open(path, "a") as file:
            file.write(f"{gpio} {value}\n")


class Pin:
    IN, OUT, PULL_UP = 0, 1, 2

    def __init__(self, gpio, mode=-1, pull=-1, value=None):
        self.gpio = gpio
        if pull == Pin.PULL_UP:
            _levels.setdefault(gpio, 1)
        if value is not None:
            self.value(value)

    def value(self, value=None):
        if value is None:
            _pump()
            return _levels.get(self.gpio, 0)
        _levels[self.gpio] = value
        _record(self.gpio, value)
        return None


class PWM:
    def __init__(self, pin):
        self.pin = pin

    def freq(self, hz):
        _record(self.pin.gpio, hz)

    def duty_u16(self, duty):
        _record(self.pin.gpio, f"duty={duty}" if duty else 0)


# Commands that take argument bytes, and how many (the rest are one byte).
_ARGUMENTS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1,
              0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class I2C:
    """A bus with one display on it, emulated down to its RAM write pointer."""

    def __init__(self, bus_id, sda=None, scl=None, freq=400000):
        self.kind = os.getenv("POD_SIM_DISPLAY") or "ssd1306"
        self.ram = bytearray(1024)
        self.framebuffer = framebuf.FrameBuffer(self.ram, 128, 64, framebuf.MONO_VLSB)
        self.on = False
        self.window = [0, 127, 0, 7]  # columns, pages (SSD1306 horizontal addressing)
        self.column, self.page = 0, 0

    def writeto(self, address, data):
        data = bytes(data)
        if data[0] == 0x00:
            self._commands(data[1:])
        elif data[0] == 0x40:
            self._data(data[1:])
        self._dump()

    def writevto(self, address, vector):
        self.writeto(address, b"".join(bytes(part) for part in vector))

    def _commands(self, data):
        index = 0
        while index < len(data):
            command = data[index]
            count = _ARGUMENTS.get(command, 0)
            self._command(command, data[index + 1 : index + 1 + count])
            index += 1 + count

    def _command(self, command, arguments):
        if command in (0xAE, 0xAF):
            self.on = command == 0xAF
        elif command == 0x21:
            self.window[0:2] = [arguments[0], arguments[1]]
            self.column = arguments[0]
        elif command == 0x22:
            self.window[2:4] = [arguments[0], arguments[1]]
            self.page = arguments[0]
        elif self.kind == "sh1106" and 0xB0 <= command <= 0xB7:
            self.page = command & 0x07
        elif self.kind == "sh1106" and command <= 0x0F:
            self.column = (self.column & 0xF0) | command
        elif self.kind == "sh1106" and 0x10 <= command <= 0x1F:
            self.column = (self.column & 0x0F) | (command & 0x0F) << 4

    def _data(self, data):
        for byte in data:
            if self.kind == "sh1106":
                if 2 <= self.column < 130:
                    self.ram[self.page * 128 + self.column - 2] = byte
                self.column += 1
                continue
            self.ram[self.page * 128 + self.column] = byte
            self.column += 1
            if self.column > self.window[1]:
                self.column = self.window[0]
                self.page = self.page + 1 if self.page < self.window[3] else self.window[2]

    def _dump(self):
        path = os.getenv("POD_SIM_SCREEN")
        if path:
            with open(path + ".new", "wb") as file:
                file.write(bytes((1 if self.on else 0,)) + self.ram)
            os.rename(path + ".new", path)
