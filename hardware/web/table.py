"""Phone seats as a table's seats: one server for all of them, a :class:`SeatHardware` each.

Used alike by table.toml's phone seats (hardware/build.py), by the simulated table's
(``companion play --phones N``) and by the tests.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from ..base import SeatHardware, Sink
from .seat import Clock
from .server import PhoneServer


def phone_seats(numbers: Iterable[int], sink: Sink, *, port: int, listen: str = "0.0.0.0",
                public_host: str | None = None,
                clock: Clock = time.monotonic) -> dict[int, SeatHardware]:
    """Start the server and give each phone seat its screen, motor and link; closing any seat's
    inputs (as closing the table does) stops the server."""
    server = PhoneServer(numbers, sink, host=listen, port=port, public_host=public_host,
                         clock=clock).start()
    return {number: SeatHardware(number, server.screen(number),
                                 vibrator=server.vibrator(number), inputs=[server],
                                 phone_link=server.link(number))
            for number in server.seats}
