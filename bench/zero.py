"""A Raspberry Pi Zero 2 W, as a model the service's traced steps are replayed through.

The real-shaped bench (:mod:`bench.realpath`) records every step the loop thread took while
the bot played: the presses, and the background steps no press caused (an hourglass tick, a
notice timing out, a release nobody waits on), each with the loop thread's CPU
(``time.thread_time``, so a busy machine's waits for a core do not count), its journal
writes and every I2C transfer (its seat, its bytes, the writer thread's own CPU to make it).
:func:`simulate` replays the whole session on a :class:`Pi`: one loop thread, computing
``cpu_factor`` times as long as here, taking the steps as the service's loop takes them (an
event found on its queue before a deadline that fell due meanwhile), on which a step yields
to an event as the service's redraw does (``App._others``): at each of the redraw's looks at
the loop's queue (before each seat after the first, recorded in the trace) it stops if an
event's edge has come, its CPU after its last moment (the public screen) still charged, and
what it had left, with the CPU between, is drawn after that event's whole step, which never
yields itself (never two redraws in a row); a journal append's commit on the card while the
loop goes on drawing, the loop waiting for it where it settled the journal (before its first
write to a screen); and one wire, every seat on it (each shipped table has one bus), taken
transfer by transfer as :class:`hardware.drivers.bus.BusWriter` takes it: before each
transfer, the earliest queued one that reaches a seat whose press is waiting (the presser),
else the earliest queued. A transfer the service shared between seats (one mux select of
several channels, for screens that show the same bytes) crosses the wire once and completes
every seat it reached; a mux switch goes with the transfer after it, as the service holds
the mux for both. So a press meets the background redraws on the wire as it does in the
service; the messages of one ``I2C_RDWR`` (the presser's frame) cross together, each charged
its overhead, no other transfer between them. The presser's frame handed to an idle writer
takes the GIL with it (``BusWriter.submit``): the loop waits through the writer's Python
and the mux select to the frame's call. Not modelled: the GIL between the loop and a busy
writer (the writer's own Python is charged to the wire, not also to the loop, and its call
waits for no turn of the loop's); a yielded step's frames, or those of a deadline that
fell due during an event's step, folding into the event step's for the same seats (each is
drawn after it, whole); and a seat's new work superseding its queued, unsent work. The
traces hold what the service sent here, after its own superseding, and the model sends
every one of those transfers, a seat's later ones behind its earlier: dropping a seat's
share of a transfer queued for several would need the bytes, which a trace does not keep.
Where the Zero's slower wire lets a seat's work pile up that the service would fold into
one frame, the model's wire carries more than the service's would.

:func:`here` is this machine on the emulated wire (CPU factor 1, this disk's commits, the
wake-ups as recorded): replaying the traces on it must reproduce what the emulated wire
measured on the same run (BENCHMARKS.md gives the two side by side), which is what makes
:func:`zero_2w` worth reading. Its constants and where they come from:

- ``ZERO_I2C_HZ``: 399,361 Hz. systemd/install.sh sets ``dtparam=i2c_arm_baudrate=400000``
  and ``core_freq=250``. The BSC controller divides the VPU core clock
  (raspberrypi/firmware issue 1281: the core clock moves between 250 MHz idle and 400 MHz
  under load unless fixed, so an unfixed 400 kHz bus runs at 250 kHz, 5/8 of it); the
  i2c-bcm2835 driver takes the divider rounded up and made even (the BSC reads CDIV's least
  bit as 0): 250 MHz / 626. :func:`bcm2835_i2c_hz` computes it; ``UNFIXED_I2C_HZ`` is the
  wire without ``core_freq`` (250 kHz, the issue's measurement).
- ``BITS_PER_BYTE``, ``FRAMING_BITS``, ``TRANSFER_OVERHEAD``: the emulated wire's
  (:mod:`hardware.drivers.emulated_wire`, where each is sourced).
- The CPU factor: how many times as long Python takes on the Zero 2 W (four Cortex-A53 at
  1 GHz) as here, from published timings of one Python loop on the same core, the loop
  timed here in the same run (:mod:`bench.cortex_a53`, where its sources are); beside it,
  that factor times how fast this host runs the table's work against the loop, counted in
  instructions (:mod:`bench.instructions`): the Zero's factor if it ran both at one rate.
  The loop is timed warm on both sides and the traces are cold here (:mod:`bench.warmth`:
  this host, a KVM guest, loses its caches within milliseconds, and a press's step runs two
  to six times as long as the same work made again at once), so the model stretches the
  traced CPU by the factor over that ratio, the basis the factor was read on; beside it, by
  the factor alone (the Zero as cold as this host), and how much further the stretch may go
  with both goals still met (``realpath.headroom``).
- ``COMMIT_WRITES``, ``TALLY_WRITES``, ``CHECKPOINT_WRITES``: what each journal append sends
  the card, measured (:mod:`bench.commit_writes`: the kernel's own count of requests on a
  loop-mounted ext4 made and mounted as Raspberry Pi OS's root, 300 settled appends to a
  fresh journal opened as ``companion play`` opens it; Linux 6.18 on the x86 VM, the same
  counts with the loop's direct I/O on). The commit, which the loop settles before drawing:
  one data write (the WAL's frames, overwriting the log in place: it is given its length at
  open) and one flush (its ``fdatasync``), 296 of the 300; the commit after a checkpoint (the
  log restarted, its header written and flushed first) two and two. Then the tally, one
  write and one flush, which only a next commit waits behind; and after every 64th commit the
  checkpoint, on the flusher too (1 to 6 writes, 2 or 3 flushes), which the next write's
  statements wait for. Each append draws from the whole mix, not its best case. Not counted:
  ext4's own commit of the files' times, every 5 s while the journal is written (two writes
  and two flushes, appending once a second), on the card beside the commits.
- ``SD_CARD``: per write 2 ms, plus 2 ms in one write of 5, 10-30 ms in one of 50 and
  500 ms in one of 2,000: our reading of the one measured SD write-latency distribution in
  our sources (Mitch Bradley's small-write timings of an SD card, OLPC devel list, June 2010:
  a 512-byte write takes about 2 ms, "2 mS of extra delay is fairly frequent, 10 to 30 mS is
  not uncommon, 500 mS sometimes happens"). The rates are readings of those words, not
  measurements; the same writes with no tail (``tails=False``) are shown beside it so the
  tail's share is visible. A flush costs nothing: an SD card without a volatile cache says so
  (``write through``) and the kernel never sends it one. A card with its cache on is sent
  every flush; no source of ours gives what one costs, so a row (``flushes=True``) charges
  each flush as one more small write, an assumption.
- ``WAKE``: 0.2 ms from the button's edge to the loop thread running (gpiozero's callback,
  the queue, a futex wake on an idle core): an estimate, a few times what it takes here.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hardware.drivers.emulated_wire import I2C_HZ, wire_seconds

WAKE = 0.0002
I2C_ASKED = 400_000  # install.sh: dtparam=i2c_arm_baudrate=400000
CORE_CLOCK = 250_000_000  # install.sh: core_freq=250 on a Pi 3 and a Zero 2 W
SD_WRITE = 0.002
SD_TAILS = ((1 / 5, 0.002, 0.002), (1 / 50, 0.010, 0.030), (1 / 2000, 0.5, 0.5))
# (appends, data writes, flushes) of bench.commit_writes's 300 appends: each commit, the tally
# after it, and the checkpoint after that.
Mix = tuple[tuple[int, int, int], ...]
COMMIT_WRITES: Mix = ((296, 1, 1), (4, 2, 2))
TALLY_WRITES: Mix = ((300, 1, 1),)
CHECKPOINT_WRITES: Mix = ((296, 0, 0), (2, 6, 3), (1, 1, 2), (1, 5, 3))


def bcm2835_i2c_hz(asked: int, core_clock: int) -> float:
    """The SCL clock the i2c-bcm2835 driver gives for ``asked`` Hz off ``core_clock``."""
    divider = -(-core_clock // asked)
    divider += divider & 1
    return core_clock / divider


ZERO_I2C_HZ = bcm2835_i2c_hz(I2C_ASKED, CORE_CLOCK)
UNFIXED_I2C_HZ = I2C_ASKED * 250 / 400  # the divider set for 400 MHz, the core at 250


@dataclass(frozen=True)
class Card:
    """An SD card's side of the journal: each commit's, each tally's and each checkpoint's
    requests (none, after most commits) drawn from a measured mix, each write ``SD_WRITE`` and
    (``tails``) the tails of ``SD_TAILS``; each flush free, or (``flushes``) as one more
    write."""

    commits: Mix
    tallies: Mix
    checkpoints: Mix
    tails: bool = True
    flushes: bool = False

    def commit(self, rng: random.Random) -> float:
        return self._seconds(self.commits, rng)

    def tally(self, rng: random.Random) -> float:
        return self._seconds(self.tallies, rng)

    def checkpoint(self, rng: random.Random) -> float:
        return self._seconds(self.checkpoints, rng)

    def _seconds(self, mix: Mix, rng: random.Random) -> float:
        [(_, writes, flushes)] = rng.choices(mix, weights=[n for n, _, _ in mix])
        seconds = 0.0
        for _ in range(writes + (flushes if self.flushes else 0)):
            seconds += SD_WRITE
            for rate, low, high in SD_TAILS if self.tails else ():
                if rng.random() < rate:
                    seconds += rng.uniform(low, high)
        return seconds


SD_CARD = Card(COMMIT_WRITES, TALLY_WRITES, CHECKPOINT_WRITES)


@dataclass(frozen=True)
class Sent:
    """One transfer as the loop thread handed it over: when it was off the wire here
    (``perf_counter``), after how much of the loop thread's CPU (``thread_time``), where,
    to whom, how big."""

    at: float
    cpu: float
    bus: int
    seats: tuple[int, ...]  # every seat it reached (several: shared); none: a mux switch
    wire_bytes: int
    writer_cpu: float = 0.0  # a writer thread's own CPU to make this transfer (luma, smbus;
    # not the wire's wait, whose own CPU is the ioctl's: TRANSFER_OVERHEAD)
    joined: bool = False  # one I2C_RDWR with the transfer before it on its bus: the wire
    # is held for the whole call


@dataclass(frozen=True)
class Journaled:
    """A journal write on the loop thread: its CPU (``thread_time``) at start and end, and
    whether its commit flies on (an append) or is durable when it returns."""

    started: float
    ended: float
    overlapped: bool


@dataclass
class Trace:
    """One step of the loop thread: for a button edge from the edge (``pressed_at``) on;
    for a background step (``seat`` None) from when the loop began it."""

    seat: int | None
    pressed_at: float
    event: bool = False  # a background step that took an event off the loop's queue (a
    # release nobody waits on), not one that fell due (a tick, a notice timing out)
    started: float = 0.0  # the loop thread took the edge
    cpu_started: float = 0.0  # the loop thread's thread_time then
    ended: float = 0.0  # its step was over
    cpu_ended: float = 0.0
    journaled: list[Journaled] = field(default_factory=list)
    settled: list[float] = field(default_factory=list)  # CPU where the loop waited for it
    sent: list[Sent] = field(default_factory=list)
    checks: list[float] = field(default_factory=list)  # CPU where the redraw looked at the
    # loop's queue before a further seat (``App._others``): where it would have yielded

    def seats_changed(self) -> set[int]:
        return {seat for sent in self.sent for seat in sent.seats}

    def presser_changed(self) -> bool:
        return self.seat is not None and self.seat in self.seats_changed()

    @property
    def queued(self) -> bool:
        """The step took an event off the loop's queue: a press's edge, or another event."""
        return self.seat is not None or self.event


@dataclass(frozen=True)
class Pi:
    """What the traces are replayed on: its CPU against this machine's, its wire's clock,
    its journal commits, the wait from a button's edge to the loop running, and what the
    disk does after a commit before it takes the next (the tally)."""

    cpu_factor: float
    i2c_hz: float
    commit: Callable[[random.Random], float]
    wake: Callable[[Trace], float]
    after_commit: Callable[[random.Random], float] = lambda rng: 0.0
    checkpoint: Callable[[random.Random], float] = lambda rng: 0.0

    def on(self, card: Card) -> Pi:
        """This Pi with its journal on ``card``."""
        return dataclasses.replace(self, commit=card.commit, after_commit=card.tally,
                                   checkpoint=card.checkpoint)


def zero_2w(cpu_factor: float) -> Pi:
    """The Zero 2 W on its SD card, its Python ``cpu_factor`` times as slow as here."""
    return Pi(cpu_factor, ZERO_I2C_HZ, SD_CARD.commit, lambda trace: WAKE, SD_CARD.tally,
              SD_CARD.checkpoint)


def here(commits: Sequence[float]) -> Pi:
    """This machine on the emulated wire: ``commits`` are commit times measured on its disk."""
    return Pi(1.0, I2C_HZ, lambda rng: rng.choice(commits),
              lambda trace: trace.started - trace.pressed_at)


@dataclass(frozen=True)
class OnPi:
    """When, after the press, the presser's screen and the last seat were fully on the wire."""

    presser_done: float | None  # None: the press did not change the presser's screen
    last_done: float | None  # None: no screen changed


