"""A chorus: the seat screens behind one mux at one I2C address, sent to together.

A TCA9548A's control register is a bitmask: any set of its channels can be connected at once
(TI's TCA9548A datasheet, "Control Register"), and a write then reaches every display on every
channel connected. When several screens are to show the same frame (the lobby, a notice on
every seat, the cut, the deal, the seats that sit out a game) the chorus sends its bytes once,
with all their channels connected, instead of once a seat: on one 400 kHz wire that is what
keeps the last seat of a turn change in step with the first.

How the work is ordered, between two calls (so a new frame waits for one call at most):

- The screen whose press is awaited first, then the others in the order they were handed over.
  Transfers to the same displays go as one ``I2C_RDWR`` of several messages (each still its
  own I2C write): one system call, and one return of the GIL to the writer, for many. The
  awaited screen's whole frame goes in one call, as a player is waiting for it; another's
  in calls no longer on the wire than one block and its window's addressing, so a press
  that lands meanwhile waits no longer than for one block (3 ms at 400 kHz).
- Screens that are to show the same frame go as one *group*, where its first member would go.
  The presser's group sends the presser's own plan (not a byte more for the presser), every
  member of the group connected; what the others still lack follows. Another group sends once
  what any of its members lacks (a byte a member already shows is written again, unchanged).
- A private face (``whole``: every byte, the same windows whatever the face) and a screen whose
  RAM is unknown, or that is switched off first, go alone, as without a chorus: what a wire
  shows of a secret never depends on which other seat holds the same one.
- A shared write is acknowledged by any display that hears it (I2C's ACK is wired-AND), so a
  display that is gone would not be noticed: each member of a shared write is then asked alone
  (a NOP), and a display that stopped answering fails there, as it would alone.

Plans are made from the RAM each display really holds (each :class:`Part`'s ``held``, kept
transfer by transfer): nothing is planned from a frame that did not all reach its panel. A
screen with nothing queued or on the wire is planned as it is handed its frame, on the
handing thread, while the wire carries what is queued (alone, or again with the queued
screens that are to show the same frame); any other change makes the writer plan the
pending work again before its next call.
A screen on no mux (or a kernel mux's channel, its own ``/dev/i2c-N``) is a chorus of one.
"""

from __future__ import annotations

import ctypes
import threading
from collections import deque
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from functools import cached_property

from smbus2 import i2c_msg

from .bus import BusWriter, I2cBus, MuxChannel, Tca9548a
from .planner import I2C_BLOCK, WIDTH, Addressing, Run, Window, differing, plan, transfers

DISPLAY_OFF = 0xAE
DISPLAY_ON = 0xAF
NOP = 0xE3  # the same on both controllers: a harmless probe
COMMAND_MODE = 0x00
DATA_MODE = 0x40  # the control byte before display RAM bytes (luma's, and ours)
_DATA_PREFIX = bytes((DATA_MODE,))
RDWR_MESSAGES = 42  # I2C_RDWR_IOCTL_MAX_MSGS, linux/i2c-dev.h: the most one ioctl takes
# A screen joins another's window mid-way (:meth:`Chorus._join`) only for more of the bytes it
# lacks than this: joining there costs a write of its own (its addressing) and two switches of
# the mux, three transfers of some 0.1 ms each on the wire and the writer's work for each; half
# a block is some 1.3 ms of bytes at 400 kHz. Our judgment, not a measurement.
JOIN_MID_WINDOW = I2C_BLOCK // 2
# ctypes makes an array type once for each element type and length, and keeps it only while
# an array of it is alive (its cache holds the type weakly): once the collector has freed the
# last message of a length, or the last call of so many messages (smbus2's ``i2c_rdwr`` makes
# an ``i2c_msg * n`` array for each call), the next one makes the type again, some 30-60 us
# here against 1-3 us for a type that is kept. So every message goes in a buffer of one
# type, long enough for the longest (its control byte and a block of RAM; an addressing
# command is shorter), and each count of messages a call has had keeps its type here.
MESSAGE_BYTES = 1 + I2C_BLOCK
_MESSAGE = ctypes.c_char * MESSAGE_BYTES
_CALLS: dict[int, type[ctypes.Array[i2c_msg]]] = {}


