"""I2C buses for the seat OLEDs: a recording bus for tests and benchmarks, and a TCA9548A mux.

Both speak the small part of the smbus2 ``SMBus`` API that luma's ``i2c(bus=...)`` interface,
the displays' data and the mux need (``write_i2c_block_data``, ``i2c_rdwr`` with write messages,
``write_byte``, ``close``), so luma never knows whether it talks to a real adapter, a mux
channel or a recorder.

Bytes on the wire (what :attr:`Transfer.wire_bytes` counts, and what the budgets in
docs/ARCHITECTURE.md §9 mean): one address byte, one control byte (luma's 0x00 for commands,
0x40 for data; the register of ``write_i2c_block_data``) and the payload. START/STOP
conditions and ACK bits are not counted. A 32-byte data block therefore costs 34 bytes; a mux
channel switch costs 2.
"""

from __future__ import annotations

import errno
import logging
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from smbus2 import i2c_msg

log = logging.getLogger(__name__)

MUX_ADDRESSES = range(0x70, 0x78)
MUX_CHANNELS = range(8)


class I2cBus(Protocol):
    """The smbus2 subset our displays and the mux use."""

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int]) -> None: ...

    def i2c_rdwr(self, *i2c_msgs: i2c_msg) -> None: ...

    def write_byte(self, i2c_addr: int, value: int) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Transfer:
    """One I2C write as it crossed the bus. ``control`` is None for a plain ``write_byte``."""

    address: int
    control: int | None
    data: bytes

    @property
    def wire_bytes(self) -> int:
        return 1 + (self.control is not None) + len(self.data)

    @classmethod
    def written(cls, message: i2c_msg) -> Transfer:
        """An ``i2c_rdwr`` write message (the displays' data): its first byte is the control
        byte, as ``write_i2c_block_data``'s register is."""
        data = bytes(message)
        return cls(message.addr, data[0], data[1:])


class RecordingBus:
    """An in-memory bus that keeps every transfer, and can play an unplugged display.

    Tests build a controller RAM model from :attr:`transfers`; the benchmark sums
    :attr:`bytes_sent`. After :meth:`fail_with` every call raises until :meth:`recover`.
    """

    def __init__(self) -> None:
        self.transfers: list[Transfer] = []
        self.closed = False
        self._failure: OSError | None = None

    @property
    def bytes_sent(self) -> int:
        return sum(transfer.wire_bytes for transfer in self.transfers)

    def fail_with(self, error: OSError) -> None:
        self._failure = error

    def recover(self) -> None:
        self._failure = None

    def clear(self) -> None:
        """Forget the transfers so far (measure one update at a time)."""
        self.transfers.clear()

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int]) -> None:
        self._record(Transfer(i2c_addr, register, bytes(data)))

    def i2c_rdwr(self, *i2c_msgs: i2c_msg) -> None:
        for message in i2c_msgs:
            self._record(Transfer.written(message))

    def write_byte(self, i2c_addr: int, value: int) -> None:
        self._record(Transfer(i2c_addr, None, bytes([value])))

    def close(self) -> None:
        self.closed = True

    def _record(self, transfer: Transfer) -> None:
        if self._failure is not None:
            raise self._failure
        if self.closed:
            raise OSError(errno.EBADF, "the I2C bus is closed")
        self.transfers.append(transfer)


class Tca9548a:
    """A TCA9548A I2C switch driven from userspace: several seats share one ``SMBus``.

    Each transfer through a :meth:`channel` first selects that channel (writes ``1 << channel``
    to the mux) unless it is already selected; :meth:`connected` switches several in at once
    (a chorus of screens, :mod:`hardware.drivers.chorus`). After any bus error the selection
    is forgotten, so a mux that lost power is selected again on the next transfer. The shared
    bus is closed when the last channel is closed.
    """

    def __init__(self, bus: I2cBus, address: int = 0x70) -> None:
        if address not in MUX_ADDRESSES:
            raise ValueError(f"a TCA9548A answers at 0x70..0x77, not {address:#04x}")
        self.bus = bus
        self.address = address
        self._selected: int | None = None  # the mask last written
        self._open_channels: set[int] = set()
        self._lock = threading.RLock()

    def channel(self, number: int) -> MuxChannel:
        if number not in MUX_CHANNELS:
            raise ValueError(f"a TCA9548A has channels 0..7, not {number}")
        if number in self._open_channels:
            raise ValueError(f"mux channel {number} is already in use")
        self._open_channels.add(number)
        return MuxChannel(self, number)

    @contextmanager
    def selected(self, channel: int) -> Iterator[I2cBus]:
        """Hold the bus with ``channel`` switched in, for one or more transfers."""
        with self.connected(1 << channel) as bus:
            yield bus

    @contextmanager
    def connected(self, mask: int) -> Iterator[I2cBus]:
        """Hold the bus with every channel of ``mask`` connected (bit N: channel N): a write
        then reaches the displays of all of them at once (the control register is a
        bitmask, TI's TCA9548A datasheet)."""
        if not 0 < mask < 1 << len(MUX_CHANNELS):
            raise ValueError(f"a TCA9548A connects channels 0..7, not the mask {mask:#x}")
        with self._lock:
            try:
                if self._selected != mask:
                    self._selected = None
                    self.bus.write_byte(self.address, mask)
                    self._selected = mask
                yield self.bus
            except OSError:
                self._selected = None
                raise

    def release(self, channel: int) -> None:
        with self._lock:
            self._open_channels.discard(channel)
            if not self._open_channels:
                self.bus.close()


