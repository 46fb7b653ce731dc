"""The Invader check as timed scripts, and the PEEK faces of the silent check.

Both modes run on the clock alone: no seat presses anything while the check runs, so nobody's
timing can set an Invader apart. In the narrated mode everyone hears the rulebook's four
steps with a buzzer cue for each (players have their eyes shut); in the silent mode every seat
holds PEEK during the same step and an Invader's face differs from a Human's only in its words,
never in its shape or its duration.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.api import SecretFace
from engine.narration import Script, Step

from .they_live_rules import INVADER, identity_phrase

NARRATED = Script(
    "invader-check",
    (
        Step("Invader check. Everyone hide.", 6.0, "warning"),
        Step("Invaders wake.", 8.0, "tick"),
        Step("Invaders hide.", 4.0, "tick"),
        Step("Everyone wake.", 2.0, "start"),
    ),
)

SILENT = Script(
    "silent-invader-check",
    (
        Step("Get ready to hold PEEK", 5.0, "warning"),
        Step("Hold PEEK now", 8.0, "tick"),
        Step("Release PEEK", 2.0, "start"),
    ),
)

# In both scripts, the step during which the Invaders learn who the others are.
MEET_STEP = 1
CHECK_TITLE = "INVADER CHECK"
FACE_LINES = 3


def script_for(mode: str) -> Script:
    return SILENT if mode == "silent" else NARRATED


def check_face(identity: str, other_invaders: Sequence[int]) -> SecretFace:
    """What a seat sees while holding PEEK in the silent check: same title, same line count."""
    if identity == INVADER:
        names = [identity_phrase(seat, INVADER) for seat in other_invaders] or ["None: only you"]
        lines = ["Other Invaders:", *names]
    else:
        lines = ["Nothing to see.", "Keep holding PEEK", "until the cue."]
    padded = (lines + [""] * FACE_LINES)[:FACE_LINES]
    return SecretFace(CHECK_TITLE, tuple(padded))