@dataclass(eq=False)
class Part:
    """One screen's part in its chorus, read and written under the chorus's lock.

    ``held`` is the display's RAM as sent (None: unknown); ``want`` the frame to reach (None:
    reached); ``whole``: send ``want`` whole; ``off``/``on``: DISPLAY_OFF owed before its next
    RAM byte, DISPLAY_ON once its RAM is sent; ``present``: there is a display to send to.
    """

    bus: I2cBus
    failed: Callable[[OSError], None]
    channel: int | None = None  # its channel on the chorus's mux (None: a chorus of one)
    held: bytearray | None = None
    want: bytes | None = None
    whole: bool = False
    off: bool = False
    on: bool = False
    present: bool = False
    queued: int = 0  # when its pending work was handed over (0: none pending)
    unasked: bool = False  # it had a shared write and has not been asked alone since


@dataclass(frozen=True)
class _Job:
    """One transfer: to ``parts`` (several: a shared one), commands or RAM spans of ``frame``."""

    parts: tuple[Part, ...]
    commands: tuple[int, ...] = ()
    spans: tuple[Run, ...] = ()
    frame: bytes = b""
    window: Window | None = None  # the window it addresses or fills
    switches: str = ""  # "off" or "on": the flag it settles once sent

    @cached_property
    def buffer(self) -> ctypes.Array[ctypes.c_char]:
        """The message as the kernel reads it (its control byte, then commands or RAM; its
        first :attr:`size` bytes), made once: on the thread that plans it while the wire
        carries earlier work (:meth:`Chorus.handed`), not by the writer between two calls
        with the wire idle."""
        buffer = _MESSAGE()
        buffer.value = _message(self)
        return buffer

    @property
    def size(self) -> int:
        """The message's bytes: the control byte, then the commands or the RAM."""
        return 1 + (len(self.commands) or sum(end - start for start, end in self.spans))

    def reaching(self, parts: tuple[Part, ...]) -> _Job:
        """The same transfer to ``parts``: its message, if made, is not made again (made
        field by field: ``dataclasses.replace`` takes twice as long, and a turn change makes
        dozens)."""
        job = _Job(parts, self.commands, self.spans, self.frame, self.window, self.switches)
        if "buffer" in self.__dict__:
            job.__dict__["buffer"] = self.__dict__["buffer"]
        return job


