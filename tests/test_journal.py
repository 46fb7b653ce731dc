"""The SQLite journal: durable, private, resumable, and never in the way of a start."""

import io
import logging
import os
import sqlite3
import stat
from pathlib import Path

import pytest

import engine.games.staying_alive  # noqa: F401 - registers the game the tests play
from companion.journal_digest import entry_tag, state_digest
from companion.journal_file import LOG_FRAMES, WAL_FRAME_HEADER, WAL_HEADER, check_wal
from companion.journal_sqlite import SqliteJournal
from companion.record import GameRecord, JournaledAction
from companion.statedir import choose_state_dir, journal_path, prepare_state_dir
from engine import registry

SEED = bytes(range(32))
SEATS = (1, 2, 3)


def new_game(seed: bytes = SEED) -> tuple[GameRecord, object]:
    game = registry.get("staying-alive")
    options = {option.key: option.default for option in game.options}
    return GameRecord(game.key, SEATS, options, seed), game.new_state(SEATS, options, seed)


def next_move(state):
    """The first seat's first action that is not a flip (flips only burn stamina)."""
    moves = [(seat, action) for seat in sorted(state.active_seats())
             for action in state.legal_actions(seat)]
    return next((m for m in moves if m[1].id != "flip"), moves[0])


def play(journal, record, state, steps: int, start: float = 100.0) -> float:
    """Make ``steps`` moves a second apart, journaling each; returns the time reached."""
    at = start
    for _ in range(steps):
        seat, action = next_move(state)
        at += 1.0
        state.apply(seat, action.id, at)
        record.entries.append(JournaledAction(seat, action.id, at, action.undoable, action.label))
        journal.append(record, record.entries[-1])
        journal.settle()  # what the table does before showing the move: it is on the disk
    return at


def to_hourglass(journal, record, state, start: float = 100.0) -> float:
    """Play the setup until the Lookout has flipped the hourglass; returns the flip time."""
    at = start
    while state.phase != "play":
        at = play(journal, record, state, 1, at)
    return at


def begun(path: Path) -> tuple[SqliteJournal, GameRecord, object]:
    """A journal at ``path`` with a new game begun in it, and that game's state."""
    journal = SqliteJournal(path)
    record, state = new_game()
    journal.begin(record)
    return journal, record, state


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return journal_path(prepare_state_dir(tmp_path / "state"))


def test_journal_files_are_private(path):
    """The journal holds seeds: the file and its WAL are 0600 in a 0700 directory."""
    journal, record, state = begun(path)
    play(journal, record, state, 2)
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(Path(f"{path}-wal").stat().st_mode) == 0o600
    journal.close()


def test_journal_log_has_its_full_length_before_the_first_write(path, tmp_path):
    """The service's journal (``exclusive``) gives its log its whole length before anything
    is written, new or after a clean stop (which deletes the log), so no commit grows a file
    on the card; a log a crash left behind is SQLite's to recover, never zeroed: every
    settled move resumes."""
    log = Path(f"{path}-wal")
    full = WAL_HEADER + LOG_FRAMES * (WAL_FRAME_HEADER + 4096)
    for stop in ("clean", "crash"):  # a new journal first, then one stopped cleanly
        journal = SqliteJournal(path, exclusive=True)
        journal.resume()
        assert log.stat().st_size == full
        assert stat.S_IMODE(log.stat().st_mode) == 0o600
        record, state = new_game()
        journal.begin(record)
        play(journal, record, state, 3)
        assert log.stat().st_size == full
        if stop == "clean":
            journal.close()
            assert not log.exists()
    crashed = tmp_path / "crashed"
    crashed.mkdir(mode=0o700)
    for suffix in ("", "-wal"):  # the files as a power cut leaves them
        Path(f"{crashed / path.name}{suffix}").write_bytes(Path(f"{path}{suffix}").read_bytes())
    journal.close()
    resumed = SqliteJournal(crashed / path.name, exclusive=True)
    resumed_record, _state = resumed.resume()
    assert resumed_record.entries[:3] == record.entries
    resumed.close()


