"""The displays' side of the doctor: the I2C buses, the mux, each display, the bus clock.

Checked in the order a fault hides the next: no bus, then no mux, then no display. Each
display that answers is left showing its seat number, big, so the maker sees which screen is
which seat while the rest of the checks run; :meth:`Displays.close` lets go of them all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from PIL import Image, ImageDraw

from hardware.base import SCREEN_SIZE
from hardware.build import open_smbus
from hardware.closing import Closing
from hardware.config import DISPLAY_ADDRESSES, SeatConfig, TableConfig
from hardware.drivers.bus import I2cBus, Tca9548a
from hardware.drivers.chorus import COMMAND_MODE, NOP
from hardware.drivers.oled import OledScreen

from ..render import large_font
from .findings import Finding, Level, Machine
from .header import Header

PI_BUSES = range(2)  # /dev/i2c-0 and -1 are the Pi's own; a higher N is a kernel mux channel
KERNEL_MUX_PARENT = 1  # install.sh's i2c-mux overlay hangs the mux on i2c_arm, bus 1
FAST_I2C = 400_000  # the clock install.sh asks for (dtparam=i2c_arm_baudrate=400000)
CLOCK_FILES = ("/sys/class/i2c-adapter/i2c-1/of_node/clock-frequency",
               "/proc/device-tree/soc/i2c@7e804000/clock-frequency")
CORE_CLOCKED = ("Raspberry Pi 3", "Raspberry Pi Zero 2")  # I2C follows the VPU's core clock
CHAN_ID = re.compile(r"chan_id (\d+)")


def seat_face(number: int) -> Image.Image:
    """The seat's number, as big as the screen takes, centred."""
    image = Image.new("1", SCREEN_SIZE, 0)
    draw = ImageDraw.Draw(image)
    font = large_font(60)
    left, top, right, bottom = draw.textbbox((0, 0), str(number), font=font)
    draw.text(((SCREEN_SIZE[0] - right - left) / 2, (SCREEN_SIZE[1] - bottom - top) / 2),
              str(number), font=font, fill=1)
    return image


def boot_config(machine: Machine) -> str:
    """config.txt's text (Bookworm and later keep it in /boot/firmware), or "" if none."""
    for name in ("/boot/firmware/config.txt", "/boot/config.txt"):
        try:
            return machine.path(name).read_text(errors="replace")
        except OSError:
            continue
    return ""


def _config_has(text: str, pattern: str) -> bool:
    return re.search(rf"^\s*{pattern}", text, re.MULTILINE) is not None


