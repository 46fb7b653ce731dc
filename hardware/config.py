"""table.toml: the table's wiring, validated before any hardware is touched.

The schema is documented in hardware/README.md; the shipped examples are in hardware/tables/
(``companion example-table`` prints them).
Every mistake is ONE :class:`ConfigError` naming the file and line, what is wrong and how to
fix it. tomllib keeps no positions, so :class:`_Lines` finds the ``[[seat]]`` headers and key
lines in the text itself. Any text at all ends in a :class:`TableConfig` or a ConfigError.
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import NoReturn, TypeGuard

from podproto.wire import CHIPS

from .exc import ConfigError, UnreadableFile
from .textfile import read_small_text

# What each of CHIPS usually comes on, in its order, for the message naming the known displays
# (zip's strict fails at import if a chip is added without one).
CHIP_MODULES = ('most 0.96"', 'most 1.3"')
CHOICES = " or ".join(f'"{chip}"' for chip in CHIPS)
KNOWN_DISPLAYS = " and ".join(f'"{chip}" ({module})'
                              for chip, module in zip(CHIPS, CHIP_MODULES, strict=True))
BUZZER_TYPES = ("tonal", "active")
DISPLAY_ADDRESSES = (0x3C, 0x3D)
MUX_ADDRESSES = range(0x70, 0x78)
MUX_CHANNELS = range(8)
GPIO_PINS = range(28)
I2C_PINS = {2: "SDA", 3: "SCL"}
I2C_BUSES = range(256)
SEAT_NUMBERS = range(1, 9)
ROTATIONS = (0, 180)
MAX_SEATS = 8
MAX_BYTES = 16 * 1024  # a real table.toml is a few KiB; tomllib is slow on huge dotted keys

SECTION_KEYS = {
    "top": ("table", "buzzer", "seat", "phones"),
    "table": ("name", "state_dir", "page"),
    "buzzer": ("pin", "type"),
    "seat": ("number", "act", "peek", "display", "bus", "address", "mux", "vibrate", "rotate",
             "pod", "phone"),
    "phones": ("port", "listen"),
    "mux": ("bus", "address", "channel"),
}
POD_EXCLUDES = ("act", "peek", "vibrate", "display", "bus", "address", "mux", "rotate")
PHONE_PORT = 8023
PORTS = range(1024, 65536)  # below 1024 takes a privilege the companion never has


@dataclass(frozen=True)
class MuxConfig:
    """A channel of a TCA9548A driven from userspace (no kernel overlay)."""

    bus: int
    address: int
    channel: int


@dataclass(frozen=True)
class SeatConfig:
    """One seat: wired directly (buttons on GPIO, OLED on I2C), a USB ``pod``, or a ``phone``
    (a web page served by the companion: hardware/web/)."""

    number: int
    line: int
    act: int | None = None
    peek: int | None = None
    vibrate: int | None = None
    display: str = "ssd1306"
    address: int = 0x3C
    bus: int | None = None
    mux: MuxConfig | None = None
    rotate: int = 0
    pod: str | None = None
    phone: bool = False

    @property
    def wired(self) -> bool:
        """Its buttons and display are wired to the Pi itself."""
        return self.pod is None and not self.phone


@dataclass(frozen=True)
class PhonesConfig:
    """The table's web server (its phone seats, its page): its port, and the address it
    listens on."""

    port: int = PHONE_PORT
    listen: str = "0.0.0.0"


@dataclass(frozen=True)
class BuzzerConfig:
    pin: int
    tonal: bool


@dataclass(frozen=True)
class TableConfig:
    source: str
    name: str
    state_dir: Path | None
    buzzer: BuzzerConfig | None
    seats: tuple[SeatConfig, ...]
    phones: PhonesConfig | None = None  # set when the web server runs: a phone seat, the page
    page: bool = False  # the table's page (docs/table-page.md) is served


def load_config(path: str | Path) -> TableConfig:
    try:
        text = read_small_text(path, MAX_BYTES, "table.toml")
    except UnreadableFile as error:
        raise ConfigError(str(error)) from None
    return parse_config(text, str(path))


def parse_config(text: str, source: str = "table.toml") -> TableConfig:
    if len(text) > MAX_BYTES:
        raise ConfigError(f"{source}: too long for a table.toml (max {MAX_BYTES} characters)")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(_syntax_message(source, str(error), text)) from None
    except RecursionError:
        raise ConfigError(f"{source}: values are nested too deeply; check the brackets") from None
    return _Validator(source, _Lines(text)).table(data)


def _syntax_message(source: str, message: str, text: str) -> str:
    """tomllib's "Invalid value (at line 3, column 5)" in our "file line N: ..." form."""
    where = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
    if where:
        what, place = message[: where.start()], f"line {where[1]}, column {where[2]}"
    else:
        what = re.sub(r"\s*\(at end of document\)$", "", message)
        place = f"line {max(1, len(text.splitlines()))} (the end)"
    return (f"{source} {place}: TOML syntax: {what}; check the quotes around text, one "
            "key = value per line and the [[seat]] headers")


