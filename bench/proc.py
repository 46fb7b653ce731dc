"""What Linux's /proc says about a process: CPU time, wake-ups, resident memory.

Wake-ups are context switches: voluntary (a thread blocked, on a queue wait, a sleep, and was
woken again) and involuntary (the scheduler took a running thread's core), both a core woken
for this process. Summed over every thread of the process (SDL's audio thread and the bus
writers included, not only the loop's), keyed by thread id, so a thread that starts or ends
during the window is counted for the time it lived.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Sample:
    cpu_seconds: float
    switches: dict[int, int]  # thread id -> context switches so far


def sample(pid: int) -> Sample:
    return Sample(cpu_seconds(pid), switches(pid))


def cpu_seconds(pid: int) -> float:
    """User plus system time of the whole process (all threads)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14, 15)


def switches(pid: int) -> dict[int, int]:
    """Each thread's voluntary plus involuntary context switches so far."""
    counts = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            status = task / "status"
            counts[int(task.name)] = (_status_field(status, "voluntary_ctxt_switches")
                                      + _status_field(status, "nonvoluntary_ctxt_switches"))
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
