"""The journal's resume path: the open game read back, checked, replayed, paused.

Resume checks the seed against the commitment shown at setup (the key gives the commitment
and, with the cut, the seed), the entries against their hash chain and the game's seal
(:mod:`companion.journal_chain`), and replays the longest whole prefix they vouch for.
Whatever it cannot restore it announces on every seat ("Last 3 actions lost", "Game lost:
bad seed") and cuts off for good in the file, through the writer; a game that cannot be
restored as it was is archived with the reason, never re-dealt and never cut again.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import cast

from engine.api import State

from . import journal_chain
from .journal_digest import state_digest
from .journal_file import decode_options, is_io_fault
from .journal_tally import Tallied
from .journal_writer import JournalWriter
from .record import GameRecord, JournaledAction

log = logging.getLogger(__name__)

def resume(journal: JournalWriter) -> tuple[GameRecord, State] | None:
    """The open game, checked, replayed and paused at its last known moment, or None.

    A game that has ended (its time ran out while the table was off, say) comes back
    terminal and unpaused: the app archives it and opens the lobby.
    """
    journal.settle()
    try:
        found = _read_open_game(journal)
    except (sqlite3.Error, OSError) as error:
        if is_io_fault(error):
            journal.refused(error)  # the file cannot be read now: the lobby, and say why
        else:  # quick_check passed, yet a page does not read: the file goes, not the table
            journal.set_aside(f"{type(error).__name__}: {error}")
        return None
    if found is None:
        return None
    game, record, seen = found
    state = _replay_whole_actions(journal, game, record)
    if state is None:
        return None
    if not record.cut_agrees():  # resumed, its next press would cut and deal again
        _give_up(journal, game, "its cut is not its players' first presses",
                 "Game lost: bad seed")
        return None
    journal.ack("resume", game, len(record.entries), state_digest(state))
    _pause_at_last_moment(journal, record, state, seen)
    return record, state


def _read_open_game(journal: JournalWriter) -> tuple[int, GameRecord, float | None] | None:
    """The open game (its row id, its record, its moment), with as much of its history as
    its chain vouches for.

    Only the newest game can be open (a game begun archives every other), so the newest row
    is read whatever its ``finished`` column says: the seal says whether the game is over,
    and an open game whose column was damaged is resumed, and the damage told.
    """
    row = journal.db.execute(
        "SELECT id, game_key, seats, options, seed, commitment, deck_list, deal_key, cut, "
        "cut_in_play, seen, length, seal, finished, damage FROM games "
        "ORDER BY id DESC LIMIT 1"
    ).fetchone()
    tallied = journal.tallied
    if row is None or (tallied is not None and tallied.game > row[0]):
        _lost_whole(journal, tallied, None if row is None else row[0], row and row[13])
        return None
    (game, game_key, seats, options, seed, shown, deck_list, deal_key, cut, in_play, seen,
     length, seal, finished, damage) = row
    start = journal_chain.genesis(str(game_key), str(seats), str(options), str(shown),
                                  deck_list, in_play == 1)
    rows = journal_chain.stored_rows(journal.db, game)
    if finished is not None and not _reopened(journal, game, rows, (start, length, seen, seal),
                                              damage):
        return None
    journal.reopen(game, cut, start)
    verdict = journal_chain.verify(start, rows, length, seen, seal)
    # A kept row's stored link is the one the chain computed for it: never None.
    journal.vouched_for(cast(list[bytes], [link for _, _, link in rows[: verdict.kept]]), seen)
    if not journal_chain.seed_vouched_for(seed, deal_key, cut, shown):
        _give_up(journal, game, "its key, cut and seed do not match the commitment shown "
                 "at setup", "Game lost: bad seed")
        return None
    if verdict.setup_damaged:
        _give_up(journal, game, "its setup or first action is damaged", "Last game unreadable")
        return None
    try:
        record = GameRecord(game_key, tuple(int(s) for s in seats.split(",")),
                            decode_options(options), seed,
                            [entry for _, entry, _ in rows[: verdict.kept]],
                            None if deck_list is None else tuple(json.loads(deck_list)),
                            deal_key, cut, in_play == 1)
    except (ValueError, TypeError, AttributeError):
        _give_up(journal, game, "its row does not decode", "Last game unreadable")
        return None
    counted = tallied if tallied is not None and tallied.game == game else None
    lost = max(verdict.lost, _lost_by_tally(counted, start, rows[: verdict.kept]))
    if lost:
        log.error("journal: game %d: the last %d actions are damaged or missing; cut back "
                  "to %d", game, lost, verdict.kept)
        journal.tell(f"Last {lost} actions lost" if lost > 1 else "Last action lost")
    if counted is not None and counted.dealt and in_play == 1 and not cut:
        _give_up(journal, game, "the entry that dealt it is lost: resumed, it would be dealt "
                 "again", "Game lost: deal lost")
        return None
    if counted is not None and counted.finished:
        log.error("journal: game %d had been archived; the archive was lost: archived again",
                  game)
        journal.finish(record)
        return None
    if verdict.moment_damaged:  # the seal vouches for the moment, even one before the last
        # action (it is remembered every few seconds, and an action may follow it)
        log.error("journal: game %d: its remembered moment is damaged; resuming at its "
                  "last action", game)
        journal.tell("Back to last action")
        journal.forget_moment()
        seen = None
    if verdict.lost or len(rows) > verdict.kept:
        journal.truncate(record, verdict.kept)
    return game, record, seen


def _lost_by_tally(tallied: Tallied | None, start: bytes,
                   kept: list[journal_chain.Row]) -> int:
    """How many actions the tally saw saved that the journal's whole history lacks (at
    least one, when the history has the count but another newest link)."""
    if tallied is None:
        return 0
    if len(kept) < tallied.count:
        return tallied.count - len(kept)
    head = kept[tallied.count - 1][2] if tallied.count else start
    return 0 if head == tallied.head else 1


def _lost_whole(journal: JournalWriter, tallied: Tallied | None, newest: int | None,
                finished: object) -> None:
    """The tally's game is not in the journal at all (its begin was lost, or the journal
    is empty): a game in play is told lost; an older game found open had been archived by
    the lost begin, and is archived again."""
    if tallied is None:
        return
    log.error("journal: game %d (%d actions saved) is not in the journal: lost",
              tallied.game, tallied.count)
    if not tallied.finished:
        journal.tell("Game lost: journal empty" if newest is None
                     else f"Game lost: {tallied.count} actions")
    if newest is not None and finished is None:
        journal.reopen(newest, "", b"")
        journal.finish(GameRecord("", (), {}, b""), damage="a newer game's begin was lost")


def _reopened(journal: JournalWriter, game: int, rows: list[journal_chain.Row],
              sealed: tuple[bytes, int | None, float | None, bytes | None],
              damage: str | None) -> bool:
    """Whether the newest game, its row marked finished, is open after all: its seal is an
    open game's, so the mark is damage (resumed, and told; the row is mended). A row whose
    seal fits neither is damaged too: the game may have been open, so the table is told
    (a game given up after damage was told when it was, and is left alone)."""
    start, length, seen, seal = sealed
    whole = journal_chain.Verdict(len(rows))
    if journal_chain.verify(start, rows, length, seen, seal, finished=True) == whole:
        return False
    if journal_chain.verify(start, rows, length, seen, seal) == whole:
        log.error("journal: game %d is marked finished, but its seal is an open game's: "
                  "the mark is damaged; resuming it", game)
        journal.tell("Journal damage found")
        journal.unfinish(game)
        return True
    if damage is None:
        log.error("journal: game %d is marked finished, and its seal fits neither a "
                  "finished nor an open game", game)
        journal.tell("Last game unreadable")
    return False


def _give_up(journal: JournalWriter, game: int, why: str, notice: str) -> None:
    """Archive a game that cannot be restored as it was, and say so: never a re-deal."""
    log.error("journal: game %d cannot be resumed: %s; archived", game, why)
    journal.tell(notice)
    journal.finish(GameRecord("", (), {}, b""), damage=why)


def _replay_whole_actions(journal: JournalWriter, game: int, record: GameRecord) -> State | None:
    """Replay the longest prefix of the entries that replays; cut the rest off for good.

    Any exception counts, not only IllegalAction: an entry the game code cannot take
    (a bug, a changed rule) must not keep the table from starting. Logs name counts and
    exception types only: an action id or a message may carry a secret.
    """
    count, state, failure = longest_replay(record)
    if state is None:
        log.error("journal: game %d (%s) cannot be set up again (%s); archived",
                  game, record.game_key, failure)
        journal.tell("Last game unreadable")
        journal.finish(record, damage=f"it does not set up ({failure})")
        return None
    if count < len(record.entries):
        log.warning("journal: action %d of game %d does not replay (%s); cut back to %d "
                    "actions", count + 1, game, failure, count)
        journal.tell(f"Cut back to action {count}"[:21])
        del record.entries[count:]
        journal.truncate(record, count)
    return state


def longest_replay(record: GameRecord) -> tuple[int, State | None, str]:
    """The longest prefix of ``record.entries`` that replays: (length, state, why the next
    one failed). A prefix fails exactly when some entry in it fails, so a binary search
    finds it in a few replays."""
    try:
        return len(record.entries), record.replay(), ""
    except Exception as error:
        failure = type(error).__name__
    best: tuple[int, State | None] = (0, None)
    low, high = 0, len(record.entries) - 1
    while low <= high:
        middle = (low + high) // 2
        try:
            best = (middle, record.replay(record.entries[:middle]))
            low = middle + 1
        except Exception as error:
            failure = type(error).__name__
            high = middle - 1
    return (*best, failure)


def _pause_at_last_moment(journal: JournalWriter, record: GameRecord, state: State,
                          seen: float | None) -> None:
    """Let the time up to the last known moment pass, then pause there (journaled).

    It does exactly what a replay does before an entry at that moment: one ``advance``
    when a deadline has passed, so replays of this journal agree with this state.
    """
    moments = [entry.at for entry in record.entries] + ([seen] if seen is not None else [])
    moment = max(moments, default=0.0)
    deadline = state.next_deadline()
    if deadline is not None and deadline <= moment:
        state.advance(moment)
    if state.is_terminal() or state.paused:
        return
    state.apply(None, "pause", moment)
    record.entries.append(JournaledAction(None, "pause", moment))
    journal.append(record, record.entries[-1])
    journal.settle()  # resuming hands nothing on in flight
