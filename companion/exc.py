"""Errors raised by the companion.

One root error, as the engine has (:mod:`engine.exc`) and as in gpiozero: a caller can catch
everything the companion raises with :class:`CompanionError`, and a leaf that is also a
builtin stays one (``except OSError`` still catches :class:`StateDirBusy`).
"""


class CompanionError(Exception):
    """Base class for every error the companion raises."""


class Unreadable(CompanionError):
    """The file is not a journal this version can read (garbage, damage, another schema)."""


class StateDirBusy(CompanionError, OSError):
    """Another companion holds the state directory: two writers would corrupt each other's
    game (a resumed game answered twice, a finished game marked by the wrong process)."""


class LinkRefused(CompanionError, OSError):
    """A symbolic link stands where the journal keeps a file: it is never followed (a write
    through it would truncate or chmod its target), so nothing is saved until it is gone."""


class ScriptError(CompanionError):
    """A script line that cannot be read or whose expectation failed."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


class Expectation(CompanionError):
    """A script's expectation that did not hold."""


class ScriptFailed(CompanionError):
    """A script that did not pass, with the file and line in its message."""


class AuditError(CompanionError):
    """The journal or the game asked for cannot be audited (missing, unfinished)."""
