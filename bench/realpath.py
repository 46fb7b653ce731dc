"""Presses on the real-shaped path: the service's table, loop, clock and journal.

The table is built by ``hardware.build.build_table`` from a table.toml with 8 seats behind two
TCA9548A muxes on two of the Pi's I2C buses (seats 1-4 on bus 1, 5-8 on bus 3), on gpiozero
mock pins and a bus (:class:`TimedBus`) that stamps every transfer. The app runs
:meth:`App.run` in its own thread on the real clock with the production ``SqliteJournal``
(WAL, ``synchronous=FULL``) in a folder on the checkout's disk. A bot plays Staying Alive
with 5 players through the buttons: it taps PEEK and ACT on the mock pins as a finger would
(a tap is held ``TAP`` seconds), and thinks ``THINK`` seconds between moves while the
hourglass ticks on; turns change, so some presses redraw every seat.

For each edge the loop thread's step is traced (:class:`bench.zero.Trace`): when it took the
edge, each journal append, each transfer. From the traces: here, press to the presser's
first byte on the bus and to the step's last byte; on the Pi Zero 2 W model, press to the
presser's screen fully sent and to the last seat's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPWMPin
from smbus2 import i2c_msg

from companion.app import App
from companion.journal_sqlite import SqliteJournal
from companion.sdnotify import Notifier
from hardware.base import ButtonEdge, ButtonName, QuitRequested
from hardware.build import build_table
from hardware.config import TableConfig, parse_config
from hardware.drivers.bus import MUX_ADDRESSES, BusWriter, Task, Transfer
from hardware.drivers.chorus import Chorus, Part, _Job
from hardware.drivers.emulated_wire import EmulatedPi, WireBus, connected

from . import commit_writes, cortex_a53, instructions, warmth, zero
from .bot import BENCH_KEY, label_of, next_move, open_game
from .disk import NoSmallDisk
from .report import Figure
from .sizes import Sizes
from .stats import Spread, spread

TAP = 0.06  # seconds a finger holds a button in a tap (over the 25 ms debounce lockout)
GAP = 0.04  # seconds between two taps
THINK = 0.2  # seconds between two moves: the hourglass ticks meanwhile
PLAYERS = 5
SCRATCH = Path(__file__).resolve().parent
BUSES = (1, 3)  # the Pi's I2C buses the two muxes hang on (bus 3: a Pi 4 or 5 only)
ONE_BUS = (1,)  # every shipped table (GPIO 0/1, i2c_vc, are the HAT EEPROM's: hardware/README.md)
TABLES = Path(__file__).resolve().parent.parent / "hardware" / "tables"
KITCHEN_MUX = {11: (1, 0), 12: (1, 1), 13: (1, 2), 14: (1, 3)}  # kitchen.toml's comments
# The shipped tables played on the emulated wire (pods.toml has two wired seats: too few for
# the bot's game; its pods have a serial link each, no wire to share).
EXAMPLES = (("kitchen", "kernel mux", KITCHEN_MUX), ("living-room", "userspace mux", None))
ZERO_GOALS = (50.0, 150.0)  # issue 27, 8 seats on one bus: presser's and last seat's p99, ms


def table_toml(seats: int, buses: Sequence[int] = BUSES) -> str:
    """``seats`` seats behind a mux on each of ``buses``, split evenly (the first half on
    bus 1, the rest on bus 3 by default; all on one mux with ``ONE_BUS``, as shipped)."""
    pins = ((4, 23), (17, 24), (27, 25), (22, 8), (5, 7), (6, 12), (13, 16), (19, 20))
    half = -(-seats // len(buses))
    lines = ['[table]', 'name = "Bench table"', '[buzzer]', 'pin = 18']
    for number in range(1, seats + 1):
        act, peek = pins[number - 1]
        bus, channel = buses[(number - 1) // half], (number - 1) % half
        lines += ['[[seat]]', f'number = {number}', f'act = {act}', f'peek = {peek}',
                  'display = "ssd1306"',
                  f'mux = {{ bus = {bus}, address = 0x70, channel = {channel} }}']
    return "\n".join(lines) + "\n"


def seat_of(config: TableConfig) -> dict[tuple[int, int | None, int], int]:
    """Each wired seat by where its display answers: (bus, mux channel or None, address)."""
    return {(s.mux.bus, s.mux.channel, s.address) if s.mux else (s.bus, None, s.address):
            s.number for s in config.seats if s.wired}


class TimedBus:
    """One ``/dev/i2c-N`` on the emulated wire (:mod:`hardware.drivers.emulated_wire`): each
    transfer takes its wire time, sleeping with the GIL let go as smbus2's ``ioctl`` does,
    one at a time per physical wire; then it is stamped for the trace with every seat it
    reached: each display at its address on the bus itself or on any channel the last mux
    select connected (a select is a bitmask: several seats may share one transfer)."""

    def __init__(self, bus: WireBus, seat_of: dict[tuple[int, int | None, int], int],
                 sink: Tracer) -> None:
        self.number = bus.number
        self._bus = bus
        self._seat_of = seat_of  # (bus, mux channel or None, address) -> seat
        self._sink = sink
        self._channels: frozenset[int] = frozenset()

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int]) -> None:
        entered = time.thread_time()
        self._bus.write_i2c_block_data(i2c_addr, register, data)
        self._sink.sent(self._bus.wire.root, self._reached(i2c_addr),
                        Transfer(i2c_addr, register, bytes(data)), entered, self._off())

    def i2c_rdwr(self, *i2c_msgs: i2c_msg) -> None:
        """One ``I2C_RDWR``: its messages cross back to back, the wire held for all of
        them; each is stamped when it was off the wire."""
        entered = time.thread_time()
        self._bus.i2c_rdwr(*i2c_msgs)
        carried = self._bus.wire.carried[-len(i2c_msgs):]  # one writer a wire: these are ours
        for index, (message, crossed) in enumerate(zip(i2c_msgs, carried, strict=True)):
            self._sink.sent(self._bus.wire.root, self._reached(message.addr),
                            Transfer.written(message), entered, crossed.ended, joined=index > 0)
            entered = time.thread_time()  # the ioctl's Python was the first message's

    def write_byte(self, i2c_addr: int, value: int) -> None:
        entered = time.thread_time()
        if i2c_addr in MUX_ADDRESSES:
            self._channels = connected(value)
        self._bus.write_byte(i2c_addr, value)
        seats = () if i2c_addr in MUX_ADDRESSES else self._reached(i2c_addr)
        self._sink.sent(self._bus.wire.root, seats, Transfer(i2c_addr, None, bytes([value])),
                        entered, self._off())

    def _off(self) -> float:
        """When the transfer just carried was off the wire (one writer a wire: it is ours)."""
        return self._bus.wire.carried[-1].ended

    def close(self) -> None:
        self._bus.close()

    def _reached(self, address: int) -> tuple[int, ...]:
        keys = [(self.number, channel, address) for channel in sorted(self._channels)]
        keys.append((self.number, None, address))  # a display on the bus itself hears all
        return tuple(self._seat_of[key] for key in keys if key in self._seat_of)


class _Tagged:
    """A writer's task with the trace and loop CPU of the submit that last gave it work."""

    def __init__(self, task: Task, tracer: Tracer) -> None:
        self.task = task
        self.tracer = tracer
        self.handed: tuple[zero.Trace | None, float] = (None, 0.0)

    def step(self) -> bool:
        self.tracer.handed.job = self.handed
        self.tracer.handed.since = time.thread_time()
        try:
            return self.task.step()
        finally:
            self.tracer.handed.job = None


