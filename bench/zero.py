"""A Raspberry Pi Zero 2 W, as a model the real-shaped presses are replayed through.

The press bench records what the loop thread did after each press, here: how much CPU it
spent (``time.thread_time``, so a busy machine's waits for a core do not count), when it
journaled, and every I2C transfer (its bus and seat, its bytes). This module replays that
trace on the Pi: the loop wakes ``WAKE`` after the press, computing takes ``CPU_FACTOR``
times as long, a journal append costs its own computing scaled plus an SD card's commit, and
a transfer spends its wire time on its bus. As built (``threaded``), an append's commit runs
on the journal's flusher while the loop goes on drawing, and the loop waits for it where it
settled the journal (before its first write to a screen); and the table writes each bus on
its own thread, so the loop hands a transfer over and goes on while the bus is busy. Before,
the loop waited for each commit and each transfer. The writer's own computing (luma's block
splitting, smbus2's call) is charged to the loop either way, as the GIL serialises it. A
press is replayed on an idle loop: one that lands during an hourglass tick's redraw also
waits for that (a tick changes one digit on each seat).

The constants and where they come from:

- ``I2C_HZ``, ``BITS_PER_BYTE``, ``FRAMING_BITS``, ``TRANSFER_OVERHEAD``: the emulated wire's
  (:mod:`hardware.drivers.emulated_wire`, where each is sourced), so the model and the
  wire-emulated runs cost a transfer alike.
- ``CPU_FACTOR``: 10. Python on the Zero 2 W (Cortex-A53, 1 GHz, in-order) runs 8-10 times
  slower than one core of the x86 VM these figures come from, as timed with this bench's
  own press path (profiled in the issue that asked for this model); the slow end is used.
- ``SD_COMMIT``: 10 ms for one ``synchronous=FULL`` WAL commit. The SD Association's A1
  application class guarantees 500 random 4 KiB write IOPS (2 ms a write); a commit writes
  the WAL frame and the file system's journal and waits for both to be flushed; cards
  without A1 are several times slower (see the PostgreSQL-on-Pi measurements by RustProof
  Labs, "Postgres and Pi: use the right SD card", 2019). 10 ms is a careful A1 figure.
- ``WAKE``: 0.2 ms from the button's edge to the loop thread running: gpiozero's callback,
  the queue, a futex wake on an idle core. An estimate, a few times what it takes here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from hardware.drivers.emulated_wire import wire_seconds

CPU_FACTOR = 10.0
SD_COMMIT = 0.010
WAKE = 0.0002


@dataclass(frozen=True)
class Sent:
    """One transfer as the loop thread handed it over: when (``perf_counter``), after how
    much of the loop thread's CPU (``thread_time``), where, how big."""

    at: float
    cpu: float
    bus: int
    seat: int | None  # None: the mux's channel switch
    wire_bytes: int
    writer_cpu: float = 0.0  # a writer thread's own CPU to make this transfer (luma, smbus)


@dataclass(frozen=True)
class Journaled:
    """A journal write on the loop thread: its CPU (``thread_time``) at start and end, and
    whether its commit flies on (an append) or is durable when it returns."""

    started: float
    ended: float
    overlapped: bool


@dataclass
class Trace:
    """What the loop thread did for one button edge, from the edge (``pressed_at``) on."""

    seat: int
    pressed_at: float
    started: float = 0.0  # the loop thread took the edge
    cpu_started: float = 0.0  # the loop thread's thread_time then
    ended: float = 0.0  # its step was over
    journaled: list[Journaled] = field(default_factory=list)
    settled: list[float] = field(default_factory=list)  # CPU where the loop waited for it
    sent: list[Sent] = field(default_factory=list)

    def seats_changed(self) -> set[int]:
        return {s.seat for s in self.sent if s.seat is not None}


@dataclass(frozen=True)
class OnPi:
    """When, after the press, the presser's screen and the last seat were fully on the wire."""

    presser_done: float | None  # None: the press did not change the presser's screen
    last_done: float | None  # None: no screen changed


JOURNAL, SETTLE, SEND = range(3)  # what the loop did at a moment of its CPU, in that order


def replay(trace: Trace, *, threaded: bool, journal_cpu: float) -> OnPi:
    """The trace on the Pi. ``journal_cpu``: a journal append's computing time here (its
    commit measured on a RAM disk): the rest of an append here is this disk's flush, which
    the Pi replaces with ``SD_COMMIT``. ``threaded``: as built (the commit overlapped with
    drawing, a writer thread per bus); else as before (the loop waits for both)."""
    moments: list[tuple[float, int, object]] = [(j.started, JOURNAL, j) for j in trace.journaled]
    moments += [(cpu, SETTLE, None) for cpu in trace.settled]
    moments += [(s.cpu, SEND, s) for s in trace.sent]
    moments.sort(key=lambda moment: (moment[0], moment[1]))
    now = WAKE
    cpu = trace.cpu_started
    durable = 0.0  # when the last commit is on the card
    bus_free: dict[int, float] = {}
    done: dict[int, float] = {}
    for at, kind, what in moments:
        now += max(0.0, at - cpu) * CPU_FACTOR
        cpu = max(cpu, at)
        if kind == JOURNAL:
            assert isinstance(what, Journaled)
            now = max(now, durable) + journal_cpu * CPU_FACTOR  # the write before comes first
            durable = now + SD_COMMIT
            if not (threaded and what.overlapped):
                now = durable
            cpu = what.ended
            continue
        if kind == SETTLE:
            now = max(now, durable)
            continue
        assert isinstance(what, Sent)
        wire = wire_seconds(what.wire_bytes)
        # Making the transfer (luma, smbus2) is Python: on the loop thread, or on a writer
        # holding the GIL (the ioctl lets it go), so the loop cannot compute meanwhile.
        now += what.writer_cpu * CPU_FACTOR
        if threaded:
            finished = bus_free[what.bus] = max(bus_free.get(what.bus, 0.0), now) + wire
        else:
            now += wire
            finished = now
        if what.seat is not None:
            done[what.seat] = finished
    return OnPi(done.get(trace.seat), max(done.values(), default=None))


def replay_all(traces: Sequence[Trace], *, threaded: bool,
               journal_cpu: float) -> list[OnPi]:
    return [replay(trace, threaded=threaded, journal_cpu=journal_cpu) for trace in traces]
