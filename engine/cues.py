"""The cues a game may name: the buzzer's tunes and the vibration motors' patterns.

This is the whole vocabulary. Every output (GPIO buzzer and motors, a pod's motor, the
speaker, the public screen, the terminal and the window) renders every member, and a test
checks that it does, so a game can never ask an output for a cue it does not know.
"""

from __future__ import annotations

from enum import StrEnum


class Tune(StrEnum):
    """Public sounds on the shared buzzer: every seat hears them, so none carries a secret."""

    TICK = "tick"
    JOIN = "join"
    START = "start"
    TURN = "turn"
    WARNING = "warning"
    ALARM = "alarm"
    REVEAL = "reveal"
    WIN = "win"
    LOSE = "lose"
    END = "end"
    ERROR = "error"


class Pattern(StrEnum):
    """Private cues on one seat's vibration motor."""

    SHORT = "short"
    LONG = "long"
    DOUBLE = "double"
    TURN = "turn"
    WARNING = "warning"
    ERROR = "error"