@dataclass
class Chorus:
    """The screens at ``address`` behind ``mux`` (None: one screen on a bus of its own), all
    of one ``controller``, on ``writer``'s wire (None: every update sent at once, as the
    simulated table does). A :class:`hardware.drivers.bus.Task` of that writer."""

    address: int
    controller: Addressing
    writer: BusWriter | None = None
    mux: Tca9548a | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, init=False)
    _parts: list[Part] = field(default_factory=list, init=False)
    _jobs: deque[_Job] = field(default_factory=deque, init=False)
    _planned: dict[int, bytes] = field(default_factory=dict, init=False)  # id(part) -> want
    _stale: bool = field(default=False, init=False)
    _awaited: Part | None = field(default=None, init=False)
    _awaited_jobs: int = field(default=0, init=False)
    _riders: list[Part] = field(default_factory=list, init=False)  # to join the awaited's writes
    _rode: list[Part] = field(default_factory=list, init=False)  # ... and be planned after them
    _flying: tuple[Part, ...] = field(default=(), init=False)  # the parts of the call sent now
    _after_awaited: bool = field(default=False, init=False)  # plan again once it is sent
    _order: int = field(default=0, init=False)

    def join(self, part: Part) -> None:
        if self.mux is not None:
            bus = part.bus
            if not isinstance(bus, MuxChannel) or bus.mux is not self.mux:
                raise ValueError("a chorus's screens are on channels of its mux")
            part.channel = bus.number
        elif self._parts:
            raise ValueError("a chorus without a mux has one screen")
        with self.lock:
            self._parts.append(part)

    def leave(self, part: Part) -> None:
        with self.lock:
            self._parts.remove(part)
            self._stale = True

    def forget(self, part: Part, *, present: bool) -> None:
        """``part``'s RAM is unknown (its next frame goes whole), nothing of it is owed."""
        with self.lock:
            part.held, part.want, part.whole, part.off, part.on = None, None, False, False, False
            part.present = present
            self._stale = True

    def handed(self, part: Part, *, urgent: bool) -> None:
        """``part`` has new work (under the lock, on the thread that hands it over).

        A frame that changes no plan already made (nothing of the screen is queued or on
        the wire, no other pending screen is to show the same frame) is planned here and
        now, and queued after the rest, or before it if a press awaits it: its planning is
        done while the wire carries what is queued, not between two calls with the wire
        idle, and the others are not planned again for it (a turn change hands eight seats
        over one by one while the first are sent). A frame that queued screens are to show
        too, or that supersedes one still queued, joins the writes of one that holds what
        it holds (:meth:`_twin`), or is planned again with theirs where the first of them is
        queued, when none of them is awaited or on the wire; a frame whose screen has
        nothing queued or on the wire is planned alone, joining what is queued of theirs,
        when one of them is. Anything else makes the writer plan everything again before its
        next call; but while the awaited frame is on its way, another's same frame rides
        along with it, and the rest waits for it (nothing is planned again on the presser's
        time).
        """
        if not part.queued:
            self._order += 1
            part.queued = self._order
        if self._stale:
            if urgent:
                self._awaited = part
        elif urgent and not self._awaited_jobs and self._joins(part):
            self._awaited = part
            self._plan_first(part)
        elif urgent or part is self._awaited:
            self._awaited = part
            self._stale = True
        elif self._awaited_jobs and self._rides(part):
            for riders in (self._riders, self._rode):
                if part not in riders:
                    riders.append(part)
        else:
            self._plan_handed(part)
        for job in self._jobs:  # its messages made here, not by the writer between calls
            _ = job.buffer

    def _plan_handed(self, part: Part) -> None:
        """Plan ``part``'s new frame, nobody waiting for it, where that changes no plan made
        but its group's (see :meth:`handed`); else leave it to the writer."""
        if self._joins(part):
            self._plan_alone(part)
        elif (twin := self._twin(part)) is not None:
            self._beside(part, twin)
        elif (group := self._regroup(part)) is not None:
            self._plan_together(group)
        elif self._free(part):
            self._plan_alone(part)
        elif self._awaited_jobs:
            self._after_awaited = True
        else:
            self._stale = True

    def _rides(self, part: Part) -> bool:
        """Whether ``part`` is to show the frame the awaited screen is being sent."""
        awaited = self._awaited
        return (awaited is not None and self._shared(part) and self._shared(awaited)
                and part.want == awaited.want)

    def _joins(self, part: Part) -> bool:
        """Whether ``part``'s new frame can be planned after the plan made, leaving it as it
        is: the display is there, nothing of ``part`` is queued or on the wire (what it
        holds is what it will hold), and no other screen waits to show that frame."""
        if not self._free(part):
            return False
        return not self._shared(part) or not any(
            other is not part and other.queued and other.want == part.want and self._shared(other)
            for other in self._parts)

    def _free(self, part: Part) -> bool:
        """Whether what ``part`` holds is what it will hold: the display is there, nothing of
        it queued or on the wire."""
        return part.present and part not in self._flying and not any(
            part in job.parts for job in self._jobs)

    def submit(self, urgent: bool) -> None:
        """Queue the chorus on its writer (it keeps its place if queued)."""
        assert self.writer is not None
        self.writer.submit(self, self._lost, urgent=urgent)

    def drain(self) -> None:
        """Send everything pending, here and now (the caller holds the wire)."""
        while self.step():
            pass

    def step(self) -> bool:
        """One call of the pending work (on the writer's thread); False when none is left.

        A call that fails takes its parts out of the work (each is told through its
        ``failed``) and the rest goes on: one unplugged display never stops the others.
        """
        with self.lock:
            if self._stale:
                self._replan()
                if self._stale:  # the awaited screen had nothing to send: the rest now
                    self._replan()
            elif self._riders:
                self._ride()
            if not self._jobs:
                return False
            jobs = self._next_jobs()
            self._flying = jobs[0].parts
        try:
            self._send(jobs)
        except OSError as error:
            with self.lock:
                self._flying = ()
                for part in jobs[0].parts:
                    part.present = False
                self._stale = True
            for part in jobs[0].parts:
                part.failed(error)
            return True
        with self.lock:
            self._flying = ()
            for job in jobs:
                self._sent(job)
        return True

    def _next_jobs(self) -> list[_Job]:
        """The next transfer and those that follow it to the same displays, as one
        ``I2C_RDWR`` of several messages (each still its own I2C write): one system call and
        one return of the GIL to the writer for all of them, not one each. For the awaited
        screen all of them (up to :data:`RDWR_MESSAGES`): the presser's frame is what a player
        waits for, and a press that lands meanwhile waits for it. For any other screen no
        more than one full block and its window's addressing on the wire
        (:attr:`_call_bytes`), so a press that lands while a background redraw is on the
        wire waits for no longer than one block (3 ms at 400 kHz). A screen handed the same
        frame meanwhile rides with what is left of the awaited one."""
        job = self._jobs.popleft()
        jobs = [job]
        if job.switches:
            return jobs
        awaited = self._awaited is not None and self._awaited in job.parts
        room = self._call_bytes - _wire_bytes(job)
        while (self._jobs and len(jobs) < RDWR_MESSAGES and self._jobs[0].parts == job.parts
               and not self._jobs[0].switches):
            if not awaited:
                room -= _wire_bytes(self._jobs[0])
                if room < 0:
                    break
            jobs.append(self._jobs.popleft())
        return jobs

    @property
    def _call_bytes(self) -> int:
        """The wire bytes of one full block and its window's addressing command (each with
        its address and control byte): the most a call to a screen nobody waits for holds."""
        return 2 + I2C_BLOCK + 2 + self.controller.address_bytes

    # --- planning (under the lock) --------------------------------------------------------

    def _replan(self) -> None:
        """Plan the pending work from what each display holds: the awaited screen's (and
        the screens that show the same frame) alone when it is pending, so nothing else is
        planned on the presser's time; everything else once it is sent."""
        self._stale = self._after_awaited = False
        self._riders.clear()
        self._rode.clear()
        self._jobs.clear()
        self._planned.clear()
        pending = []
        for part in self._parts:
            if not part.present:
                part.want, part.queued, part.off, part.on = None, 0, False, False
            elif part.queued:
                pending.append(part)
        pending.sort(key=lambda p: (p is not self._awaited, p.queued))
        groups: dict[bytes, list[Part]] = {}
        for part in pending:
            if self._shared(part):
                assert part.want is not None
                groups.setdefault(part.want, []).append(part)
        awaited = self._awaited
        if pending and pending[0] is awaited:  # the presser's alone now, the rest after it
            first = groups.get(awaited.want or b"", [awaited]) if self._shared(awaited) \
                else [awaited]
            self._after_awaited = len(first) < len(pending)
            pending = first
        for part in pending:
            if not self._shared(part):
                self._jobs.extend(self._alone(part))
            elif (group := groups.pop(part.want or b"", None)) is None:
                continue
            elif len(group) == 1 and part is not awaited:
                self._jobs.extend(self._joined(part))
            else:
                self._jobs.extend(self._together(group))
        for part in pending:
            if part.want is not None:
                self._planned[id(part)] = part.want
        self._awaited_jobs = sum(1 for job in self._jobs if awaited in job.parts)
        if awaited is not None and not self._awaited_jobs:
            self._answered()
        if not self._jobs:
            self._finish()

    def _regroup(self, part: Part) -> list[Part] | None:
        """The pending screens that are to show ``part``'s frame, ``part`` among them in
        the order they were handed over, when they can be planned again together where the
        first of them is queued: none of them is on the wire or awaited. None: they
        cannot."""
        if not part.present or not self._shared(part):
            return None
        group = [other for other in self._parts if other.queued and self._shared(other)
                 and other.want == part.want]
        group.sort(key=lambda other: other.queued)
        if self._awaited in group or any(other in self._flying for other in group):
            return None
        return group

    def _twin(self, part: Part) -> Part | None:
        """A queued screen whose plan ``part``'s public frame can take as it stands: one
        that is to show that frame from the very RAM ``part`` holds, its plan for it queued,
        none of it on the wire, awaited or ridden; ``part`` itself with nothing queued. Its
        writes bring ``part`` its frame byte for byte (:meth:`_beside`), with no planning:
        a turn change hands the seats that show the same frame over one by one, and each
        planned with the others again (:meth:`_plan_together`) cost the loop more than
        composing it."""
        if not self._free(part) or not self._shared(part):
            return None
        for other in self._parts:
            if (other is not part and other.want == part.want and other.held == part.held
                    and self._planned.get(id(other)) is other.want and self._joinable(other)
                    and other not in self._flying):
                mine = [job for job in self._jobs if other in job.parts]
                if any(_writes(job) for job in mine) \
                        and not any(self._awaited in job.parts for job in mine):
                    return other
        return None

    def _beside(self, part: Part, twin: Part) -> None:
        """``part`` joins every queued write of ``twin`` (:meth:`_twin`); then each that
        shares one is asked alone after its last (a NOP, as in :meth:`_together`; ``part``'s
        DISPLAY_ON, if owed, asks it)."""
        jobs = [job.reaching((*job.parts, part)) if twin in job.parts and _writes(job) else job
                for job in self._jobs]
        asks: dict[int, list[_Job]] = {}
        twin_last = max(index for index, job in enumerate(jobs) if twin in job.parts)
        if jobs[twin_last].parts != (twin,):
            asks[twin_last] = [_Job((twin,), (NOP,))]
        last = max(index for index, job in enumerate(jobs) if part in job.parts)
        asks.setdefault(last, []).append(_Job((part,), (DISPLAY_ON,), switches="on") if part.on
                                         else _Job((part,), (NOP,)))
        self._jobs = deque(job for index, one in enumerate(jobs)
                           for job in (one, *asks.get(index, ())))
        self._queued([part])

    def _plan_together(self, group: list[Part]) -> None:
        """Plan ``group`` (see :meth:`_regroup`) where its first write of its own was
        queued: it may join the queued writes before it. A queued write it shared with
        other screens (it joined theirs, or they its) goes on to them alone: the members
        leave every queued write at once, so what each other screen is sent stays whole,
        and the addressing that points it stays before its blocks."""
        kept: list[_Job] = []
        at: int | None = None
        for job in self._jobs:
            others = tuple(part for part in job.parts if part not in group)
            if not others:
                at = len(kept) if at is None else at
            elif len(others) == len(job.parts):
                kept.append(job)
            else:
                kept.append(job.reaching(others))
        at = len(kept) if at is None else at
        self._jobs = deque(kept[:at])
        self._jobs.extend(self._together(group))
        self._jobs.extend(kept[at:])
        self._queued(group)

    def _plan_first(self, part: Part) -> None:
        """Plan the awaited ``part`` (see :meth:`_joins`) before what is queued."""
        jobs = self._plan_of(part)
        self._jobs.extendleft(reversed(jobs))
        self._awaited_jobs = len(jobs)
        if not jobs:
            self._answered()
        self._queued([part])

    def _plan_alone(self, part: Part) -> None:
        """Plan ``part`` (see :meth:`_joins`) after what is queued, its public frame joining
        the queued windows it shares (:meth:`_joined`)."""
        self._jobs.extend(self._joined(part) if self._shared(part) else self._alone(part))
        self._queued([part])

    def _plan_of(self, part: Part) -> list[_Job]:
        return self._together([part]) if self._shared(part) else self._alone(part)

    def _queued(self, parts: list[Part]) -> None:
        """``parts``' plans are queued: each is done once its frame is sent (:meth:`_finish`,
        at once if nothing is queued or on the wire)."""
        for part in parts:
            if part.want is not None:
                self._planned[id(part)] = part.want
        if not self._jobs and not self._flying:
            self._finish()

    def _ride(self) -> None:
        """The riders that are to show the awaited frame join its remaining transfers: at its
        next addressing command, or at its next block that starts a row of its window (a
        newcomers are first addressed, together, to the rest of that window: one small
        transfer on the presser's time). The rest, and what a rider still lacks, are planned
        once the awaited frame is sent."""
        awaited, riders = self._awaited, self._riders
        self._riders = []
        if awaited is None:
            return
        joining = tuple(part for part in riders
                        if self._shared(part) and part.want == awaited.want)
        if not joining:
            return
        jobs: list[_Job] = []
        joined = False
        for job in self._jobs:
            if awaited in job.parts and job.frame:
                if not joined:
                    rest = self._rest(job)
                    newcomers = tuple(part for part in joining if part not in job.parts)
                    if rest is not None and newcomers:  # one write points them all there
                        jobs.append(_Job(newcomers, self.controller.address(rest),
                                         frame=job.frame, window=rest))
                    joined = job.commands != () or rest is not None
                if joined:
                    more = tuple(part for part in joining if part not in job.parts)
                    job = job.reaching((*job.parts, *more))
            jobs.append(job)
        if joined and not any(job.parts == (awaited,) and job.commands == (NOP,) for job in jobs):
            # Its writes are shared now: it is asked alone as soon as its frame is sent, not
            # after the rest is planned.
            last = max(at for at, job in enumerate(jobs) if awaited in job.parts)
            jobs.insert(last + 1, _Job((awaited,), (NOP,)))
            self._awaited_jobs += 1
        self._jobs = deque(jobs)

    def _rest(self, job: _Job) -> Window | None:
        """The rest of ``job``'s window from its first byte on, when that byte starts a row
        of it (a data block of a window several pages high); else None."""
        window = job.window
        if job.commands or window is None or not self.controller.multi_page:
            return None
        page, column = divmod(job.spans[0][0], WIDTH)
        if column != window.start:
            return None
        return Window(page, window.last_page, window.start, window.end)

    def _shared(self, part: Part) -> bool:
        """Whether ``part``'s frame may go to other members at once: a public frame on known
        RAM, nothing to switch off first."""
        return (self.mux is not None and part.want is not None and not part.whole
                and part.held is not None and not part.off)

    def _alone(self, part: Part) -> list[_Job]:
        jobs: list[_Job] = []
        if part.off:
            jobs.append(_Job((part,), (DISPLAY_OFF,), switches="off"))
        want = part.want
        if want is not None:
            if part.held is None:  # unknown RAM: written whole, and known as it is sent
                part.whole, part.held = True, bytearray(want)
            base = None if part.whole else bytes(part.held)
            jobs += self._windows((part,), plan(base, want, self.controller), want)
        if part.unasked and not jobs:  # its own writes ask it; with none, a NOP does
            jobs.append(_Job((part,), (NOP,)))
        if part.on:
            jobs.append(_Job((part,), (DISPLAY_ON,), switches="on"))
        return jobs

    def _together(self, group: list[Part]) -> list[_Job]:
        """The jobs of members that are to show one frame (``group``, in their order).

        A shared write is acknowledged by any display that hears it (I2C's ACK is wired-AND),
        so each member that had one is then asked alone (a NOP): a display that is gone fails
        there, as it would alone. The presser is asked as soon as its frame is sent.
        """
        frame = group[0].want
        assert frame is not None
        jobs: list[_Job] = []
        asked: set[int] = set()
        lacking = [part for part in group if bytes(part.held or b"") != frame]
        joined = False
        if lacking and lacking[0] is self._awaited:
            presser = lacking[0]
            windows = plan(bytes(presser.held or b""), frame, self.controller)
            jobs += self._windows(tuple(lacking), windows, frame)
            if len(lacking) > 1:
                jobs.append(_Job((presser,), (NOP,)))
                asked.add(id(presser))
            after = {id(part): _applied(part.held or b"", windows, frame) for part in lacking}
            lacking = [part for part in lacking[1:] if after[id(part)] != frame]
            base = _union(frame, [after[id(part)] for part in lacking])
        else:  # nobody waits for it: it joins the queued writes of what it is to show
            held = _union(frame, [bytes(part.held or b"") for part in lacking])
            base = self._join(tuple(lacking), frame, held) if lacking else held
            joined = base != held
        if lacking:
            jobs += self._windows(tuple(lacking), plan(base, frame, self.controller), frame)
        shared = {id(part) for job in jobs if len(job.parts) > 1 for part in job.parts}
        if joined and (len(lacking) > 1 or not jobs):  # else its own write, the last, asks it
            shared.update(id(part) for part in lacking)
        jobs += [_Job((part,), (NOP,)) for part in group
                 if (part.unasked or id(part) in shared) and id(part) not in asked]
        jobs += [_Job((part,), (DISPLAY_ON,), switches="on") for part in group if part.on]
        return jobs

    def _joined(self, part: Part) -> list[_Job]:
        """The jobs of a public frame no other pending screen is to show, once it has joined
        the queued windows whose bytes it is to show as they are (:meth:`_join`): only what
        it still lacks then is planned for it alone."""
        want, held = part.want, part.held
        assert want is not None and held is not None
        after = self._join((part,), want, bytes(held))
        jobs = self._windows((part,), plan(after, want, self.controller), want)
        if not jobs and (after != held or part.unasked):  # its own writes would have asked it
            jobs.append(_Job((part,), (NOP,)))
        if part.on:
            jobs.append(_Job((part,), (DISPLAY_ON,), switches="on"))
        return jobs

    def _join(self, parts: tuple[Part, ...], want: bytes, held: bytes) -> bytes:
        """Connect ``parts`` (the screens to show the public frame ``want``, one or a group)
        to the queued windows of other public frames wherever they write what it is to
        show; what they hold once those are sent (``held``: what they hold now, or the union
        of what a group lacks, :func:`_union`).

        Seats' frames differ by a line or two and share the rest (a turn change: one title
        and body, each seat its own action bar), so a window planned for one seat often
        carries bytes another needs as they are. ``parts`` join a window's blocks that write
        exactly its bytes, in a row, when they fill something it lacks: from the window's
        addressing command on if they follow it, else from a block that starts a row of the
        window, with a write of its own first that points it there (as a rider is pointed,
        :meth:`_ride`), when they fill more than :data:`JOIN_MID_WINDOW` bytes it lacks. The
        write pointer moves for every display connected, so a display joins a run of blocks
        and leaves it, never skips one. Not joined: the awaited screen's windows (nothing is
        planned again on the presser's time) and any window a private frame is in (its
        writes never depend on what another seat shows). Each screen that had a joined write
        is asked alone after its last one (a NOP, as in :meth:`_together`), unless its own
        write asks it.
        """
        jobs = list(self._jobs)
        ram = bytearray(held)
        owners: list[Part] = []
        at = 0
        while at < len(jobs):
            head, end = jobs[at], at + 1
            while end < len(jobs) and not jobs[end].commands and jobs[end].parts == head.parts \
                    and jobs[end].window == head.window:
                end += 1
            if head.window is None or head.switches or any(p in head.parts for p in parts) \
                    or not all(self._joinable(other) for other in head.parts):
                at = end
                continue
            inserted = 0
            for first, stop in reversed(self._runs_shown(jobs, at, end, want)):
                spans = [span for job in jobs[first:stop] for span in job.spans]
                filled = sum(differing(bytes(ram[a:b]), want[a:b]) for a, b in spans)
                from_head = first == at + 1 and bool(head.commands)
                if not filled or (not from_head and filled <= JOIN_MID_WINDOW):
                    continue
                for index in range(at if from_head else first, stop):
                    joining = (*jobs[index].parts, *parts)
                    jobs[index] = jobs[index].reaching(joining)
                if not from_head:
                    rest = self._rest(jobs[first])
                    assert rest is not None
                    jobs.insert(first, _Job(parts, self.controller.address(rest),
                                            frame=jobs[first].frame, window=rest))
                    inserted += 1
                for a, b in spans:
                    ram[a:b] = want[a:b]
                owners += [other for other in head.parts if other not in owners]
            at = end + inserted
        for owner in owners:
            last = max(index for index, job in enumerate(jobs) if owner in job.parts)
            if jobs[last].parts != (owner,):
                jobs.append(_Job((owner,), (NOP,)))
        self._jobs.clear()  # in place: a caller may be extending it with what this returns
        self._jobs.extend(jobs)
        return bytes(ram)

    def _runs_shown(self, jobs: list[_Job], at: int, end: int,
                    want: bytes) -> list[tuple[int, int]]:
        """The runs of blocks among ``jobs[at:end]`` (one window's, to the same displays)
        that write exactly ``want``'s bytes, each from where a display can join it: the
        block after the window's addressing, or one that starts a row of the window."""
        runs: list[tuple[int, int]] = []
        first: int | None = None
        for index in range(at + 1 if jobs[at].commands else at, end):
            job = jobs[index]
            if not all(want[a:b] == job.frame[a:b] for a, b in job.spans):
                if first is not None:
                    runs.append((first, index))
                first = None
            elif first is None and ((index == at + 1 and bool(jobs[at].commands))
                                    or self._rest(job) is not None):
                first = index
        if first is not None:
            runs.append((first, end))
        return runs

    def _joinable(self, part: Part) -> bool:
        """Whether another screen may join the queued writes of ``part``: a public frame
        nobody waits for (see :meth:`_join`)."""
        return self._shared(part) and part is not self._awaited and part not in self._riders

    def _windows(self, parts: tuple[Part, ...], windows: list[Window],
                 frame: bytes) -> list[_Job]:
        """``windows`` of ``frame`` as transfers to ``parts``, connected together."""
        return [_Job(parts, commands, spans, frame, window) for window in windows
                for commands, spans in transfers([window], self.controller)]

    # --- sending --------------------------------------------------------------------------

    def _send(self, jobs: list[_Job]) -> None:
        """``jobs`` (to the same displays) as one transfer, or one ``I2C_RDWR`` of several
        messages, each as luma would put it on the wire: its control byte, then commands or
        display RAM."""
        if self.writer is not None and self.mux is not None:
            self.writer.selecting()
        with self._connected(jobs[0].parts) as bus:
            if self.writer is not None:
                self.writer.carrying()
            if len(jobs) == 1 and jobs[0].commands:
                bus.write_i2c_block_data(self.address, COMMAND_MODE, list(jobs[0].commands))
            else:
                if len(jobs) not in _CALLS:
                    _CALLS[len(jobs)] = i2c_msg * len(jobs)
                bus.i2c_rdwr(*(_written(self.address, job) for job in jobs))

    def _connected(self, parts: tuple[Part, ...]) -> AbstractContextManager[I2cBus]:
        """The bus to write ``parts`` on: with a mux, its parent bus with their channels
        connected (one screen's too: its channel's own methods would only select it again,
        through two more context managers a call); else the one screen's own bus."""
        if self.mux is None:
            return nullcontext(parts[0].bus)
        mask = 0
        for part in parts:
            assert part.channel is not None
            mask |= 1 << part.channel
        return self.mux.connected(mask)

    def _sent(self, job: _Job) -> None:
        for part in job.parts:
            part.unasked = len(job.parts) > 1  # a write to it alone asked it
            if job.switches == "off":
                part.off = False
            elif job.switches == "on":
                part.on = False
            elif job.spans and part.held is not None:
                for start, end in job.spans:
                    part.held[start:end] = job.frame[start:end]
        if self._awaited is not None and self._awaited in job.parts:
            self._awaited_jobs -= 1
            if not self._awaited_jobs:
                self._answered()
        if not self._jobs:
            self._finish()

    def _finish(self) -> None:
        """The plan is all sent: each part that was handed nothing newer meanwhile is done."""
        for part in self._parts:
            if part.want is not None and self._planned.get(id(part)) is part.want:
                part.want, part.whole = None, False
            if part.want is None and not (part.off or part.on or part.unasked):
                part.queued = 0

    def _answered(self) -> None:
        """The awaited screen is all sent: the chorus queues as any other from now on, and
        what waited for it is planned now."""
        self._awaited = None
        self._stale = self._stale or self._after_awaited
        rode, self._rode = self._rode, []
        for part in sorted(rode, key=lambda part: part.queued):
            if not self._stale and part.want is not None \
                    and self._planned.get(id(part)) is not part.want:
                self._plan_handed(part)
        if self.writer is not None:
            self.writer.relax(self)

    def _lost(self, error: OSError) -> None:
        """An OSError out of :meth:`step` (it keeps its own): every member is told."""
        with self.lock:
            parts = list(self._parts)
            for part in parts:
                part.present = False
            self._stale = True
        for part in parts:
            part.failed(error)


