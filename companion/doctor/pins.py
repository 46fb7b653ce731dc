"""The GPIO side of the doctor: each seat's buttons, its motor and the table's buzzer.

The buttons are the table's own :class:`~hardware.drivers.gpio.SeatButtons` (as
hardware/build.py makes them), so a press the doctor sees is a press the table would see.
A button that reads pressed before anyone is asked is stuck (or its wire touches ground), and
is not asked for. Waiting for a press goes through :attr:`Machine.wait` on
:attr:`Machine.events`, so tests run it on no clock at all and the maker can skip a button.
"""

from __future__ import annotations

from gpiozero.exc import GPIOZeroError

from hardware.base import ButtonEdge, ButtonName, Buzzer, Vibrator
from hardware.closing import Closing
from hardware.config import SeatConfig, TableConfig
from hardware.drivers.gpio import GpioBuzzer, GpioVibrator, SeatButtons

from .findings import Finding, Level, Machine, Maker, Skip
from .header import Header

STOP_THE_TABLE = "if the table is running, stop it first: sudo systemctl stop table-companion"
TEST_TUNE = "start"
TEST_PATTERN = "long"


class Pins(Closing):
    def __init__(self, config: TableConfig, machine: Machine, header: Header) -> None:
        self.findings: list[Finding] = []
        self._config = config
        self._machine = machine
        self._header = header
        self._buttons: dict[int, SeatButtons] = {}
        self._opened: list[Buzzer | Vibrator] = []

    def check(self, maker: Maker | None) -> list[Finding]:
        for seat in self._config.seats:
            if seat.wired:
                self._open_buttons(seat)
        for seat in self._config.seats:
            if seat.number in self._buttons:
                self._check_buttons(seat, maker)
        for seat in self._config.seats:
            if seat.vibrate is not None:
                self._check_motor(seat, maker)
        if self._config.buzzer is not None:
            self._check_buzzer(maker)
        return self.findings

    def close(self) -> None:
        for part in (*self._buttons.values(), *self._opened):
            part.close()

    def _open_buttons(self, seat: SeatConfig) -> None:
        assert seat.act is not None  # validated: every wired seat has an ACT button
        try:
            self._buttons[seat.number] = SeatButtons(
                seat.number, seat.act, seat.peek, sink=self._machine.events.put,
                pin_factory=self._machine.pin_factory)
        except (GPIOZeroError, OSError) as error:
            self.findings.append(Finding(Level.FAIL, "buttons", f"cannot use GPIO {seat.act} "
                                         f"or {seat.peek}: {error}", STOP_THE_TABLE,
                                         seat.number))

    def _check_buttons(self, seat: SeatConfig, maker: Maker | None) -> None:
        buttons = self._buttons[seat.number].buttons
        for name, device in buttons.items():
            pin = seat.act if name is ButtonName.ACT else seat.peek
            assert pin is not None  # a button is made only for a pin table.toml gives
            part = f"{name.name} button"
            wire = (f"its wire from {self._header.gpio(pin)} to the button, and the button's "
                    f"other leg to {self._header.ground_near(pin)}")
            if device.is_active:
                self.findings.append(Finding(
                    Level.FAIL, part, f"reads pressed with nobody on it: {self._header.gpio(pin)}"
                    " is held to ground (stuck, or shorted)", f"free the button, or find where "
                    f"the wire from {self._header.gpio(pin)} touches GND", seat.number))
            elif maker is None:
                self.findings.append(Finding(Level.OK, part, f"{self._header.gpio(pin)} reads "
                                             "released (presses not checked: --no-wait)",
                                             seat=seat.number))
            else:
                self.findings.append(self._press(seat, name, part, wire, maker))

    def _press(self, seat: SeatConfig, name: ButtonName, part: str, wire: str,
               maker: Maker) -> Finding:
        maker.ask(f"press {name.name} on seat {seat.number}")
        others: list[ButtonEdge] = []
        while True:
            event = self._machine.wait(self._machine.events, self._machine.press_timeout)
            if isinstance(event, Skip):
                return Finding(Level.NOTE, part, "skipped", seat=seat.number)
            if event is None:
                break
            if isinstance(event, ButtonEdge) and event.pressed:
                if (event.seat, event.button) == (seat.number, name):
                    return Finding(Level.OK, part, "seen", seat=seat.number)
                others.append(event)
        instead = ""
        if others:
            first = others[0]
            instead = f" (seat {first.seat}'s {first.button.name} was pressed instead)"
        return Finding(Level.FAIL, part, f"not seen in {self._machine.press_timeout:g} s"
                       f"{instead}", f"check {wire}", seat.number)

    def _check_motor(self, seat: SeatConfig, maker: Maker | None) -> None:
        assert seat.vibrate is not None
        pin = self._header.gpio(seat.vibrate)
        try:
            motor = GpioVibrator(seat.vibrate, pin_factory=self._machine.pin_factory)
        except (GPIOZeroError, OSError) as error:
            self.findings.append(Finding(Level.FAIL, "motor", f"cannot use {pin}: {error}",
                                         STOP_THE_TABLE, seat.number))
            return
        self._opened.append(motor)
        if maker is None:
            self.findings.append(Finding(Level.OK, "motor", f"{pin} is set up (not run: "
                                         "--no-wait)", seat=seat.number))
            return
        motor.pulse(TEST_PATTERN)
        felt = maker.heard(f"did seat {seat.number}'s motor buzz?")
        self.findings.append(_heard(felt, "motor", seat.number, f"check the transistor "
                                    f"between {pin} and the motor, the motor's supply, and its "
                                    "diode's direction"))

    def _check_buzzer(self, maker: Maker | None) -> None:
        config = self._config.buzzer
        assert config is not None
        pin = self._header.gpio(config.pin)
        try:
            buzzer = GpioBuzzer(config.pin, tonal=config.tonal,
                                pin_factory=self._machine.pin_factory)
        except (GPIOZeroError, OSError) as error:
            self.findings.append(Finding(Level.FAIL, "buzzer", f"cannot use {pin}: {error}",
                                         STOP_THE_TABLE))
            return
        self._opened.append(buzzer)
        if maker is None:
            self.findings.append(Finding(Level.OK, "buzzer", f"{pin} is set up (not played: "
                                         "--no-wait)"))
            return
        buzzer.play(TEST_TUNE)
        self.findings.append(_heard(
            maker.heard("did the buzzer play a tune?"), "buzzer", None,
            f"its + leg to {pin}, its - leg to {self._header.ground_near(config.pin)}; a "
            'passive piezo needs type = "tonal" in [buzzer] (an active one beeps by itself)'))


def _heard(answer: bool | None, part: str, seat: int | None, fix: str) -> Finding:
    if answer is None:
        return Finding(Level.NOTE, part, "skipped", seat=seat)
    if answer:
        return Finding(Level.OK, part, "heard", seat=seat)
    return Finding(Level.FAIL, part, "not heard", fix, seat)
