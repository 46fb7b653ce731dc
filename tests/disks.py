"""Real small file systems for tests that fill or break a disk, skipped where none mounts."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from bench.disk import NoSmallDisk


def mounted_or_skip(mount: Callable[[Path], AbstractContextManager[Path]], where: Path,
                    needs: str) -> Iterator[Path]:
    """Mount a small file system at ``where`` for one test, or skip it saying what it needs."""
    try:
        with mount(where) as mounted:
            yield mounted
    except NoSmallDisk as why:
        pytest.skip(f"{needs}: {why}")
