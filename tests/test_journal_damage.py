"""A damaged, older or foreign journal: the table starts, and says what it could not restore.

Never a silent re-deal (the seed is checked against its commitment), never a silent cut
(entries are chained by hash, the game's row sealed), never a start that fails for good.
"""

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

import engine.games.staying_alive  # noqa: F401 - registers the game the tests play
from companion.journal import NullJournal
from companion.journal_digest import state_digest
from companion.journal_file import SCHEMA_VERSION, check_wal
from companion.journal_sqlite import SqliteJournal
from companion.record import GameRecord, JournaledAction
from companion.statedir import journal_path, prepare_state_dir
from engine import registry
from engine.rng import deal_seed
from tests.test_journal import SEED, new_game, play

V1_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, game_key TEXT NOT NULL, seats TEXT NOT NULL,
    options TEXT NOT NULL, seed BLOB NOT NULL, seen REAL, finished REAL);
CREATE TABLE entries (game INTEGER NOT NULL REFERENCES games(id), idx INTEGER NOT NULL,
    seat INTEGER, action TEXT NOT NULL, at REAL NOT NULL, undoable INTEGER NOT NULL,
    label TEXT NOT NULL, PRIMARY KEY (game, idx)) WITHOUT ROWID;
PRAGMA user_version = 1;
"""


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return journal_path(prepare_state_dir(tmp_path / "state"))


def played(path: Path, steps: int = 6, *, closed: bool = False):
    """A game with ``steps`` actions journaled; the process then died (no close), or
    stopped cleanly (everything in the main file)."""
    journal = SqliteJournal(path)
    record, state = new_game()
    journal.begin(record)
    play(journal, record, state, steps)
    if closed:
        journal.close()
    return record, state


def resumed(path: Path):
    journal = SqliteJournal(path)
    return journal.resume(), journal.notices


def aside(path: Path) -> list[Path]:
    return [p for p in path.parent.iterdir() if ".unreadable-" in p.name and
            not p.name.endswith(("-wal", "-tally"))]


def edit(path: Path, sql: str, *args) -> None:
    with sqlite3.connect(path) as db:
        db.execute(sql, args)
    db.close()


V3_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, game_key TEXT NOT NULL, seats TEXT NOT NULL,
    options TEXT NOT NULL, seed BLOB NOT NULL, deck_list TEXT, deal_key BLOB NOT NULL,
    cut TEXT NOT NULL, seen REAL, finished REAL);
CREATE TABLE entries (game INTEGER NOT NULL REFERENCES games(id), idx INTEGER NOT NULL,
    seat INTEGER, action TEXT NOT NULL, at REAL NOT NULL, undoable INTEGER NOT NULL,
    label TEXT NOT NULL, PRIMARY KEY (game, idx)) WITHOUT ROWID;
PRAGMA user_version = 3;
"""
KEY = bytes(range(200, 232))
CUT = "1@1000000 2@1200000 3@1300000"


@pytest.mark.parametrize("version", [1, 2, 3])
def test_an_older_journal_is_migrated_and_its_game_resumes(path, version):
    """A journal from before deck lists (1), before the cut (2) or before the chain (3)
    resumes after an upgrade: the game in progress is not lost."""
    seed = deal_seed(KEY, CUT) if version == 3 else SEED
    record, state = new_game(seed)
    play(NullJournal(), record, state, 5)
    with sqlite3.connect(path) as db:
        if version == 3:
            db.executescript(V3_SCHEMA)
            db.execute("INSERT INTO games (game_key, seats, options, seed, deal_key, cut) "
                       "VALUES (?, ?, ?, ?, ?, ?)",
                       (record.game_key, "1,2,3", json.dumps(record.options), seed, KEY, CUT))
        else:
            db.executescript(V1_SCHEMA)
            if version == 2:
                db.executescript("ALTER TABLE games ADD COLUMN deck_list TEXT; "
                                 "PRAGMA user_version = 2;")
            db.execute("INSERT INTO games (game_key, seats, options, seed) VALUES (?, ?, ?, ?)",
                       (record.game_key, "1,2,3", json.dumps(record.options), seed))
        for index, entry in enumerate(record.entries):
            db.execute("INSERT INTO entries VALUES (1, ?, ?, ?, ?, ?, ?)", (
                index, entry.seat, entry.action, entry.at, int(entry.undoable), entry.label))
    db.close()
    (resumed_record, _), notices = resumed(path)
    assert notices == [] and not aside(path)
    assert resumed_record.entries[:5] == record.entries
    assert state_digest(resumed_record.replay(resumed_record.entries[:5])) == state_digest(state)
    assert (resumed_record.key, resumed_record.cut) == ((KEY, CUT) if version == 3 else (b"", ""))
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()
    assert resumed(path)[1] == []  # and it reads as whole the next time too


