"""Replacing a small file whole: a reader (or a power cut) sees the old text or the new one.

The text goes to a temporary file in the same directory (a rename is atomic only within one
file system), is flushed to the disk, and is renamed over the file. The temporary file is
made private by ``mkstemp`` (mode 0600) and given ``mode`` before the rename, so the file
never stands readable by more people than it was meant for.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str, mode: int | None = None) -> None:
    """Put ``text`` at ``path`` whole; ``mode`` (None: 0600) is the new file's permissions."""
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            if mode is not None:
                os.fchmod(file.fileno(), mode)
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
