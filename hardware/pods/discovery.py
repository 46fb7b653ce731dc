"""Finding each pod seat's pod: a configured port, or any port with a pod's USB ID.

``pod = "auto"`` in table.toml means "whichever pod says this seat number in its HELLO";
a path means that port, and its HELLO must say the same seat. An auto seat only ever opens
ports whose USB VID:PID is a pod's (pyserial's ``list_ports``): opening a port resets an
Arduino, and a WHO frame is junk to a GPS or a Zigbee stick. Where udev made a stable name
(``/dev/table-pod-<serial>``, systemd/99-table-companion-pods.rules) the pod is opened and
logged under it, so it is found again under the same name after a replug.
One finder serves all pod seats: it opens each port once at a time and hands a pod that
answered for another auto seat to that seat, so no two seats ever fight over a port.
"""

from __future__ import annotations

import glob
import logging
import os
import threading
from collections.abc import Callable, Iterable

import serial
from serial.tools.list_ports import comports
from serial.tools.list_ports_common import ListPortInfo

from ..exc import PodVersionError
from .port import PodHello, PodPort, handshake, open_serial

log = logging.getLogger(__name__)

AUTO = "auto"
POD_USB_ID = (0x2E8A, 0x0005)  # MicroPython's own VID:PID on the RP2040, as in the udev rules
UDEV_NAMES = "/dev/table-pod-*"

Found = tuple[PodPort, PodHello]
PortLister = Callable[[], Iterable[ListPortInfo]]


def pod_paths(ports: Iterable[ListPortInfo], udev_names: Iterable[str] = ()) -> list[str]:
    """The ports that are pods (by USB VID:PID), each under its udev name where it has one.

    pyserial reads the USB IDs of devices only, not of links, so the names are matched here.
    """
    named = {_device(name): name for name in udev_names}
    return sorted(named.get(_device(port.device), port.device) for port in ports
                  if (port.vid, port.pid) == POD_USB_ID)


class PodFinder:
    """``ports`` maps each pod seat to its configured port or ``"auto"``."""

    def __init__(
        self,
        ports: dict[int, str],
        *,
        list_ports: PortLister = comports,
        udev_names: str = UDEV_NAMES,
        opener: Callable[[str], serial.SerialBase] = open_serial,
    ) -> None:
        self.ports = dict(ports)
        self._list_ports = list_ports
        self._udev_names = udev_names
        self._opener = opener
        self._lock = threading.Lock()
        # each open port's device, resolved when it was opened: by the time a seat lets go
        # of an unplugged pod, udev may have removed its name, and the tty would stay taken
        self._devices: dict[PodPort, str] = {}
        self._waiting: dict[int, Found] = {}  # pods found by another seat's search
        self._told: set[tuple[str, str]] = set()  # problems logged once, not on every retry

    def find(self, seat: int) -> Found | None:
        """This seat's pod, opened and greeted; None if it is not plugged in (yet)."""
        with self._lock:
            if seat in self._waiting:
                return self._waiting.pop(seat)
            for path in self._candidates(seat):
                found = self._try(path)
                if found is None:
                    continue
                owner = self._owner(path, found[1])
                if owner == seat:
                    return found
                if owner is not None:
                    self._waiting[owner] = found
                else:
                    self._release(found[0])
        return None

    def release(self, port: PodPort) -> None:
        """The seat is done with the port (unplugged, quiet): it may be found again."""
        with self._lock:
            self._release(port)

    def close(self) -> None:
        with self._lock:
            for port, _ in self._waiting.values():
                self._release(port)
            self._waiting.clear()

    def _candidates(self, seat: int) -> list[str]:
        configured = self.ports.get(seat, AUTO)
        if configured != AUTO:
            paths = [configured]
        else:
            claimed = {path for path in self.ports.values() if path != AUTO}
            found = pod_paths(self._list_ports(), glob.glob(self._udev_names))
            paths = [path for path in found if path not in claimed]
        in_use = set(self._devices.values())
        return [path for path in paths if _device(path) not in in_use]

    def _try(self, path: str) -> Found | None:
        device = _device(path)
        try:
            port = PodPort(self._opener(path), path)
        except OSError as error:
            self._tell(path, logging.DEBUG, f"{path}: cannot open ({error})")
            return None
        self._devices[port] = device
        try:
            hello = handshake(port)
        except PodVersionError as error:
            self._tell(path, logging.ERROR, str(error))
            hello = None
        except OSError as error:
            self._tell(path, logging.DEBUG, f"{path}: gone during the handshake ({error})")
            hello = None
        if hello is None:
            self._release(port)
            return None
        self._told = {told for told in self._told if told[0] != path}
        return port, hello

    def _owner(self, path: str, hello: PodHello) -> int | None:
        """The seat this pod belongs to, or None (it is not one of ours, or says otherwise)."""
        for seat, configured in self.ports.items():
            if configured == path:
                if hello.seat != seat:
                    self._tell(path, logging.ERROR, f"the pod on {path} says it is seat "
                               f"{hello.seat}, table.toml puts it at seat {seat}: set the pod's "
                               "seat number (firmware/README.md) or fix table.toml")
                    return None
                return seat
        if self.ports.get(hello.seat) == AUTO:
            return hello.seat
        self._tell(path, logging.WARNING, f"the pod on {path} says seat {hello.seat}, which is "
                   "not an auto pod seat in table.toml; ignoring it")
        return None

    def _release(self, port: PodPort) -> None:
        port.close()
        self._devices.pop(port, None)

    def _tell(self, path: str, level: int, message: str) -> None:
        if (path, message) not in self._told:
            self._told.add((path, message))
            log.log(level, "%s", message)


def _device(path: str) -> str:
    """by-id links and the tty they point at are one device."""
    return os.path.realpath(path) if "://" not in path else path
