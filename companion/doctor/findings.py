"""What the doctor finds, where it looks, and whom it asks.

A :class:`Finding` is one check's outcome in a maker's words: what was seen and, when
something is wrong, the fix (which wire, which pin). The terminal prints findings as lines and
the table's settings page shows the same list, so both read one :func:`companion.doctor.report`.
:class:`Machine` holds every path and device factory the checks use, so tests plant each fault
on gpiozero's mock pins, recording buses and a directory standing in for ``/``.
"""

from __future__ import annotations

import enum
import queue
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import serial
from gpiozero.pins import Factory
from serial.tools.list_ports import comports

from hardware.build import BusFactory
from hardware.pods.discovery import PortLister
from hardware.pods.port import open_serial


class Level(enum.StrEnum):
    """How much a finding matters: only FAIL makes ``companion doctor`` exit non-zero."""

    OK = "ok"
    NOTE = "note"  # not checked, or worth knowing; nothing to fix
    WARN = "warn"  # the table runs, but worse than it could (a slow bus, no speaker)
    FAIL = "FAIL"  # a part of the table does not work


@dataclass(frozen=True)
class Finding:
    level: Level
    part: str  # "display", "ACT button", "I2C bus 1", ...
    says: str  # what was seen
    fix: str = ""  # what to do about it, when anything
    seat: int | None = None  # None: the whole table

    @property
    def where(self) -> str:
        return self.part if self.seat is None else f"seat {self.seat} {self.part}"

    def lines(self) -> list[str]:
        """The finding as the terminal prints it: a level, the part, what; the fix below."""
        lines = [f"{self.level.value:4}  {self.where}: {self.says}"]
        if self.fix:
            lines.append(f"      fix: {self.fix}")
        return lines


class Skip:
    """The maker asked to skip the button being waited for (Enter, in the terminal)."""


SKIP = Skip()

Events = queue.Queue[object]
Wait = Callable[[Events, float], object | None]


def wait_on_queue(events: Events, timeout: float) -> object | None:
    """The next button edge or skip, or None once ``timeout`` seconds pass with neither."""
    try:
        return events.get(timeout=timeout)
    except queue.Empty:
        return None


class Maker(Protocol):
    """The person at the table, for the checks a program cannot make alone."""

    def ask(self, prompt: str) -> None:
        """Ask for a press ("press ACT on seat 3"); the press itself comes as an edge."""

    def heard(self, question: str) -> bool | None:
        """Ask what they heard or felt; None: they skipped the question."""


@dataclass(frozen=True)
class Machine:
    """Where the checks look: every path under ``root``, every device from a factory."""

    root: Path = Path("/")
    open_bus: BusFactory | None = None  # None: smbus2, as the table opens its buses
    pin_factory: Factory | None = None  # None: gpiozero's default (the Pi's own pins)
    pod_ports: PortLister = comports
    pod_opener: Callable[[str], serial.SerialBase] = open_serial
    events: Events = field(default_factory=queue.Queue)  # button edges and skips
    wait: Wait = wait_on_queue
    press_timeout: float = 30.0  # seconds a button is waited for before it counts as unseen

    def path(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")
