"""Narration voice: cached espeak-ng prompts, the mixer, masking, and the text-only fallback."""

from __future__ import annotations

import array
import os
import shutil
import subprocess
import sys
import wave
from collections.abc import Iterator, Sequence
from pathlib import Path

import pygame
import pytest

from companion.app import App
from companion.clock import FakeClock
from companion.lobby import StartGame
from companion.voices import make_voices, masking_plan, prompt_texts
from engine.api import Action, Buzz, Effect, Game, Narrate, SeatView, State
from engine.narration import Narration, NarrationRun, Step
from hardware.base import Speaker
from hardware.drivers.voice import (
    MixerSpeaker,
    PromptCache,
    espeak_synthesizer,
    open_speaker,
    prompt_key,
)
from hardware.headless import HeadlessTable
from tests.dealing import deal

CHECK = Narration("check", (Step("Everyone hide.", 4.0, "warning"), Step("Invaders wake.", 6.0,
                                                                       "tick"),
                         Step("Everyone wake.", 2.0, "start")))
WAIT = 10.0  # seconds a test waits at most for the speaker thread


class Synth:
    """A fake espeak-ng: writes a short WAV for any text, and counts its calls."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.calls: list[str] = []

    def __call__(self, text: str, voice: str, out: Path) -> None:
        self.calls.append(text)
        samples = array.array("h", [8000, -8000] * round(self.seconds * 11025))
        with wave.open(str(out), "wb") as file:
            file.setnchannels(1)
            file.setsampwidth(2)
            file.setframerate(22050)
            file.writeframes(samples.tobytes())


@pytest.fixture
def speaker_of(tmp_path: Path) -> Iterator:
    opened: list[MixerSpeaker] = []

    def make(synth: Synth | None = None, **options) -> MixerSpeaker:
        speaker = MixerSpeaker(PromptCache(tmp_path / "voice", synthesize=synth), **options)
        opened.append(speaker)
        return speaker

    yield make
    for speaker in opened:
        speaker.close()


def test_cache_prompt_key_depends_on_text_and_voice():
    """Another text or another voice is another prompt file."""
    keys = {prompt_key("Invaders wake.", "en-gb"), prompt_key("Invaders hide.", "en-gb"),
            prompt_key("Invaders wake.", "en-us")}
    assert len(keys) == 3


def test_cache_makes_each_prompt_once(tmp_path):
    """A prompt is synthesized the first time and read from the state directory after."""
    synth = Synth(0.1)
    cache = PromptCache(tmp_path / "voice", synthesize=synth)
    first, second = cache.get("Everyone wake."), cache.get("Everyone wake.")
    assert first == second and first is not None and first.exists()
    assert synth.calls == ["Everyone wake."]


def test_cache_without_espeak_uses_only_prompts_made_before(tmp_path):
    """Without a synthesizer a cached prompt is still found; a new text has none."""
    PromptCache(tmp_path, synthesize=Synth(0.1)).get("Everyone hide.")
    offline = PromptCache(tmp_path, synthesize=None)
    assert offline.get("Everyone hide.") is not None
    assert offline.get("Seat 3 plays") is None


def test_cache_failed_synthesis_leaves_no_file(tmp_path):
    """espeak-ng failing leaves neither a prompt nor half of one: the text stays on screen."""

    def broken(text: str, voice: str, out: Path) -> None:
        out.write_bytes(b"RIFF")
        raise subprocess.CalledProcessError(1, "espeak-ng")

    cache = PromptCache(tmp_path, synthesize=broken)
    assert cache.get("Everyone hide.") is None
    assert list(tmp_path.iterdir()) == []


def test_mixer_plays_the_prompt(speaker_of):
    """Saying a text starts its prompt on the mixer (SDL's dummy audio here)."""
    speaker = speaker_of(Synth(3.0), volume=0.5)
    speaker.say("Invaders wake.")
    assert speaker.wait_idle(WAIT)
    assert speaker.spoken == ["Invaders wake."]
    assert speaker.is_speaking()
    assert pygame.mixer.Channel(0).get_sound().get_volume() == pytest.approx(0.5, abs=0.01)


def test_mixer_plays_prompts_one_after_another(speaker_of):
    """Two narrations said together are both spoken, in order."""
    speaker = speaker_of(Synth(0.05))
    speaker.say("Seat 3 takes POWER.")
    speaker.say("Seat 3 draws a Hero.")
    assert speaker.wait_idle(WAIT)
    assert speaker.spoken == ["Seat 3 takes POWER.", "Seat 3 draws a Hero."]


def test_mixer_closes_when_silent_and_a_tune_still_plays(speaker_of):
    """Silence closes the audio device (its audio thread would wake the table ~43 times a
    second); the next tune opens it again and is played."""
    speaker = speaker_of(None, silent_close=0.05)
    assert speaker.wait_closed(WAIT)
    assert not pygame.mixer.get_init() and not _audio_threads()
    speaker.play("alarm")
    assert speaker.wait_idle(WAIT)
    # A tune is counted only once it started on an open device (on a closed one pygame
    # refuses it); the device may close again right after, so its thread is not asked for.
    assert speaker.chimed == ["alarm"]


def _audio_threads() -> list[str]:
    """The names of SDL's audio threads in this process."""
    names = (task / "comm" for task in Path("/proc/self/task").iterdir())
    return [name for path in names if (name := path.read_text().strip()).startswith("SDLAudio")]


def test_mixer_text_without_prompt_is_skipped(speaker_of):
    """Without espeak-ng and without a cached prompt the speaker stays quiet and moves on."""
    speaker = speaker_of(None)
    speaker.say("Seat 2 (Jack) plays")
    assert speaker.wait_idle(WAIT)
    assert speaker.spoken == [] and not speaker.is_speaking()


def test_masking_noise_covers_a_private_script(speaker_of):
    """With masking on, the noise starts with the check's first prompt."""
    speaker = speaker_of(Synth(0.05), masking=masking_plan([CHECK]))
    speaker.say("Everyone hide.")
    assert speaker.wait_idle(WAIT)
    assert speaker.is_masking()


def test_masking_plan_runs_from_first_to_last_step():
    """The noise starts on a script's first prompt, ends on its last, capped by its length."""
    plan = masking_plan([CHECK])
    assert plan.starts == {"Everyone hide.": 12.0}
    assert plan.stops == frozenset({"Everyone wake."})


def test_fallback_muted_table_has_no_speaker(tmp_path):
    """Volume 0 means text only: no speaker is opened."""
    assert open_speaker(PromptCache(tmp_path), volume=0) is None


def test_fallback_no_audio_device_means_text_only(tmp_path, monkeypatch):
    """When no audio device opens, the table runs without a speaker instead of failing."""
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-audio-driver")
    assert open_speaker(PromptCache(tmp_path), volume=0.8) is None


# ------------------------------------------------------------ same timing with and without voice


class ScriptedState(State):
    """A one-action game that runs :data:`CHECK` on the clock, as the Invader check does."""

    def __init__(self, seats: Sequence[int], seed: bytes) -> None:
        super().__init__(seats, {}, seed)
        self.run: NarrationRun | None = None
        self.step = 0
        self.done = False

    def active_seats(self) -> frozenset[int]:
        return frozenset() if self.run else frozenset(self.seats[:1])

    def legal_actions(self, seat: int) -> list[Action]:
        return [] if self.run or self.done else [Action("check", "Start the check")]

    def _apply(self, seat: int, action: Action, now: float) -> list[Effect]:
        self.run = NarrationRun(CHECK, now)
        return self._said(0)

    def _said(self, index: int) -> list[Effect]:
        step = CHECK.steps[index]
        return [Narrate(step.text), Buzz(step.tune or "tick")]

    def next_deadline(self) -> float | None:
        if self.run is None:
            return None
        return self.run.started + sum(step.seconds for step in CHECK.steps[: self.step + 1])

    def advance(self, now: float) -> list[Effect]:
        self.step += 1
        if self.step == len(CHECK.steps):
            self.run, self.done = None, True
            return []
        return self._said(self.step)

    def view(self, seat: int | None, now: float) -> SeatView:
        return SeatView("Check", ("running" if self.run else "idle",))

    def is_terminal(self) -> bool:
        return self.done

    def result(self) -> str | None:
        return "checked" if self.done else None


class ScriptedGame(Game):
    key, name, min_players, max_players = "scripted", "Scripted", 1, 8

    def new_state(self, seats, options, seed) -> State:
        return ScriptedState(seats, seed)


class RecordingSpeaker(Speaker):
    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, text: str, volume: float = 1.0) -> None:
        self.said.append(text)

    def play(self, tune: str, volume: float = 1.0) -> None:
        """The headless table's buzzer sounds: the speaker is not asked for tunes."""


