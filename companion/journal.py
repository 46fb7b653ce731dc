"""Where applied actions go before their effects play.

:class:`NullJournal` keeps nothing (tests, scripts); the durable SQLite journal implements
the same calls, so the app neither knows nor cares which one it has.
"""

from __future__ import annotations

from typing import Protocol

from engine.api import State

from .record import GameRecord, JournaledAction


class Journal(Protocol):
    # Short texts for every seat: what a start found (a journal set aside, actions lost),
    # and when saving stops or starts again. The app shows each once and empties the list.
    notices: list[str]

    @property
    def behind(self) -> bool:
        """Writes the disk refused are waiting: the app calls :meth:`catch_up` now and then."""

    def catch_up(self) -> bool:
        """Write what is waiting, in order; True once nothing waits."""

    def settle(self) -> bool:
        """Wait until every write handed over is durable (False: the disk refused one, now
        held). Nothing the table shows or plays after a write goes out before this."""

    def resume(self) -> tuple[GameRecord, State] | None:
        """The unfinished game to continue after a restart, replayed, if there is one."""

    def begin(self, record: GameRecord) -> None: ...

    def append(self, record: GameRecord, entry: JournaledAction) -> None:
        """Start making ``entry`` durable (:meth:`settle` waits for it), or hold it, in
        order, while the disk refuses writes: the game goes on."""

    def truncate(self, record: GameRecord, length: int) -> None:
        """Forget entries past ``length`` (undo)."""

    def remember(self, record: GameRecord, at: float) -> None:
        """Note the game's moment while a timer runs: how far to resume after a crash."""

    def finish(self, record: GameRecord) -> None: ...

    def close(self) -> None: ...


class NullJournal:
    def __init__(self) -> None:
        self.notices: list[str] = []

    @property
    def behind(self) -> bool:
        return False

    def catch_up(self) -> bool:
        return True

    def settle(self) -> bool:
        return True

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
