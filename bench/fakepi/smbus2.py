"""A stand-in ``smbus2`` for timing the real ``companion play --table`` on a machine without I2C.

The bench puts this folder first on ``PYTHONPATH``: the companion's ``build_table`` imports
``smbus2.SMBus`` as on a Pi and gets a bus that answers every write (a mux, displays on every
channel) and keeps nothing, so start-up, reloads and memory are the service's own.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence


class i2c_msg(ctypes.Structure):  # noqa: N801 (smbus2's name)
    """A write message, as ``smbus2.i2c_msg.write`` makes one, or as its fields make it (the
    ctypes structure's: a buffer made already, of ``len`` bytes). A ctypes structure, as
    smbus2's is: the chorus keeps the array type of each count of messages its calls have."""

    _fields_ = []

    def __init__(self, addr: int, buf: Sequence[int] | bytes, flags: int = 0,
                 len: int | None = None) -> None:  # noqa: A002 (the structure's field)
        self.addr = addr
        self.flags = flags
        self.buf = bytes(buf)[:len]

    @staticmethod
    def write(addr: int, buf: Sequence[int]) -> i2c_msg:
        return i2c_msg(addr, buf)

    def __bytes__(self) -> bytes:
        return self.buf


class SMBus:
    def __init__(self, number: int) -> None:
        self.number = number

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int]) -> None:
        pass

    def i2c_rdwr(self, *i2c_msgs: i2c_msg) -> None:
        pass

    def write_byte(self, i2c_addr: int, value: int) -> None:
        pass

    def close(self) -> None:
        pass