class Displays(Closing):
    """Every wired seat's display opened, checked and showing its seat number."""

    def __init__(self, config: TableConfig, machine: Machine, header: Header) -> None:
        self.findings: list[Finding] = []
        self.screens: dict[int, OledScreen] = {}
        self._config = config
        self._machine = machine
        self._header = header
        self._open_bus = open_smbus if machine.open_bus is None else machine.open_bus
        self._buses: dict[int, I2cBus | None] = {}  # None: missing or unopenable (told)
        self._muxes: dict[int, Tca9548a | None] = {}
        self._boot = boot_config(machine)

    def check(self) -> list[Finding]:
        seats = [seat for seat in self._config.seats if seat.wired]
        if not seats:
            return []
        for number in sorted(self._pi_buses(seats)):
            self._bus(number)
        kernel = [seat for seat in seats if seat.bus is not None and seat.bus not in PI_BUSES]
        if kernel and self._buses.get(KERNEL_MUX_PARENT) is not None:
            self._kernel_mux(kernel)
        for seat in seats:
            self._display(seat)
        self.findings.extend(self._clock())
        return self.findings

    def close(self) -> None:
        for screen in self.screens.values():
            screen.close()
        for bus in self._buses.values():
            if bus is not None:
                bus.close()

    def _pi_buses(self, seats: list[SeatConfig]) -> Iterator[int]:
        for seat in seats:
            if seat.mux is not None:
                yield seat.mux.bus
            elif seat.bus is not None and seat.bus in PI_BUSES:
                yield seat.bus
            else:
                yield KERNEL_MUX_PARENT

    def _bus(self, number: int) -> I2cBus | None:
        if number in self._buses:
            return self._buses[number]
        bus = None
        if not self._machine.path(f"/dev/i2c-{number}").exists():
            if number in PI_BUSES:
                self.findings.append(self._i2c_off(number))
        else:
            try:
                bus = self._open_bus(number)
            except OSError as error:
                self.findings.append(Finding(
                    Level.FAIL, f"I2C bus {number}", f"/dev/i2c-{number} is there but does not "
                    f"open ({error.strerror or error})", "run it as root (sudo companion "
                    "doctor), or add your user to the i2c group"))
            else:
                if number in PI_BUSES:
                    self.findings.append(Finding(Level.OK, f"I2C bus {number}",
                                                 f"/dev/i2c-{number} opens"))
        self._buses[number] = bus
        return bus

    def _i2c_off(self, number: int) -> Finding:
        says = f"I2C is off: there is no /dev/i2c-{number}"
        if number != 1:
            return Finding(Level.FAIL, f"I2C bus {number}", says, "use bus = 1 (the Pi's I2C "
                           f"on {self._header.gpio(2)} and {self._header.gpio(3)})")
        if not _config_has(self._boot, r"dtparam=([^#\n]*,)?i2c_arm=on"):
            fix = ("sudo raspi-config nonint do_i2c 0, or dtparam=i2c_arm=on in config.txt "
                   "(install.sh adds it); then sudo reboot")
        else:
            fix = ("config.txt turns I2C on: sudo reboot; if it is still missing, "
                   "sudo modprobe i2c-dev and add i2c-dev to /etc/modules")
        return Finding(Level.FAIL, "I2C bus 1", says, fix)

    def _kernel_mux(self, seats: list[SeatConfig]) -> None:
        missing = [seat for seat in seats
                   if not self._machine.path(f"/dev/i2c-{seat.bus}").exists()]
        names = ", ".join(f"/dev/i2c-{seat.bus} (seat {seat.number})" for seat in missing)
        if not missing:
            self.findings.append(Finding(Level.OK, "mux", "the kernel's mux channels are there "
                                         "(the TCA9548A answered when the Pi started)"))
        elif not _config_has(self._boot, r"dtoverlay=i2c-mux"):
            self.findings.append(Finding(
                Level.FAIL, "mux", f"no mux channel buses {names}: config.txt loads no i2c-mux "
                "overlay", "add dtoverlay=i2c-mux,pca9548,addr=0x70 to config.txt (install.sh "
                "does), then sudo reboot"))
        else:
            self.findings.append(Finding(
                Level.FAIL, "mux", f"the TCA9548A did not answer when the Pi started: no "
                f"{names}", f"check the mux's wires: {self._wires_to_mux()}; then sudo reboot"))

    def _wires_to_mux(self) -> str:
        return (f"{self._header.i2c_wires()}; VIN is the VCC; A0, A1 and A2 to GND make "
                "address 0x70")

    def _mux(self, number: int, address: int) -> Tca9548a | None:
        if number in self._muxes:
            return self._muxes[number]
        bus, mux = self._bus(number), None
        if bus is not None:
            try:
                bus.write_byte(address, 0)  # every channel off: a mux there acknowledges
            except OSError as error:
                self.findings.append(Finding(
                    Level.FAIL, "mux", f"no TCA9548A answers at {address:#04x} on "
                    f"/dev/i2c-{number} ({error.strerror or error})",
                    f"check the mux's wires: {self._wires_to_mux()} (A0 to 3V3 for 0x71, ...)"))
            else:
                mux = Tca9548a(bus, address)
                self.findings.append(Finding(Level.OK, "mux", f"the TCA9548A answers at "
                                             f"{address:#04x} on /dev/i2c-{number}"))
        self._muxes[number] = mux
        return mux

    def _seat_bus(self, seat: SeatConfig) -> I2cBus | None:
        if seat.mux is not None:
            mux = self._mux(seat.mux.bus, seat.mux.address)
            return None if mux is None else mux.channel(seat.mux.channel)
        assert seat.bus is not None  # validated: a wired seat has a bus or a mux
        if seat.bus not in PI_BUSES and self._buses.get(KERNEL_MUX_PARENT) is None:
            return None  # told: I2C is off
        return self._bus(seat.bus)

    def _display(self, seat: SeatConfig) -> None:
        bus = self._seat_bus(seat)
        if bus is None:
            self.findings.append(Finding(Level.NOTE, "display", "not checked: its I2C bus or "
                                         "mux is not there", seat=seat.number))
            return
        screen = OledScreen(bus, driver=seat.display, address=seat.address,
                            rotate=seat.rotate // 90)
        where = self._where(seat)
        try:
            screen.reconnect()
            screen.show(seat_face(seat.number))
        except OSError:
            self.findings.append(self._no_display(seat, bus, where))
            return
        self.screens[seat.number] = screen
        self.findings.append(Finding(
            Level.OK, "display", f"{seat.display.upper()} at {seat.address:#04x} on {where} "
            f"answers; it shows {seat.number}", seat=seat.number))

    def _no_display(self, seat: SeatConfig, bus: I2cBus, where: str) -> Finding:
        says = f"no display answers at {seat.address:#04x} on {where}"
        for other in DISPLAY_ADDRESSES:
            if other != seat.address and _answers(bus, other):
                return Finding(Level.FAIL, "display", f"{says}, but one answers at {other:#04x}",
                               f"set address = {other:#04x} in seat {seat.number}'s [[seat]], "
                               "or move the address jumper on the display's back",
                               seat.number)
        return Finding(Level.FAIL, "display", says, f"check its four wires: "
                       f"{self._display_wires(seat)}; and the jumper on its back: table.toml "
                       f"says {seat.address:#04x}", seat.number)

    def _where(self, seat: SeatConfig) -> str:
        if seat.mux is not None:
            return (f"mux channel {seat.mux.channel} (mux {seat.mux.address:#04x} on "
                    f"/dev/i2c-{seat.mux.bus})")
        channel = self._kernel_channel(seat)
        if channel is not None:
            return f"mux channel {channel} (/dev/i2c-{seat.bus})"
        return f"/dev/i2c-{seat.bus}"

    def _display_wires(self, seat: SeatConfig) -> str:
        channel = seat.mux.channel if seat.mux is not None else self._kernel_channel(seat)
        power = f"VCC to {self._header.supply()}, GND to {self._header.ground()}"
        if channel is not None:
            return f"SDA to the mux's SD{channel}, SCL to its SC{channel}, {power}"
        if seat.bus in PI_BUSES:
            return self._header.i2c_wires()
        return f"SDA and SCL to the mux channel of /dev/i2c-{seat.bus} (i2cdetect -l), {power}"

    def _kernel_channel(self, seat: SeatConfig) -> int | None:
        """The mux channel behind a kernel bus: sysfs names it "i2c-1-mux (chan_id 3)"."""
        if seat.bus is None or seat.bus in PI_BUSES:
            return None
        try:
            name = self._machine.path(f"/sys/bus/i2c/devices/i2c-{seat.bus}/name").read_text()
        except OSError:
            return None
        found = CHAN_ID.search(name)
        return int(found[1]) if found else None

    def _clock(self) -> Iterator[Finding]:
        """What the kernel runs the Pi's bus at, and on a Pi 3 or Zero 2 W what holds it."""
        speed = self._clock_speed()
        if speed is None:
            yield Finding(Level.NOTE, "I2C clock", "not readable here (no device tree: not a "
                          "Raspberry Pi?)")
            return
        kilohertz = f"{speed // 1000} kHz"
        if speed < FAST_I2C:
            yield Finding(Level.WARN, "I2C clock", f"the bus runs at {kilohertz}; the displays "
                          "are drawn for 400 kHz", "dtparam=i2c_arm_baudrate=400000 in "
                          "config.txt (install.sh sets it), then sudo reboot")
        else:
            yield Finding(Level.OK, "I2C clock", f"the kernel runs the bus at {kilohertz}")
        model = self._model()
        if any(model.startswith(name) for name in CORE_CLOCKED):
            if _config_has(self._boot, r"core_freq="):
                yield Finding(Level.OK, "I2C clock", f"on a {model} the bus follows the core "
                              "clock, and config.txt holds it (core_freq)")
            else:
                yield Finding(Level.WARN, "I2C clock", f"on a {model} the bus follows the core "
                              "clock: 400 kHz asked runs at 250 kHz while the Pi idles "
                              "(raspberrypi/firmware issue 1281)", "core_freq=250 under [pi3] "
                              "and [pi02] in config.txt (install.sh adds it; docs/install.md, "
                              "The I2C clock), then sudo reboot")

    def _clock_speed(self) -> int | None:
        for name in CLOCK_FILES:
            try:
                data = self._machine.path(name).read_bytes()
            except OSError:
                continue
            if len(data) == 4:  # a device-tree cell: one big-endian u32
                return int.from_bytes(data, "big")
        return None

    def _model(self) -> str:
        try:
            text = self._machine.path("/proc/device-tree/model").read_text(errors="replace")
        except OSError:
            return ""
        return text.rstrip("\0\n")


def _answers(bus: I2cBus, address: int) -> bool:
    try:
        bus.write_i2c_block_data(address, COMMAND_MODE, [NOP])
    except OSError:
        return False
    return True
