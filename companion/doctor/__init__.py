"""``companion doctor``: a built table checked against its table.toml, seat by seat.

:func:`report` is the one way to run the checks: the terminal prints its findings as lines
(companion/doctor/terminal.py) and the table's settings page shows the same list. With a
:class:`Maker` the doctor also asks for each button's press and whether the buzzer and the
motors were heard; without one (``--no-wait``) it checks only what needs nobody at the table.
"""

from __future__ import annotations

import warnings

from gpiozero import Device
from gpiozero.exc import GPIOZeroError, PinFactoryFallback
from gpiozero.pins import BoardInfo

from hardware.config import TableConfig

from . import links
from .findings import Finding, Level, Machine, Maker
from .header import Header
from .i2c import Displays
from .pins import Pins

__all__ = ["Finding", "Level", "Machine", "Maker", "report", "while_running"]

HELD = ("the displays", "buttons", "buzzer", "motors", "pods", "the web server's port")


def report(config: TableConfig, machine: Machine | None = None,
           maker: Maker | None = None) -> list[Finding]:
    """Every check of the table, table-wide findings first, then seat by seat."""
    machine = machine or Machine()
    findings: list[Finding] = []
    uses_gpio = config.buzzer is not None or any(seat.wired for seat in config.seats)
    board = _board(machine, findings) if uses_gpio else None
    header = Header(board)
    with Displays(config, machine, header) as displays:  # each screen shows its number...
        findings.extend(displays.check())
        if board is not None:
            with Pins(config, machine, header) as pins:  # ...while its buttons are pressed
                findings.extend(pins.check(maker))
    findings.append(links.speaker(machine))
    findings.extend(links.pods(config, machine))
    phones = links.phones(config)
    if phones is not None:
        findings.append(phones)
    return sorted(findings, key=lambda finding: finding.seat or 0)


def while_running(config: TableConfig, machine: Machine | None = None) -> list[Finding]:
    """The checks that need nothing the running table holds (the table's page runs these),
    and one note naming what only a stopped table can be checked for."""
    machine = machine or Machine()
    held = [part for part, used in zip(HELD, _uses(config), strict=True) if used]
    findings = [links.speaker(machine)]
    if held:
        findings.append(Finding(Level.NOTE, "the rest", f"{', '.join(held)} are the running "
                                "table's: not checked here", "to check them, stop the table "
                                "(sudo systemctl stop table-companion), run companion doctor, "
                                "then start it again"))
    return findings


def _uses(config: TableConfig) -> tuple[bool, ...]:
    """Which of HELD the table has."""
    wired = [seat for seat in config.seats if seat.wired]
    return (bool(wired), bool(wired), config.buzzer is not None,
            any(seat.vibrate is not None for seat in wired),
            any(seat.pod is not None for seat in config.seats), config.phones is not None)


def _board(machine: Machine, findings: list[Finding]) -> BoardInfo | None:
    """This Pi's header, from gpiozero's pin factory; None (and a finding) without GPIO."""
    factory = machine.pin_factory
    try:
        if factory is None:
            with warnings.catch_warnings():  # off a Pi: one finding, not four warnings
                warnings.simplefilter("ignore", PinFactoryFallback)
                Device.ensure_pin_factory()
            factory = Device.pin_factory
        assert factory is not None  # ensure_pin_factory sets one or raises
        return factory.board_info
    except (GPIOZeroError, OSError) as error:
        findings.append(Finding(Level.FAIL, "GPIO", f"no GPIO here ({error})", "run it on the "
                                "table's Raspberry Pi"))
        return None
