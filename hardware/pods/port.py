"""One serial port with a seat pod on it: framing, the HELLO handshake and the version check.

pyserial does the port (a USB CDC device on the Pi, a pty or ``loop://`` in tests); every
frame in or out goes through :mod:`podproto.wire`, the same code the pod runs.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial

from podproto import VERSION, wire

from ..exc import PodVersionError

log = logging.getLogger(__name__)

HELLO_TIMEOUT = 0.5  # a running pod answers WHO within a few ms; a booting one within 0.3 s
ASK_EVERY = 0.15
READ_TIMEOUT = 0.1  # the link thread wakes at least this often to check the heartbeats
WRITE_TIMEOUT = 0.5  # a pod that stops reading must not hang the app's thread

Opener = Callable[[str], serial.SerialBase]


@dataclass(frozen=True)
class PodHello:
    """What a pod says of itself when asked (WHO) and when it starts."""

    protocol: int
    seat: int
    display: str
    features: int
    firmware: str

    @property
    def has_vibrator(self) -> bool:
        return bool(self.features & wire.HAS_VIBRATOR)

    @property
    def has_piezo(self) -> bool:
        return bool(self.features & wire.HAS_PIEZO)


def open_serial(path: str) -> serial.SerialBase:
    """The port at ``path`` (a device or any pyserial URL), raw, with our timeouts.

    The baud rate means nothing to USB CDC; ``exclusive`` keeps a second companion (or a
    stray ``mpremote``) from reading the same pod.
    """
    options = {"exclusive": True} if "://" not in path else {}
    return serial.serial_for_url(path, baudrate=115200, timeout=READ_TIMEOUT,
                                 write_timeout=WRITE_TIMEOUT, **options)


class PodPort:
    """An open port and the framing on it; :meth:`send` may be called from any thread."""

    def __init__(self, port: serial.SerialBase, path: str) -> None:
        self.path = path
        self._port = port
        self._decoder = wire.Decoder()
        self._sequencer = wire.Sequencer()
        self._write_lock = threading.Lock()

    def send(self, kind: int, payload: bytes = b"") -> None:
        """Raises OSError (pyserial's SerialException is one) when the pod is gone."""
        with self._write_lock:
            self._port.write(self._sequencer.frame(kind, payload))

    def receive(self) -> list[tuple[int, int, bytes]]:
        """The frames that arrive within READ_TIMEOUT; raises OSError when unplugged."""
        data = self._port.read(max(1, self._port.in_waiting))
        return self._decoder.feed(data)

    @property
    def errors(self) -> int:
        return self._decoder.errors

    def close(self) -> None:
        self._port.close()


def handshake(port: PodPort, *, clock: Callable[[], float] = time.monotonic) -> PodHello | None:
    """Ask WHO until a HELLO comes (None: nothing answered like a pod within HELLO_TIMEOUT).

    A pod of another protocol version is told so on its own screen (REJECT) and refused
    with a PodVersionError whose message says what to do.
    """
    deadline = clock() + HELLO_TIMEOUT
    ask_at = clock()
    while clock() < deadline:
        if clock() >= ask_at:
            port.send(wire.WHO, wire.who())
            ask_at = clock() + ASK_EVERY
        for _seq, kind, payload in port.receive():
            hello = wire.parse_hello(payload) if kind == wire.HELLO else None
            if hello is not None:
                return _checked(port, PodHello(*hello))
    return None


def _checked(port: PodPort, hello: PodHello) -> PodHello:
    if hello.protocol == wire.PROTOCOL_VERSION:
        if hello.firmware != VERSION:
            log.warning("the seat pod on %s runs firmware %s, this companion is %s: it speaks "
                        "the same protocol, but flash it from this checkout when you can "
                        "(firmware/README.md)", port.path, hello.firmware, VERSION)
        return hello
    newer = "newer" if hello.protocol > wire.PROTOCOL_VERSION else "older"
    port.send(wire.REJECT, f"Update: pod protocol {hello.protocol}, table "
              f"{wire.PROTOCOL_VERSION}".encode())
    raise PodVersionError(
        f"the seat pod on {port.path} (seat {hello.seat}, firmware {hello.firmware}) speaks "
        f"pod protocol {hello.protocol}, {newer} than this companion's protocol "
        f"{wire.PROTOCOL_VERSION}: install the firmware of this companion on the pod "
        "(see firmware/README.md)"
    )
