"""Idle CPU and wake-ups with the hourglass running, read from /proc of a separate process.

Two children start the same game and sit with the hourglass running, nobody pressing, each
with its own SQLite journal and a silent speaker: one on the app's own loop, one on the naive
10 ms poll. Both are watched over the same window, every thread of each (bench/proc.py).
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from pathlib import Path

from hardware.drivers.voice import SILENT_CLOSE

from .proc import sample, wakeups_between
from .processes import start_child
from .report import Figure
from .sizes import Sizes

# Before counting: the start tune and the first redraws finish, and the speaker, silent since
# it opened, closes its mixer (hardware/drivers/voice.py).
SETTLE = SILENT_CLOSE + 1.0
SCRATCH = Path(__file__).resolve().parent  # on the disk the companion would use


def measure(sizes: Sizes) -> list[Figure]:
    seconds = sizes.idle_seconds
    with tempfile.TemporaryDirectory(prefix="idle-", dir=SCRATCH) as folder:
        children = {loop: start_child("idle", loop, str(Path(folder) / f"{loop}.sqlite3"))
                    for loop in ("event", "poll")}
        first, last, elapsed = _watch(children, seconds)
    cpu = {loop: 100 * (last[loop].cpu_seconds - first[loop].cpu_seconds) / elapsed
           for loop in children}
    wakes = {loop: wakeups_between(first[loop], last[loop]) / elapsed for loop in children}
    poll = "10 ms poll"
    return [
        Figure("idle_cpu", "idle CPU, hourglass running", cpu["event"], "% core", 1.0,
               baseline=cpu["poll"], baseline_label=poll),
        Figure("idle_wakeups", "idle wake-ups, hourglass running", wakes["event"], "/s", 5.0,
               baseline=wakes["poll"], baseline_label=poll),
    ]


def _watch(children: dict[str, subprocess.Popen], seconds: float):
    """/proc samples of each child at the start and end of the window, and its length."""
    try:
        for child in children.values():
            assert child.stdout is not None
            json.loads(child.stdout.readline())  # {"ready": true}
        time.sleep(min(SETTLE, seconds))
        first = {loop: sample(child.pid) for loop, child in children.items()}
        started = time.monotonic()
        time.sleep(seconds)
        last = {loop: sample(child.pid) for loop, child in children.items()}
        elapsed = time.monotonic() - started
    finally:
        for child in children.values():
            child.terminate()
            child.wait()
    return first, last, elapsed