def test_a_flipped_bit_in_the_key_or_the_cut_is_never_a_silent_re_deal(path):
    """A game dealt from a key and a cut: either one damaged no longer gives the seed."""
    seed = deal_seed(KEY, CUT)
    for column, damaged in (("deal_key", bytes([KEY[0] ^ 1]) + KEY[1:]),
                            ("cut", CUT.replace("2@", "3@"))):
        journal = SqliteJournal(path)
        record, state = new_game(seed)
        record.key, record.cut = KEY, CUT
        journal.begin(record)
        play(journal, record, state, 3)
        edit(path, f"UPDATE games SET {column} = ? WHERE finished IS NULL", damaged)
        found, notices = resumed(path)
        assert found is None and notices == ["Game lost: bad seed"]


def they_live_in_play(path: Path, picks: int, journal: SqliteJournal | None = None) -> tuple:
    """They Live journaled as the table writes it: begun undealt, each seat's first pick its
    cut, the pick that completes the cut journaled with the cut and seed; then more moves
    (each by the next seat that has one), every one settled (shown)."""
    game = registry.get("they-live")
    seats = (1, 2, 3)
    record = GameRecord(game.key, seats, {"check": "narrated", "die": "physical"}, b"",
                        key=KEY, cut_in_play=True)
    state = record.start()
    journal = journal or SqliteJournal(path)
    journal.begin(record)
    for move in range(picks):
        seat = next(s for s in (seats[(move + n) % 3] for n in range(3)) if state.legal_actions(s))
        action = state.legal_actions(seat)[0]
        state.apply(seat, action.id, 100.0 + move)
        record.entries.append(JournaledAction(seat, action.id, 100.0 + move, action.undoable,
                                              action.label))
        cut = record.deal_if_cut(state, record.entries)
        if cut:
            record.cut, record.seed = cut, state.seed
        journal.append(record, record.entries[-1])
        journal.settle()
    return record, state


def test_they_live_lost_picks_after_the_deal_are_never_a_re_deal(path):
    """The entries up to the pick that completed the cut are lost: resumed, the next pick
    would cut and deal again, so the game is given up and the table told."""
    record, state = they_live_in_play(path, 5)
    assert state.dealt and record.cut
    edit(path, "DELETE FROM entries WHERE idx >= 2")
    found, notices = resumed(path)
    assert found is None and "Game lost: bad seed" in notices


def test_they_live_a_changed_cut_or_pick_moment_is_never_a_silent_re_deal(path):
    """A cut (with its seed re-derived) that is not the journaled first picks is refused."""
    record, _ = they_live_in_play(path, 4)
    other = record.cut.replace("3@", "2@").replace("2@", "3@", 1)
    edit(path, "UPDATE games SET cut = ?, seed = ?", other, deal_seed(KEY, other))
    found, notices = resumed(path)
    assert found is None and notices == ["Game lost: bad seed"]


def test_an_older_they_live_game_cut_before_the_picks_resumes_with_its_deal(path):
    """A They Live game from schema 4, dealt after "Cut the deck" (before the picks), keeps
    being dealt from its stored seed after the upgrade, not from its picks."""
    game = registry.get("they-live")
    seed = deal_seed(KEY, CUT)
    record = GameRecord(game.key, (1, 2, 3), {"check": "narrated", "die": "physical"}, seed,
                        key=KEY, cut=CUT)
    state = record.start()
    journal = SqliteJournal(path)
    journal.begin(record)
    for seat in (1, 2, 3):
        action = state.legal_actions(seat)[0]
        state.apply(seat, action.id, 10.0 + seat)
        record.entries.append(JournaledAction(seat, action.id, 10.0 + seat, True, action.label))
        journal.append(record, record.entries[-1])
    journal.close()
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE games DROP COLUMN cut_in_play")
        db.execute("PRAGMA user_version = 4")
    db.close()
    (again, resumed_state), notices = resumed(path)
    assert notices == [] and not again.cut_in_play and again.cut == CUT
    assert resumed_state.identities == state.identities and resumed_state.seed == seed
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    db.close()


def with_schema_damaged(path: Path, text: bytes, damage: bytes):
    """Resume a closed journal whose stored schema had its one ``text`` turned to ``damage``."""
    played(path, closed=True)
    data = path.read_bytes()
    assert data.count(text) == 1
    path.write_bytes(data.replace(text, damage))
    return resumed(path)


def test_a_damaged_schema_text_sets_the_file_aside_and_the_table_starts(path):
    """``seed BLOB`` -> ``seeX BLOB`` in the stored schema: set aside, told, a fresh start."""
    found, notices = with_schema_damaged(path, b"seed BLOB", b"seeX BLOB")
    assert found is None and notices == ["Bad journal set aside"] and len(aside(path)) == 1
    record, state = new_game()  # the fresh journal takes a game
    journal = SqliteJournal(path)
    journal.begin(record)
    play(journal, record, state, 2)
    assert resumed(path)[0] is not None


