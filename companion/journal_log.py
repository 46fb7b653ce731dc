"""Log lines that journald files under their priority, so ``journalctl -p warning`` filters.

Under systemd stderr is a stream to the journal, and systemd says so in ``JOURNAL_STREAM``
(the stream's ``device:inode``). journald reads a ``<N>`` at the start of a line as its
syslog priority (``SyslogLevelPrefix=``, on by default), strips it, and files the line under
it; a line without one is filed as info, so before this every warning and error looked alike.
``journalctl -p warning`` shows priorities 0 to 4: warnings, errors and worse. Each line of a
record gets the prefix, so a traceback stays with its error. Anywhere else (a terminal, a
pipe, a file) the lines are left as they were: a person reads no ``<4>``.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import TextIO

FORMAT = "%(levelname)s %(name)s: %(message)s"
# Python's levels as syslog's priorities (sd-daemon(3)): 2 crit, 3 err, 4 warning, 6 info,
# 7 debug; in between, the nearer priority below (a custom level 35 is a warning).
PRIORITIES = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4),
              (logging.INFO, 6))
DEBUG_PRIORITY = 7


def priority(level: int) -> int:
    return next((value for floor, value in PRIORITIES if level >= floor), DEBUG_PRIORITY)


def to_journal(stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``stream`` is the journal stream systemd gave this process."""
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError):  # a closed or in-memory stream
        return False
    return environ.get("JOURNAL_STREAM") == f"{info.st_dev}:{info.st_ino}"


def journal_lines(text: str, level: int) -> str:
    """``text`` with journald's priority prefix on every line."""
    prefix = f"<{priority(level)}>"
    return "\n".join(prefix + line for line in text.splitlines())


class JournalFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return journal_lines(super().format(record), record.levelno)


def log_handler(stream: TextIO = sys.stderr,
                environ: Mapping[str, str] = os.environ) -> logging.Handler:
    """The companion's one log handler: ``stream``, with priorities when it is the journal."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JournalFormatter(FORMAT) if to_journal(stream, environ)
                         else logging.Formatter(FORMAT))
    return handler
