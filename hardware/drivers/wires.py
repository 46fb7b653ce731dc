"""Which physical wire an ``/dev/i2c-N`` is: a kernel mux's channels are their parent's.

With the kernel's i2c-mux overlay every channel of the TCA9548A is an adapter of its own,
``/dev/i2c-11``, ``/dev/i2c-12``..., but all of them are the one pair of wires from the Pi's
bus: a transfer on one channel waits for a transfer on another. The kernel says so in sysfs
(drivers/i2c/i2c-mux.c): a channel's adapter has a ``mux_device`` link to the mux chip, a
device on its parent adapter (``.../i2c-1/1-0070``). Following those links up to an adapter
that has none gives the wire; a mux behind a mux is followed the same way.
"""

from __future__ import annotations

import re
from pathlib import Path

SYSFS = Path("/sys")
_ADAPTER = re.compile(r"i2c-(\d+)")


def wire_of(bus: int, sysfs: Path = SYSFS) -> int:
    """The number of the root adapter whose wire ``/dev/i2c-{bus}`` uses (``bus`` itself
    when it is no mux channel, or when sysfs does not say)."""
    seen = {bus}
    while True:
        try:
            mux = (sysfs / "bus" / "i2c" / "devices" / f"i2c-{bus}" / "mux_device").resolve(
                strict=True)
        except OSError:
            return bus
        parent = _ADAPTER.fullmatch(mux.parent.name)
        if parent is None or int(parent[1]) in seen:
            return bus
        bus = int(parent[1])
        seen.add(bus)
