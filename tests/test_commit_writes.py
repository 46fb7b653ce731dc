"""A journal commit reaches the card before the table shows it: counted by the kernel on a
real loop-mounted ext4 made and mounted as Raspberry Pi OS's root (root only)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from bench import commit_writes
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
    growing, steady = commits[:commit_writes.FILLED // 2], commits[commit_writes.FILLED:]
    assert (sum(c.commit.flushes for c in steady) / len(steady)
            < sum(c.commit.flushes for c in growing) / len(growing))
