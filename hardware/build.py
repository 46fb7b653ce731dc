"""Turn a validated :class:`~hardware.config.TableConfig` into a live :class:`TableHardware`."""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from gpiozero.exc import PinFactoryFallback
from gpiozero.pins import Factory
from serial.tools.list_ports import comports

from .base import SeatHardware, Sink, TableHardware
from .config import SeatConfig, TableConfig
from .drivers.bus import BusWriter, I2cBus, Tca9548a
from .drivers.chorus import Chorus
from .drivers.gpio import Clock, GpioBuzzer, GpioVibrator, SeatButtons
from .drivers.oled import CONTROLLERS, OledScreen
from .drivers.wires import SYSFS, wire_of
from .pods.discovery import PodFinder, PortLister
from .pods.link import PodLink

if TYPE_CHECKING:  # the web server (asyncio, h11, wsproto) is imported
    from .web.server import Pages  # only for a table that serves phones or its page

log = logging.getLogger(__name__)

BusFactory = Callable[[int], I2cBus]


def build_table(
    config: TableConfig,
    sink: Sink,
    *,
    pin_factory: Factory | None = None,
    bus_factory: BusFactory | None = None,
    clock: Clock = time.monotonic,
    pod_ports: PortLister = comports,
    page: Pages | None = None,
    sysfs: Path = SYSFS,
) -> TableHardware:
    """Open every pin and bus the config names; on any failure close what was opened.

    A display that does not answer yet (unplugged, loose wire) does not stop the table: its
    screen starts offline and the companion retries :meth:`OledScreen.reconnect`. A bus that
    cannot be opened at all is a set-up problem and raises OSError naming the seat. A pod
    seat starts at once too: its link thread finds the pod (among ``pod_ports`` for
    ``pod = "auto"``) whenever it is plugged in. Phone seats share one web server, started
    here, which also serves ``page`` (the table's page) when table.toml turns it on; a port
    already in use raises OSError. ``sysfs`` says which buses share a wire.
    """
    buses = _Buses(open_smbus if bus_factory is None else bus_factory, sysfs)
    pods = {seat.number: seat.pod for seat in config.seats if seat.pod is not None}
    finder = PodFinder(pods, list_ports=pod_ports)
    table = TableHardware(seats={})
    try:
        with warnings.catch_warnings():
            # gpiozero picks its pin library at the first device made here, warning
            # PinFactoryFallback for each one it passes over: off a Pi, four warnings before
            # the one line companion play says (BadPinFactory: no GPIO, and what to do).
            warnings.simplefilter("ignore", PinFactoryFallback)
            for seat in config.seats:
                if seat.wired:
                    table.seats[seat.number] = _build_seat(seat, sink, buses, pin_factory, clock)
                elif seat.pod is not None:
                    table.seats[seat.number] = _build_pod_seat(seat.number, finder, sink, clock)
            if config.phones is not None:
                from .web.server import PhoneServer
                from .web.table import served_seats

                server = PhoneServer([seat.number for seat in config.seats if seat.phone], sink,
                                     host=config.phones.listen, port=config.phones.port,
                                     clock=clock, page=page if config.page else None)
                table.server = server.start()
                table.seats.update(served_seats(server))
                table.seats = dict(sorted(table.seats.items()))
            if config.buzzer is not None:
                table.buzzer = GpioBuzzer(
                    config.buzzer.pin, tonal=config.buzzer.tonal, pin_factory=pin_factory
                )
    except BaseException:
        table.close()
        raise
    return table


def _build_pod_seat(number: int, finder: PodFinder, sink: Sink, clock: Clock) -> SeatHardware:
    """A pod seat; closing the table stops its link and lets go of every pod port."""
    link = PodLink(number, finder, sink, clock=clock).start()
    return SeatHardware(number, link.screen, vibrator=link.vibrator, inputs=[link, finder],
                        buzzer=link.buzzer)


