"""The Pi's I2C wires, emulated: every transfer takes its time on the wire it shares.

The tests and the bench play the table on these, so that what they see of the wire is what a
Pi's is: a transfer costs ``(bytes x BITS_PER_BYTE + FRAMING_BITS)`` clocks at the configured
clock plus the driver's overhead, one transfer at a time per physical wire, whatever
``/dev/i2c-N`` it was written to. A kernel mux's channels (:class:`EmulatedPi`'s
``kernel_mux``) share their parent's wire, the kernel's channel switch (a one-byte write to the
mux) crossing it before a transfer on another channel, and sysfs says so as the kernel's does
(:mod:`hardware.drivers.wires`). A userspace mux's switch is a bitmask (TCA9548A datasheet,
control register): each transfer after it reaches every channel whose bit it set, so the wire
keeps the whole set (:func:`connected`). The transfer waits through a *gate*: ``time.sleep`` until
it would be off the wire by default (letting go of the GIL as smbus2's ``ioctl`` does); a test
passes a gate that waits for the test's word, so nothing waits on a deadline.

A call's transfers end where their wire times, added up from the moment the call had the wire,
say they do, and each is stamped then: a sleep that wakes late (some 0.1 ms on a VM, past its
timer slack) would otherwise add its lateness to every message of an ``I2C_RDWR``, which the
Pi's controller sends back to back from its interrupt. The sleeping thread asks the kernel for
no timer slack (``PR_SET_TIMERSLACK``), so a call returns about when its last byte is off: the
lateness left is a thread's wake-up, as the ioctl's own return has one.

Constants, and where they come from (bench/zero.py replays its traces with the same ones):

- ``I2C_HZ``: 400 kHz, the SSD1306's fast-mode limit (SSD1306 datasheet, I2C timing: 2.5 us
  clock cycle) and what hardware/README.md sets (``dtparam=i2c_arm_baudrate=400000``).
- ``BITS_PER_BYTE``: 9 clocks a byte, 8 data bits and the ACK (NXP UM10204, the I2C-bus
  specification, 3.1.6); ``FRAMING_BITS``: about one clock each for START and STOP.
- ``TRANSFER_OVERHEAD``: 100 us for each transfer: the ``ioctl`` and the i2c-bcm2835 driver's
  set-up and completion interrupt on a 1 GHz Cortex-A53. An estimate, not a measurement. It
  is charged to every message of an ``I2C_RDWR`` of several too, although the driver starts
  each next one from its interrupt, with no system call between (``bcm2835_i2c_isr``): so a
  batch's saving is not overstated.
"""

from __future__ import annotations

import contextlib
import ctypes
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from smbus2 import i2c_msg

from .bus import MUX_ADDRESSES, MUX_CHANNELS, Transfer

I2C_HZ = 400_000
BITS_PER_BYTE = 9
FRAMING_BITS = 2
TRANSFER_OVERHEAD = 100e-6
KERNEL_MUX_ADDRESS = 0x70  # the i2c-mux overlay's TCA9548A (hardware/tables/kitchen.toml)


def wire_seconds(wire_bytes: int, hz: float = I2C_HZ) -> float:
    """One transfer on a Pi's bus: its clocks, START/STOP and the driver's overhead."""
    return (wire_bytes * BITS_PER_BYTE + FRAMING_BITS) / hz + TRANSFER_OVERHEAD


def connected(mask: int) -> frozenset[int]:
    """The channels a TCA9548A connects after ``mask`` was written to its control register:
    one bit a channel, any number of them at once."""
    return frozenset(channel for channel in MUX_CHANNELS if mask >> channel & 1)


Gate = Callable[[Transfer, float], float | None]  # (the transfer, seconds until it is off the
# wire): returns once sent, saying when (``perf_counter``; None: now)


PR_SET_TIMERSLACK = 29  # linux/prctl.h
_slack = threading.local()


def sleeping(transfer: Transfer, seconds: float) -> float:
    """Sleep ``seconds``, the GIL let go: the transfer was off the wire when they were up."""
    if not getattr(_slack, "set", False):
        _slack.set = True
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0)
    off = time.perf_counter() + seconds
    time.sleep(seconds)
    return off


@dataclass(frozen=True)
class Carried:
    """One transfer as it crossed a wire: the ``/dev/i2c-N`` it was written to, the mux
    channels connected then (a kernel mux: its one channel; empty: no mux, or none selected
    yet), when it was off the wire (``perf_counter``), and the call it crossed in (numbered on its
    wire: the messages of one ``I2C_RDWR`` share one). It reached every display at its
    address on every one of ``channels``."""

    bus: int
    channels: frozenset[int]
    transfer: Transfer
    ended: float
    call: int


