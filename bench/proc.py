"""What Linux's /proc says about a process: CPU time, wake-ups, resident memory.

Wake-ups are voluntary context switches: each time a thread blocks (a queue wait, a sleep)
and is woken again. Summed over every thread of the process, keyed by thread id, so a thread
that starts or ends during the window is counted for the time it lived.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Sample:
    cpu_seconds: float
    switches: dict[int, int]  # thread id -> voluntary context switches so far


def sample(pid: int) -> Sample:
    return Sample(cpu_seconds(pid), voluntary_switches(pid))


def cpu_seconds(pid: int) -> float:
    """User plus system time of the whole process (all threads)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14, 15)


def voluntary_switches(pid: int) -> dict[int, int]:
    counts = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            counts[int(task.name)] = _status_field(task / "status", "voluntary_ctxt_switches")
        except FileNotFoundError:  # the thread ended while we looked
            continue
    return counts


def wakeups_between(first: Sample, last: Sample) -> int:
    return sum(count - first.switches.get(tid, 0) for tid, count in last.switches.items())


def resident_kib(pid: int | str = "self") -> tuple[int, int]:
    """(VmRSS, VmHWM): resident memory now and at its peak, in KiB."""
    status = Path(f"/proc/{pid}/status")
    return _status_field(status, "VmRSS"), _status_field(status, "VmHWM")


def _status_field(path: Path, name: str) -> int:
    for line in path.read_text().splitlines():
        if line.startswith(name + ":"):
            return int(line.split()[1])
    raise KeyError(f"{name} not in {path}")