@dataclass(frozen=True)
class _Transfer:
    ready: float
    seconds: float
    step: int
    seats: frozenset[int]
    press: int | None  # the presser, if its press handed this over for its screen


class _Wire:
    """The one wire and its writer: transfer by transfer, before each the earliest queued
    transfer that reaches a seat whose press is waiting (one its press handed over for its
    screen is still queued), else the earliest queued. A transfer crosses once and
    completes every seat it reached."""

    def __init__(self) -> None:
        self.free = 0.0
        self.queued: list[_Transfer] = []  # as handed over, so in the order they were ready
        self.pressing: Counter[int] = Counter()  # seat -> its press's transfers queued
        self.done: dict[tuple[int, int], float] = {}  # (step, seat) -> last byte off

    def submit(self, transfer: _Transfer) -> None:
        self.run(transfer.ready)
        self.queued.append(transfer)
        if transfer.press is not None:
            self.pressing[transfer.press] += 1

    def run(self, until: float = float("inf")) -> None:
        """Carry every transfer that starts before ``until``."""
        while self.queued:
            start = max(self.free, self.queued[0].ready)
            if start >= until:
                return
            transfer = self.queued.pop(self._pick(start))
            if transfer.press is not None:
                self.pressing[transfer.press] -= 1
            self.free = start + transfer.seconds
            for seat in transfer.seats:
                self.done[transfer.step, seat] = self.free

    def _pick(self, start: float) -> int:
        waiting = {seat for seat, queued in self.pressing.items() if queued}
        if waiting:
            for position, transfer in enumerate(self.queued):
                if transfer.ready > start:
                    break
                if transfer.seats & waiting:
                    return position
        return 0


