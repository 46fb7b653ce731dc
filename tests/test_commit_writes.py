"""A journal commit reaches the card before the table shows it: counted by the kernel on a
real loop-mounted ext4 made and mounted as Raspberry Pi OS's root (root only)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from bench import commit_writes
from bench.disk import NoSmallDisk
from companion.journal_file import CHECKPOINT_COMMITS
from tests.disks import mounted_or_skip


@pytest.fixture
def cached_root(tmp_path: Path):
    yield from mounted_or_skip(partial(commit_writes.pi_root, cache=True), tmp_path / "disk",
                               "needs root to loop-mount an ext4")


def test_every_settled_append_was_written_and_flushed_to_the_device(cached_root):
    """Each append, once settled, has sent the device a write and a flush (with
    ``synchronous`` OFF it would have sent nothing yet: a power cut would lose what the
    table showed), and its tally after it; and none sends a storm of them."""
    commits = commit_writes.counted(cached_root.root, cached_root.device, 120)
    assert len(commits) == 120
    for commit in commits:
        for requests in (commit.commit, commit.tally):
            assert requests.writes >= 1
            assert requests.flushes >= 1
            assert requests.writes <= 16


def test_a_commit_overwrites_the_log_in_place_from_the_first_append(tmp_path):
    """From a fresh journal's first append on, a commit sends the card one data write and
    one flush (the log given its length at open: no growing file's metadata), and the
    checkpoint's writes never fall inside a commit: they come after the tally, on the flusher,
    every CHECKPOINT_COMMITS commits; the commit after one writes the restarted log's header
    too (two and two). Counted on the card without a cache (data writes) and with one."""
    try:
        commits = commit_writes.card_commits(tmp_path, 2 * CHECKPOINT_COMMITS + 8)
    except NoSmallDisk as why:
        pytest.skip(f"needs root to loop-mount an ext4: {why}")
    checkpointed = [i for i, c in enumerate(commits) if c.checkpoint.writes]
    assert checkpointed == [CHECKPOINT_COMMITS - 2, 2 * CHECKPOINT_COMMITS - 2]  # begin's too
    for index, commit in enumerate(commits):
        restarted = index - 1 in checkpointed
        assert (commit.commit.writes, commit.commit.flushes) == ((2, 2) if restarted else (1, 1))
        assert (commit.tally.writes, commit.tally.flushes) == (1, 1)