class _Lines:
    """Line numbers of sections and keys, found by scanning the text.

    Paths look like ``("seat", 1, "act")`` (the second ``[[seat]]``), ``("seat", 1, "mux",
    "bus")``, ``("buzzer",)``. A lookup falls back to the closest enclosing thing found (an
    inline ``mux = {...}`` line, the ``[[seat]]`` header, a ``seat = [...]`` line), else line 1.
    """

    HEADER = re.compile(r"\s*(\[\[?)\s*([^\[\]]*?)\s*\]")
    KEY = re.compile(r"""\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+)\s*[.=]""")

    def __init__(self, text: str) -> None:
        self.found: dict[tuple[object, ...], int] = {}
        section: tuple[object, ...] = ()
        seats = 0
        for number, line in enumerate(text.splitlines(), 1):
            header = self.HEADER.match(line)
            key = self.KEY.match(line)
            if header:
                names = tuple(part.strip().strip("\"'") for part in header[2].split("."))
                if names[0] == "seat" and header[1] == "[[":
                    seats += 1
                if names[0] == "seat" and seats:
                    names = ("seat", seats - 1, *names[1:])
                section = names
                self.found.setdefault(section, number)
            elif key:
                self.found.setdefault((*section, key[1].strip("\"'")), number)

    def line(self, *path: object) -> int:
        for end in range(len(path), 0, -1):
            if path[:end] in self.found:
                return self.found[path[:end]]
        return 1


@dataclass(frozen=True)
class _PinUse:
    line: int
    pin: int
    user: str  # "seat 2", "the buzzer"
    role: str  # "the ACT button of seat 2"


