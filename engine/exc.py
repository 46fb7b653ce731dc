"""Errors raised by the rules engine.

One root error, and each leaf is also a builtin, as in gpiozero: callers that only know Python
can still catch ``ValueError``. Messages are read by players on a 21-character line, so they
are short and never name another seat's secret.
"""


class EngineError(Exception):
    """Base class for every error the rules engine raises."""


class IllegalAction(EngineError, ValueError):
    """A seat asked for something the rules do not allow right now."""


class SetupError(EngineError, ValueError):
    """A game cannot start with these seats or options."""


class UnknownGame(EngineError, KeyError):
    """No game is registered under that key."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"