@dataclass(frozen=True)
class _Handed:
    """A screen's latest frame as the loop handed it to its chorus."""

    trace: zero.Trace | None
    cpu: float
    urgent: bool


class Tracer:
    """Collects the loop thread's step for the edge the bot is waiting on.

    A transfer is stamped when it reaches the bus (``perf_counter``, on whichever thread
    sends it) and with the loop thread's CPU time when the loop handed it over: at once on
    the loop's own thread, or when it queued the job on a bus's writer thread. A chorus is one
    task for several screens, so a transfer of one is stamped by the screens it is for
    (:meth:`traced_chorus`): the presser's frame where it carries the presser's (a frame that
    joined it rode along, and the transfer would have gone anyway), else the newest of its
    screens' frames (it was planned for all of them).
    """

    def __init__(self) -> None:
        self.traces: list[zero.Trace] = []  # the edges the bot waited on that sent bytes
        self.steps: list[zero.Trace] = []  # every step of the loop while recording
        self.current: zero.Trace | None = None
        self.record = False
        self.step_done = threading.Event()
        self.lock = threading.Lock()  # the bot reads the app only between steps
        self.loop_thread: threading.Thread | None = None
        self.handed = threading.local()  # on a writer thread: (trace, loop CPU) of its job
        self.in_journal = False  # inside a journal write (its own settle is part of it)
        self.frames: dict[int, _Handed] = {}  # id(chorus part) -> its latest frame handed

    def sent(self, bus: int, seats: tuple[int, ...], transfer: Transfer,
             entered: float, at: float, *, joined: bool = False) -> None:
        """``transfer`` was off the wire at ``at`` (``perf_counter``, the wire's stamp); the bus
        call that carried it began at ``entered`` (the sending thread's CPU); ``joined``:
        it went in the same ``I2C_RDWR`` as the message before it on its bus. A writer's
        CPU for it is what it spent from the end of its last transfer to that call (for the
        later messages of one ``I2C_RDWR``, none): the call itself (the emulated wire, its
        sleep, this tracing) stands for the ioctl and the driver, which the Zero model charges
        as ``TRANSFER_OVERHEAD`` each message (smbus2's own Python before its ioctl, a
        ctypes structure, is under a microsecond here), so it is not charged again, ten
        times."""
        handed = getattr(self.handed, "job", None)
        writer_cpu = 0.0
        if handed is not None:
            trace, cpu = self._for_parts(getattr(self.handed, "parts", ())) or handed
            writer_cpu = max(0.0, entered - self.handed.since)
        elif threading.current_thread() is self.loop_thread and self.current is not None:
            trace, cpu = self.current, time.thread_time()
        else:
            return
        if trace is not None:
            trace.sent.append(zero.Sent(at, cpu, bus, seats, transfer.wire_bytes, writer_cpu,
                                        joined))
        if handed is not None:
            self.handed.since = time.thread_time()

    def _for_parts(self, parts: Sequence[Part]) -> tuple[zero.Trace | None, float] | None:
        frames = [frame for part in parts if (frame := self.frames.get(id(part)))]
        if not frames:
            return None
        chosen = next((f for f in frames if f.urgent), max(frames, key=lambda f: f.cpu))
        return chosen.trace, chosen.cpu

    def traced_chorus(self, chorus: Chorus) -> None:
        """Stamp each screen's hand-over to ``chorus`` once the chorus has taken it (its
        planning, on the loop's thread, is done before any of the frame's transfers can
        go), and mark the screens each of its transfers is for while it is sent."""
        handed, send = chorus.handed, chorus._send

        def traced_handed(part: Part, *, urgent: bool) -> None:
            handed(part, urgent=urgent)
            self.frames[id(part)] = _Handed(self.current, time.thread_time(), urgent)

        def traced_send(jobs: list[_Job]) -> None:
            self.handed.parts = jobs[0].parts
            try:
                send(jobs)
            finally:
                self.handed.parts = ()

        chorus.handed = traced_handed  # type: ignore[method-assign]
        chorus._send = traced_send  # type: ignore[method-assign]

    def traced_submit(self, writer: BusWriter) -> None:
        """Tag each task the loop queues on ``writer`` with the trace and the loop's CPU."""
        submit = writer.submit
        tagged: dict[int, _Tagged] = {}

        def traced(task: Task, failed: Callable[[OSError], None], *,
                   urgent: bool = False) -> None:
            wrapper = tagged.setdefault(id(task), _Tagged(task, self))
            # Work handed over outside a traced step (a tick) is no press's: never charged to
            # the trace that last gave this screen work, which may be long recorded.
            wrapper.handed = (self.current, time.thread_time())
            submit(wrapper, failed, urgent=urgent)

        writer.submit = traced  # type: ignore[method-assign]

    @contextlib.contextmanager
    def journaling(self, overlapped: bool) -> Iterator[None]:
        """A journal write on the loop thread: an append's commit flies on (``overlapped``),
        any other write is durable when it returns."""
        started = time.thread_time()
        self.in_journal = True
        try:
            yield
        finally:
            self.in_journal = False
        if self.current is not None:
            self.current.journaled.append(zero.Journaled(started, time.thread_time(),
                                                         overlapped))

    def looked(self) -> None:
        """The loop's step looked at its queue (the loop between steps is no step's)."""
        if self.current is not None and threading.current_thread() is self.loop_thread:
            self.current.checks.append(time.thread_time())

    def settling(self) -> None:
        """The loop waits for the journal before its first write to a screen or a cue."""
        if self.current is not None and not self.in_journal:
            self.current.settled.append(time.thread_time())


