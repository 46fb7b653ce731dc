"""Phone seats as a table's seats: one server for all of them, a :class:`SeatHardware` each.

Used alike by table.toml's phone seats (hardware/build.py), by the simulated table's
(``companion play --phones N``) and by the tests.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from functools import partial

from ..base import SeatHardware, Sink, TableHardware
from ..public_screens import joined
from .seat import Clock
from .server import PhoneServer

EVERY_ADDRESS = ("0.0.0.0", "::")


def phone_seats(numbers: Iterable[int], sink: Sink, *, port: int, listen: str = "0.0.0.0",
                public_host: str | None = None,
                clock: Clock = time.monotonic) -> dict[int, SeatHardware]:
    """Start the server and give each phone seat its screen, motor, sound and link; closing
    any seat's inputs (as closing the table does) stops the server. The links name
    ``public_host``, else the one address listened on, else this machine's LAN address."""
    if public_host is None and listen not in EVERY_ADDRESS:
        public_host = listen
    server = PhoneServer(numbers, sink, host=listen, port=port, public_host=public_host,
                         clock=clock).start()
    return served_seats(server)


def served_seats(server: PhoneServer) -> dict[int, SeatHardware]:
    """Each of the server's phone seats as a table's seat."""
    return {number: SeatHardware(number, server.screen(number),
                                 vibrator=server.vibrator(number), inputs=[server],
                                 buzzer=server.buzzer(number),
                                 phone_link=server.link(number),
                                 free_phone=partial(server.free, number))
            for number in server.seats}


def phone_server(seats: Mapping[int, SeatHardware]) -> PhoneServer | None:
    """The phone seats' server, where there are phone seats (one serves them all)."""
    for seat in seats.values():
        for device in seat.inputs:
            if isinstance(device, PhoneServer):
                return device
    return None


def with_browser_public(table: TableHardware) -> PhoneServer | None:
    """Where the table runs the web server (for its phone seats or its page), its public page
    shows what the table's public screen shows (beside the window, if there is one); returns
    that server."""
    server = table.server if isinstance(table.server, PhoneServer) else phone_server(table.seats)
    if server is not None:
        table.public = joined(table.public, server.public)
    return server