def wire_only(trace: Trace, hz: float) -> float:
    """The soonest the step's last seat can be complete after its edge: every transfer the
    step handed over (the mux's channel switches too, a shared transfer once) back to back on
    its busiest wire at ``hz``, with no CPU, no commit, no wake-up and nothing else on the
    wire. A step whose bytes alone take longer than a goal misses it however fast the Pi
    computes."""
    per_wire: dict[int, float] = {}
    for sent in trace.sent:
        per_wire[sent.bus] = per_wire.get(sent.bus, 0.0) + wire_seconds(sent.wire_bytes, hz)
    return max(per_wire.values(), default=0.0)


JOURNAL, SETTLE, SEND, CHECK = range(4)  # what the loop did at a moment of its CPU, in order
_Moment = tuple[float, int, object]  # that CPU (``thread_time`` here), what, with what


def simulate(steps: Sequence[Trace], pi: Pi, *, journal_cpu: float,
             seed: int = 27) -> list[OnPi]:
    """Every step on ``pi`` as the service's loop takes them (one :class:`OnPi` each, times
    from the step's edge). A journal write's statements are the loop's, as traced;
    ``journal_cpu`` is its commit's computing here (the settle of an append to a journal on
    a RAM disk), done on the flusher thread while the loop goes on (SQLite lets go of the GIL
    while it commits); the commit's writes are ``pi.commit``'s, made once the disk is done
    with the one before and what came after it.

    The loop takes what it would take (:func:`companion.loop.run_loop`): once free, the
    first event on its queue whose edge (and wake-up) has come, else the first step that
    fell due (a deadline: a tick, a notice timing out), so a press the loop finds waiting
    goes before a tick that fell due meanwhile. A step yields to the queue as the service's
    redraw does (``App._others``): at each of its looks at the loop's queue
    (``Trace.checks``, before each seat after the first), if an event's edge has come the
    step stops there and its CPU after its last moment (the public screen) is charged; what
    it had left, with the CPU between, follows that event's whole step, which never yields
    itself (never two redraws in a row). A deadline puts nothing on the queue: no step
    yields to one."""
    loop = _Loop(pi, journal_cpu, random.Random(seed), _Wire())
    left = sorted(range(len(steps)), key=lambda i: _edge(steps[i], pi))
    carried: tuple[int, float, list[_Moment]] | None = None  # a yielded step's rest
    while left:
        index = _taken(steps, left, pi, loop.free)
        left.remove(index)
        trace = steps[index]
        now = max(_edge(trace, pi), loop.free)
        may_yield = carried is None  # never two redraws in a row
        waiting = (next((_edge(steps[i], pi) for i in left if steps[i].queued), None)
                   if may_yield else None)  # ``left`` is in the order of the edges
        moments = _moments(trace)
        now, cpu, rest = loop.run(moments, index, trace.seat, now, trace.cpu_started, waiting)
        last = moments[-1][0] if moments else cpu
        loop.free = now + max(0.0, trace.cpu_ended - max(cpu, last)) * pi.cpu_factor
        if carried is not None:
            step, stopped, moments_left = carried
            loop.free = loop.run(moments_left, step, None, loop.free, stopped)[0]
        carried = (index, cpu, rest) if rest else None
    loop.wire.run()
    results = []
    for index, trace in enumerate(steps):
        done = {seat: at - trace.pressed_at for (step, seat), at in loop.wire.done.items()
                if step == index}
        presser = done.get(trace.seat) if trace.seat is not None else None
        results.append(OnPi(presser, max(done.values(), default=None)))
    return results


