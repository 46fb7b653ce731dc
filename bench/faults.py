"""``python -m bench.faults`` (``make faults``): break the table on purpose and count outcomes.

- **kills**: SIGKILL of the real ``companion play`` at random moments (while it starts, while
  a game plays, between PEEK taps) in every game at its fewest and most players, then a
  restart; the crash harness's checks decide (acknowledged actions kept, the same state
  resumed, READY, no notice after a plain kill). And They Live's cut in play: a fresh game,
  killed a moment after a pick near the one that completes the cut and deals, restarted.
- **flips**: one random byte changed in a journal (the main file after a clean stop, the log
  after a kill), and one bit of a stored seed; then two starts on the damaged file.
- **columns**: one bit of each column of ``games`` and ``entries`` (``finished``, the cut in
  play, the seal, the chain links, each action column...) of real keyed games written by
  ``companion play`` in every game (:mod:`bench.keyed`).
- **wal**: the log of such a game, killed, cut at each of its frame boundaries and to 0.
- **disk**: the state directory on a real tmpfs, then on a loop-mounted ext4, filled (and
  perhaps freed) at a random moment while the table plays, then a SIGKILL or a clean stop,
  then a restart.
- **races**: two copies started at once on one state directory.
- **storage**: the state directory's file system fails or is tampered with, on the real
  ``companion play``: a loop-mounted ext4 turned read-only mid-game then a kill and a
  restart, a read-only state directory, a deleted or replaced lock, a link for each of the
  journal's files, an immutable ``-shm`` (the scenarios of tests/test_state_dir_faults.py).
- **scripts**: mutated table scripts; every error must be ``FILE:LINE``-style with a usage.

Each outcome is counted; the goal rows (names starting with a word of :data:`BAD`: a silent
loss, a re-deal, a crash or crash loop, a false alarm, an altered history accepted, a loss
told with the wrong size) must stay 0. ``--quick`` runs a few of each (the smoke test).
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import random
import re
import shutil
import signal
import socket
import struct
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from bench import keyed
from bench.disk import NoSmallDisk, small_disk, small_ext4
from companion.journal_digest import state_digest
from companion.journal_sqlite import SqliteJournal
from companion.statedir import journal_path, prepare_state_dir

# Outcome names that break the goal start with these.
BAD = ("SILENT", "CRASH", "ALTERED", "RE-DEAL", "FALSE", "MISTOLD")


# --- kills -------------------------------------------------------------------------------------


def kills(count: int, workdir: Path) -> Counter:
    """``count`` SIGKILLs spread over every game at its fewest and most players
    (:data:`bench.keyed.GAMES`), one crash-harness Chain each, four run side by side."""
    from bench.keyed import GAMES
    from tests.test_crash_harness import Chain

    work = queue.SimpleQueue()
    for number, (game, players) in enumerate(GAMES):
        work.put((number, game, players, count // len(GAMES) + (number < count % len(GAMES))))
    outcomes: Counter = Counter()
    lock = threading.Lock()

    def run() -> None:
        while True:
            try:
                number, game, players, share = work.get_nowait()
            except queue.Empty:
                return
            directory = workdir / f"kills{number}"
            directory.mkdir()
            chain = Chain(directory, seed=1000 + number, game=game, players=players)
            try:
                for _ in range(share):
                    outcome = _kill_outcome(chain, chain.cycle)
                    with lock:
                        outcomes[outcome] += 1
                        outcomes[f"kills in {game} with {players} players"] += 1
            finally:
                chain.notify.close()

    _side_by_side(run)
    return outcomes


def _side_by_side(run, threads: int = 4) -> None:
    started = [threading.Thread(target=run) for _ in range(threads)]
    for thread in started:
        thread.start()
    for thread in started:
        thread.join()


def _kill_outcome(chain, cycle) -> str:
    """What one ``cycle`` (a start, perhaps keys, a SIGKILL, the checks) came to."""
    resumed = chain.resumes
    try:
        cycle()
    except pytest.fail.Exception:
        return "CRASH: the companion exited by itself"
    except TimeoutError:
        return "CRASH LOOP: no READY after a restart"
    except AssertionError as error:
        text = str(error)
        if "different state" in text:
            return "SILENT RE-DEAL: resumed a different state"
        if "false alarm" in text:
            return "FALSE ALARM: a notice after a plain kill"
        return f"SILENT LOSS: {text.splitlines()[0][:60]}"
    except OSError as error:  # a pipe to a companion that is gone
        return f"CRASH: {type(error).__name__} talking to the companion"
    if chain.resumes > resumed:
        return "killed; the restart resumed every acknowledged action"
    return "killed; nothing to resume yet (lobby, or killed while starting)"


def cut_kills(count: int, workdir: Path, rng: random.Random) -> Counter:
    """They Live's cut in play: a fresh game, the seats' picks one key at a time, a SIGKILL
    a moment after a pick near the one that completes the cut and deals; then a restart
    that must reach READY and resume the same deal (the crash harness's checks)."""
    from tests.test_crash_harness import Chain, read_journal

    outcomes: Counter = Counter()
    lock = threading.Lock()
    trials = iter(range(count))
    seeds = [rng.randrange(1 << 30) for _ in range(count)]

    def one(trial: int) -> None:
        directory = workdir / f"cut{trial}"
        directory.mkdir()
        pick = random.Random(seeds[trial])
        players = pick.randint(3, 6)
        chain = Chain(directory, seed=seeds[trial], game="they-live", players=players)
        acts = "".join(str(seat) for seat in range(1, players + 1)) * 2
        presses = pick.randint(players - 1, players + 2)

        def killed_near_the_deal() -> None:
            process, acks = chain.spawn()
            chain.wait_ready(process)
            for key in acts[:presses]:
                process.stdin.write(key.encode())
                process.stdin.flush()
                chain.alive_for(process, 0.05)
            chain.alive_for(process, pick.uniform(0.0, 0.05))
            chain.verify({}, None, chain.kill(process, acks))

        first = _kill_outcome(chain, killed_near_the_deal)
        games = read_journal(chain.state / "journal.sqlite3")
        dealt = _dealt(chain.state / "journal.sqlite3")
        again = first if first.startswith(BAD) else \
            _kill_outcome(chain, lambda: chain.cycle(early=0.0))  # READY, then keys
        chain.notify.close()
        where = "after the dealing pick" if dealt else \
            "before the deal" if games else "before the game's first write"
        with lock:
            outcomes[f"killed {where}; restart: {again}"] += 1

    def run() -> None:
        for trial in trials:
            one(trial)

    _side_by_side(run)
    return outcomes


def _dealt(path: Path) -> bool:
    """The open game's cut is in the journal (the pick that completed it is durable)."""
    import sqlite3

    if not path.exists():
        return False
    with sqlite3.connect(path) as db:
        try:
            row = db.execute("SELECT cut FROM games WHERE finished IS NULL").fetchone()
        except sqlite3.OperationalError:  # killed before the first transaction
            row = None
    db.close()
    return bool(row and row[0])


# --- flips -------------------------------------------------------------------------------------


def flips(count: int, seed_bits: int, workdir: Path, rng: random.Random) -> Counter:
    """Half the flips in the main file after a clean stop, half in the log after a kill."""
    outcomes: Counter = Counter()
    for trial in range(count + seed_bits):
        where = workdir / f"flip{trial}"
        kind = "seed" if trial >= count else ("log" if trial % 2 else "file")
        outcomes[f"{kind}: {_flip_trial(where, kind, rng)}"] += 1
    return outcomes


def _played(path: Path, rng: random.Random, *, clean: bool):
    from tests.test_journal import new_game, play

    journal = SqliteJournal(path, exclusive=True)  # as the service opens it: a log of full length
    record, state = new_game(rng.randbytes(32))
    journal.begin(record)
    at = play(journal, record, state, rng.randrange(2, 40))
    if rng.random() < 0.5:
        journal.remember(record, at + rng.uniform(0.1, 4.0))
    if clean:
        journal.close()
    return journal, record


def _flip_trial(where: Path, kind: str, rng: random.Random) -> str:
    path = journal_path(prepare_state_dir(where / "live"))
    journal, record = _played(path, rng, clean=kind != "log")
    copy = journal_path(prepare_state_dir(where / "found"))
    for suffix in ("", "-wal"):  # as a power cut or a kill leaves the files
        if Path(f"{path}{suffix}").exists():
            shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
    journal.close()
    if kind == "seed":
        _flip_seed_bit(copy, rng)
    else:
        target = Path(f"{copy}-wal") if kind == "log" else copy
        data = bytearray(target.read_bytes())
        data[rng.randrange(len(data))] ^= rng.randrange(1, 256)
        target.write_bytes(bytes(data))
    return classify_restart(copy, record)


def _flip_seed_bit(path: Path, rng: random.Random) -> None:
    import sqlite3

    with sqlite3.connect(path) as db:
        seed = bytearray(db.execute("SELECT seed FROM games").fetchone()[0])
        seed[rng.randrange(len(seed))] ^= 1 << rng.randrange(8)
        db.execute("UPDATE games SET seed = ?", (bytes(seed),))
    db.close()


def classify_restart(path: Path, original) -> str:
    """What two starts on ``path`` did with ``original`` (a record of the game as played)."""
    try:
        journal = SqliteJournal(path, exclusive=True)
        found = journal.resume()
        told = list(journal.notices)
        journal.close()
    except Exception as error:  # the table would not start
        return f"CRASH at start ({type(error).__name__})"
    try:
        again = SqliteJournal(path, exclusive=True)
        again.resume()
        again.close()
    except Exception as error:
        return f"CRASH LOOP: second start ({type(error).__name__})"
    played = original.entries
    if found is None:
        return "game given up, announced" if told else "SILENT LOSS: game gone"
    record, _ = found
    kept = record.entries[:-1] if record.entries[-1:] and \
        record.entries[-1].action == "pause" else record.entries
    if record.seed != original.seed or \
            state_digest(record.replay(kept)) != state_digest(original.replay(kept)):
        return "re-deal, announced" if told else "SILENT RE-DEAL"
    if kept != played[: len(kept)]:
        return "ALTERED history accepted"
    if len(kept) < len(played):
        return "actions cut, announced" if told else "SILENT LOSS: actions cut"
    return "whole (damage repaired, told)" if told else "whole (no effect)"


# --- a full disk -------------------------------------------------------------------------------


def full_disk(count: int, workdir: Path, rng: random.Random, *, ext4: bool = False) -> Counter:
    """The real companion on a tmpfs (or a loop-mounted ext4, as the Pi's card is) filled at
    a random moment; SIGKILL or SIGTERM; restart."""
    from tests.test_crash_harness import Chain

    outcomes: Counter = Counter()
    directory = workdir / ("ext4" if ext4 else "disk")
    directory.mkdir()
    mount = small_ext4(directory / "mount") if ext4 else \
        small_disk(directory / "mount", size_kib=768)
    with mount as disk:
        chain = Chain(directory, seed=rng.randrange(1 << 30))
        chain.state = disk.root / "state"
        behind = False  # the last run ended with writes held back
        try:
            for _ in range(count):
                try:
                    behind = _disk_cycle(chain, disk, rng, behind, outcomes)
                except pytest.fail.Exception:
                    outcomes["CRASH: the companion exited by itself"] += 1
                disk.free()
        finally:
            chain.notify.close()
    return outcomes


def _disk_cycle(chain, disk, rng: random.Random, behind: bool, outcomes: Counter) -> bool:
    """One run: play, fill the disk, play on, perhaps free it, stop; True if it ended behind."""
    from tests.test_crash_harness import check_acks, read_journal

    before = read_journal(chain.state / "journal.sqlite3")
    process, acks = chain.spawn()
    try:
        chain.wait_ready(process)
    except TimeoutError:
        outcomes["CRASH LOOP: no READY on restart"] += 1
        process.kill()
        process.wait()
        return behind
    chain.feed(process)
    disk.fill()
    chain.feed(process)
    if rng.random() < 0.5:
        disk.free()
        chain.alive_for(process, 2.5)  # the app tries again every 2 s
        chain.feed(process)
    clean = rng.random() < 0.2
    process.send_signal(signal.SIGTERM if clean else signal.SIGKILL)
    code = process.wait()
    process.stdin.close()
    with os.fdopen(acks) as stream:
        lines = stream.read().splitlines()
    notices = [line[7:] for line in lines if line.startswith("notice ")]
    if clean and code != 0:
        outcomes["CRASH: clean stop failed"] += 1
    if behind:
        told = "Unsaved actions lost" in notices
        outcomes["restart after dying behind: announced 'Unsaved actions lost'" if told
                 else "SILENT LOSS: a restart after dying behind did not say so"] += 1
        if not told and os.environ.get("FAULTS_DEBUG"):
            print("DEBUG", chain.last_lines, "=>", lines, file=sys.stderr)
    if any("Torn" in notice for notice in notices):
        outcomes["FALSE ALARM: 'Torn write' after a full disk"] += 1
    chain.last_lines = lines
    state = [n for n in notices if n.startswith(("Not saving", "Saving again"))]
    behind = bool(state) and state[-1].startswith("Not saving")
    outcomes["runs that stopped saving and said so"] += bool(state)
    outcomes["runs that saved again by themselves"] += "Saving again" in notices
    disk.free()  # reading the journal back needs room for its -shm
    try:
        check_acks(before, [line for line in lines
                            if line.startswith(("begin", "append", "truncate",
                                                "finish"))],
                   read_journal(chain.state / "journal.sqlite3"))
        outcomes["acknowledged writes all kept"] += 1
    except AssertionError:
        outcomes["SILENT LOSS: an acknowledged write is gone"] += 1
    return behind


# --- two copies --------------------------------------------------------------------------------


def races(count: int, workdir: Path) -> Counter:
    """Two copies at once: the one that gets the lock says READY, the other exits 2."""
    from tests.test_crash_harness import Chain

    outcomes: Counter = Counter()
    directory = workdir / "races"
    directory.mkdir()
    chain = Chain(directory, seed=7)
    try:
        for _ in range(count):
            pair = [chain.spawn() for _ in range(2)]
            for _, acks in pair:
                os.close(acks)
            processes = {process.pid: process for process, _ in pair}
            winner = processes[_first_ready(chain, set(processes))]
            loser = next(p for p in processes.values() if p is not winner)
            code = loser.wait(timeout=60)  # a safety net: it exits at once
            said = "another companion (pid" in chain.stderr.read_text()
            outcomes["one plays, the other refused naming the pid (exit 2)" if code == 2 and said
                     else f"CRASH: the second copy exited {code}"] += 1
            winner.send_signal(signal.SIGTERM)
            winner.wait()
            chain.message_from(winner)  # its STOPPING=1: the socket is left empty
            for process in processes.values():
                process.stdin.close()
            chain.stderr.write_text("")
    finally:
        chain.notify.close()
    return outcomes


def _first_ready(chain, pids: set[int]) -> int:
    """The pid whose READY=1 comes first on the notify socket (systemd's check: the sender's
    credentials)."""
    size = struct.calcsize("3i")
    while True:
        data, ancillary, _, _ = chain.notify.recvmsg(4096, socket.CMSG_SPACE(size))
        for level, kind, payload in ancillary:
            if (level, kind) == (socket.SOL_SOCKET, socket.SCM_CREDENTIALS):
                pid = struct.unpack("3i", payload[:size])[0]
                if pid in pids and data.startswith(b"READY=1"):
                    return pid


# --- the storage itself fails ----------------------------------------------------------------


def storage(rounds: int, workdir: Path) -> Counter:
    """Each scenario of tests/test_state_dir_faults.py, ``rounds`` times, each on a fresh
    state directory (and a fresh ext4 image where it needs one)."""
    from tests import test_state_dir_faults as scenarios
    from tests.test_crash_harness import Chain

    cases = [("read-only mid-game, killed, restarted", scenarios.
              test_a_restart_after_dying_on_a_disk_turned_read_only_says_actions_were_lost, True),
             ("read-only state directory at start",
              scenarios.test_a_read_only_state_directory_starts_and_plays_not_saving, True),
             ("immutable -shm", scenarios.test_an_immutable_shm_file_is_no_sigbus, False)]
    lock = scenarios.test_no_second_writer_when_the_lock_file_is_deleted_or_replaced
    links = scenarios.test_a_link_in_the_state_directory_is_never_followed
    cases += [(f"lock {how}", lambda chain, how=how: lock(chain, how), False)
              for how in ("deleted", "replaced")]
    cases += [(f"{name} a link", lambda chain, name=name: links(chain, chain.directory, name),
               False) for name in ("lock", "journal.sqlite3", "journal.sqlite3-wal",
                                   "journal.sqlite3-shm", "journal.sqlite3-unsaved")]
    outcomes: Counter = Counter()
    for trial in range(rounds):
        for number, (title, case, needs_disk) in enumerate(cases):
            directory = workdir / f"storage{trial}-{number}"
            (directory / "run").mkdir(parents=True, mode=0o700)
            os.environ["RUNTIME_DIRECTORY"] = str(directory / "run")
            chain = Chain(directory, seed=trial)
            try:
                if needs_disk:
                    with small_ext4(directory / "disk") as disk:
                        case(chain, disk)
                else:
                    case(chain)
                outcomes[f"{title}: told, no crash"] += 1
            except AssertionError as error:
                outcomes[f"SILENT or wrong: {title} ({str(error).splitlines()[0][:50]})"] += 1
            except (pytest.fail.Exception, TimeoutError):
                outcomes[f"CRASH LOOP: {title}"] += 1
            except pytest.skip.Exception as why:
                outcomes[f"not run: {title} ({why})"] += 1
            finally:
                chain.notify.close()
                os.environ.pop("RUNTIME_DIRECTORY", None)
    return outcomes


# --- mutated scripts ---------------------------------------------------------------------------

WORDS = ("1", "2", "9", "0", "-1", "act", "peek", "elbow", "30s", "1m", "x", '"Join"', "all",
         "not", "within", "over", "tune", "public", "offline", "wait", "tap", "hold", "press",
         "release", "choose", "expect", "join", "unplug", "replug", '""', "1.5")
PYTHON_TEXT = re.compile(r"positional|argument|NoneType|object at|\(\)|Traceback|__|got an")


def scripts(count: int, rng: random.Random) -> Counter:
    from companion.exc import ScriptError
    from companion.script_cli import run_script

    root = Path(__file__).resolve().parent.parent / "tests" / "scripts"
    texts = [path.read_text() for path in sorted(root.glob("*.table"))]
    outcomes: Counter = Counter()
    for _ in range(count):
        lines = rng.choice(texts).splitlines()
        for _ in range(rng.randint(1, 3)):
            _mutate(lines, rng)
        try:
            run_script("\n".join(lines), "mutated")
            outcomes["ran to the end"] += 1
        except ScriptError as error:
            bad = PYTHON_TEXT.search(error.message) or len(error.message) < 8
            outcomes["ALTERED: Python text as the error" if bad else "FILE:LINE error"] += 1
        except Exception as error:
            outcomes[f"CRASH: {type(error).__name__}"] += 1
    return outcomes


def _mutate(lines: list[str], rng: random.Random) -> None:
    index = rng.randrange(len(lines))
    words = lines[index].split()
    how = rng.randrange(4)
    if how == 0 and words:
        words.pop(rng.randrange(len(words)))
    elif how == 1:
        words.insert(rng.randrange(len(words) + 1), rng.choice(WORDS))
    elif how == 2 and words:
        words[rng.randrange(len(words))] = rng.choice(WORDS)
    else:
        lines.insert(index, " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4))))
        return
    lines[index] = " ".join(words)


# --- the command -------------------------------------------------------------------------------


def main(args: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(prog="python -m bench.faults", description=__doc__)
    options.add_argument("--quick", action="store_true", help="a few of each (seconds)")
    options.add_argument("--seed", type=int, default=2024)
    options.add_argument("--only", nargs="+", help="run only these",
                         choices=("kills", "flips", "columns", "wal", "disk", "races",
                                  "storage", "scripts"))
    chosen = options.parse_args(args)
    logging.getLogger("companion").setLevel(logging.CRITICAL)  # each trial logs its damage
    sizes = dict(kills=10, cut_kills=4, flips=20, seed_bits=4, columns=1, wal_cuts=1, disk=3,
                 races=2, storage=1, scripts=30) if chosen.quick else \
        dict(kills=600, cut_kills=60, flips=400, seed_bits=40, columns=2, wal_cuts=1, disk=30,
             races=30, storage=3, scripts=1500)
    games = keyed.GAMES[2:4] if chosen.quick else keyed.GAMES  # quick: They Live only
    rng = random.Random(chosen.seed)
    with tempfile.TemporaryDirectory(prefix="faults-") as folder:
        workdir = Path(folder)
        steps = [
            ("kills", "SIGKILL at random moments, every game",
             lambda: kills(sizes["kills"], workdir)),
            ("kills", "SIGKILL around They Live's dealing pick, then a restart",
             lambda: cut_kills(sizes["cut_kills"], workdir, rng)),
            ("flips", "one byte flipped in the journal / one seed bit",
             lambda: flips(sizes["flips"], sizes["seed_bits"], workdir, rng)),
            ("columns", "one bit of each column of real keyed games",
             lambda: keyed.column_flips(sizes["columns"], workdir, rng, games)),
            ("wal", "the log of real games cut at every frame boundary",
             lambda: keyed.wal_cuts(sizes["wal_cuts"], workdir, rng, games)),
            ("disk", "a full tmpfs at random moments",
             lambda: full_disk(sizes["disk"], workdir, rng)),
            ("disk", "a full loop-mounted ext4 at random moments",
             lambda: full_disk(sizes["disk"], workdir, rng, ext4=True)),
            ("races", "two copies started at once", lambda: races(sizes["races"], workdir)),
            ("storage", "the state directory's file system fails or is tampered with",
             lambda: storage(sizes["storage"], workdir)),
            ("scripts", "mutated table scripts", lambda: scripts(sizes["scripts"], rng)),
        ]
        failed = 0
        for key, title, step in steps:
            if chosen.only and key not in chosen.only:
                continue
            started = time.monotonic()
            try:
                outcomes = step()
            except NoSmallDisk as why:
                outcomes = Counter({f"not run: {why}": 1})
            print(f"\n| {title} ({time.monotonic() - started:.0f} s) | count |\n|---|---:|",
                  flush=True)
            for outcome, number in sorted(outcomes.items(), key=lambda item: -item[1]):
                print(f"| {outcome} | {number} |", flush=True)
                failed += number if outcome.startswith(BAD) else 0
    print(f"\ngoal rows (silent loss, re-deal, crash, crash loop, false alarm, altered, "
          f"wrong size told): {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