class _LookedAt(queue.SimpleQueue):
    """The loop's queue, telling the tracer each time a step looks whether an event waits
    (a redraw, before each seat after its first: where it would yield)."""

    def __init__(self, tracer: Tracer) -> None:
        super().__init__()
        self._tracer = tracer

    def empty(self) -> bool:
        self._tracer.looked()
        return super().empty()


class RealTable:
    """A table.toml's table on emulated wires, its app running in its own thread."""

    def __init__(self, text: str, folder: Path,
                 kernel_mux: dict[int, tuple[int, int]] | None = None) -> None:
        self.config: TableConfig = parse_config(text)
        self.tracer = Tracer()
        self.events: queue.SimpleQueue = _LookedAt(self.tracer)
        where = seat_of(self.config)
        self.factory = MockFactory(pin_class=MockPWMPin)
        self.pi = EmulatedPi(folder / "sys", kernel_mux)  # each transfer slept
        self.hardware = build_table(
            self.config, self.events.put, pin_factory=self.factory, pod_ports=lambda: [],
            bus_factory=lambda n: TimedBus(self.pi.open(n), where, self.tracer),
            sysfs=self.pi.sysfs)
        # Opened as ``companion play`` opens it: its log's index in memory, its file locked.
        self.journal = SqliteJournal(folder / "journal.sqlite3", exclusive=True)
        self.app = App(self.hardware, journal=self.journal, notifier=Notifier({}),
                       key_source=lambda n: BENCH_KEY)
        self._wrap_step()
        self._wrap_journal()
        self.writers = {id(w): w for s in self.hardware.seats.values()
                        if (w := getattr(s.screen, "_writer", None)) is not None}.values()
        for writer in self.writers:
            self.tracer.traced_submit(writer)
        for chorus in {id(c): c for s in self.hardware.seats.values()
                       if (c := getattr(s.screen, "_chorus", None)) is not None}.values():
            self.tracer.traced_chorus(chorus)
        self._pending: zero.Trace | None = None
        self.thread = threading.Thread(target=self._serve, name="loop")
        self.tracer.loop_thread = self.thread
        self.thread.start()

    def _serve(self) -> None:
        """What ``companion play`` does on its one thread: run, then close (the journal's
        connection belongs to the thread that opened it)."""
        try:
            self.app.run(self.events)
        finally:
            self.app.close()
            self.journal.close()

    def close(self) -> None:
        self.events.put(QuitRequested("bench"))
        self.thread.join()
        self.hardware.close()
        self.factory.reset()

    # --- the loop thread, traced -------------------------------------------------------------

    def _wrap_step(self) -> None:
        step = self.app.step
        tracer = self.tracer

        def traced_step(*events: object) -> None:
            pending = self._pending
            mine = pending is not None and any(isinstance(e, ButtonEdge) for e in events)
            if mine:
                assert pending is not None
                trace = pending
            else:  # a background step: a tick, a notice timing out, a release nobody waits on
                trace = zero.Trace(None, time.perf_counter(), event=bool(events))
            with tracer.lock:
                trace.started = time.perf_counter()
                trace.cpu_started = time.thread_time()
                tracer.current = trace
                try:
                    step(*events)
                finally:
                    tracer.current = None
                    trace.ended = time.perf_counter()
                    trace.cpu_ended = time.thread_time()
            if mine:
                self._pending = None
                tracer.step_done.set()
            elif tracer.record:
                tracer.steps.append(trace)

        self.app.step = traced_step  # type: ignore[method-assign]

    def _wrap_journal(self) -> None:
        for name in ("append", "remember", "truncate", "begin", "finish"):
            call = getattr(self.journal, name)

            def timed(*args: object, _call=call, _overlapped=name == "append") -> None:
                with self.tracer.journaling(_overlapped):
                    _call(*args)

            setattr(self.journal, name, timed)
        settle = self.journal.settle

        def settling() -> bool:
            self.tracer.settling()
            return settle()

        self.journal.settle = settling  # type: ignore[method-assign]

    # --- the bot's fingers ---------------------------------------------------------------------

    def edge(self, seat: int, button: ButtonName, pressed: bool) -> None:
        """Move one pin and wait until the loop has taken the edge and drawn its step."""
        seat_config = next(s for s in self.config.seats if s.number == seat)
        pin = seat_config.peek if button is ButtonName.PEEK else seat_config.act
        if pin is None:  # on a one-button seat a short press of its one button is ACT
            raise ValueError(f"seat {seat} has no {button.name} button")
        trace = zero.Trace(seat, 0.0)
        self.tracer.step_done.clear()
        self._pending = trace
        trace.pressed_at = time.perf_counter()
        if pressed:
            self.factory.pin(pin).drive_low()
        else:
            self.factory.pin(pin).drive_high()
        if not self.tracer.step_done.wait(5.0):
            raise RuntimeError("the loop did not take a button edge within 5 s")
        for writer in self.writers:
            writer.call(lambda: None)  # the step's bytes are all on the wire (and stamped)
        if self.tracer.record:
            self.tracer.steps.append(trace)
            if trace.sent:
                self.tracer.traces.append(trace)

    def tap(self, seat: int, button: ButtonName) -> None:
        self.edge(seat, button, True)
        time.sleep(TAP)
        self.edge(seat, button, False)
        time.sleep(GAP)

    def choose(self, seat: int, label: str) -> None:
        """Tap PEEK until ``label`` is highlighted on ``seat``, then ACT (as a player would)."""
        for _ in range(20):
            with self.tracer.lock:
                actions = self.app.actions(seat)
                current, _ = self.app.ui[seat].current(actions)
            if current is not None and current.label.lower().startswith(label.lower()):
                self.tap(seat, ButtonName.ACT)
                return
            self.tap(seat, ButtonName.PEEK)
        raise RuntimeError(f"seat {seat} could not reach {label!r}")

    def play_move(self) -> bool:
        with self.tracer.lock:
            move = next_move(self.app)
            label = label_of(self.app, *move) if move is not None else ""
        if move is None:
            return False
        self.choose(move[0], label)
        time.sleep(THINK)
        return True

    def open_game(self, players: int) -> None:
        open_game(self.choose, players)