class Wire:
    """One physical wire: one transfer at a time, each through the gate, all kept in order."""

    def __init__(self, root: int, gate: Gate, hz: int,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.root = root
        self.carried: list[Carried] = []
        self._gate = gate
        self._now = clock
        self._hz = hz
        self._channels: frozenset[int] = frozenset()
        self._calls = 0
        self._off = 0.0  # when the call's last transfer was off the wire (``clock``)
        self._lock = threading.Lock()

    def carry(self, bus: int, kernel_channel: int | None, *transfers: Transfer) -> None:
        """``transfers`` back to back, the wire held for all of them (an ``I2C_RDWR`` of
        several messages: the adapter is locked for the whole ``i2c_transfer``, and a
        kernel mux selects its channel once for it), from the moment the call has it."""
        with self._lock:
            self._calls += 1
            self._off = self._now()
            if kernel_channel is not None and self._channels != {kernel_channel}:
                self._channels = frozenset({kernel_channel})
                self._pass(bus, Transfer(KERNEL_MUX_ADDRESS, None, bytes([1 << kernel_channel])))
            for transfer in transfers:
                if transfer.address in MUX_ADDRESSES and transfer.control is None:
                    self._channels = connected(transfer.data[0])  # a userspace mux's switch
                self._pass(bus, transfer)

    def _pass(self, bus: int, transfer: Transfer) -> None:
        due = self._off + wire_seconds(transfer.wire_bytes, self._hz)
        off = self._gate(transfer, max(0.0, due - self._now()))
        self._off = self._now() if off is None else off
        self.carried.append(Carried(bus, self._channels, transfer, self._off, self._calls))


class WireBus:
    """``/dev/i2c-N`` on an emulated wire: the smbus2 subset the table uses."""

    def __init__(self, wire: Wire, number: int, kernel_channel: int | None) -> None:
        self.wire = wire
        self.number = number
        self._kernel_channel = kernel_channel

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int]) -> None:
        self.wire.carry(self.number, self._kernel_channel, Transfer(i2c_addr, register,
                                                                    bytes(data)))

    def i2c_rdwr(self, *i2c_msgs: i2c_msg) -> None:
        self.wire.carry(self.number, self._kernel_channel,
                        *(Transfer.written(message) for message in i2c_msgs))

    def write_byte(self, i2c_addr: int, value: int) -> None:
        self.wire.carry(self.number, self._kernel_channel, Transfer(i2c_addr, None,
                                                                    bytes([value])))

    def close(self) -> None:
        pass


class EmulatedPi:
    """The Pi's buses for ``build_table(bus_factory=pi.open, sysfs=pi.sysfs)``.

    ``kernel_mux`` maps each ``/dev/i2c-N`` the kernel's i2c-mux made to its parent bus and
    channel; its sysfs links are written under ``sysfs`` as the kernel lays them out.
    ``clock`` is the one the gate keeps (``perf_counter`` for the sleeping gate).
    """

    def __init__(self, sysfs: Path, kernel_mux: Mapping[int, tuple[int, int]] | None = None,
                 *, gate: Gate = sleeping, hz: int = I2C_HZ,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.sysfs = sysfs
        self.wires: dict[int, Wire] = {}
        self._kernel_mux = dict(kernel_mux or {})
        self._gate = gate
        self._hz = hz
        self._clock = clock
        for number, (parent, _) in self._kernel_mux.items():
            chip = sysfs / "devices" / f"i2c-{parent}" / f"{parent}-{KERNEL_MUX_ADDRESS:04x}"
            adapter = sysfs / "bus" / "i2c" / "devices" / f"i2c-{number}"
            chip.mkdir(parents=True, exist_ok=True)
            adapter.mkdir(parents=True, exist_ok=True)
            (adapter / "mux_device").symlink_to(chip)

    def open(self, number: int) -> WireBus:
        root, channel = self._kernel_mux.get(number, (number, None))
        wire = self.wires.setdefault(root, Wire(root, self._gate, self._hz, self._clock))
        return WireBus(wire, number, channel)

    def carried(self) -> list[Carried]:
        """Every wire's transfers, in the order they ended."""
        return sorted((c for wire in self.wires.values() for c in wire.carried),
                      key=lambda c: c.ended)