def test_an_undecodable_byte_in_the_schema_does_not_stop_the_start(path):
    found, notices = with_schema_damaged(path, b"label TEXT", b"lab\xffl TEXT")
    assert found is None and notices == ["Bad journal set aside"]


def test_a_journal_of_a_newer_companion_is_set_aside_whole(path):
    played(path)
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    found, notices = resumed(path)
    assert found is None and notices == ["Bad journal set aside"] and len(aside(path)) == 1


def test_a_foreign_database_is_set_aside(path):
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (name TEXT)")
    db.close()
    found, notices = resumed(path)
    assert found is None and notices == ["Bad journal set aside"]


def test_a_flipped_seed_bit_is_never_a_silent_re_deal(path):
    """The seed no longer gives its commitment: the game is given up and the table told."""
    played(path)
    damaged = bytes([SEED[0] ^ 0x10]) + SEED[1:]
    edit(path, "UPDATE games SET seed = ?", damaged)
    found, notices = resumed(path)
    assert found is None and notices == ["Game lost: bad seed"]
    with sqlite3.connect(path) as db:
        finished, damage = db.execute("SELECT finished, damage FROM games").fetchone()
    db.close()
    assert finished is not None and "commitment" in damage


def test_an_altered_action_cuts_the_history_there_and_says_how_much(path):
    record, _ = played(path, 6)
    edit(path, "UPDATE entries SET label = 'Strain 9' WHERE idx = 3")
    (resumed_record, _), notices = resumed(path)
    assert resumed_record.entries[:3] == record.entries[:3]
    assert [e.action for e in resumed_record.entries[3:]] == ["pause"]
    assert notices == ["Last 3 actions lost"]


def test_a_cut_tail_is_found_by_the_seal(path):
    """The last rows gone whole (the chain before them still whole): announced."""
    record, _ = played(path, 6)
    edit(path, "DELETE FROM entries WHERE idx >= 4")
    (resumed_record, _), notices = resumed(path)
    assert resumed_record.entries[:4] == record.entries[:4]
    assert notices == ["Last 2 actions lost"]


def test_a_damaged_setup_is_given_up_not_played_as_another_game(path):
    played(path, 3)
    edit(path, "UPDATE games SET seats = '1,2'")
    found, notices = resumed(path)
    assert found is None and notices == ["Last game unreadable"]


def test_a_damaged_moment_resumes_at_the_last_action(path):
    journal = SqliteJournal(path)
    record, state = new_game()
    journal.begin(record)
    at = play(journal, record, state, 3)
    journal.remember(record, at + 2.0)
    edit(path, "UPDATE games SET seen = 1e300")
    (resumed_record, _), notices = resumed(path)
    assert resumed_record.entries[-1].at == at  # the restart's pause, at the last action
    assert notices == ["Back to last action"]
    assert resumed(path)[1] == []  # the seal was written again: said once


def crashed_copy(path: Path, into: Path) -> Path:
    into.mkdir(mode=0o700)
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{path}{suffix}", into / f"{path.name}{suffix}")
    return into / path.name


def test_a_flipped_byte_in_the_log_is_repaired_or_announced(path, tmp_path):
    """A damaged frame early in the log would drop every write after it, silently: the log
    is repaired from its later frames and the table told; nothing acknowledged is lost."""
    record, state = played(path, 8)
    wal = Path(f"{path}-wal")
    data = bytearray(wal.read_bytes())
    data[32 + 24 + 200] ^= 0x01  # the first frame's page
    copy = crashed_copy(path, tmp_path / "flipped")
    Path(f"{copy}-wal").write_bytes(bytes(data))
    assert check_wal(copy).lost > 0
    journal = SqliteJournal(copy)
    resumed_record, resumed_state = journal.resume()
    assert resumed_record.entries[:8] == record.entries
    assert state_digest(resumed_record.replay(resumed_record.entries[:8])) == state_digest(state)
    assert journal.notices == ["Journal damage found"]
    assert any(".damaged-" in p.name for p in copy.parent.iterdir())  # the log as found


def varint(value: int) -> bytes:
    """SQLite's big-endian varint (values below 2**56)."""
    groups = [value & 0x7F]
    value >>= 7
    while value:
        groups.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(groups))


def serial_type(value) -> int:
    """The record header's type code SQLite gives ``value`` (small integers, no reals)."""
    if value is None:
        return 0
    if isinstance(value, int):
        return {0: 8, 1: 9}.get(value, 1)
    if isinstance(value, str):
        return 13 + 2 * len(value.encode())
    return 12 + 2 * len(value)