def test_journal_tightens_a_loose_file(path):
    """A journal copied in with a world-readable mode is made private when opened."""
    SqliteJournal(path).resume()
    path.chmod(0o644)
    SqliteJournal(path).resume()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_journal_resume_rebuilds_the_same_game(path):
    """A restart replays to the identical state: the same deck, roles, stamina and turn."""
    journal, record, state = begun(path)
    play(journal, record, state, 12)
    expected = state_digest(state)
    # No close: the process died. A new one opens the same file.
    resumed_record, resumed = SqliteJournal(path).resume()
    assert resumed_record.seed == SEED
    assert state_digest(resumed_record.replay(resumed_record.entries[:12])) == expected
    assert resumed_record.entries[:12] == record.entries


def test_journal_resume_pauses_at_the_last_moment(path):
    """The hourglass comes back paused with the sand it had at the last remembered moment."""
    journal, record, state = begun(path)
    flipped = to_hourglass(journal, record, state)
    journal.remember(record, flipped + 25.0)
    _, resumed = SqliteJournal(path).resume()
    assert resumed.paused
    assert resumed.hourglass.remaining(flipped + 1000.0) == pytest.approx(90.0 - 25.0)


def test_journal_resume_pause_is_journaled_once(path):
    """Restarting twice adds one pause, and both restarts rebuild the same game."""
    journal, record, state = begun(path)
    to_hourglass(journal, record, state)
    first_record, first = SqliteJournal(path).resume()
    second_record, second = SqliteJournal(path).resume()
    assert [e.action for e in second_record.entries].count("pause") == 1
    assert state_digest(first) == state_digest(second)
    assert state_digest(second_record.replay()) == state_digest(second)


def test_journal_time_running_out_while_off_ends_the_game(path):
    """A glass that ran out before the last remembered moment comes back as a lost game."""
    journal, record, state = begun(path)
    flipped = to_hourglass(journal, record, state)
    journal.remember(record, flipped + 95.0)
    _, resumed = SqliteJournal(path).resume()
    assert resumed.is_terminal() and "ran out" in resumed.result()


def test_journal_undo_truncates(path):
    """An undone action is gone from the journal: a restart does not bring it back."""
    journal, record, state = begun(path)
    play(journal, record, state, 5)
    record.entries.pop()
    journal.truncate(record, len(record.entries))
    resumed_record, _ = SqliteJournal(path).resume()
    assert resumed_record.entries[:4] == record.entries
    assert len(resumed_record.entries) == 5  # the four kept and the restart's pause


def test_journal_finished_game_is_archived_with_its_seed(path):
    """A finished game is not resumed, but its seed stays in the archive for an audit."""
    journal, record, state = begun(path)
    play(journal, record, state, 3)
    journal.finish(record)
    assert SqliteJournal(path).resume() is None
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT seed, finished FROM games").fetchall()
    assert rows[0][0] == SEED and rows[0][1] is not None


def test_journal_play_again_archives_the_previous_game(path):
    """Beginning a game archives one still open, so only the newest one resumes."""
    journal = SqliteJournal(path)
    first, state = new_game()
    journal.begin(first)
    play(journal, first, state, 3)
    second, _ = new_game(bytes(reversed(SEED)))
    journal.begin(second)
    resumed_record, _ = SqliteJournal(path).resume()
    assert resumed_record.seed == second.seed


def test_journal_garbage_file_is_moved_aside(path, caplog):
    """A file that is not a journal is set aside with a clear message; the start goes on."""
    path.write_bytes(os.urandom(4096))
    journal = SqliteJournal(path)
    with caplog.at_level(logging.ERROR):
        assert journal.resume() is None
    aside = [p for p in path.parent.iterdir() if ".unreadable-" in p.name]
    assert len(aside) == 1 and "moved aside" in caplog.text
    assert journal.notices == ["Bad journal set aside"]
    record, state = new_game()
    journal.begin(record)
    play(journal, record, state, 1)
    assert SqliteJournal(path).resume() is not None


def crashed_copy(path: Path, into: Path) -> Path:
    """The journal's files as a power cut would leave them (copied while still open)."""
    into.mkdir(mode=0o700)
    for suffix in ("", "-wal"):
        (into / f"{path.name}{suffix}").write_bytes(Path(f"{path}{suffix}").read_bytes())
    return into / path.name


