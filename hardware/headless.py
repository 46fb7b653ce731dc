"""The whole table without a Pi: gpiozero mock pins and real luma drivers on recording buses.

This is the table that table scripts, the test suite and the benchmark play on. Nothing in it
is a stand-in of ours for a library: buttons are gpiozero devices on ``MockFactory`` pins,
screens are luma's SSD1306/SH1106 classes talking to an in-memory I2C bus that records every
byte, and the buzzer is a gpiozero ``TonalBuzzer`` on a mock PWM pin.
"""

from __future__ import annotations

import errno
import time
from collections.abc import Callable, Iterable

from gpiozero.pins.mock import MockFactory, MockPWMPin

from .base import ButtonName, SeatHardware, SeatScreen, Sink, TableHardware
from .closing import Closing
from .drivers.bus import RecordingBus
from .drivers.gpio import GpioBuzzer, SeatButtons
from .drivers.oled import OledScreen

# BCM pin numbers as a direct-wired table would use them (hardware/README.md).
ACT_PINS = (4, 17, 27, 22, 5, 6, 13, 19)
PEEK_PINS = (23, 24, 25, 8, 7, 12, 16, 20)
BUZZER_PIN = 18


class HeadlessTable(Closing):
    """Seats 1..8 on mock pins; ``press``/``release`` drive the pins as a finger would.

    Each seat's screen is a ``driver`` OLED on a recording bus of its own (:attr:`buses`),
    every update sent at once; ``screens`` wires them otherwise (a seat's number -> its
    screen, not yet connected): every seat behind one mux on one writer's wire, say.
    """

    def __init__(
        self,
        seat_numbers: Iterable[int],
        sink: Sink,
        *,
        clock: Callable[[], float] = time.monotonic,
        one_button: Iterable[int] = (),
        driver: str = "ssd1306",
        screens: Callable[[int], SeatScreen] | None = None,
    ) -> None:
        self.factory = MockFactory(pin_class=MockPWMPin)
        self.buses: dict[int, RecordingBus] = {}
        one_button = set(one_button)
        seats: dict[int, SeatHardware] = {}
        for number in seat_numbers:
            if not 1 <= number <= len(ACT_PINS):
                raise ValueError(f"the simulated table has seats 1 to 8, not {number}")
            peek = None if number in one_button else PEEK_PINS[number - 1]
            buttons = SeatButtons(number, ACT_PINS[number - 1], peek, sink=sink, clock=clock,
                                  pin_factory=self.factory)
            if screens is None:
                bus = self.buses[number] = RecordingBus()
                screen: SeatScreen = OledScreen(bus, driver=driver)
            else:
                screen = screens(number)
            screen.reconnect()
            seats[number] = SeatHardware(number, screen, one_button=peek is None, inputs=[buttons])
        buzzer = GpioBuzzer(BUZZER_PIN, pin_factory=self.factory)
        self.hardware = TableHardware(seats=seats, buzzer=buzzer)

    def pin_of(self, seat: int, button: ButtonName):
        if button is ButtonName.PEEK and self.hardware.seats[seat].one_button:
            return self.factory.pin(ACT_PINS[seat - 1])
        pins = ACT_PINS if button is ButtonName.ACT else PEEK_PINS
        return self.factory.pin(pins[seat - 1])

    def drive(self, seat: int, button: ButtonName, pressed: bool) -> None:
        """Buttons pull up and close to ground: pressed is a low pin."""
        if seat not in self.hardware.seats:
            raise ValueError(f"there is no seat {seat} at this table")
        pin = self.pin_of(seat, button)
        if pressed:
            pin.drive_low()
        else:
            pin.drive_high()

    def unplug(self, seat: int, unplugged: bool) -> None:
        """Make a seat's display stop (or start again) answering on its bus."""
        bus = self.buses[seat]
        if unplugged:
            bus.fail_with(OSError(errno.EREMOTEIO, "Remote I/O error"))
        else:
            bus.recover()

    def close(self) -> None:
        self.hardware.close()
        self.factory.reset()
