"""The service's recent log lines, kept in memory for the table's page.

A handler on the root logger keeps the last LINES lines, each cut to WIDTH characters, so
the page shows what journald holds without reading it (the service's user may not). Log
lines never hold a secret (no key, seed, hand or link is ever logged), so keeping them is safe.
"""

from __future__ import annotations

import collections
import logging
import threading

LINES = 200
WIDTH = 300


class RecentLog(logging.Handler):
    """The last LINES records, formatted, oldest first."""

    def __init__(self) -> None:
        super().__init__()  # what the root logger passes on: the levels journald gets
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        self._lines: collections.deque[str] = collections.deque(maxlen=LINES)
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        line = self.format(record)[:WIDTH]
        with self._guard:
            self._lines.append(line)

    def lines(self) -> list[str]:
        with self._guard:
            return list(self._lines)
