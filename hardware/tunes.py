"""The buzzer's named tunes: short, distinct, and the same for every seat (the buzzer is public).

With VIBRATION_PATTERNS below these are the ONE table of each kind of cue: every buzzer plays
TUNES, and the GPIO motors and the pods (sent the timings, not the name) run
VIBRATION_PATTERNS. The names are the games' cue vocabulary, engine/cues.py; hardware does not
import the engine, so tests/test_cues.py holds the tables to it, and every output to rendering
all of it.

A tune is a list of ``(note, seconds)`` steps; the note is a name gpiozero's ``Tone`` reads
("C6") or None for a rest. Notes stay within A3..A7, the range
:class:`hardware.drivers.gpio.GpioBuzzer` gives a passive piezo (which is loudest in the upper
octaves). An active buzzer has one pitch: it plays the rhythm only, each note slightly shortened
so repeated notes stay separate.
"""

from __future__ import annotations

from gpiozero.tones import Tone

Note = tuple[str | None, float]

TUNES: dict[str, tuple[Note, ...]] = {
    # One dry click a second under a running hourglass: must stay out of the way.
    "tick": (("C7", 0.03),),
    "join": (("E6", 0.06), ("A6", 0.1)),
    "start": (("C6", 0.1), ("E6", 0.1), ("G6", 0.1), ("C7", 0.3)),
    "turn": (("G6", 0.08), (None, 0.04), ("C7", 0.12)),
    "warning": (("A6", 0.12), (None, 0.1), ("A6", 0.12), (None, 0.1), ("A6", 0.12)),
    "alarm": (("E7", 0.12), ("A6", 0.12)) * 5,
    "reveal": (("C6", 0.07), ("G6", 0.07), ("C7", 0.07), ("G7", 0.25)),
    "win": (("C6", 0.1), ("E6", 0.1), ("G6", 0.1), ("C7", 0.15), (None, 0.05), ("G6", 0.1),
            ("C7", 0.4)),
    "lose": (("G5", 0.2), ("E5", 0.2), ("C5", 0.2), ("G4", 0.5)),
    "error": (("A4", 0.12), (None, 0.05), ("A4", 0.25)),
    # A game with winners and losers at one table: neither triumphant nor mournful.
    "end": (("C6", 0.15), ("G6", 0.15), ("C7", 0.3)),
}

ACTIVE_GAP = 0.2  # the share of each note an active buzzer stays silent


def tune(name: str) -> tuple[Note, ...]:
    """The steps of a named tune; an unknown name is a programming error worth a clear message."""
    try:
        return TUNES[name]
    except KeyError:
        raise ValueError(f"unknown tune {name!r}; known tunes: {', '.join(TUNES)}") from None


def duration(name: str) -> float:
    return sum(seconds for _, seconds in tune(name))


def tones(name: str) -> tuple[tuple[int, int], ...]:
    """The tune as ``(hz, ms)`` steps (0 Hz: a rest), for a seat that plays it itself (a
    pod's piezo, a phone)."""
    return tuple((round(Tone(note).frequency) if note else 0, round(seconds * 1000))
                 for note, seconds in tune(name))


def level(volume: float) -> int:
    """A volume (0 silent .. 1 loudest) as a seat's own player takes it: 0..255."""
    return round(max(0.0, min(1.0, volume)) * 255)


def rhythm(name: str) -> tuple[tuple[bool, float], ...]:
    """The tune as on/off steps for an active buzzer (one pitch): notes separated by a gap."""
    steps: list[tuple[bool, float]] = []
    for note, seconds in tune(name):
        if note is None:
            steps.append((False, seconds))
        else:
            steps += [(True, seconds * (1 - ACTIVE_GAP)), (False, seconds * ACTIVE_GAP)]
    return tuple(steps)


# (on seconds, off seconds, repeats): a seat's private cues on its vibration motor.
VIBRATION_PATTERNS: dict[str, tuple[float, float, int]] = {
    "short": (0.15, 0.0, 1),
    "long": (0.6, 0.0, 1),
    "double": (0.12, 0.12, 2),
    "turn": (0.3, 0.0, 1),
    "warning": (0.2, 0.15, 3),
    "error": (0.08, 0.08, 3),
}


def felt_seconds(pattern: str) -> float:
    """How long a pattern runs, first pulse to last: how long a simulator shows it."""
    on_time, off_time, repeats = vibration(pattern)
    return on_time * repeats + off_time * (repeats - 1)


def heard(name: str, volume: float) -> str:
    """A tune as a simulator's buzzer writes it: its name, and how loud when not loudest."""
    tune(name)  # an unknown name fails here as on a real buzzer
    if volume <= 0:
        return f"{name} (muted)"
    return name if volume >= 1 else f"{name} (quiet)"


def vibration(pattern: str) -> tuple[float, float, int]:
    """A named vibration pattern; an unknown name is a ValueError listing the known ones."""
    try:
        return VIBRATION_PATTERNS[pattern]
    except KeyError:
        known = ", ".join(VIBRATION_PATTERNS)
        raise ValueError(f"unknown vibration pattern {pattern!r}; known: {known}") from None