class _Validator:
    def __init__(self, source: str, lines: _Lines) -> None:
        self.source = source
        self.lines = lines

    def fail(self, path: tuple[object, ...], message: str) -> NoReturn:
        raise ConfigError(f"{self.source} line {self.lines.line(*path)}: {message}")

    def table(self, data: dict[str, object]) -> TableConfig:
        self.keys(data, "top", (), "the file")
        name, state_dir, page = self.table_section(data.get("table", {}))
        buzzer = self.buzzer(data.get("buzzer"))
        seats = tuple(self.seat(index, seat) for index, seat in self.seat_tables(data))
        if not seats:
            self.fail(("seat",), "no seats; add a [[seat]] section for each seat "
                      "(see `companion example-table`)")
        self.check_numbers(seats)
        self.check_pins(seats, buzzer)
        self.check_displays(seats)
        phones = self.phones(data.get("phones"), seats, page)
        return TableConfig(self.source, name, state_dir, buzzer, seats, phones, page)

    def keys(self, table: dict[str, object], kind: str, path: tuple[object, ...],
             what: str) -> None:
        allowed = SECTION_KEYS[kind]
        noun = "section" if kind == "top" else "key"
        for key in table:
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f'did you mean "{close[0]}"?' if close else f"known: {', '.join(allowed)}"
                self.fail((*path, key), f'unknown {noun} "{key}" in {what}; {hint}')

    def section(self, value: object, path: tuple[object, ...], header: str) -> dict[str, object]:
        if not isinstance(value, dict):
            self.fail(path, f"{header} must be a section of key = value lines, not {_show(value)}")
        return value

    def table_section(self, value: object) -> tuple[str, Path | None, bool]:
        section = self.section(value, ("table",), "[table]")
        self.keys(section, "table", ("table",), "[table]")
        name = section.get("name", "table")
        if not isinstance(name, str) or not name.strip():
            self.fail(("table", "name"), f'name must be some text, like "Kitchen table", not '
                      f"{_show(name)}")
        page = section.get("page", False)
        if not isinstance(page, bool):
            self.fail(("table", "page"), "page must be true (serve the table's page, "
                      f"docs/table-page.md) or false, not {_show(page)}")
        state_dir = section.get("state_dir")
        if state_dir is None:
            return name, None, page
        if not isinstance(state_dir, str) or not PurePosixPath(state_dir).is_absolute():
            self.fail(("table", "state_dir"), "state_dir must be an absolute path, like "
                      f'"/var/lib/table-companion", not {_show(state_dir)}')
        return name, Path(state_dir), page

    def phones(self, value: object, seats: tuple[SeatConfig, ...],
               page: bool) -> PhonesConfig | None:
        if not page and not any(seat.phone for seat in seats):
            if value is not None:
                self.fail(("phones",), "[phones] sets up the web server, but no seat is a "
                          "phone and the page is off; add phone = true to a [[seat]] or "
                          "page = true to [table], or remove [phones]")
            return None
        if value is None:
            return PhonesConfig()
        section = self.section(value, ("phones",), "[phones]")
        self.keys(section, "phones", ("phones",), "[phones]")
        port = self.integer(section.get("port", PHONE_PORT), ("phones", "port"),
                            "the phone seats' port", PORTS,
                            " (one below 1024 needs a privilege the companion does not have)")
        listen = section.get("listen", "0.0.0.0")
        if not isinstance(listen, str) or not _is_address(listen):
            self.fail(("phones", "listen"), 'listen must be an IP address of this machine, '
                      f'like "0.0.0.0" (every network) or "192.168.4.1", not {_show(listen)}')
        return PhonesConfig(port, listen)

    def buzzer(self, value: object) -> BuzzerConfig | None:
        if value is None:
            return None
        section = self.section(value, ("buzzer",), "[buzzer]")
        self.keys(section, "buzzer", ("buzzer",), "[buzzer]")
        if "pin" not in section:
            self.fail(("buzzer",), "[buzzer] has no pin; add pin = <GPIO number> (or remove "
                      "the section for a table without a buzzer)")
        pin = self.pin(section["pin"], ("buzzer", "pin"), "the buzzer's pin")
        kind = section.get("type", "tonal")
        if kind not in BUZZER_TYPES:
            self.fail(("buzzer", "type"), f'buzzer type must be "tonal" (a passive piezo) or '
                      f'"active" (beeps by itself), not {_show(kind)}')
        return BuzzerConfig(pin, kind == "tonal")

    def seat_tables(self, data: dict[str, object]) -> Iterator[tuple[int, dict[str, object]]]:
        seats = data.get("seat", [])
        if isinstance(seats, dict):
            self.fail(("seat",), "write [[seat]] (two brackets) for each seat, not [seat]")
        if not isinstance(seats, list):
            self.fail(("seat",), f"seat must be [[seat]] sections, not {_show(seats)}")
        if len(seats) > MAX_SEATS:
            self.fail(("seat", MAX_SEATS), f"a table has at most {MAX_SEATS} seats; this is "
                      f"seat section number {MAX_SEATS + 1}")
        for index, seat in enumerate(seats):
            yield index, self.section(seat, ("seat", index), "[[seat]]")

    def seat(self, index: int, table: dict[str, object]) -> SeatConfig:
        path = ("seat", index)
        if "number" not in table:
            self.fail(path, "this [[seat]] has no number; add number = N (1..8, its place at "
                      "the table, clockwise)")
        number = self.integer(table["number"], (*path, "number"), "the seat number",
                              SEAT_NUMBERS, " (its place at the table, clockwise)")
        self.keys(table, "seat", path, f"seat {number}")
        line = self.lines.line(*path)
        if "phone" in table:
            return self.phone(table, path, number, line)
        if "pod" in table:
            return SeatConfig(number, line, pod=self.pod(table, path, number))
        if "act" not in table:
            self.fail(path, f"seat {number} has no ACT button; add act = <GPIO number> (every "
                      "seat needs its ACT button)")
        pins = {
            key: self.pin(table[key], (*path, key), f"seat {number}'s {key} pin")
            for key in ("act", "peek", "vibrate")
            if key in table
        }
        # Checked in this order, so a seat with several mistakes names the same one first.
        display = self.display(table, path, number)
        address = self.display_address(table.get("address", 0x3C), (*path, "address"),
                                       f"seat {number}'s display address")
        rotate = self.rotation(table.get("rotate", 0), (*path, "rotate"), number)
        bus, mux = self.seat_bus(table, path, number)
        return SeatConfig(number, line, pins["act"], pins.get("peek"), pins.get("vibrate"),
                          display=display, address=address, rotate=rotate, bus=bus, mux=mux)

    def phone(self, table: dict[str, object], path: tuple[object, ...], number: int,
              line: int) -> SeatConfig:
        if table["phone"] is not True:
            self.fail((*path, "phone"), f"seat {number}'s phone must be true (a phone seat), "
                      f"not {_show(table['phone'])}; remove it for a wired seat or a pod")
        for key in (*POD_EXCLUDES, "pod"):
            if key in table:
                self.fail((*path, key), f"seat {number} is a phone seat (its screen and buttons "
                          f"are on the phone); remove {key}, or remove phone = true")
        return SeatConfig(number, line, phone=True)

    def pod(self, table: dict[str, object], path: tuple[object, ...], number: int) -> str:
        pod = table["pod"]
        if not isinstance(pod, str) or not pod.strip():
            self.fail((*path, "pod"), f"seat {number}'s pod must be its serial port, like "
                      f'"/dev/serial/by-id/usb-...", or "auto" (any pod that says seat '
                      f"{number}), not {_show(pod)}")
        for key in POD_EXCLUDES:
            if key in table:
                self.fail((*path, key), f"seat {number} is a pod seat (its buttons, display and "
                          f"motor are on the pod); remove {key}, or remove pod to wire the "
                          "seat directly")
        return pod

    def display(self, table: dict[str, object], path: tuple[object, ...], number: int) -> str:
        if "display" not in table:
            self.fail(path, f"seat {number} has no display; add display = {CHOICES} "
                      "(the controller chip named on the OLED module)")
        display = table["display"]
        if display not in CHIPS:
            close = difflib.get_close_matches(str(display).lower(), CHIPS, n=1)
            hint = f'did you mean "{close[0]}"? ' if close else ""
            self.fail((*path, "display"), f"seat {number}: unknown display {_show(display)}; "
                      f"{hint}known: {KNOWN_DISPLAYS}")
        return str(display)

    def seat_bus(self, table: dict[str, object], path: tuple[object, ...],
                 number: int) -> tuple[int | None, MuxConfig | None]:
        """The seat's display bus: ``(bus, None)`` for a kernel /dev/i2c-N, ``(None, mux)``."""
        if "bus" in table and "mux" in table:
            self.fail((*path, "mux"), f"seat {number} has both bus and mux; keep one: bus = N "
                      "for /dev/i2c-N (kernel mux overlay) or mux = { ... } (userspace mux)")
        if "bus" in table:
            what = f"seat {number}'s bus"
            return self.integer(table["bus"], (*path, "bus"), what, I2C_BUSES,
                                " (N of its /dev/i2c-N)"), None
        if "mux" in table:
            return None, self.mux(table["mux"], (*path, "mux"), number)
        self.fail(path, f"seat {number} has no display bus; add bus = N (its /dev/i2c-N) or "
                  "mux = { bus = 1, address = 0x70, channel = 0 }")

    def mux(self, value: object, path: tuple[object, ...], number: int) -> MuxConfig:
        mux = self.section(value, path, f"seat {number}'s mux")
        self.keys(mux, "mux", path, f"seat {number}'s mux")
        if "channel" not in mux:
            self.fail(path, f"seat {number}'s mux has no channel; add channel = 0..7 (the SDx/"
                      "SCx pair the display is wired to)")
        bus = self.integer(mux.get("bus", 1), (*path, "bus"), "the mux's bus", I2C_BUSES,
                           " (N of the /dev/i2c-N it hangs on)")
        address = mux.get("address", 0x70)
        if not _is_int(address) or address not in MUX_ADDRESSES:
            self.fail((*path, "address"), "the mux's address must be a number from 0x70 to "
                      f"0x77 (set by its A0-A2 pins), not {_show(address)}")
        channel = self.integer(mux["channel"], (*path, "channel"), "the mux channel",
                               MUX_CHANNELS, " (the SDx/SCx pair of the display)")
        return MuxConfig(bus, address, channel)

    def display_address(self, value: object, path: tuple[object, ...], what: str) -> int:
        if isinstance(value, str):
            self.fail(path, f"{what} must be a number, written 0x3C without quotes, not "
                      f"{_show(value)}")
        if not _is_int(value) or value not in DISPLAY_ADDRESSES:
            self.fail(path, f"{what} must be 0x3C or 0x3D (the jumper on the module's back), "
                      f"not {_show(value)}")
        return value

    def rotation(self, value: object, path: tuple[object, ...], number: int) -> int:
        if not _is_int(value) or value not in ROTATIONS:
            self.fail(path, f"seat {number}'s rotate must be 0 or 180 (a display mounted upside "
                      f"down), not {_show(value)}")
        return value

    def pin(self, value: object, path: tuple[object, ...], what: str) -> int:
        return self.integer(value, path, what, GPIO_PINS,
                            " (a GPIO number as `pinout` prints it, not a header pin number)")

    def integer(self, value: object, path: tuple[object, ...], what: str, allowed: range,
                note: str = "") -> int:
        if not _is_int(value) or value not in allowed:
            self.fail(path, f"{what} must be a number from {allowed.start} to "
                      f"{allowed.stop - 1}{note}, not {_show(value)}")
        return value

    def check_numbers(self, seats: tuple[SeatConfig, ...]) -> None:
        first: dict[int, int] = {}
        for index, seat in enumerate(seats):
            if seat.number in first:
                self.fail(("seat", index, "number"), f"seat number {seat.number} is used twice "
                          f"(first at line {self.lines.line('seat', first[seat.number], 'number')}"
                          "); number the seats 1..8, each once")
            first[seat.number] = index

    def check_pins(self, seats: tuple[SeatConfig, ...], buzzer: BuzzerConfig | None) -> None:
        uses = sorted(self.pin_uses(seats, buzzer), key=lambda use: use.line)
        wired = any(seat.wired for seat in seats)
        owners: dict[int, _PinUse] = {}
        for use in uses:
            if wired and use.pin in I2C_PINS:
                self.fail_at(use.line, f"{use.user} uses GPIO {use.pin}, the I2C "
                             f"{I2C_PINS[use.pin]} line of the displays; move "
                             f"{use.role} to a free GPIO (see hardware/README.md)")
            if use.pin in owners:
                owner = owners[use.pin]
                self.fail_at(use.line, f"{use.user} uses GPIO {use.pin}, already {owner.role} "
                             f"(line {owner.line}); give each button, motor and buzzer its own "
                             "pin")
            owners[use.pin] = use

    def pin_uses(self, seats: tuple[SeatConfig, ...],
                 buzzer: BuzzerConfig | None) -> Iterator[_PinUse]:
        if buzzer is not None:
            yield _PinUse(self.lines.line("buzzer", "pin"), buzzer.pin, "the buzzer",
                          "the buzzer")
        for index, seat in enumerate(seats):
            roles = {"act": "the ACT button", "peek": "the PEEK button",
                     "vibrate": "the vibration motor"}
            for key, role in roles.items():
                pin = getattr(seat, key)
                if pin is not None:
                    yield _PinUse(self.lines.line("seat", index, key), pin,
                                  f"seat {seat.number}", f"{role} of seat {seat.number}")

    def check_displays(self, seats: tuple[SeatConfig, ...]) -> None:
        """Two displays answering at one address on one stretch of wire garble each other."""
        direct: dict[tuple[int | None, int], int] = {}
        behind_mux: dict[tuple[int, int, int], int] = {}
        first_mux: dict[int, int] = {}
        for index, seat in enumerate(seats):
            if seat.mux is not None:
                mux = seat.mux
                self.check_one_mux(seats, index, first_mux.setdefault(mux.bus, index))
                other = behind_mux.get((mux.bus, mux.channel, seat.address),
                                       direct.get((mux.bus, seat.address)))
                where = f"mux channel {mux.channel} (bus {mux.bus})"
                behind_mux.setdefault((mux.bus, mux.channel, seat.address), index)
            elif seat.wired:
                key = (seat.bus, seat.address)
                other = direct.get(key, next((i for (bus, _, address), i in behind_mux.items()
                                              if (bus, address) == key), None))
                where = f"/dev/i2c-{seat.bus}"
                direct.setdefault(key, index)
            else:
                continue
            if other is not None:
                self.fail_at(self.bus_line(seats, index), f"seat {seat.number}'s display answers"
                             f" at {_hex(seat.address)} on {where}, and so does seat "
                             f"{seats[other].number}'s (line {self.bus_line(seats, other)}); "
                             "give one the other address (0x3C/0x3D) or its own bus or channel")

    def check_one_mux(self, seats: tuple[SeatConfig, ...], index: int, first: int) -> None:
        """Two userspace muxes on one bus would both pass their channels through at once."""
        seat, other = seats[index], seats[first]
        if seat.mux and other.mux and seat.mux.address != other.mux.address:
            self.fail_at(self.bus_line(seats, index), f"seat {seat.number} uses a mux at "
                         f"{_hex(seat.mux.address)} on bus {seat.mux.bus}, seat {other.number} "
                         f"(line {self.bus_line(seats, first)}) one at "
                         f"{_hex(other.mux.address)}; put all seats of a bus on one TCA9548A "
                         "(it has 8 channels)")

    def bus_line(self, seats: tuple[SeatConfig, ...], index: int) -> int:
        return self.lines.line("seat", index, "bus" if seats[index].mux is None else "mux")

    def fail_at(self, line: int, message: str) -> NoReturn:
        raise ConfigError(f"{self.source} line {line}: {message}")


def _is_int(value: object) -> TypeGuard[int]:
    """An integer, and not a bool (TOML's true is no pin number)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _hex(address: int) -> str:
    return f"0x{address:02X}"


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False) if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
