"""The tally: how far the open game had been saved, kept outside the write-ahead log.

A log can lose frames SQLite had made durable (an SD card dropping writes it acknowledged,
a log cut to nothing) and a main file can be cut to 0 bytes: what is left is a whole,
older journal, and nothing in it says what went. The tally says: a small file beside the
journal (``journal.sqlite3-tally``) with the open game's row id, its count of entries, the
newest link of its chain, whether it was dealt and whether it is over. Resume compares
(:mod:`companion.journal_resume`): every loss is told with its size ("Last 12 actions
lost", "Game lost: journal empty"), and a game whose deal the players saw is given up
rather than dealt again.

It is written after each write's commit, never before, so it never says more than the
journal held: a kill between the two leaves it one write behind, and the restart tells
nothing (no false alarm); it then says at most one acknowledged action too few. Its two
slots are written in turn, each with a checksum, so a torn write leaves the one before.
Each is made durable on the journal's flusher thread while the table plays on; the one
after the write that deals the game is waited for before the deal is shown.

It is opened without following a symlink, and every failure to write it is only logged:
the tally vouches for losses, it never stops the table.
"""

from __future__ import annotations

import hashlib
import logging
import os
import struct
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

MAGIC = b"TLY1"
BODY = struct.Struct(">4sQqIB32s")  # magic, sequence, game, count, flags, head
SLOT = 128
DEALT, FINISHED = 1, 2


@dataclass(frozen=True)
class Tallied:
    """What the journal held of its newest game when the tally was last written."""

    game: int
    count: int
    head: bytes
    dealt: bool = False
    finished: bool = False


class Tally:
    def __init__(self, journal: Path) -> None:
        self.path = Path(f"{journal}-tally")
        self._sequence = 0
        self._failed = False

    def read(self) -> Tallied | None:
        """The newest whole slot, or None (no tally yet, or none whole: nothing is known)."""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            data = os.pread(fd, 2 * SLOT, 0)
        except OSError:
            return None
        finally:
            os.close(fd)
        slots = [self._parse(data[at : at + SLOT]) for at in (0, SLOT)]
        whole = [slot for slot in slots if slot is not None]
        if not whole:
            if data.strip(b"\0"):
                log.warning("journal tally %s is damaged: a loss now goes uncounted", self.path)
            return None
        self._sequence, found = max(whole, key=lambda slot: slot[0])
        return found

    @staticmethod
    def _parse(slot: bytes) -> tuple[int, Tallied] | None:
        body, check = slot[: BODY.size], slot[BODY.size : BODY.size + 16]
        if len(body) < BODY.size or hashlib.sha256(body).digest()[:16] != check:
            return None
        magic, sequence, game, count, flags, head = BODY.unpack(body)
        if magic != MAGIC:
            return None
        return sequence, Tallied(game, count, head, bool(flags & DEALT), bool(flags & FINISHED))

    def write(self, tallied: Tallied) -> None:
        """Write the next slot and wait for the disk to have it (best effort)."""
        self._sequence += 1
        flags = (DEALT if tallied.dealt else 0) | (FINISHED if tallied.finished else 0)
        body = BODY.pack(MAGIC, self._sequence, tallied.game, tallied.count, flags,
                         tallied.head)
        slot = (body + hashlib.sha256(body).digest()[:16]).ljust(SLOT, b"\0")
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o600)
            try:
                os.pwrite(fd, slot, SLOT * (self._sequence % 2))
                os.fdatasync(fd)
            finally:
                os.close(fd)
        except OSError as error:
            if not self._failed:
                log.warning("journal tally %s cannot be written (%s): a later loss may go "
                            "uncounted", self.path, type(error).__name__)
            self._failed = True
