"""Reading a small text file a person hands us (table.toml, a table script, a deck list).

A path can name anything: ``/dev/zero`` (endless), ``/dev/urandom``, a FIFO (``open`` blocks
until a writer comes), a directory, a huge log. So the file is opened without blocking,
must be a regular file, and is read only up to its limit; the message says which of these
was wrong and what to do.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .exc import UnreadableFile


def read_small_text(path: str | Path, limit: int, what: str) -> str:
    """The UTF-8 text of ``path``, at most ``limit`` bytes; ``what`` names it in messages."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as error:
        raise UnreadableFile(f"{path}: cannot read it ({error.strerror}); check the path") \
            from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile(f"{path}: not a regular file; give the path of a {what}")
        if info.st_size > limit:
            raise UnreadableFile(f"{path}: {info.st_size} bytes is too big for a {what} "
                                 f"(max {limit}); is it the right file?")
        raw = file.read(limit + 1)
    if len(raw) > limit:  # it grew while we looked
        raise UnreadableFile(f"{path}: too big for a {what} (max {limit} bytes)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UnreadableFile(f"{path}: not UTF-8 text (byte {error.start}); save it as UTF-8") \
            from None