@dataclass(frozen=True)
class Session:
    """A recorded stretch of play: the edges the bot waited on that sent bytes, and every
    step the loop took meanwhile (those edges, the others, the background steps)."""

    presses: list[zero.Trace]
    steps: list[zero.Trace]


def traces(text: str, presses: int,
           kernel_mux: dict[int, tuple[int, int]] | None = None,
           watch: Callable[[Tracer], None] | None = None) -> Session:
    """``presses`` screen-changing edges on the table of ``text``, and every step meanwhile
    (``watch`` is shown the session's tracer before the first)."""
    with tempfile.TemporaryDirectory(prefix="presses-", dir=SCRATCH) as folder:
        table = RealTable(text, Path(folder), kernel_mux)
        if watch is not None:
            watch(table.tracer)
        try:
            table.open_game(min(PLAYERS, sum(1 for s in table.config.seats if s.wired)))
            table.tracer.record = True
            while len(table.tracer.traces) < presses:
                if not table.play_move():
                    raise RuntimeError("the bot found no move")
        finally:
            table.close()
    return Session(table.tracer.traces, table.tracer.steps)


def commit_seconds(folder: Path, appends: int = 200) -> list[float]:
    """The commit of each of ``appends`` journal appends in a journal in ``folder``: from
    the append's return (its statements made on the calling thread) to its settle (its
    commit made on the flusher thread and on the disk)."""
    from companion.record import GameRecord, JournaledAction

    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        journal = SqliteJournal(Path(scratch) / "journal.sqlite3", exclusive=True)
        record = GameRecord("staying-alive", (1, 2, 3), {}, BENCH_KEY)
        journal.begin(record)
        seconds = []
        for index in range(appends):
            entry = JournaledAction(1, "end", float(index))
            record.entries.append(entry)
            journal.append(record, entry)
            started = time.perf_counter()
            journal.settle()
            seconds.append(time.perf_counter() - started)
        journal.close()
    return seconds


