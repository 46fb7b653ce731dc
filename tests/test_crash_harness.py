"""SIGKILL the real companion at random moments: no acknowledged action is ever lost.

Each chain runs ``companion play staying-alive --players 3`` on the terminal simulator with
stdin a pipe of keys (digits tap ACT, q w e tap PEEK), waits for READY on a fake
$NOTIFY_SOCKET (or kills it while it is still starting), feeds a few keys and kills it. An
action is *acknowledged* once its ack line (written after the journal commit, before its
effects play) is in the ack pipe. After every kill the journal must pass ``PRAGMA
integrity_check``, hold every acknowledged write (and at most the one write that was
committed when the kill came, before its ack), and the next start must replay it to the
state the test computes from the same entries (a digest of decks, roles, stamina, turn and
the generator's position), telling the table nothing (a kill loses nothing it saw). Chains
run side by side to use both cores.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion.journal_digest import entry_tag, state_digest
from companion.record import GameRecord, JournaledAction

CHAINS = 4
KILLS_PER_CHAIN = 26  # 104 kills in all


def keys_for(players: int) -> tuple[str, ...]:
    """What :meth:`Chain.feed` taps with ``players`` seats: ACT taps (keys 1-8), a PEEK tap
    (qwertyui) then ACT (the second choice: Lose 1 stamina, Undo, End game...), and every
    seat's ACT in turn (after Start, each player cuts the deck before the deal)."""
    acts = "".join(str(seat) for seat in range(1, players + 1))
    peeks = tuple(peek + act for peek, act in zip("qwertyui"[:players], acts, strict=True))
    return tuple(acts) * 3 + peeks + (acts,) * 3


EARLY_KILLS = 0.2  # the share of kills while the process starts (imports, replay, blanking)
ROOT = Path(__file__).resolve().parent.parent
# The waits below are for events (a notification, an exit); this only turns a hang into a
# failure, and is far beyond what a loaded machine needs, so it never decides a pass.
HANG = 300
WRITES = ("begin ", "append ", "truncate ", "finish ")  # ack lines of durable writes


@dataclass
class Game:
    """One game as the journal holds it (or as the acks say it must)."""

    record: GameRecord
    tags: list[tuple[str, bool]] = field(default_factory=list)  # (tag, undoable) per entry
    finished: bool = False


def read_journal(path: Path) -> dict[int, Game]:
    """Every game in the journal file (none before it has its tables), after an integrity
    check."""
    if not path.exists():
        return {}
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        if not db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]:
            return {}  # killed between creating the file and its first transaction
        games = {}
        for gid, key, seats, options, seed, finished, deck, deal_key, cut, in_play in db.execute(
                "SELECT id, game_key, seats, options, seed, finished, deck_list, deal_key, cut, "
                "cut_in_play FROM games"):
            record = GameRecord(key, tuple(map(int, seats.split(","))), json.loads(options), seed,
                                deck_list=None if deck is None else tuple(json.loads(deck)),
                                key=deal_key, cut=cut, cut_in_play=bool(in_play))
            games[gid] = Game(record, finished=finished is not None)
        for gid, idx, seat, action, at, undoable, label in db.execute(
                "SELECT game, idx, seat, action, at, undoable, label FROM entries "
                "ORDER BY game, idx"):
            entry = JournaledAction(seat, action, at, bool(undoable), label)
            record = games[gid].record
            record.entries.append(entry)
            # Tags are keyed by the seed as it was at the append: none before a cut in play
            seed = b"" if record.cut_in_play and not record.played_cut() else record.seed
            games[gid].tags.append((entry_tag(seed, idx, entry), entry.undoable))
    db.close()
    return games


def expected_resume(games: dict[int, Game]) -> tuple[int, int, str] | None:
    """What the next start must report: the open game, its entry count, its state digest."""
    open_games = [gid for gid, game in games.items() if not game.finished]
    if not open_games:
        return None
    game = games[max(open_games)]
    return max(open_games), len(game.tags), state_digest(game.record.replay())


def check_acks(before: dict[int, Game], acks: list[str], after: dict[int, Game]) -> None:
    """Replay the ack lines over the journal as it was; the journal now must agree."""
    model = {gid: (list(g.tags), g.finished) for gid, g in before.items()}
    for line in acks:
        kind, gid, *rest = line.split()
        gid = int(gid)
        if kind == "begin":
            model = {g: (tags, True) for g, (tags, _) in model.items()}
            model[gid] = ([], False)
        elif kind == "append":
            assert int(rest[0]) == len(model[gid][0]), f"ack out of order: {line}"
            model[gid][0].append((rest[1], rest[2] == "1"))
        elif kind == "truncate":
            del model[gid][0][int(rest[0]):]
        elif kind == "finish":
            model[gid] = (model[gid][0], True)
    for gid, (tags, finished) in model.items():
        assert gid in after, f"game {gid} was acknowledged but is gone"
        kept = after[gid].tags
        one_more = len(kept) == len(tags) + 1 and kept[:-1] == tags
        one_undone = bool(tags) and tags[-1][1] and kept == tags[:-1]
        assert kept == tags or one_more or one_undone, f"game {gid}: acknowledged actions lost"
        assert after[gid].finished or not finished, f"game {gid}: acknowledged finish lost"
    for gid in set(after) - set(model):  # begun, killed before its ack: nothing else happened
        assert not after[gid].tags and gid == max(after)