def play_check(speaker: Speaker | None) -> list[tuple[float, str, str]]:
    """Run the check on a simulated table; what each moment showed on seat 2, and the tunes."""
    clock = FakeClock(0.0)
    with HeadlessTable([1, 2], lambda event: None, clock=clock) as table:
        table.hardware.speaker = speaker
        app = App(table.hardware, clock=clock, key_source=lambda n: bytes(n))
        app.start()
        deal(app, StartGame(ScriptedGame(), (1, 2), {}), 0.0)
        app.choose(1, "check", 1.0)
        app.redraw()
        seen = [(clock.now, app.screens.faces[2].text(), ",".join(app.effects.tunes))]
        while (deadline := app.next_deadline()) is not None and deadline < 30:
            clock.now = deadline
            app.advance()
            seen.append((clock.now, app.screens.faces[2].text(), ",".join(app.effects.tunes)))
    return seen


def test_fallback_no_speaker_keeps_text_tunes_and_timing():
    """Without a speaker every step still shows on the seats, with its tune, at the same moment."""
    recording = RecordingSpeaker()
    voiced, silent = play_check(recording), play_check(None)
    assert silent == voiced
    assert recording.said == [step.text for step in CHECK.steps]
    shown = "\n".join(text for _, text, _ in silent)
    assert all(step.text in shown for step in CHECK.steps)


