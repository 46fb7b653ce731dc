"""The state directory's own file system fails, or is tampered with: the real ``companion
play`` starts, plays and says what it cannot save; it never crash-loops, never has two
writers, never follows a link, never dies of SIGBUS; and a restart after dying with unsaved
actions always says so. The disk is a real loop-mounted ext4 image where one is needed."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from bench.disk import small_ext4
from tests.disks import mounted_or_skip
from tests.test_crash_harness import Chain

PLAY = "1" + "123" * 3 + "123123"  # Start, every seat's cut, then turns: journaled actions


@pytest.fixture
def chain(tmp_path: Path, monkeypatch):
    """A companion to start and stop on ``tmp_path/state``, its runtime directory its own."""
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("RUNTIME_DIRECTORY", str(runtime))
    made = Chain(tmp_path, seed=26)
    yield made
    made.notify.close()


@pytest.fixture
def ext4(tmp_path: Path):
    yield from mounted_or_skip(small_ext4, tmp_path / "disk",
                               "no loop-mounted ext4 here (needs root and a loop device)")


def start(chain: Chain) -> tuple[subprocess.Popen, int]:
    process, acks = chain.spawn()
    chain.wait_ready(process)
    return process, acks


def press(chain: Chain, process: subprocess.Popen, keys: str) -> None:
    for key in keys:
        process.stdin.write(key.encode())
        process.stdin.flush()
        chain.alive_for(process, 0.05)


def stop(process: subprocess.Popen, acks: int, how: int = signal.SIGTERM) -> list[str]:
    """End the run; the table's notices (every seat was told each one)."""
    process.send_signal(how)
    process.wait()
    process.stdin.close()
    with os.fdopen(acks) as stream:
        return [line[7:] for line in stream.read().splitlines() if line.startswith("notice ")]


def test_a_restart_after_dying_on_a_disk_turned_read_only_says_actions_were_lost(chain, ext4):
    """The SD card fails mid-game: nothing can be written to it, not even the mark; the
    mark in the runtime directory tells the restart."""
    chain.state = ext4.root / "state"
    process, acks = start(chain)
    press(chain, process, PLAY)
    ext4.turn_read_only()
    press(chain, process, "123123")
    assert any(n.startswith("Not saving") for n in stop(process, acks, signal.SIGKILL))
    process, acks = start(chain)  # the disk is still read-only: no crash loop either
    assert "Unsaved actions lost" in stop(process, acks)


def test_a_read_only_state_directory_starts_and_plays_not_saving(chain, ext4):
    chain.state = ext4.root / "state"
    process, acks = start(chain)
    press(chain, process, PLAY)
    stop(process, acks)
    subprocess.run(["mount", "-o", "remount,ro", str(ext4.root)], check=True)
    process, acks = start(chain)  # READY, not exit 2
    press(chain, process, PLAY)
    assert process.poll() is None
    assert "Not saving: read-only" in stop(process, acks)


@pytest.mark.parametrize("how", ["deleted", "replaced"])
def test_no_second_writer_when_the_lock_file_is_deleted_or_replaced(chain, how):
    first, acks = start(chain)
    lock = chain.state / "lock"
    lock.unlink()
    if how == "replaced":
        lock.write_text("")
    second, other = chain.spawn()
    assert second.wait(timeout=60) == 2  # a safety net: it is refused at once
    second.stdin.close()
    os.close(other)
    assert "another companion" in chain.stderr.read_text()
    stop(first, acks)


@pytest.mark.parametrize("name", ["lock", "journal.sqlite3", "journal.sqlite3-wal",
                                  "journal.sqlite3-shm", "journal.sqlite3-unsaved"])
def test_a_link_in_the_state_directory_is_never_followed(chain, tmp_path, name):
    chain.state.mkdir(mode=0o700)
    target = tmp_path / "precious"
    target.write_bytes(b"someone else's file\n")
    target.chmod(0o644)
    (chain.state / name).symlink_to(target)
    process, acks = start(chain)
    press(chain, process, PLAY)
    notices = stop(process, acks)
    assert target.read_bytes() == b"someone else's file\n"
    assert target.stat().st_mode & 0o777 == 0o644
    assert (chain.state / name).is_symlink()  # refused, left for a person to look at
    if name != "lock":  # the lock file only notes the pid: the log says it was not followed
        assert "Not saving: symlink" in notices


def test_an_immutable_shm_file_is_no_sigbus(chain):
    """A -shm left by a reader of the journal, then made immutable: the table never maps it."""
    process, acks = start(chain)
    press(chain, process, PLAY)
    stop(process, acks, signal.SIGKILL)
    shm = chain.state / "journal.sqlite3-shm"
    shm.write_bytes(b"")
    if subprocess.run(["chattr", "+i", str(shm)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is refused here (needs root on ext4)")
    try:
        process, acks = start(chain)
        press(chain, process, "123123")
        assert process.poll() is None
        notices = stop(process, acks)
        assert process.returncode == 0 and not any("Not saving" in n for n in notices)
    finally:
        subprocess.run(["chattr", "-i", str(shm)], check=True)
