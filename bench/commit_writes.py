"""What one journal commit sends the SD card: write and flush requests, counted by the kernel.

The Zero 2 W model (:mod:`bench.zero`) charges each commit its writes on the card. How many
there are is measured here, not assumed: a real ext4 on a loop device, made and mounted as
Raspberry Pi OS makes and mounts its root (its image builder, pi-gen, runs ``mkfs.ext4 -O
^64bit,^huge_file`` on a root of some GiB, so 4 KiB blocks, and its fstab mounts it
``defaults,noatime``); the inode tables and the ext4 journal are written by mkfs, so no
lazy initialisation writes behind the count. On it the service's ``SqliteJournal``, opened as
``companion play`` opens it (``exclusive``), takes ``appends`` appends, each settled before
the next as :func:`bench.realpath.commit_seconds` does, in one game.

The loop device's ``/sys/block/loopN/stat`` (the kernel's Documentation/block/stat.rst:
field 5 writes completed, field 16 flushes completed) is read before each append, after its
commit (just before the journal's flusher thread writes the tally), after the tally, and
after the checkpoint the flusher makes every ``CHECKPOINT_COMMITS`` commits.
Two runs, as the two kinds of card:

- ``cache=False``: the queue says ``write through``, as an SD card without a volatile cache
  does. The block layer then drops every flush (and a write's force-unit-access) before it
  is counted, so the writes counted are the data writes the card is sent, and no flush.
- ``cache=True``: ``write back``, as the loop device says by default and a card with its
  cache turned on does: every flush reaches the device. The kernel also counts an fsync's
  flush, which comes without data, as a write of 0 sectors, so only its flushes are read.

:func:`card_commits` pairs the two runs commit by commit (they are the same appends on the
same fresh file system). What reaches the loop's driver is what the card's driver would get:
the block layer merges adjacent writes above the driver on every queue (``nomerges`` 0, the
default), the card's as the loop's. Merging matters only while the log grows, where ext4's
journal blocks go as one write (``nomerges`` 2 would make those commits nine writes, not
three); a steady commit has nothing to merge. ``direct_io`` runs the loop with
``--direct-io=on`` (its backing file without the host's page cache): the counts are the
same, the page cache being below what is counted.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import subprocess
import tempfile
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.journal_sqlite import SqliteJournal
from companion.journal_tally import Tallied

from . import zero
from .bot import BENCH_KEY
from .disk import SmallExt4, small_ext4
from .report import Figure

APPENDS = 300  # a fresh log filled once (about 100 appends) and two turns of it after
FILLED = 100  # the log's first checkpoint comes at about append 96: steady play after it
PI_ROOT_KIB = 256 * 1024
# pi-gen's features; "-T default": the mke2fs defaults of a root of some GiB (4 KiB blocks),
# not the 1 KiB blocks mke2fs gives an image this small; everything written at mkfs.
PI_MKFS = ("-T", "default", "-O", "^64bit,^huge_file",
           "-E", "lazy_itable_init=0,lazy_journal_init=0")
PI_OPTIONS = "defaults,noatime"  # pi-gen's fstab for /


@dataclass(frozen=True)
class Requests:
    """Requests the device completed, from its ``stat``."""

    writes: int
    flushes: int

    def __sub__(self, other: Requests) -> Requests:
        return Requests(self.writes - other.writes, self.flushes - other.flushes)


@dataclass(frozen=True)
class Commit:
    """One append on the device: its commit, which the loop settles before drawing, the
    tally the flusher writes after it (a next commit waits behind it), and the checkpoint
    the flusher makes after that (nothing, but every ``CHECKPOINT_COMMITS``-th commit; the
    next write's statements wait for it)."""

    commit: Requests
    tally: Requests
    checkpoint: Requests


def stat(device: str) -> Requests:
    """What ``device`` has completed, read once nothing is in flight on it.

    The block layer wakes a request's waiter (the fsync that settles a commit) before it
    counts the request complete (``blk_mq_end_request`` ends the bios, then accounts), so a
    reading taken at once can miss the write just waited for; a loaded host widens the gap.
    A request is counted complete and leaves the in-flight count (field 9) together, but the
    file gives the counts before the in-flight figure: the counts are taken from the reading
    after one that showed nothing in flight, which holds every request completed by then."""
    path = Path(f"/sys/block/{device}/stat")
    idle = False
    while True:
        fields = path.read_text().split()
        if idle:
            return Requests(int(fields[4]), int(fields[15]))
        idle = fields[8] == "0"
        if not idle:
            os.sched_yield()


def counted(folder: Path, device: str, appends: int = APPENDS) -> list[Commit]:
    """Each of ``appends`` settled appends to a fresh journal in ``folder`` (on ``device``)
    as ``device`` counted it."""
    from companion.record import GameRecord, JournaledAction

    journal = SqliteJournal(folder / "journal.sqlite3", exclusive=True)
    tallies: list[tuple[Requests, Requests]] = []
    written = threading.Event()
    write = journal._tally.write  # the flusher writes it after each commit: count apart

    def counted_write(tallied: Tallied) -> None:
        before = stat(device)
        write(tallied)
        tallies.append((before, stat(device)))
        written.set()

    journal._tally.write = counted_write  # type: ignore[method-assign]
    record = GameRecord("staying-alive", (1, 2, 3), {}, BENCH_KEY)
    commits = []
    try:
        journal.begin(record)
        written.wait()
        for index in range(appends):
            entry = JournaledAction(1, "end", float(index))
            record.entries.append(entry)
            written.clear()
            before = stat(device)
            journal.append(record, entry)
            journal.settle()
            written.wait()
            committed, after = tallies[-1]
            journal._checkpointed()
            commits.append(Commit(committed - before, after - committed,
                                  stat(device) - after))
    finally:
        journal.close()
    return commits


@contextlib.contextmanager
def pi_root(where: Path, *, cache: bool, direct_io: bool = False) -> Iterator[SmallExt4]:
    """A fresh ext4 made and mounted as Raspberry Pi OS's root, at ``where``, its loop device
    a card with a cache or without (root only: :class:`bench.disk.NoSmallDisk` where it
    cannot mount)."""
    with small_ext4(where, PI_ROOT_KIB, mkfs=PI_MKFS, options=PI_OPTIONS) as disk:
        queue = Path(f"/sys/block/{disk.device}/queue/write_cache")
        was = queue.read_text()
        queue.write_text("write back\n" if cache else "write through\n")
        try:
            if direct_io:
                subprocess.run(["losetup", "--direct-io=on", f"/dev/{disk.device}"],
                               check=True, capture_output=True)
            yield disk
        finally:  # the setting outlives the mount: the next user of the device gets it
            queue.write_text(was)


def card_commits(folder: Path, appends: int = APPENDS, *,
                 direct_io: bool = False) -> list[Commit]:
    """Each append's data writes (the run without a cache) and flushes (the run with one)."""
    runs = []
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        for cache in (False, True):
            with pi_root(Path(scratch) / str(cache), cache=cache, direct_io=direct_io) as disk:
                runs.append(counted(disk.root, disk.device, appends))
    plain, cached = runs
    return [Commit(*(Requests(p.writes, c.flushes) for p, c in
                     ((p.commit, c.commit), (p.tally, c.tally), (p.checkpoint, c.checkpoint))))
            for p, c in zip(plain, cached, strict=True)]


def mixes(commits: Sequence[Commit]) -> tuple[zero.Mix, zero.Mix, zero.Mix]:
    """How often each count of data writes and flushes came, most often first: the commits',
    the tallies' and the checkpoints' (:class:`bench.zero.Card`'s mixes)."""
    return (_mix([(c.commit.writes, c.commit.flushes) for c in commits]),
            _mix([(c.tally.writes, c.tally.flushes) for c in commits]),
            _mix([(c.checkpoint.writes, c.checkpoint.flushes) for c in commits]))


def _mix(counts: Sequence[tuple[int, int]]) -> zero.Mix:
    return tuple(sorted(((n, *kind) for kind, n in Counter(counts).items()),
                        key=lambda row: (-row[0], row[1])))


def card(commits: Sequence[Commit]) -> zero.Card:
    """The Zero model's SD card with these measured commits."""
    return zero.Card(*mixes(commits))


def figures(commits: Sequence[Commit]) -> list[Figure]:
    """Data writes and flushes per commit on the card: over every append from a fresh
    journal, and once its log has filled (from append ``FILLED`` on)."""
    steady = commits[FILLED:]
    result = []
    for key, what, part in (("", f"{len(commits)} appends from a fresh journal", commits),
                            ("_steady", f"appends {FILLED + 1}-{len(commits)}", steady)):
        for kind in ("writes", "flushes"):
            mean = statistics.mean(getattr(c.commit, kind) for c in part)
            result.append(Figure(f"sd_commit_{kind}{key}", f"journal commit: {kind} to the card "
                                 f"per append, mean of {what}", mean, kind))
    result.append(Figure("sd_commit_writes_max", "journal commit: most writes to the card in "
                         "one append", max(c.commit.writes for c in commits), "writes"))
    return result