def _build_seat(
    seat: SeatConfig, sink: Sink, buses: _Buses, pin_factory: Factory | None, clock: Clock
) -> SeatHardware:
    assert seat.act is not None  # validated: every direct seat has an ACT button
    with ExitStack() as undo:
        buttons = SeatButtons(
            seat.number, seat.act, seat.peek, sink=sink, clock=clock, pin_factory=pin_factory
        )
        undo.callback(buttons.close)
        vibrator = None
        if seat.vibrate is not None:
            vibrator = GpioVibrator(seat.vibrate, pin_factory=pin_factory)
            undo.callback(vibrator.close)
        screen = _screen(seat, buses)
        undo.pop_all()
    return SeatHardware(seat.number, screen, buttons.one_button, vibrator, inputs=[buttons])


def _screen(seat: SeatConfig, buses: _Buses) -> OledScreen:
    screen = OledScreen(
        buses.open(seat), driver=seat.display, address=seat.address, rotate=seat.rotate // 90,
        writer=buses.writer(seat), chorus=buses.chorus(seat),
    )
    try:
        screen.reconnect()
    except OSError as error:
        log.warning("seat %d: display at %#04x not answering (%s); will retry",
                    seat.number, seat.address, error)
    return screen


class _Buses:
    """Opens a bus per seat; seats behind one userspace mux share its bus and its state, and
    the seats of one physical wire share one writer thread, whatever ``/dev/i2c-N`` each
    opens (the kernel mux's channels are their parent's wire, :func:`wire_of`); two muxes on
    two of the Pi's buses: two writers, sending at once. The displays of one driver at one
    address behind one userspace mux are a :class:`Chorus`: a frame several of them show
    crosses the wire once (the kernel's mux switches one channel at a time)."""

    def __init__(self, open_bus: BusFactory, sysfs: Path) -> None:
        self._open_bus = open_bus
        self._sysfs = sysfs
        self._muxes: dict[int, Tca9548a] = {}
        self._writers: dict[int, BusWriter] = {}
        self._choruses: dict[tuple[int, int, str], Chorus] = {}

    def chorus(self, seat: SeatConfig) -> Chorus | None:
        """The chorus of ``seat``'s display (None: it is a chorus of one). Open its bus first."""
        if seat.mux is None:
            return None
        key = (seat.mux.bus, seat.address, seat.display)
        if key not in self._choruses:
            self._choruses[key] = Chorus(seat.address, CONTROLLERS[seat.display],
                                         self.writer(seat), self._muxes[seat.mux.bus])
        return self._choruses[key]

    def writer(self, seat: SeatConfig) -> BusWriter:
        number = seat.mux.bus if seat.mux is not None else seat.bus
        assert number is not None  # validated: a direct seat has a bus or a mux
        wire = wire_of(number, self._sysfs)
        if wire not in self._writers:
            self._writers[wire] = BusWriter(f"i2c-{wire}")
        return self._writers[wire]

    def open(self, seat: SeatConfig) -> I2cBus:
        if seat.mux is None:
            assert seat.bus is not None  # validated: a direct seat has a bus or a mux
            return self._checked(seat, seat.bus)
        mux = self._muxes.get(seat.mux.bus)
        if mux is None:
            mux = Tca9548a(self._checked(seat, seat.mux.bus), seat.mux.address)
            self._muxes[seat.mux.bus] = mux
        return mux.channel(seat.mux.channel)

    def _checked(self, seat: SeatConfig, number: int) -> I2cBus:
        try:
            return self._open_bus(number)
        except OSError as error:
            raise OSError(
                error.errno,
                f"seat {seat.number}: cannot open I2C bus /dev/i2c-{number} ({error.strerror}); "
                "is I2C (and the i2c-mux overlay) enabled? see hardware/README.md",
            ) from error


def open_smbus(number: int) -> I2cBus:
    import smbus2

    return smbus2.SMBus(number)