class MuxChannel:
    """One downstream bus of a :class:`Tca9548a`, usable wherever an ``SMBus`` is."""

    def __init__(self, mux: Tca9548a, number: int) -> None:
        self.mux = mux
        self.number = number
        self._closed = False

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Iterable[int]) -> None:
        with self.mux.selected(self.number) as bus:
            bus.write_i2c_block_data(i2c_addr, register, list(data))

    def i2c_rdwr(self, *i2c_msgs: i2c_msg) -> None:
        with self.mux.selected(self.number) as bus:
            bus.i2c_rdwr(*i2c_msgs)

    def write_byte(self, i2c_addr: int, value: int) -> None:
        with self.mux.selected(self.number) as bus:
            bus.write_byte(i2c_addr, value)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.mux.release(self.number)


Job = Callable[[], None]


class Task(Protocol):
    """Work a :class:`BusWriter` takes one bus call at a time (a screen's pending update)."""

    def step(self) -> bool:
        """Make at most one bus call; False once nothing is left to send."""
        ...


@dataclass
class _Queued:
    task: Task
    failed: Callable[[OSError], None]
    urgent: bool
    order: int
    changes: int = 0  # submits since queued: a step that found nothing to do may be stale


class _Once:
    """A job run whole as one task (:meth:`BusWriter.call`)."""

    def __init__(self, job: Job) -> None:
        self._job: Job | None = job

    def step(self) -> bool:
        job, self._job = self._job, None
        if job is not None:
            job()
        return False


