"""What storage loses after the disk said "saved" is told with its size, and a deal the
players saw is never dealt again.

The log is cut at each of its frame boundaries (a card dropping writes it had acknowledged),
to nothing, and the main file to 0 bytes, on real files; the tally beside the journal
(companion/journal_tally.py) says how far the game had been saved.
"""

import shutil
from pathlib import Path

import pytest

from companion.journal_file import WAL_FRAME_HEADER, WAL_HEADER
from companion.journal_sqlite import SqliteJournal
from companion.record import GameRecord, JournaledAction
from companion.statedir import journal_path, prepare_state_dir
from engine import registry

KEY = bytes(range(40, 72))
PAGE = 4096


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return journal_path(prepare_state_dir(tmp_path / "state"))


def they_live(path: Path, moves: int) -> tuple[GameRecord, SqliteJournal]:
    """They Live as the table journals it, every write settled (shown): three picks, the
    third deals the identities, then more moves; the process then dies (no close)."""
    game = registry.get("they-live")
    record = GameRecord(game.key, (1, 2, 3), {"check": "narrated", "die": "physical"}, b"",
                        key=KEY, cut_in_play=True)
    state = record.start()
    journal = SqliteJournal(path)
    journal.begin(record)
    journal.settle()
    for move in range(moves):
        seat = next(s for s in (1 + (move + n) % 3 for n in range(3)) if state.legal_actions(s))
        action = state.legal_actions(seat)[0]
        at = 100.0 + move
        state.apply(seat, action.id, at)
        record.entries.append(JournaledAction(seat, action.id, at, action.undoable,
                                              action.label))
        cut = record.deal_if_cut(state, record.entries)
        if cut:
            record.cut, record.seed = cut, state.seed
        journal.append(record, record.entries[-1])
        journal.settle()
    return record, journal


def copy_of(path: Path, into: Path, wal_bytes: int | None = None) -> Path:
    """The state directory as the crash left it, its log cut to ``wal_bytes``."""
    shutil.copytree(path.parent, into)
    copy = into / path.name
    if wal_bytes is not None:
        wal = Path(f"{copy}-wal")
        wal.write_bytes(wal.read_bytes()[:wal_bytes])
    return copy


def test_a_log_cut_at_any_frame_is_told_with_its_size_and_never_deals_again(path, tmp_path):
    record, _ = they_live(path, 8)
    saved = len(record.entries)
    wal = Path(f"{path}-wal").stat().st_size
    frames = (wal - WAL_HEADER) // (WAL_FRAME_HEADER + PAGE)
    assert frames > 10
    told = set()
    for frame in range(frames + 1):
        copy = copy_of(path, tmp_path / f"cut{frame}",
                       WAL_HEADER + frame * (WAL_FRAME_HEADER + PAGE) if frame else 0)
        journal = SqliteJournal(copy)
        found = journal.resume()
        if found is None:  # the begin, or the deal, was lost: given up, and said so
            notices = journal.notices
            if notices != ["Game lost: journal empty"]:  # else the begin itself was lost
                lost = int(notices[0].split()[1])
                assert notices == [f"Last {lost} actions lost", "Game lost: deal lost"]
                assert saved - lost < 3  # what is left is the picks before the deal
            told.add(notices[-1])
            continue
        again, state = found
        kept = len(again.entries) - 1  # the restart's pause
        assert again.entries[:kept] == record.entries[:kept]
        lost = saved - kept
        assert journal.notices == ([] if not lost else
                                   [f"Last {lost} actions lost" if lost > 1
                                    else "Last action lost"]), (frame, journal.notices)
        assert state.dealt and again.cut == record.cut  # never before the deal seen
        told.add(lost)
        journal.close()
    assert {"Game lost: journal empty", "Game lost: deal lost", 0} <= told
    assert len(told) > 4  # cuts of several sizes were met


def test_a_main_file_cut_to_nothing_is_told(path, tmp_path):
    """A clean stop, then the card gives back a 0-byte journal: the game is told lost."""
    they_live(path, 5)[1].close()
    assert not Path(f"{path}-wal").exists()
    path.write_bytes(b"")
    journal = SqliteJournal(path)
    assert journal.resume() is None
    assert journal.notices == ["Game lost: journal empty"]