class Chain:
    """One state directory, killed and restarted again and again."""

    def __init__(self, directory: Path, seed: int, game: str = "staying-alive",
                 players: int = 3) -> None:
        self.directory = directory
        self.game, self.players, self.keys = game, players, keys_for(players)
        self.state = directory / "state"
        self.rng = random.Random(seed)
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)  # as systemd does
        self.notify.bind(str(directory / "notify"))
        self.notify.settimeout(HANG)
        self.stderr = directory / "stderr.txt"
        self.kills = self.resumes = self.acked = 0

    def spawn(self) -> tuple[subprocess.Popen, int]:
        read, write = os.pipe()
        env = dict(os.environ, NOTIFY_SOCKET=str(self.directory / "notify"),
                   PYTHONPATH=str(ROOT))
        env.pop("WATCHDOG_USEC", None)
        with self.stderr.open("a") as errors:
            process = subprocess.Popen(
                [sys.executable, "-m", "companion", "play", self.game, "--players",
                 str(self.players), "--seats", str(self.players), "--volume", "0",
                 "--state-dir", str(self.state),
                 "--ack-fd", str(write)],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=errors, env=env,
                pass_fds=(write,), cwd=ROOT)
        os.close(write)
        return process, read

    def alive_for(self, process: subprocess.Popen, seconds: float) -> None:
        """Wait, and fail if the companion died by itself meanwhile."""
        with pytest.raises(subprocess.TimeoutExpired):
            process.wait(timeout=seconds)

    def message_from(self, process: subprocess.Popen) -> bytes:
        """The next notification sent by ``process``: one from a process killed before it
        may still be queued, so the sender's pid is checked as systemd checks it."""
        credentials = struct.calcsize("3i")
        while True:
            data, ancillary, _, _ = self.notify.recvmsg(4096, socket.CMSG_SPACE(credentials))
            for level, kind, payload in ancillary:
                if (level, kind) == (socket.SOL_SOCKET, socket.SCM_CREDENTIALS) and \
                        struct.unpack("3i", payload[:credentials])[0] == process.pid:
                    return data

    def wait_ready(self, process: subprocess.Popen) -> None:
        while not self.message_from(process).startswith(b"READY=1"):
            pass

    def feed(self, process: subprocess.Popen) -> None:
        """A few taps, each a moment apart (the debouncer takes one press per 25 ms)."""
        for _ in range(self.rng.randrange(1, 10)):
            for key in self.rng.choice(self.keys):
                process.stdin.write(key.encode())
                process.stdin.flush()
                self.alive_for(process, self.rng.uniform(0.03, 0.07))

    def cycle(self, early: float = EARLY_KILLS) -> None:
        """A start, a SIGKILL (while it starts, with chance ``early``; else after READY and
        a few keys), and the checks."""
        before = read_journal(self.state / "journal.sqlite3")
        expected = expected_resume(before)
        process, acks = self.spawn()
        if self.rng.random() < early:
            self.alive_for(process, self.rng.uniform(0.0, 0.6))
        else:
            self.wait_ready(process)
            self.feed(process)
        self.verify(before, expected, self.kill(process, acks))

    def kill(self, process: subprocess.Popen, acks: int) -> list[str]:
        """SIGKILL; the ack lines it wrote."""
        process.send_signal(signal.SIGKILL)
        process.wait()
        process.stdin.close()
        with os.fdopen(acks) as stream:
            lines = stream.read().splitlines()
        self.kills += 1
        return lines

    def verify(self, before, expected, lines: list[str]) -> None:
        after = read_journal(self.state / "journal.sqlite3")
        resumes = [line.split()[1:] for line in lines if line.startswith("resume ")]
        if resumes:
            assert expected is not None
            assert tuple(resumes[0]) == tuple(map(str, expected)), "resumed a different state"
            self.resumes += 1
        check_acks(before, [line for line in lines if line.startswith(WRITES)], after)
        # A plain kill loses nothing the table saw: a restart that says so is a false alarm.
        assert not [line for line in lines if line.startswith("notice ")], "false alarm"
        self.acked += sum(line.startswith("append ") for line in lines)

    def clean_stop(self) -> None:
        """SIGTERM: READY, then STOPPING, exit 0, the journal closed (its WAL folded in)."""
        process, acks = self.spawn()
        self.wait_ready(process)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=HANG) == 0
        assert self.message_from(process) == b"STOPPING=1"
        process.stdin.close()
        os.close(acks)
        assert not (self.state / "journal.sqlite3-wal").exists()


def run_chain(chain: Chain, failures: list[BaseException]) -> None:
    try:
        for _ in range(KILLS_PER_CHAIN):
            chain.cycle()
        chain.clean_stop()
    except BaseException as error:  # reported by the main thread, with the stderr
        failures.append(error)


def test_crash_harness_loses_no_acknowledged_action(tmp_path):
    """104 SIGKILLs at random moments: integrity ok, acknowledged actions kept, same state."""
    chains = []
    for number in range(CHAINS):
        directory = tmp_path / f"chain{number}"
        directory.mkdir()
        chains.append(Chain(directory, seed=number))
    failures: list[BaseException] = []
    threads = [threading.Thread(target=run_chain, args=(c, failures)) for c in chains]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for chain in chains:
        chain.notify.close()
    if failures:
        stderr = "\n".join(c.stderr.read_text()[-2000:] for c in chains)
        raise AssertionError(f"{failures[0]!r}\ncompanion stderr:\n{stderr}") from failures[0]
    assert sum(c.kills for c in chains) >= 100
    assert sum(c.resumes for c in chains) >= 50  # most kills hit a game in progress
    assert sum(c.acked for c in chains) >= 100
    print(f"kills {sum(c.kills for c in chains)}, resumes {sum(c.resumes for c in chains)}, "
          f"acknowledged appends {sum(c.acked for c in chains)}")