class BusWriter:
    """The one thread that does a physical wire's transfers, the most awaited first.

    One writer per wire, not per ``/dev/i2c-N`` (docs/ARCHITECTURE.md §10): the channels of a
    mux share their parent's wire, and two writers on one wire interleave their transfers, so
    a press would wait for every other seat's. The loop hands each screen's update over and
    goes on drawing; the writer takes work *call by call* (a task's step is one bus call: a
    transfer, or a few of them in one ``I2C_RDWR``): before each call it picks the urgent
    task (the screen of the seat whose press caused the step) if there is one, else the
    longest-queued. So the presser's frame goes whole before another seat's bytes of the
    same step, and a press that lands while a background redraw (an hourglass tick, a notice
    timing out) is on the wire waits for one of its calls (one block: 3 ms at 400 kHz), not
    for that redraw.
    A task submitted again while queued keeps its place (a seat's newer frame supersedes its
    queued one: the screen plans from the bytes its device really holds). Whoever owns a
    screen on the wire :meth:`attach` es; the thread ends when the last one :meth:`release` s.

    A task's OSError goes to its ``failed`` callback (on the writer's thread). :meth:`call`
    runs a job after everything queued before it and waits for it, raising here what it
    raised there. The loop collects garbage only while every writer is :attr:`quiet`; a
    writer whose queue drains tells it (:meth:`when_drained`), so it need not look again.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._queued: dict[int, _Queued] = {}  # by id(task)
        self._order = 0
        self._users = 0
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._handing: _Queued | None = None  # urgent work an idle writer was handed
        self._selecting = False  # ... whose call begins with a mux select
        self._taken = threading.Condition(self._lock)  # ... and the writer has started it
        self._drained: Callable[[], None] | None = None

    @property
    def quiet(self) -> bool:
        """Nothing queued and nothing on the wire: the writer waits for work."""
        with self._lock:
            return not self._queued

    def when_drained(self, drained: Callable[[], None] | None) -> None:
        """Call ``drained`` (on the writer's thread) each time the last queued task is done;
        None: no longer."""
        self._drained = drained

    def attach(self) -> None:
        with self._lock:
            self._users += 1
            if self._thread is None:
                self._stopping = False
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()

    def release(self) -> None:
        with self._lock:
            self._users -= 1
            if self._users > 0 or self._thread is None:
                return
            thread, self._thread = self._thread, None
            self._stopping = True
            self._ready.notify()
            self._taken.notify_all()
        thread.join()

    def submit(self, task: Task, failed: Callable[[OSError], None], *,
               urgent: bool = False) -> None:
        """Queue ``task`` (or keep its place if queued: it has new work); ``urgent``: a
        player waits for it, so it goes before everything not urgent.

        Urgent work handed to an idle writer is also handed the GIL: this returns once the
        writer has started it (:meth:`carrying`, or its step is over). The writer and the
        thread handing over (the loop, going on to draw the other seats) share the GIL, and
        a writer woken while the loop computes waits a switch interval for it, then takes
        it in turns, so the presser's first byte came half a millisecond late (p50 here)
        and several at p99; waiting, the loop lets the writer run its few Python lines to
        its call at once. A call that begins with a mux select (:meth:`selecting`) is
        waited for through the select, but no longer than a switch interval: what the
        writer would otherwise wait for the GIL after it, so a select that hangs (a stuck
        bus, until the driver's timeout) holds the loop no longer than that. A writer that
        is busy (on the wire) is not waited for: the loop would wait for the call on the
        wire, up to a block's time.
        """
        with self._lock:
            idle = not self._queued
            queued = self._queued.get(id(task))
            if queued is None:
                self._order += 1
                queued = self._queued[id(task)] = _Queued(task, failed, urgent, self._order)
                self._ready.notify()
            else:
                queued.urgent = queued.urgent or urgent
                queued.changes += 1
            if not (urgent and idle and self._thread is not None
                    and self._thread is not threading.current_thread()):
                return
            self._handing, self._selecting = queued, False
            while self._handing is queued and not self._stopping:
                if not self._selecting:
                    self._taken.wait()
                elif not self._taken.wait(sys.getswitchinterval()):
                    self._handing = None  # the select takes longer than a turn of the GIL

    def selecting(self) -> None:
        """The task being stepped writes a mux select before its call (on the writer's
        thread): whoever handed it over urgently waits for the call (:meth:`carrying`) at
        most a switch interval more."""
        if self._handing is None:  # set before the writer took the task: nobody waits
            return
        with self._lock:
            if self._handing is not None:
                self._selecting = True
                self._taken.notify_all()

    def carrying(self) -> None:
        """The task being stepped starts its bus call (on the writer's thread): whoever
        handed it over urgently (:meth:`submit`) goes on now."""
        if self._handing is not None:  # set before the writer took the task: nobody waits
            with self._lock:
                self._started()

    def _started(self) -> None:
        if self._handing is not None:
            self._handing = None
            self._taken.notify_all()

    def relax(self, task: Task) -> None:
        """``task``'s awaited part is sent: what it has left queues as any other work."""
        with self._lock:
            queued = self._queued.get(id(task))
            if queued is not None:
                queued.urgent = False

    def call(self, job: Job) -> None:
        done = threading.Event()
        raised: list[BaseException] = []

        def run() -> None:
            try:
                job()
            except BaseException as error:  # handed back to the caller's thread
                raised.append(error)
            finally:
                done.set()

        self.submit(_Once(run), lambda error: None)
        done.wait()
        if raised:
            raise raised[0]

    def _next(self) -> tuple[_Queued, int] | None:
        with self._lock:
            while not self._queued and not self._stopping:
                self._ready.wait()
            if not self._queued:
                return None
            queued = min(self._queued.values(), key=lambda q: (not q.urgent, q.order))
            return queued, queued.changes

    def _run(self) -> None:
        while (picked := self._next()) is not None:
            queued, changes = picked
            try:
                more = queued.task.step()
            except OSError as error:
                more = False
                queued.failed(error)
            except Exception:  # a bug in a task must not stop the wire for every other seat
                more = False
                log.exception("%s: a bus task failed", self.name)
            self.carrying()  # a step that made no call, or a task that does not say
            if not more:
                with self._lock:
                    if queued.changes == changes:  # else it was given new work meanwhile
                        del self._queued[id(queued.task)]
                    drained = self._drained if not self._queued else None
                if drained is not None:
                    drained()