def _writes(job: _Job) -> bool:
    """Whether ``job`` writes the frame its screens are to show (RAM, or a window's
    addressing), not a switch or a NOP that asks one screen alone."""
    return not job.switches and job.commands != (NOP,)


def _wire_bytes(job: _Job) -> int:
    """``job``'s bytes on the wire: the address byte, then its message."""
    return 1 + job.size


def _written(address: int, job: _Job) -> i2c_msg:
    """A write of ``job``'s message to ``address``, as :meth:`smbus2.i2c_msg.write` makes
    one, but from the buffer made already (that method copies the bytes into a new one, of a
    type for their length, each call)."""
    return i2c_msg(addr=address, flags=0, len=job.size, buf=job.buffer)


def _message(job: _Job) -> bytes:
    if job.commands:
        return bytes((COMMAND_MODE, *job.commands))
    return b"".join((_DATA_PREFIX, *(job.frame[a:b] for a, b in job.spans)))


def _applied(held: bytes | bytearray, windows: list[Window], frame: bytes) -> bytes:
    """``held`` once ``windows`` of ``frame`` are written into it."""
    out = bytearray(held)
    for window in windows:
        for page in range(window.first_page, window.last_page + 1):
            start, end = page * WIDTH + window.start, page * WIDTH + window.end
            out[start:end] = frame[start:end]
    return bytes(out)


def _union(frame: bytes, helds: Sequence[bytes]) -> bytes:
    """A RAM that differs from ``frame`` wherever any of ``helds`` does: planning from it
    covers what every member lacks."""
    wanted = int.from_bytes(frame, "big")
    lacking = 0
    for held in helds:
        lacking |= int.from_bytes(held, "big") ^ wanted
    return (wanted ^ lacking).to_bytes(len(frame), "big")