def _taken(steps: Sequence[Trace], left: Sequence[int], pi: Pi, free: float) -> int:
    """The step the loop takes next, free at ``free``, of ``left`` (in the order of their
    edges): the first queued event that has come by the time it takes one, else the first
    step."""
    first = left[0]
    now = max(free, _edge(steps[first], pi))
    for index in left:
        if _edge(steps[index], pi) > now:
            break
        if steps[index].queued:
            return index
    return first


def _edge(trace: Trace, pi: Pi) -> float:
    """When the loop could take the step: a press's edge and wake-up, a background step's
    start."""
    return trace.pressed_at + (pi.wake(trace) if trace.seat is not None else 0.0)


@dataclass
class _Loop:
    """The loop thread on the Pi, the journal's disk and the wire, as the steps run."""

    pi: Pi
    journal_cpu: float
    rng: random.Random
    wire: _Wire
    free: float = 0.0  # the loop is done with the steps so far
    durable: float = 0.0  # the last commit is on the card
    disk_free: float = 0.0  # ... and so is what the card wrote after it
    held: float = 0.0  # until then the flusher's checkpoint holds the journal's connection

    def run(self, moments: Sequence[_Moment], step: int, presser: int | None, now: float,
            cpu: float, waiting: float | None = None) -> tuple[float, float, list[_Moment]]:
        """Carry out step ``step``'s ``moments`` from ``now`` (the loop's CPU here at ``cpu``)
        for ``presser``; with an event ``waiting`` from then on, stop at the redraw's first
        look at the queue once it has come. Where the loop got to (``now``, ``cpu``) and the
        moments left."""
        pi = self.pi
        for position, (at, kind, what) in enumerate(moments):
            now += max(0.0, at - cpu) * pi.cpu_factor
            cpu = max(cpu, at)
            if kind == CHECK:
                if waiting is not None and waiting <= now:
                    return now, cpu, list(moments[position + 1:])
            elif isinstance(what, Journaled):
                now = max(now, self.durable, self.held) + (what.ended - at) * pi.cpu_factor
                computed = now + self.journal_cpu * pi.cpu_factor  # on the flusher
                self.durable = max(computed, self.disk_free) + pi.commit(self.rng)
                self.disk_free = self.durable + pi.after_commit(self.rng)
                if checkpoint := pi.checkpoint(self.rng):
                    self.disk_free = self.held = self.disk_free + checkpoint
                if not what.overlapped:
                    now = self.durable
                cpu = what.ended
            elif kind == SETTLE:
                now = max(now, self.durable)
            else:
                assert isinstance(what, _Send)
                seconds = sum(wire_seconds(sent.wire_bytes, pi.i2c_hz)
                              + sent.writer_cpu * pi.cpu_factor for sent in what.sent)
                mine = presser if presser in what.seats else None
                self.wire.run(now)
                idle = not self.wire.queued and self.wire.free <= now
                self.wire.submit(_Transfer(now, seconds, step, what.seats, mine))
                if mine is not None and idle:  # handed the GIL: BusWriter.submit
                    now += sum(sent.writer_cpu * pi.cpu_factor
                               + (0.0 if sent.seats else wire_seconds(sent.wire_bytes, pi.i2c_hz))
                               for sent in what.sent)
        return now, cpu, []