def sd_card() -> tuple[zero.Card, list[Figure]]:
    """The Zero model's SD card: each append's writes and flushes counted on a loop ext4
    here (:mod:`bench.commit_writes`), or where none mounts (not root) the counts
    :data:`bench.zero.COMMIT_WRITES` recorded."""
    try:
        commits = commit_writes.card_commits(SCRATCH)
    except NoSmallDisk:
        return zero.SD_CARD, []
    return commit_writes.card(commits), commit_writes.figures(commits)


def journal_cpu_seconds() -> float:
    """A journal commit's own computing, on the flusher: the median commit of an append to
    a journal in RAM (``/dev/shm``), where the flush costs next to nothing."""
    ram = Path("/dev/shm")
    return statistics.median(commit_seconds(ram if ram.is_dir() else SCRATCH))


@contextlib.contextmanager
def other_core_busy() -> Iterator[None]:
    """A child process spinning in Python, not pinned: the scheduler puts it where it may."""
    child = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        child.kill()
        child.wait()


def measure(sizes: Sizes) -> list[Figure]:
    text = table_toml(sizes.seats, ONE_BUS)
    speed = cortex_a53.Timings(sizes.loop_timings)
    speed.take()
    quiet = traces(text, sizes.real_presses)
    speed.take()
    with other_core_busy():
        loaded = traces(text, sizes.real_presses)
    speed.take()
    journal_cpu = journal_cpu_seconds()
    on_disk = commit_seconds(SCRATCH)
    card, card_figures = sd_card()
    counted = instructions.measure(sizes)
    speed.take()
    with warmth.Probe() as probe:
        traces(text, sizes.warmth_presses, watch=probe.watch)
    cold = probe.ratio
    factor = speed.cpu_factor()
    zero_2w = zero.zero_2w(factor / cold).on(card)  # the factor on the traces made warm
    as_cold = dataclasses.replace(zero_2w, cpu_factor=factor)
    warm_journal = journal_cpu * cold  # timed warm: the factor alone stretches it
    snapdragon = speed.factor(cortex_a53.READINGS[1]) / cold
    floor = None if counted is None else counted.floor(factor)
    result = figures(quiet, sizes.seats)
    result += wire_figures("one bus", quiet.presses)
    result += wire_figures("one bus, other core busy", loaded.presses)
    result += model_figures("here", "this machine (CPU x 1, this disk, 400 kHz)", quiet,
                            zero.here(on_disk), 0.0)  # its commits, on this disk, hold theirs
    result += model_figures("zero", f"Zero 2 W model (CPU x {zero_2w.cpu_factor:.1f}: the "
                            "loop's factor on the traces made warm)", quiet, zero_2w,
                            warm_journal, budgets=ZERO_GOALS)
    result += wire_bound_figures(quiet, sizes.seats, zero.ZERO_I2C_HZ, ZERO_GOALS[1])
    result += model_figures("zero_loaded", "Zero 2 W model, traces taken with the other core "
                            "busy", loaded, zero_2w, warm_journal)
    result += model_figures("zero_cold", f"Zero 2 W model, its caches as cold as this host's "
                            f"(CPU x {factor:.1f} on the traces as timed)", quiet, as_cold,
                            journal_cpu, p99_only=True)
    for key, what, pi in (
            ("zero_sd_quiet", "no SD tail (2 ms a write)",
             zero_2w.on(dataclasses.replace(card, tails=False))),
            ("zero_sd_flush", "SD card with a cache, a flush as one more write (assumed)",
             zero_2w.on(dataclasses.replace(card, flushes=True))),
            ("zero_cpu_snapdragon", f"CPU x {snapdragon:.1f} (the Snapdragon 625's reading "
             "on the traces made warm)", dataclasses.replace(zero_2w, cpu_factor=snapdragon)),
            *([] if floor is None else [
                ("zero_cpu_floor", f"CPU x {floor / cold:.1f} (the table's work at the loop's "
                 "rate, warm)", dataclasses.replace(zero_2w, cpu_factor=floor / cold))]),
            ("zero_unfixed", "core clock not fixed (I2C at 250 kHz)",
             dataclasses.replace(zero_2w, i2c_hz=zero.UNFIXED_I2C_HZ))):
        result += model_figures(key, f"Zero 2 W model, {what}", quiet, pi, warm_journal,
                                p99_only=True)
    result += card_figures
    result += speed.figures()
    result += warmth.figures(probe)
    result.append(Figure("zero_cpu_factor_warm", "the loop's factor over the cold ratio: the "
                         "Zero model's stretch of the traced CPU", zero_2w.cpu_factor, "x"))
    most = headroom(quiet, zero_2w, warm_journal, ZERO_GOALS)
    result.append(Figure("zero_cpu_headroom", "the most the traced CPU may be stretched with "
                         "both goals met, over the model's stretch", most / zero_2w.cpu_factor,
                         "x"))
    if counted is not None:
        result += instructions.figures(counted, factor)
    result.append(Figure("journal_cpu", "journal commit computing (RAM disk), here",
                         journal_cpu * 1000, "ms"))
    result.append(Figure("zero_i2c_hz", "Zero 2 W I2C clock with install.sh's settings",
                         zero.ZERO_I2C_HZ / 1000, "kHz"))
    for name, wiring, kernel_mux in EXAMPLES:
        table = (TABLES / f"{name}.toml").read_text()
        result += wire_figures(f"{name} ({wiring})", traces(
            table, max(1, sizes.real_presses // 4), kernel_mux).presses)
    return result


def headroom(session: Session, pi: zero.Pi, journal_cpu: float,
             goals: tuple[float, float]) -> float:
    """The largest CPU factor (to a twentieth) at which ``pi`` meets both ``goals`` (p99 ms of
    press to the presser's screen and to the last seat's) on ``session``: how far the
    factor may be off before the model misses them. Every stretch a bisection tries is
    replayed whole."""

    def meets(factor: float) -> bool:
        own, last = model_p99(session, dataclasses.replace(pi, cpu_factor=factor), journal_cpu)
        return own < goals[0] and last < goals[1]

    low, high = 0.0, 64.0
    while high - low > 0.05:
        middle = (low + high) / 2
        low, high = (middle, high) if meets(middle) else (low, middle)
    return low


def model_p99(session: Session, pi: zero.Pi, journal_cpu: float) -> tuple[float, float]:
    """p99 ms of press to the presser's screen and to the last seat's, replayed on ``pi``."""
    own, last = _model(session, pi, journal_cpu)
    return spread(own).p99, spread(last).p99


def _model(session: Session, pi: zero.Pi, journal_cpu: float) -> tuple[list[float], list[float]]:
    on_pi = zero.simulate(session.steps, pi, journal_cpu=journal_cpu)
    waited = {id(t) for t in session.presses}
    mine = [p for t, p in zip(session.steps, on_pi, strict=True) if id(t) in waited]
    return ([p.presser_done * 1000 for p in mine if p.presser_done is not None],
            [p.last_done * 1000 for p in mine if p.last_done is not None])


def wire_figures(table: str, found: Sequence[zero.Trace]) -> list[Figure]:
    """Press to the presser's screen, and to the last seat's, complete on the emulated wire
    (each transfer its wire time, the service's background redraws running): the presser's
    at the last transfer that reached it, its own or one it shared with other seats."""
    own = spread([1000 * (max(s.at for s in t.sent if t.seat in s.seats) - t.pressed_at)
                  for t in found if t.presser_changed()])
    last = spread([1000 * (max(s.at for s in t.sent) - t.pressed_at) for t in found])
    key = "wire_" + table.replace(",", "").replace("-", "_").replace(" ", "_").split("(")[0]
    return [*_spread(f"{key.rstrip('_')}_presser", f"{table}, emulated wire: press to "
                     f"presser's screen complete ({own.count} presses)", own, None),
            *_spread(f"{key.rstrip('_')}_last", f"{table}, emulated wire: press to last seat "
                     f"complete ({last.count} edges)", last, None)]


def wire_bound_figures(session: Session, seats: int, hz: float, goal: float) -> list[Figure]:
    """The wire's own floor under press to last seat on the Zero 2 W: each edge's bytes on
    its wire at ``hz`` and nothing else (:func:`bench.zero.wire_only`), which no saving of
    CPU can beat; and the share of edges whose bytes alone need more than ``goal`` ms (past
    1% of them, a p99 under ``goal`` is out of reach without fewer bytes or another wire)."""
    floor = [1000 * zero.wire_only(t, hz) for t in session.presses]
    over = 100 * sum(1 for ms in floor if ms > goal) / len(floor)
    name = f"Zero 2 W, {seats} seats, the step's bytes alone on its wire"
    return [*_spread("zero_wire_only", f"{name}: press to last seat ({len(floor)} edges)",
                     spread(floor), goal, p99_only_budget=True),
            Figure("zero_wire_only_over", f"{name}: edges over {goal:.0f} ms", over, "%", 1.0)]


def model_figures(key: str, name: str, session: Session, pi: zero.Pi, journal_cpu: float, *,
                  budgets: tuple[float | None, float | None] = (None, None),
                  p99_only: bool = False) -> list[Figure]:
    """The session replayed on ``pi``: press to the presser's screen, and to the last
    seat's, complete on its wire (the presses the bot waited on, as on the emulated wire)."""
    presser, every = _model(session, pi, journal_cpu)
    own, last = spread(presser), spread(every)
    figures = [*_spread(f"{key}_presser", f"{name}: presser's screen sent", own, budgets[0],
                        p99_only_budget=True),
               *_spread(f"{key}_last", f"{name}: last seat's screen sent", last, budgets[1],
                        p99_only_budget=True)]
    return [f for f in figures if f.key.endswith("_p99")] if p99_only else figures


def figures(session: Session, seats: int) -> list[Figure]:
    found = session.presses
    presser = [t for t in found if t.presser_changed()]
    first = spread([1000 * (min(s.at for s in t.sent if t.seat in s.seats) - t.pressed_at)
                    for t in presser])
    handed = spread([1000 * (max(s.at for s in t.sent) - t.pressed_at) for t in found])
    every = [t for t in found if len(t.seats_changed()) == seats]
    background = [t for t in session.steps if t.seat is None and t.sent]
    return [
        *turn_bytes(every, seats),
        *_spread("real_first_byte", f"press to presser's first byte on bus, here "
                 f"({first.count} presses)", first, 5.0, p99_only_budget=True),
        *_spread("real_last_byte", f"press to step's last byte on bus, here ({handed.count} "
                 f"edges, {len(every)} redraw all {seats})", handed, None),
        Figure("background_steps", "background steps that sent bytes, same stretch",
               len(background), "steps"),
    ]


def turn_bytes(turns: Sequence[zero.Trace], seats: int) -> list[Figure]:
    """What a step that redraws every seat puts on the wire: each seat's bytes (its
    addressing, data blocks and their control bytes: every transfer that reached it, a
    shared one counted for each seat it reached), and the step's whole as the wire carried
    it (a shared transfer once, the mux's channel switches included). A whole frame is
    1048 B a seat (luma's full frame 1096 B)."""
    if not turns:
        return []
    per_seat = [sum(s.wire_bytes for s in t.sent if seat in s.seats)
                for t in turns for seat in t.seats_changed()]
    whole = spread([sum(s.wire_bytes for s in t.sent) for t in turns])
    return [
        Figure("turn_seat_bytes", f"bytes per seat in a step that redraws all {seats} (mean, "
               f"{len(turns)} steps)", statistics.mean(per_seat), "B"),
        Figure("turn_seat_bytes_p99", f"bytes per seat in a step that redraws all {seats} p99",
               spread(per_seat).p99, "B"),
        Figure("turn_bytes_p50", f"bytes on the wire in a step that redraws all {seats} p50",
               whole.p50, "B"),
        Figure("turn_bytes_p99", f"bytes on the wire in a step that redraws all {seats} p99",
               whole.p99, "B"),
    ]


def _spread(key: str, label: str, values: Spread, budget: float | None, *,
            p99_only_budget: bool = False) -> list[Figure]:
    return [
        Figure(f"{key}_p50", f"{label} p50", values.p50, "ms",
               None if p99_only_budget else budget),
        Figure(f"{key}_p99", f"{label} p99", values.p99, "ms", budget),
        Figure(f"{key}_max", f"{label} max", values.max, "ms"),
    ]
