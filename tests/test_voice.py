"""Narration voice: cached espeak-ng prompts, the speaker on a real ALSA device, masking, and
the text-only fallback."""

from __future__ import annotations

import array
import logging
import shutil
import subprocess
import sys
import threading
import wave
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from companion.app import App
from companion.clock import FakeClock
from companion.lobby import StartGame
from companion.voices import make_voices, masking_plan, prompt_texts
from engine.api import Action, Buzz, Effect, Game, Narrate, SeatView, State
from engine.narration import Narration, NarrationRun, Step
from hardware.base import Speaker
from hardware.drivers.voice import (
    MASK_FADE,
    PERIOD,
    RATE,
    MixerSpeaker,
    PromptCache,
    espeak_synthesizer,
    open_speaker,
    prompt_key,
    tune_samples,
)
from hardware.headless import HeadlessTable
from tests.dealing import deal
from tests.speaker_tap import BROKEN, NO_CARD, TAP, Tap

CHECK = Narration("check", (Step("Everyone hide.", 4.0, "warning"), Step("Invaders wake.", 6.0,
                                                                       "tick"),
                         Step("Everyone wake.", 2.0, "start")))
WAIT = 10.0  # seconds a test waits at most for the speaker thread


class Synth:
    """A fake espeak-ng: writes a short WAV (a square wave of ``level``) for any text, and
    counts its calls; with a ``gate`` it waits for the test before writing the first one."""

    def __init__(self, seconds: float, level: int = 8000,
                 gate: threading.Event | None = None) -> None:
        self.seconds = seconds
        self.level = level
        self.gate = gate
        self.making = threading.Event()  # the speaker thread is in the first call
        self.calls: list[str] = []

    def __call__(self, text: str, voice: str, out: Path) -> None:
        self.calls.append(text)
        self.making.set()
        if self.gate is not None and len(self.calls) == 1:
            assert self.gate.wait(WAIT)
        with wave.open(str(out), "wb") as file:
            file.setnchannels(1)
            file.setsampwidth(2)
            file.setframerate(RATE)
            file.writeframes(self.samples().tobytes())

    def samples(self) -> array.array[int]:
        return array.array("h", [self.level, -self.level] * round(self.seconds * RATE / 2))


def near(played: Sequence[int], expected: Sequence[float]) -> bool:
    """The samples played are the expected ones, give or take rounding."""
    return len(played) == len(expected) and all(
        abs(a - b) <= 1 for a, b in zip(played, expected, strict=True))


@pytest.fixture
def speaker_of(tmp_path: Path, tap: Tap) -> Iterator:
    opened: list[MixerSpeaker] = []

    def make(synth: Synth | None = None, **options) -> MixerSpeaker:
        options.setdefault("silent_close", 0.05)
        speaker = MixerSpeaker(PromptCache(tmp_path / "voice", synthesize=synth), **options)
        opened.append(speaker)
        return speaker

    yield make
    for speaker in opened:
        speaker.close()


def heard(speaker: MixerSpeaker, tap: Tap) -> array.array[int]:
    """What the speaker played once all it was given has started and the device closed."""
    assert speaker.wait_idle(WAIT) and speaker.wait_closed(WAIT)
    return tap.played()


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


def test_speaker_plays_the_prompt(speaker_of, tap):
    """Saying a text plays its prompt on the ALSA device, at the speaker's volume."""
    synth = Synth(0.3)
    speaker = speaker_of(synth, volume=0.5)
    speaker.say("Invaders wake.")
    assert near(heard(speaker, tap), [0.5 * v for v in synth.samples()])
    assert speaker.spoken == ["Invaders wake."]


def test_speaker_plays_prompts_one_after_another(speaker_of, tap):
    """Two narrations said together are both spoken, in order, the second after the first."""
    synth = Synth(0.05)
    speaker = speaker_of(synth, volume=1.0)
    speaker.say("Seat 3 takes POWER.")
    speaker.say("Seat 3 draws a Hero.")
    assert near(heard(speaker, tap), list(synth.samples()) * 2)
    assert speaker.spoken == ["Seat 3 takes POWER.", "Seat 3 draws a Hero."]


def test_speaker_plays_a_tune_over_a_prompt(speaker_of, tap):
    """A tune played while a prompt plays does not wait for it: the two are heard at once,
    added together at their own levels."""
    gate = threading.Event()
    synth = Synth(2.0, level=3000, gate=gate)
    speaker = speaker_of(synth, volume=0.5)
    speaker.say("Invaders wake.")
    assert synth.making.wait(WAIT)  # the speaker thread is busy making the prompt
    speaker.play("alarm", 0.4)
    gate.set()
    voice, tune = synth.samples(), tune_samples("alarm")
    assert len(tune) < len(voice)
    expected = [0.5 * v + 0.2 * (tune[i] if i < len(tune) else 0) for i, v in enumerate(voice)]
    assert near(heard(speaker, tap), expected)
    assert speaker.chimed == ["alarm"]