@dataclass(frozen=True)
class _Send:
    """What the writer sends as one: a transfer and the mux switches just before it on its
    bus (the service holds the mux for both), or every message of one ``I2C_RDWR``, handed
    over at ``cpu``."""

    cpu: float
    seats: frozenset[int]
    sent: tuple[Sent, ...]


def _sends(sent: Sequence[Sent]) -> list[_Send]:
    """Each transfer with the switches before it, the messages of one call together; a
    switch no transfer followed reaches no seat but still takes the wire."""
    sends: list[_Send] = []
    last: dict[int, int] = {}  # bus -> its last transfer's place in ``sends``
    switches: dict[int, list[Sent]] = {}
    for one in sent:
        if one.joined and one.bus in last:
            call = sends[last[one.bus]]
            sends[last[one.bus]] = _Send(max(call.cpu, one.cpu), call.seats | set(one.seats),
                                         (*call.sent, one))
        elif one.seats:
            group = (*switches.pop(one.bus, []), one)
            last[one.bus] = len(sends)
            sends.append(_Send(max(s.cpu for s in group), frozenset(one.seats), group))
        else:
            switches.setdefault(one.bus, []).append(one)
    sends += [_Send(s.cpu, frozenset(), (s,)) for left in switches.values() for s in left]
    return sends


def _moments(trace: Trace) -> list[_Moment]:
    moments: list[_Moment] = [(j.started, JOURNAL, j) for j in trace.journaled]
    moments += [(cpu, SETTLE, None) for cpu in trace.settled]
    moments += [(send.cpu, SEND, send) for send in _sends(trace.sent)]
    moments += [(cpu, CHECK, None) for cpu in trace.checks]
    moments.sort(key=lambda moment: (moment[0], moment[1]))
    return moments