def checkpoint(path: Path) -> None:
    """Everything the log holds into the main file, as a clean stop leaves it."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def flip_header_byte(path: Path, column: str, new_type: int) -> None:
    """Rewrite the serial type of one column of the newest games row in the main file's
    own bytes: the record header is found from the row's values (a stopped journal has
    everything in the main file), and one byte of it changed, as a failing card would."""
    with sqlite3.connect(path) as db:
        db.row_factory = sqlite3.Row
        row = db.execute("SELECT * FROM games ORDER BY id DESC LIMIT 1").fetchone()
    db.close()
    names = row.keys()
    types = [0 if name == "id" else serial_type(row[name]) for name in names]
    header = b"".join(varint(t) for t in types)
    header = varint(len(header) + 1) + header
    data = bytearray(path.read_bytes())
    assert data.count(header) == 1
    at = data.index(header) + 1 + sum(len(varint(t)) for t in types[: names.index(column)])
    assert data[at] == types[names.index(column)] and new_type < 128
    data[at] = new_type
    path.write_bytes(bytes(data))


def test_a_flipped_finished_mark_resumes_the_open_game_and_says_so(path):
    """``finished`` NULL read as 0: the open game is not archived by a silent lobby; it is
    resumed, the damage told, and the row mended (told once)."""
    record, state = played(path, 5, closed=True)
    flip_header_byte(path, "finished", 8)  # NULL -> the integer 0
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        assert db.execute("SELECT finished FROM games").fetchone()[0] == 0
    db.close()
    (again, resumed_state), notices = resumed(path)
    assert notices == ["Journal damage found"]
    assert again.entries[:5] == record.entries
    assert state_digest(again.replay(again.entries[:5])) == state_digest(state)
    assert resumed(path)[1] == []


def finished_game(path: Path) -> GameRecord:
    """A game of three actions, played to the lobby and stopped cleanly."""
    journal = SqliteJournal(path)
    record, state = new_game()
    journal.begin(record)
    play(journal, record, state, 3)
    journal.finish(record)
    journal.close()
    return record


def test_a_finished_game_stays_finished_and_says_nothing(path):
    finished_game(path)
    assert resumed(path) == (None, [])


@pytest.mark.parametrize("picks", [2, 4])
def test_they_live_a_flipped_cut_in_play_mark_is_given_up(path, picks):
    """The mark read as 0 deals the game at its start, not after the picks (from an empty
    seed while they are under way): the chain's start covers it, so the game is given up."""
    they_live_in_play(path, picks)
    checkpoint(path)
    flip_header_byte(path, "cut_in_play", 8)  # 1 -> 0
    found, notices = resumed(path)
    assert found is None and notices == ["Last game unreadable"]


def test_a_journal_of_schema_5_is_vouched_for_again(path):
    """Schema 5 sealed neither the finished mark nor the cut-in-play mark: after the upgrade
    the archived game audits, and the open They Live game resumes with its picks."""
    from companion import journal_chain
    from companion.audit import load_finished

    finished_game(path)
    record, _ = they_live_in_play(path, 2)
    checkpoint(path)
    with sqlite3.connect(path) as db:  # as schema 5 wrote them
        for game, key, seats, options, shown, deck_list, seen in db.execute(
                "SELECT id, game_key, seats, options, commitment, deck_list, seen FROM games"):
            head = journal_chain.genesis(key, seats, options, shown, deck_list)
            rows = journal_chain.stored_rows(db, game)
            for index, entry, _ in rows:
                head = journal_chain.link(head, index, entry)
                db.execute("UPDATE entries SET link = ? WHERE game = ? AND idx = ?",
                           (head, game, index))
            db.execute("UPDATE games SET seal = ? WHERE id = ?",
                       (journal_chain.seal(head, len(rows), seen), game))
        db.execute("PRAGMA user_version = 5")
    db.close()
    (again, _), notices = resumed(path)
    assert notices == [] and again.entries[:2] == record.entries and again.cut_in_play
    assert load_finished(path, 1).problems == []


def test_an_action_after_the_remembered_moment_is_no_false_alarm(path):
    """The moment is remembered every few seconds, and an action may come after it: killed
    then (no close), the restart resumes at that action and tells nothing."""
    journal = SqliteJournal(path)
    record, state = new_game()
    journal.begin(record)
    at = play(journal, record, state, 3)
    journal.remember(record, at + 0.5)
    at = play(journal, record, state, 2, at + 1.0)  # the process is killed after these
    (again, _), notices = resumed(path)
    assert notices == [] and again.entries[:5] == record.entries
    assert again.entries[-1] == JournaledAction(None, "pause", at)