def test_speaker_closes_when_silent_and_a_tune_still_plays(speaker_of, tap):
    """Silence closes the audio device (an open one wakes the table for every buffer); the
    next tune opens it again and is heard."""
    speaker = speaker_of(None, volume=1.0)
    assert speaker.wait_closed(WAIT)
    assert not tap.is_open()
    speaker.play("turn")
    assert near(heard(speaker, tap), tune_samples("turn"))
    assert not tap.is_open()


def test_speaker_text_without_prompt_is_skipped(speaker_of, tap):
    """Without espeak-ng and without a cached prompt the speaker stays quiet and moves on."""
    speaker = speaker_of(None)
    speaker.say("Seat 2 (Jack) plays")
    assert heard(speaker, tap) == array.array("h")
    assert speaker.spoken == []


def test_masking_noise_covers_a_private_script(speaker_of, tap):
    """The noise fades in with the check's first prompt, goes on under the next, and fades
    out once the script's last prompt has ended."""
    gate = threading.Event()
    synth = Synth(0.2, gate=gate)
    speaker = speaker_of(synth, volume=1.0, masking=masking_plan([CHECK]))
    speaker.say("Everyone hide.")
    assert synth.making.wait(WAIT)
    speaker.say("Everyone wake.")
    gate.set()
    played = heard(speaker, tap)
    prompts = 2 * len(synth.samples())
    assert played[:prompts] != synth.samples() * 2  # the noise under the prompts
    # The fade starts in the period the last prompt ends in.
    assert prompts - PERIOD + MASK_FADE < len(played) <= prompts + MASK_FADE
    noise = played[prompts:]
    assert noise[:100] != array.array("h", [0] * 100)  # loud as the fade begins
    assert max(map(abs, noise[-100:])) < 20  # and nearly nothing at its end


def test_masking_noise_stops_by_itself_when_the_script_does_not_end(speaker_of, tap):
    """A script cut short (the game paused) leaves no endless noise: it stops two seconds
    after the script's length."""
    speaker = speaker_of(Synth(0.1), masking=masking_plan([CHECK]))
    speaker.say("Everyone hide.")
    assert len(heard(speaker, tap)) == round((12.0 + 2.0) * RATE)


def test_masking_plan_runs_from_first_to_last_step():
    """The noise starts on a script's first prompt, ends on its last, capped by its length."""
    plan = masking_plan([CHECK])
    assert plan.starts == {"Everyone hide.": 12.0}
    assert plan.stops == frozenset({"Everyone wake."})


def test_fallback_muted_table_has_no_speaker(tmp_path):
    """Volume 0 means text only: no speaker is opened."""
    assert open_speaker(PromptCache(tmp_path), volume=0) is None


def test_fallback_no_audio_device_means_text_only(tmp_path, tap, caplog):
    """When no audio device opens, the table runs without a speaker instead of failing, and
    says why in one line."""
    tap.use(NO_CARD)
    with caplog.at_level(logging.WARNING):
        assert open_speaker(PromptCache(tmp_path), volume=0.8) is None
    assert [r.getMessage() for r in caplog.records] == [
        "no audio device (cannot open 'default': No such file or directory): narration shows "
        "as text on the screens"]


def test_a_failing_device_is_told_once_and_the_table_goes_on(speaker_of, tap, caplog):
    """A speaker that fails while playing (unplugged) is logged once, however many sounds
    then fail; the speaker keeps taking them, and plays again once the device is back."""
    tap.use(BROKEN)
    speaker = speaker_of(None, volume=1.0)
    with caplog.at_level(logging.WARNING):
        for tune in ("alarm", "turn", "alarm"):
            speaker.play(tune)
            assert speaker.wait_idle(WAIT) and speaker.wait_closed(WAIT)
    assert [r.getMessage() for r in caplog.records] == [
        "the speaker failed (cannot play on 'default': Input/output error): silent until it "
        "opens again"]
    tap.use(TAP.format(played=tap.played_path))
    speaker.play("turn")
    assert near(heard(speaker, tap), tune_samples("turn"))


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
    """The real espeak-ng makes a WAV prompt that the speaker plays."""
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


SPEAKER = """
import sys
from pathlib import Path
from hardware.drivers.voice import MixerSpeaker, PromptCache
from hardware.exc import AudioUnavailable
try:
    MixerSpeaker(PromptCache(Path(sys.argv[1])))
except AudioUnavailable as error:
    print(f"no audio device ({error})")
"""


def test_no_sound_card_leaves_no_alsa_lines_on_the_terminal(tmp_path, tap):
    """alsa-lib prints its own lines to stderr for a device that is not there, over the
    simulated table and left behind when it quits: a real process, sent to a card no machine
    has, says only that there is no audio device."""
    tap.use(NO_CARD)
    done = subprocess.run([sys.executable, "-c", SPEAKER, str(tmp_path)], capture_output=True,
                          text=True, check=True)
    assert done.stdout.startswith("no audio device (cannot open 'default'"), done
    assert done.stderr == "", done.stderr
