"""Building a live table from table.toml: buttons, screens, buzzer, motors; failures clean up."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from gpiozero import DigitalInputDevice
from gpiozero.pins.mock import MockFactory
from PIL import Image

from hardware.base import ButtonEdge, ButtonName
from hardware.build import build_table
from hardware.config import load_config, parse_config
from hardware.drivers.bus import RecordingBus

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

EXAMPLE = Path(__file__).resolve().parent.parent / "hardware" / "tables" / "kitchen.toml"
MUX_TABLE = """\
[[seat]]
number = 1
act = 17
display = "ssd1306"
mux = { bus = 1, channel = 0 }

[[seat]]
number = 2
act = 23
display = "ssd1306"
mux = { bus = 1, channel = 1 }
"""


class Buses(dict):
    """A bus factory handing out one RecordingBus per bus number, kept for inspection."""

    def __init__(self, unopenable: tuple[int, ...] = ()) -> None:
        super().__init__()
        self.unopenable = unopenable
        self.opened: list[int] = []

    def __call__(self, number: int) -> RecordingBus:
        if number in self.unopenable:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory")
        self.opened.append(number)
        return self.setdefault(number, RecordingBus())


def pins_free(*pins: int) -> bool:
    for pin in pins:
        DigitalInputDevice(pin).close()
    return True


def test_build_example_table(mock_factory: MockFactory) -> None:
    """The example config becomes four live seats, a buzzer and motors; a press reaches the sink."""
    events: list[object] = []
    buses = Buses()
    table = build_table(load_config(EXAMPLE), events.append, bus_factory=buses, clock=lambda: 7.0)
    with table:
        assert sorted(table.seats) == [1, 2, 3, 4]
        assert all(seat.screen.online for seat in table.seats.values())
        assert all(seat.vibrator is not None for seat in table.seats.values())
        assert table.buzzer is not None
        assert not table.seats[3].one_button
        mock_factory.pin(5).drive_low()
        assert events == [ButtonEdge(3, ButtonName.ACT, True, 7.0)]
        table.seats[4].screen.show(Image.new("1", (128, 64)))
    assert all(bus.closed for bus in buses.values())
    assert pins_free(17, 27, 22, 5, 6, 12, 18)


def test_build_one_button_seat(mock_factory: MockFactory) -> None:
    """A seat wired without PEEK is built as a one-button seat."""
    config = parse_config('[[seat]]\nnumber = 6\nact = 4\ndisplay = "sh1106"\nbus = 1\n')
    with build_table(config, lambda event: None, bus_factory=Buses()) as table:
        assert table.seats[6].one_button
        assert table.seats[6].vibrator is None
        assert table.buzzer is None


def test_build_absent_display_starts_offline(mock_factory: MockFactory) -> None:
    """An unplugged display does not stop the table; its screen comes online on reconnect."""
    buses = Buses()
    missing = buses[12] = RecordingBus()
    missing.fail_with(OSError(errno.EREMOTEIO, "Remote I/O error"))
    with build_table(load_config(EXAMPLE), lambda event: None, bus_factory=buses) as table:
        assert not table.seats[2].screen.online
        assert table.seats[1].screen.online
        missing.recover()
        table.seats[2].screen.reconnect()
        assert table.seats[2].screen.online


def test_build_userspace_mux_shares_one_bus(mock_factory: MockFactory) -> None:
    """Seats behind one userspace TCA9548A share one opened bus and select their channels."""
    buses = Buses()
    with build_table(parse_config(MUX_TABLE), lambda event: None, bus_factory=buses) as table:
        assert buses.opened == [1]
        selects = {t.data for t in buses[1].transfers if t.address == 0x70}
        assert selects == {bytes([0b01]), bytes([0b10])}
        assert len(table.seats) == 2
    assert buses[1].closed


def test_build_unopenable_bus_releases_everything(mock_factory: MockFactory) -> None:
    """A bus that cannot be opened names the seat and the fix, and frees what was opened."""
    buses = Buses(unopenable=(13,))
    with pytest.raises(OSError, match=r"seat 3: cannot open I2C bus /dev/i2c-13 .*README"):
        build_table(load_config(EXAMPLE), lambda event: None, bus_factory=buses)
    assert all(bus.closed for bus in buses.values())
    assert pins_free(17, 27, 22, 23, 24, 25, 5, 6, 12)
