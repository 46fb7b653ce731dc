"""Pins in a maker's words: "GPIO 17 (header pin 11)", the nearest ground, 3V3, SDA and SCL.

Header pin numbers come from gpiozero's board information for this Pi (its revision code:
``Device.pin_factory.board_info``), never from a table of ours, so a new model's header is
right as soon as gpiozero knows it. Without board information (no GPIO here) the words name
the GPIO alone.
"""

from __future__ import annotations

from gpiozero.pins import BoardInfo

I2C_GPIOS = {"SDA": 2, "SCL": 3}  # the Pi's I2C bus 1 (i2c_arm), where the displays hang
HEADER = "J8"  # gpiozero's name for the 40-pin header (a Pi 5's RUN pads have a GND too)


class Header:
    def __init__(self, board: BoardInfo | None) -> None:
        self._board = board

    def gpio(self, number: int) -> str:
        pin = self._number(f"GPIO{number}")
        return f"GPIO {number}" + (f" (header pin {pin})" if pin is not None else "")

    def ground_near(self, number: int) -> str:
        """The ground pin closest to a GPIO on the header: the short wire for its button."""
        gpio = self._number(f"GPIO{number}")
        grounds = self._numbers("GND")
        if gpio is None or not grounds:
            return "a GND pin"
        nearest = min(grounds, key=lambda pin: (abs((pin - 1) // 2 - (gpio - 1) // 2), pin))
        return f"GND (header pin {nearest})"

    def supply(self) -> str:
        """Where a display or the mux takes its power: 3V3 (never 5V: SDA/SCL idle at VCC)."""
        pins = self._numbers("3V3")
        return "3V3" + (f" (header pin {' or '.join(map(str, pins))})" if pins else "")

    def ground(self) -> str:
        pins = self._numbers("GND")
        return "GND" + (f" (header pin {pins[0]}, or any GND)" if pins else "")

    def i2c_wires(self) -> str:
        """The four wires from the Pi's header to a display or mux on I2C bus 1."""
        sda, scl = (self.gpio(I2C_GPIOS[name]) for name in ("SDA", "SCL"))
        return (f"SDA to {sda}, SCL to {scl}, VCC to {self.supply()}, "
                f"GND to {self.ground()}")

    def _number(self, name: str) -> int | None:
        numbers = self._numbers(name)
        return numbers[0] if len(numbers) == 1 else None

    def _numbers(self, name: str) -> list[int]:
        if self._board is None:
            return []
        return sorted(pin.number for header, pin in self._board.find_pin(name)
                      if header.name == HEADER)
