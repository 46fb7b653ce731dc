"""Where applied actions go before their effects play.

:class:`NullJournal` keeps nothing (tests, scripts); the durable SQLite journal implements
the same calls, so the app neither knows nor cares which one it has.
"""

from __future__ import annotations

from typing import Protocol

from engine.api import State

from .record import GameRecord, JournaledAction


class Journal(Protocol):
    notices: list[str]  # short texts for every seat after a start (a journal set aside...)

    def resume(self) -> tuple[GameRecord, State] | None:
        """The unfinished game to continue after a restart, replayed, if there is one."""

    def begin(self, record: GameRecord) -> None: ...

    def append(self, record: GameRecord, entry: JournaledAction) -> None:
        """Make ``entry`` durable; returns only once it would survive a power cut."""

    def truncate(self, record: GameRecord, length: int) -> None:
        """Forget entries past ``length`` (undo)."""

    def remember(self, record: GameRecord, at: float) -> None:
        """Note the game's moment while a timer runs: how far to resume after a crash."""

    def finish(self, record: GameRecord) -> None: ...

    def close(self) -> None: ...


class NullJournal:
    def __init__(self) -> None:
        self.notices: list[str] = []

    def resume(self) -> tuple[GameRecord, State] | None:
        return None

    def begin(self, record: GameRecord) -> None:
        pass

    def append(self, record: GameRecord, entry: JournaledAction) -> None:
        pass

    def truncate(self, record: GameRecord, length: int) -> None:
        pass

    def remember(self, record: GameRecord, at: float) -> None:
        pass

    def finish(self, record: GameRecord) -> None:
        pass

    def close(self) -> None:
        pass
