"""``companion voices``: make every scripted prompt once, and the table's speaker.

The prompts worth making ahead are the steps of the games' narrations (the They Live
Invader check first): they are found by value in the game modules, so a new narration in a new
game is voiced without a list to keep up to date. Other narration (a seat number, a card name)
is voiced on demand when espeak-ng is there, and stays text when it is not.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from engine import registry
from engine.narration import Narration
from hardware.base import Speaker
from hardware.drivers.voice import (
    DEFAULT_VOICE,
    MaskingPlan,
    PromptCache,
    Synthesizer,
    espeak_synthesizer,
    open_speaker,
)

from .statedir import choose_state_dir, prepare_state_dir

GAMES_PACKAGE = "engine.games."


def prompt_cache(state: Path | None, voice: str = DEFAULT_VOICE,
                 synthesize: Synthesizer | None = None) -> PromptCache:
    """The prompts live in the state directory (mode 0700, made here if need be)."""
    directory = prepare_state_dir(choose_state_dir(state)) / "voice"
    return PromptCache(directory, voice, synthesize or espeak_synthesizer())


def narrations() -> list[Narration]:
    """Every narration defined in a game module, each once, in a stable order."""
    registry.all_games()  # imports every game module
    found: dict[str, Narration] = {}
    for name, module in sorted(sys.modules.items()):
        if name.startswith(GAMES_PACKAGE):
            for value in vars(module).values():
                if isinstance(value, Narration):
                    found.setdefault(value.name, value)
    return list(found.values())


def masking_plan(known: Iterable[Narration]) -> MaskingPlan:
    """Noise from each narration's first prompt to its last, capped at its length."""
    spoken = [narration for narration in known if narration.steps]
    return MaskingPlan(
        starts={narration.steps[0].text: narration.duration for narration in spoken},
        stops=frozenset(narration.steps[-1].text for narration in spoken),
    )


def prompt_texts() -> list[str]:
    texts = (step.text for narration in narrations() for step in narration.steps)
    return list(dict.fromkeys(texts))


def make_voices(state: Path | None, voice: str = DEFAULT_VOICE,
                synthesize: Synthesizer | None = None, out: TextIO | None = None) -> int:
    """The command's body: make the missing prompts; 1 when espeak-ng is missing."""
    out = out or sys.stdout
    cache = prompt_cache(state, voice, synthesize)
    if cache.synthesize is None:
        print("companion voices: espeak-ng is not installed (apt install espeak-ng); "
              "narration will show as text only", file=out)
        return 1
    texts = prompt_texts()
    made = sum(cache.make(text) for text in texts)
    print(f"{len(texts)} prompts in {cache.directory} ({made} made now, voice {voice})", file=out)
    return 0


def table_speaker(state: Path | None, volume_percent: int, masking: bool) -> Speaker | None:
    """The speaker for ``companion play``, or None: then narration is text on the screens."""
    plan = masking_plan(narrations()) if masking else None
    return open_speaker(prompt_cache(state), volume=volume_percent / 100, masking=plan)
