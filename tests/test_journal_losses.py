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
from companion.statedir import journal_path, prepare_state_dir
from tests.test_journal_damage import they_live_in_play

PAGE = 4096


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return journal_path(prepare_state_dir(tmp_path / "state"))


def copy_of(path: Path, into: Path, wal_bytes: int | None = None) -> Path:
    """The state directory as the crash left it, its log cut to ``wal_bytes``."""
    shutil.copytree(path.parent, into)
    copy = into / path.name
    if wal_bytes is not None:
        wal = Path(f"{copy}-wal")
        wal.write_bytes(wal.read_bytes()[:wal_bytes])
    return copy


def test_a_log_cut_at_any_frame_is_told_with_its_size_and_never_deals_again(path, tmp_path):
    journal = SqliteJournal(path)  # kept open: the process died, its log as it left it
    record, _ = they_live_in_play(path, 8, journal)
    saved = len(record.entries)
    wal = Path(f"{path}-wal").stat().st_size
    frames = (wal - WAL_HEADER) // (WAL_FRAME_HEADER + PAGE)
    assert frames > 10
    told = set()
    for frame in range(frames + 1):
        copy = copy_of(path, tmp_path / f"cut{frame}",
                       WAL_HEADER + frame * (WAL_FRAME_HEADER + PAGE) if frame else 0)
        restarted = SqliteJournal(copy)
        found = restarted.resume()
        if found is None:  # the begin, or the deal, was lost: given up, and said so
            notices = restarted.notices
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
        assert restarted.notices == ([] if not lost else
                                   [f"Last {lost} actions lost" if lost > 1
                                    else "Last action lost"]), (frame, restarted.notices)
        assert state.dealt and again.cut == record.cut  # never before the deal seen
        told.add(lost)
        restarted.close()
    assert {"Game lost: journal empty", "Game lost: deal lost", 0} <= told
    assert len(told) > 4  # cuts of several sizes were met


def test_a_main_file_cut_to_nothing_is_told(path, tmp_path):
    """A clean stop, then the card gives back a 0-byte journal: the game is told lost."""
    journal = SqliteJournal(path)
    they_live_in_play(path, 5, journal)
    journal.close()
    assert not Path(f"{path}-wal").exists()
    path.write_bytes(b"")
    journal = SqliteJournal(path)
    assert journal.resume() is None
    assert journal.notices == ["Game lost: journal empty"]
