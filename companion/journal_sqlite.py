"""The durable journal: every applied action in SQLite before its effects play.

Why and how: docs/ARCHITECTURE.md §5. One file, ``journal.sqlite3`` in the state directory,
mode 0600: it holds every game's key and seed. WAL with ``synchronous=FULL`` makes each write
one fsync'd transaction, so an action the table saw survives a power cut. The journal is
two rooms: the write path, :mod:`companion.journal_writer` (its commits made on a flusher
thread while the loop draws, the writes the disk refuses held in memory), and the resume
path, :mod:`companion.journal_resume` (a game read back, checked and replayed). The file
itself (schema, migrations, the log's check and repair) is :mod:`companion.journal_file`,
what a start finds in it is told by :mod:`companion.journal_open`, and the hash chain is
:mod:`companion.journal_chain`.

- ``games``: one row per game (game key, seats, options, seed, the deal behind the seed:
  ``deal_key``, the companion's key, and ``cut``, the players' presses; the commitment shown
  at setup and the chain's seal). A game whose players cut with their first presses
  (``cut_in_play``) is begun at Start with an empty cut and seed; the entry that completes
  its cut writes both, in the same transaction. ``finished`` is NULL while the game may be
  resumed; a finished game stays as it is, archived, for ``companion audit`` (``damage``
  says why a damaged game was given up). ``seen`` is the game clock's last known moment,
  written every few seconds while a timer runs, so a restart gives back at most those
  seconds of sand.
- ``entries``: the game's actions in order (``idx`` 0, 1, 2...), each with its chain link.
  Undo deletes the tail.

Nothing here stops the table, and nothing is lost without the table being told:

- resume checks the seed against its commitment, the entries against their chain, and
  replays the longest whole prefix; whatever it cannot restore it announces on every seat
  ("Last 3 actions lost", "Game lost: bad seed"), never a silent re-deal or a silent cut;
- a file that is not a readable journal is moved aside whole and a fresh one started;
- a write the disk refuses (full, failing) is held in memory, in order, with "Not saving:
  disk full" on every seat; :meth:`SqliteJournal.catch_up` writes it all once the disk takes
  it again ("Saving again"). A process that dies while behind leaves a mark, and the next
  start says so.

``acks`` (optional) receives one line per durable write, after its commit: the crash tests
use it to know which actions were acknowledged. It carries tags and digests keyed by the
seed (:mod:`companion.journal_digest`), never the seed or an action in the clear; and
``notice TEXT`` for each notice.
"""

from __future__ import annotations

from engine.api import State

from .journal_resume import resume
from .journal_writer import JournalWriter
from .record import GameRecord


class SqliteJournal(JournalWriter):
    """The Journal protocol on SQLite: the writer, and the resume that reads its game back."""

    def resume(self) -> tuple[GameRecord, State] | None:
        """The open game, checked, replayed and paused at its last known moment, or None."""
        return resume(self)