# ------------------------------------------------------------ companion voices, real espeak-ng


def test_voices_command_makes_every_scripted_prompt(tmp_path, monkeypatch, capsys):
    """`companion voices` makes one prompt per narration step, in the state directory."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    synth = Synth(0.05)
    assert make_voices(None, synthesize=synth) == 0
    texts = prompt_texts()
    assert sorted(synth.calls) == sorted(texts)
    assert len(list((tmp_path / "voice").glob("*.wav"))) == len(texts)
    assert f"{len(texts)} prompts" in capsys.readouterr().out


def test_voices_command_without_espeak_says_so(tmp_path, monkeypatch, capsys):
    """Without espeak-ng the command says how to get it and fails."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert make_voices(None) == 1
    assert "espeak-ng is not installed" in capsys.readouterr().out


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_real_espeak_prompt_plays(tmp_path):
    """The real espeak-ng makes a WAV prompt that the mixer plays."""
    synth = espeak_synthesizer()
    speaker = MixerSpeaker(PromptCache(tmp_path / "real", synthesize=synth))
    try:
        speaker.say("Invader check. Everyone hide.")
        assert speaker.wait_idle(WAIT)
        assert speaker.spoken == ["Invader check. Everyone hide."]
    finally:
        speaker.close()
    wav = next((tmp_path / "real").glob("*.wav"))
    with wave.open(str(wav)) as file:
        assert file.getnframes() / file.getframerate() > 0.5


NO_CARD = """
import sys
from pathlib import Path
from hardware.drivers.voice import MixerSpeaker, PromptCache
from hardware.exc import AudioUnavailable
try:
    MixerSpeaker(PromptCache(Path(sys.argv[1])))
except AudioUnavailable as error:
    print(f"no audio device ({error})")
"""


def test_no_sound_card_leaves_no_alsa_lines_on_the_terminal(tmp_path):
    """SDL looking through ALSA for a device that is not there made alsa-lib print its own
    lines to stderr, over the simulated table and left behind when it quit: a real process,
    sent to a device no machine has, says only that there is no audio device."""
    env = {**os.environ, "SDL_AUDIODRIVER": "alsa", "AUDIODEV": "no-such-card",
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    done = subprocess.run([sys.executable, "-c", NO_CARD, str(tmp_path)], env=env,
                          capture_output=True, text=True, check=True)
    assert done.stdout.startswith("no audio device (ALSA"), done
    assert "ALSA lib" not in done.stderr and done.stderr == "", done.stderr
