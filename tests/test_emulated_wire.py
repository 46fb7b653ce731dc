"""The emulated wire records which mux channels each transfer reached: a TCA9548A's select is
a bitmask, so one write after a select of several channels reaches every one of them; and a call's
messages end where their wire times put them."""

from __future__ import annotations

import threading

import pytest
from smbus2 import i2c_msg

from hardware.drivers.bus import Transfer
from hardware.drivers.emulated_wire import EmulatedPi, wire_seconds


def at_once(transfer: Transfer, seconds: float) -> None:
    """A gate that lets every transfer straight through."""


def test_a_select_of_several_channels_reaches_each_until_the_next_select(tmp_path):
    pi = EmulatedPi(tmp_path / "sys", gate=at_once)
    bus = pi.open(3)
    bus.write_byte(0x70, 0b00111000)
    bus.write_i2c_block_data(0x3C, 0x00, [0xB0, 0x00, 0x10])
    bus.write_i2c_block_data(0x3C, 0x40, [0xFF] * 32)
    bus.write_byte(0x70, 1 << 6)
    bus.write_i2c_block_data(0x3C, 0x40, [0x00] * 32)
    assert [(c.bus, c.channels) for c in pi.carried()] == [
        (3, {3, 4, 5}), (3, {3, 4, 5}), (3, {3, 4, 5}), (3, {6}), (3, {6})]


def test_a_kernel_mux_channel_is_its_one_channel_and_no_mux_is_none(tmp_path):
    pi = EmulatedPi(tmp_path / "sys", {11: (1, 0), 12: (1, 1)}, gate=at_once)
    pi.open(12).write_i2c_block_data(0x3C, 0x40, [0xFF] * 4)
    pi.open(4).write_i2c_block_data(0x3C, 0x40, [0xFF] * 4)
    assert [(c.bus, c.transfer.address, c.channels) for c in pi.carried()] == [
        (12, 0x70, {1}), (12, 0x3C, {1}), (4, 0x3C, frozenset())]


def test_one_i2c_rdwr_holds_the_wire_for_all_its_messages(tmp_path):
    """The messages of one ``I2C_RDWR`` cross back to back: a kernel mux selects its channel
    once for them, and a transfer written to a sibling channel meanwhile waits for the last."""
    inside, release = threading.Event(), threading.Event()

    def gate(transfer: Transfer, seconds: float) -> None:
        if transfer.data == b"\xa1":  # the first message: hold the wire there
            inside.set()
            assert release.wait(30)

    pi = EmulatedPi(tmp_path / "sys", {11: (1, 0), 12: (1, 1)}, gate=gate)
    ours = threading.Thread(target=pi.open(11).i2c_rdwr, args=(
        i2c_msg.write(0x3C, [0x40, 0xA1]), i2c_msg.write(0x3C, [0x40, 0xA2])))
    ours.start()
    assert inside.wait(30)
    other = threading.Thread(target=pi.open(12).write_i2c_block_data, args=(0x3C, 0x40, [0xA3]))
    other.start()
    release.set()
    ours.join(30)
    other.join(30)
    assert [(c.bus, c.transfer.data) for c in pi.carried()] == [
        (11, b"\x01"), (11, b"\xa1"), (11, b"\xa2"), (12, b"\x02"), (12, b"\xa3")]


def test_a_late_wake_adds_nothing_to_the_later_messages_of_its_call(tmp_path):
    """Each message of one ``I2C_RDWR`` ends its wire time after the one before it, as the
    Pi's controller sends them back to back, whatever the emulation's sleeps oversleep: a
    gate that wakes 1 ms late each time is asked for that much less next time, and the
    stamps are where the wire times put them."""
    now = [100.0]
    asked: list[float] = []

    def oversleeping(transfer: Transfer, seconds: float) -> float:
        asked.append(seconds)
        off = now[0] + seconds
        now[0] = off + 0.001  # the thread wakes a millisecond after the bytes are off
        return off

    pi = EmulatedPi(tmp_path / "sys", gate=oversleeping, clock=lambda: now[0])
    block = [0x40] + [0xFF] * 128  # 129 bytes and the address: 2.9 ms on the wire each
    pi.open(1).i2c_rdwr(*(i2c_msg.write(0x3C, block) for _ in range(3)))
    each = wire_seconds(130)
    assert [c.ended - 100.0 for c in pi.carried()] == pytest.approx([each, 2 * each, 3 * each])
    assert asked == pytest.approx([each, each - 0.001, each - 0.001])
