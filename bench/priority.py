"""The bench runs at the service's priority: the ``Nice=`` of systemd/table-companion.service.

systemd starts the companion at that niceness, so the latency figures (a press, an expiry)
are measured with the scheduler treating the bench as it treats the service. Threads and
child processes started afterwards inherit it. Lowering niceness needs root (or
CAP_SYS_NICE); elsewhere the bench runs at its own and says so.
"""

from __future__ import annotations

import os
from pathlib import Path

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "table-companion.service"


def service_nice(unit: Path = UNIT) -> int:
    """The ``Nice=`` the unit sets (0 when it sets none)."""
    for line in unit.read_text().splitlines():
        key, _, value = line.strip().partition("=")
        if key == "Nice":
            return int(value)
    return 0


def as_the_service() -> str:
    """Take the service's niceness for this process and what it starts; say what was done."""
    wanted = service_nice()
    try:
        os.setpriority(os.PRIO_PROCESS, 0, wanted)
    except PermissionError:
        now = os.getpriority(os.PRIO_PROCESS, 0)
        return f"at nice {now}: nice {wanted}, the service's, needs root"
    return f"at nice {wanted}, the service's"
