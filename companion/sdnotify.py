"""Telling systemd how the service is doing, with no dependency (after nobodd's systemd.py).

The protocol is one datagram of ``KEY=value`` lines to the AF_UNIX socket named in
``$NOTIFY_SOCKET``; a name starting with ``@`` is in the abstract namespace (a leading NUL).
Outside systemd there is no socket and every call quietly does nothing, so the app never
needs to know whether it runs as a service.

``READY=1`` goes out once every seat is blank and the journal replayed; ``WATCHDOG=1`` comes
from the app's main loop every half ``WatchdogSec`` (``$WATCHDOG_USEC``), so a loop that
hangs stops pinging and systemd restarts the service; ``STOPPING=1`` on a clean stop.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


class Notifier:
    """The service manager's notification socket, or nothing when there is none."""

    def __init__(self, environ: Mapping[str, str] = os.environ, pid: int | None = None) -> None:
        self.address = socket_address(environ.get("NOTIFY_SOCKET", ""))
        self.watchdog_every = watchdog_interval(environ, os.getpid() if pid is None else pid)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *_status(status))

    def status(self, text: str) -> bool:
        return self.send(*_status(text))

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def send(self, *lines: str) -> bool:
        """Send one notification; False (and a debug line) when it could not be delivered.

        A socket is opened per message: a ping every few seconds costs three system calls,
        and there is no open descriptor to leak into children or to go stale. It never
        blocks: a notify socket nobody reads (its queue full) loses the message, not the
        table's loop.
        """
        if self.address is None or not lines:
            return False
        kind = socket.SOCK_DGRAM | socket.SOCK_CLOEXEC | socket.SOCK_NONBLOCK
        try:
            with socket.socket(socket.AF_UNIX, kind) as sock:
                sock.connect(self.address)
                sock.sendall("\n".join(lines).encode())
        except OSError as error:
            log.debug("sd_notify %s failed: %s", lines[0].split("=")[0], error)
            return False
        return True


def socket_address(value: str) -> str | None:
    """``$NOTIFY_SOCKET`` as a socket address: a path, or an abstract name for ``@name``."""
    if value.startswith("@"):
        return "\0" + value[1:]
    if value.startswith("/"):
        return value
    return None  # unset, or a kind we do not speak (vsock)


def watchdog_interval(environ: Mapping[str, str], pid: int) -> float | None:
    """Seconds between pings (half of ``WatchdogSec``), or None when no watchdog is armed.

    ``$WATCHDOG_PID``, when set, names the process the watchdog is meant for: a child that
    inherited the environment must not ping on its parent's behalf.
    """
    owner = environ.get("WATCHDOG_PID", "")
    if owner and owner != str(pid):
        return None
    try:
        usec = int(environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    return usec / 2 / 1_000_000 if usec > 0 else None


def _status(text: str) -> list[str]:
    """A STATUS= line is one line: a newline would start a new key."""
    return [f"STATUS={' '.join(text.split())}"] if text else []
