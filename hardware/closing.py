"""One ``with`` protocol for everything the table opens and must close."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Self


class Closing(ABC):
    """Closed when a ``with`` block ends, however it ends: the subclass says how in close()."""

    @abstractmethod
    def close(self) -> None:
        """Release what this holds (each subclass says what that is)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