def test_journal_torn_last_write_is_cut_back_and_reported(path, tmp_path, caplog):
    """A write torn by a power cut loses that action only, and the table is told."""
    journal, record, state = begun(path)
    play(journal, record, state, 6)
    copy = crashed_copy(path, tmp_path / "cut")
    wal = Path(f"{copy}-wal")
    wal.write_bytes(wal.read_bytes()[:-100])
    assert check_wal(copy).torn
    torn = SqliteJournal(copy)
    with caplog.at_level(logging.WARNING):
        resumed_record, _ = torn.resume()
    assert resumed_record.entries[:5] == record.entries[:5]
    assert resumed_record.entries[5].action == "pause"
    assert torn.notices == ["Torn write cut back"] and "torn" in caplog.text
    with sqlite3.connect(copy) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_journal_whole_wal_is_not_torn(path):
    """A log of whole frames (a process killed between writes) is not reported as torn."""
    journal, record, state = begun(path)
    play(journal, record, state, 3)
    assert not check_wal(path).torn


def test_journal_action_that_no_longer_replays_is_cut(path):
    """An entry the game refuses on replay (a rule changed since) is cut off with what
    follows, and reported."""
    journal, record, state = begun(path)
    play(journal, record, state, 2)
    record.entries.append(JournaledAction(1, "fly", 103.0))
    journal.append(record, record.entries[-1])
    journal.settle()
    play(journal, record, state, 1, 103.0)
    reopened = SqliteJournal(path)
    resumed_record, _ = reopened.resume()
    assert resumed_record.entries[:2] == record.entries[:2]
    assert [e.action for e in resumed_record.entries[2:]] == ["pause"]
    assert reopened.notices == ["Cut back to action 2"]


def test_journal_ack_lines_carry_no_seed_or_action(path):
    """Acks name games, positions and keyed tags: nothing a reader could learn a secret from."""
    acks = io.StringIO()
    journal = SqliteJournal(path, acks=acks)
    record, state = new_game()
    journal.begin(record)
    play(journal, record, state, 2)
    lines = acks.getvalue().splitlines()
    assert lines[0] == "begin 1"
    assert lines[2] == f"append 1 1 {entry_tag(SEED, 1, record.entries[1])} 0"
    assert SEED.hex() not in acks.getvalue()
    assert not any(entry.action in acks.getvalue().split() for entry in record.entries)


def test_journal_no_log_line_holds_the_seed(path, tmp_path, caplog):
    """Starting, resuming, cutting and setting aside log what happened, never the seed."""
    with caplog.at_level(logging.DEBUG):
        journal = SqliteJournal(path)
        record, state = new_game()
        journal.begin(record)
        play(journal, record, state, 4)
        copy = crashed_copy(path, tmp_path / "cut")
        wal = Path(f"{copy}-wal")
        wal.write_bytes(wal.read_bytes()[:-10])
        SqliteJournal(copy).resume()
        path.write_bytes(b"garbage" * 100)
        SqliteJournal(path).resume()
    assert caplog.records
    assert not any(SEED.hex() in r.getMessage() or repr(SEED) in r.getMessage()
                   for r in caplog.records)


def test_statedir_precedence():
    """table.toml beats systemd's directory, which beats XDG, which beats the home default."""
    env = {"STATE_DIRECTORY": "/var/lib/table-companion:/var/lib/other",
           "XDG_STATE_HOME": "/home/p/.state", "HOME": "/home/p"}
    assert choose_state_dir(Path("/srv/games"), env) == Path("/srv/games")
    assert choose_state_dir(None, env) == Path("/var/lib/table-companion")
    del env["STATE_DIRECTORY"]
    assert choose_state_dir(None, env) == Path("/home/p/.state/table-companion")
    env["XDG_STATE_HOME"] = "relative/ignored"
    assert choose_state_dir(None, env) == Path("/home/p/.local/state/table-companion")


def test_statedir_is_created_private(tmp_path):
    """A new state directory is 0700; an existing open one is refused, not changed."""
    made = prepare_state_dir(tmp_path / "a" / "b")
    assert stat.S_IMODE(made.stat().st_mode) == 0o700
    loose = tmp_path / "loose"
    loose.mkdir(mode=0o755)
    loose.chmod(0o755)
    with pytest.raises(OSError, match=r"can be read by others \(mode 755\).*chmod 700"):
        prepare_state_dir(loose)
    assert stat.S_IMODE(loose.stat().st_mode) == 0o755
