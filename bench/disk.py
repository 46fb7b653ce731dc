"""A real, small disk that fills up: a tmpfs of a few hundred KiB mounted for one test.

A full disk is not mocked: writes fail with ENOSPC from the kernel, as on a Pi whose SD card
filled up. Mounting needs root (or a user namespace); :func:`small_disk` raises
:class:`NoSmallDisk` where it cannot, and a test skips.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path


class NoSmallDisk(Exception):
    """This machine will not mount a tmpfs for us (not root)."""


class SmallDisk:
    """A mounted tmpfs: :meth:`fill` takes every free byte, :meth:`free` gives them back."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.filler = root / "filler"

    def fill(self) -> None:
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            for size in (65536, 4096, 1):  # down to the last byte a page leaves
                try:
                    while True:
                        os.write(fd, b"\0" * size)
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
        finally:
            os.close(fd)

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)

    def is_full(self) -> bool:
        stats = os.statvfs(self.root)
        return stats.f_bavail == 0


@contextlib.contextmanager
def small_disk(where: Path, size_kib: int = 512) -> Iterator[SmallDisk]:
    where.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_kib}k,mode=0700", "tmpfs", str(where)],
        capture_output=True, check=False)
    if mounted.returncode != 0:
        raise NoSmallDisk(mounted.stderr.decode(errors="replace").strip() or "mount failed")
    try:
        yield SmallDisk(where)
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False, capture_output=True)
