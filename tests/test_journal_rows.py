"""The journal's stored rows of one game, byte for byte: what the file holds (its rows, its
chain, its seals, its tally) is the format every older table's journal is read in, so a
change to how the journal writes may make it faster, never different."""

import hashlib
import sqlite3
from pathlib import Path

from companion.journal_sqlite import SqliteJournal
from companion.record import JournaledAction

from .test_journal import new_game, play

# The rows below as the journal wrote them before its writes were made cheaper for the loop
# (main at dc000e0): SHA-256 of their text.
ROWS_DIGEST = "7ddd1d40a9f017d80ea4f7e05009b8a5f56c25a9e3a32f688161c6dfe488b598"


def stored(path: Path) -> str:
    """Every row of every table, in order, with the time a game was archived left out (it
    is the wall clock's): its text."""
    with sqlite3.connect(path) as db:
        games = db.execute("SELECT id, game_key, seats, options, seed, deck_list, deal_key, "
                           "cut, cut_in_play, seen, finished IS NULL, commitment, length, "
                           "seal, damage FROM games ORDER BY id").fetchall()
        entries = db.execute("SELECT * FROM entries ORDER BY game, idx").fetchall()
    tally = Path(f"{path}-tally").read_bytes()
    return repr((games, entries, tally))


def test_journal_rows_of_a_game_are_as_they_were(tmp_path):
    """A game with every kind of write (begin, appends, the moment, an undo, play again,
    the end) leaves the rows it always left."""
    path = tmp_path / "journal.sqlite3"
    with SqliteJournal(path) as journal:
        record, state = new_game()
        journal.begin(record)
        at = play(journal, record, state, 8)
        journal.remember(record, at + 0.5)
        del record.entries[6:]
        journal.truncate(record, 6)
        record.entries.append(JournaledAction(2, "end", at + 1.25, True, "End turn"))
        journal.append(record, record.entries[-1])
        journal.settle()
        again, state = new_game(bytes(range(1, 33)))
        journal.begin(again)
        play(journal, again, state, 3)
        journal.finish(again)
    text = stored(path)
    assert hashlib.sha256(text.encode()).hexdigest() == ROWS_DIGEST, text
