"""A real, small disk that fills up: a tmpfs of a few hundred KiB mounted for one test, or a
loop-mounted ext4 image that also turns read-only as a failing SD card does.

A full disk is not mocked: writes fail with ENOSPC from the kernel, as on a Pi whose SD card
filled up. Mounting needs root (or a user namespace); :func:`small_disk` raises
:class:`NoSmallDisk` where it cannot, and a test skips.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator, Sequence
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


class SmallExt4(SmallDisk):
    """A loop-mounted ext4 image, mounted ``errors=remount-ro`` as Raspberry Pi OS mounts its
    root: :meth:`turn_read_only` makes the kernel meet an error on it, as a failing SD card
    does, and remount it read-only under the open files."""

    def __init__(self, root: Path, device: str) -> None:
        super().__init__(root)
        self.device = device

    def turn_read_only(self) -> None:
        Path(f"/sys/fs/ext4/{self.device}/trigger_fs_error").write_text("1\n")
        if not {"ro", "emergency_ro"} & set(_options(self.root)):
            raise NoSmallDisk("the ext4 error did not remount it read-only")


def _options(where: Path) -> list[str]:
    found = subprocess.run(["findmnt", "-no", "OPTIONS", str(where)], capture_output=True,
                           text=True, check=False)
    return found.stdout.strip().split(",")


@contextlib.contextmanager
def small_ext4(where: Path, size_kib: int = 4096, *, mkfs: Sequence[str] = (),
               options: str = "errors=remount-ro") -> Iterator[SmallExt4]:
    """A fresh ext4 image of ``size_kib`` made with mkfs.ext4 (and its options ``mkfs``) and
    loop-mounted on ``where`` with ``options``."""
    where.mkdir(parents=True, exist_ok=True)
    image = where.with_name(where.name + ".img")
    with image.open("wb") as file:
        file.truncate(size_kib * 1024)
    made = subprocess.run(["mkfs.ext4", "-q", "-F", *mkfs, str(image)], capture_output=True,
                          check=False)
    mounted = subprocess.run(["mount", "-o", f"loop,{options}", str(image), str(where)],
                             capture_output=True, check=False) if made.returncode == 0 else made
    if mounted.returncode != 0:
        image.unlink()
        raise NoSmallDisk(mounted.stderr.decode(errors="replace").strip() or "mount failed")
    try:
        source = subprocess.run(["findmnt", "-no", "SOURCE", str(where)], capture_output=True,
                                text=True, check=False).stdout.strip()
        os.chmod(where, 0o700)
        yield SmallExt4(where, Path(source).name)
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False, capture_output=True)
        image.unlink(missing_ok=True)
