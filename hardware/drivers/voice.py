"""Narration spoken aloud: espeak-ng makes the prompts, pygame.mixer plays them.

Prompts are WAV files cached under the state directory, named by a hash of voice and text, so
``companion voices`` (run at install time) makes every scripted prompt once and a table with
no espeak-ng still speaks them. A text with no prompt, a machine with no audio device, or a
volume of 0 simply stays silent: the narration is already on every seat's screen with its
buzzer cue, and its timing comes from the engine's narration scripts, never from the audio.

One worker thread owns the mixer; :meth:`MixerSpeaker.say` only queues the text, so the app's
loop never waits for speech. When no buzzer sounds, the speaker plays the tunes too
(:meth:`MixerSpeaker.play`): each note a short synthesized tone, on a channel of its own, at
once and over any speech (a tune waiting behind a narration would come too late). Prompts
play one after another; one that waited longer than ``STALE_AFTER`` is dropped rather than
spoken out of step with the screens. An optional masking noise covers the table's private
steps (a scripted check with eyes shut), since a quiet room gives away who moves.

The mixer is open only while there is something to hear: an open audio device has SDL's
audio thread wake for every buffer (about 43 times a second at this rate, sound or not),
which was most of an idle table's wake-ups. It opens at start (so a machine without a sound
card is known at once), closes after ``SILENT_CLOSE`` seconds with nothing playing, and the
speaker thread opens it again for the next prompt or tune (about 1 ms with SDL's dummy
driver here; closing waits about 50 ms for SDL's audio thread, on the speaker thread).
"""

from __future__ import annotations

import array
import hashlib
import logging
import math
import os
import queue
import random
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from gpiozero.tones import Tone

from .. import tunes
from ..base import Speaker
from ..closing import Closing
from ..exc import AudioUnavailable
from ..sdl import pygame
from .alsa_quiet import quiet_alsa

log = logging.getLogger(__name__)

DEFAULT_VOICE = "en-gb"
SPEED = 150  # words per minute: espeak-ng's default 175 is hurried across a table
RATE = 22050  # espeak-ng's own rate: its prompts play without resampling
STALE_AFTER = 8.0
START_TIMEOUT = 10.0
SYNTH_TIMEOUT = 30.0
MASK_LEVEL = 0.3  # of the narration volume
MASK_FADE_MS = 800
MASK_SECONDS = 2.0  # the length of the looped noise
TONE_LEVEL = 0.5  # of full scale: a tune stands out without drowning the voice
TONE_FADE = 0.004  # seconds of fade at each end of a note: no click
SILENT_CLOSE = 5.0  # seconds with nothing playing before the mixer closes

Synthesizer = Callable[[str, str, Path], None]  # (text, voice, WAV file to write)


def prompt_key(text: str, voice: str) -> str:
    return hashlib.sha256(f"{voice}\n{text}".encode()).hexdigest()[:24]


def espeak_synthesizer(program: str | None = None) -> Synthesizer | None:
    """espeak-ng as a synthesizer, or None when it is not installed."""
    program = program or shutil.which("espeak-ng")
    if program is None:
        return None

    def synthesize(text: str, voice: str, out: Path) -> None:
        command = [program, "-v", voice, "-s", str(SPEED), "-w", str(out), "--stdin"]
        subprocess.run(command, input=text.encode(), check=True, capture_output=True,
                       timeout=SYNTH_TIMEOUT)

    return synthesize


class PromptCache:
    """WAV prompts in ``directory``, made on demand when a synthesizer is available."""

    def __init__(self, directory: Path, voice: str = DEFAULT_VOICE,
                 synthesize: Synthesizer | None = None) -> None:
        self.directory = directory
        self.voice = voice
        self.synthesize = synthesize

    def path_for(self, text: str) -> Path:
        return self.directory / f"{prompt_key(text, self.voice)}.wav"

    def get(self, text: str) -> Path | None:
        """The prompt for ``text``: cached, freshly made, or None (stays text only)."""
        path = self.path_for(text)
        if path.exists():
            return path
        if self.synthesize is None:
            return None
        try:
            self.make(text)
        except (OSError, subprocess.SubprocessError) as error:
            log.warning("no voice for %r: %s", text, error)
            return None
        return path

    def make(self, text: str) -> bool:
        """Make the prompt unless it exists; True when it was made now."""
        path = self.path_for(text)
        if path.exists():
            return False
        if self.synthesize is None:
            raise OSError("espeak-ng is not installed")
        self.directory.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")
        try:
            self.synthesize(text, self.voice, partial)
            os.replace(partial, path)  # a reader never sees half a file
        finally:
            partial.unlink(missing_ok=True)
        return True


@dataclass(frozen=True)
class MaskingPlan:
    """When the masking noise plays: from a private script's first prompt to its last.

    ``starts`` maps a first prompt to the script's length in seconds, which caps the noise in
    case the last prompt never comes (the table paused or ended the game mid-script). The
    companion makes the plan from the games' narration scripts (companion/voices.py).
    """

    starts: Mapping[str, float]
    stops: frozenset[str]


def masking_noise(seconds: float = MASK_SECONDS, rate: int = RATE) -> bytes:
    """Soft brown noise (a leaky random walk) as 16-bit mono samples: it loops unobtrusively."""
    generator = random.Random(8)  # fixed: the same noise every time, nothing to learn from it
    level, samples = 0.0, array.array("h")
    for _ in range(round(seconds * rate)):
        level = 0.98 * level + generator.uniform(-1.0, 1.0)
        samples.append(max(-32767, min(32767, round(level * 2200))))
    return samples.tobytes()


def tune_samples(name: str, rate: int = RATE) -> bytes:
    """A tune from hardware/tunes.py as 16-bit mono samples: each note a sine tone, each rest
    silence, each note faded in and out so repeated notes stay separate."""
    samples = array.array("h")
    for note, seconds in tunes.tune(name):
        count = round(seconds * rate)
        if note is None:
            samples.extend([0] * count)
            continue
        step = 2 * math.pi * Tone(note).frequency / rate
        fade = max(1, round(TONE_FADE * rate))
        for i in range(count):
            envelope = min(1.0, i / fade, (count - 1 - i) / fade)
            samples.append(round(32767 * TONE_LEVEL * envelope * math.sin(step * i)))
    return samples.tobytes()


@dataclass(frozen=True)
class _Said:
    text: str
    at: float
    volume: float


@dataclass(frozen=True)
class _Chime:
    tune: str
    level: float


class MixerSpeaker(Speaker, Closing):
    """The table's loudspeaker through pygame.mixer; a context manager that closes it."""

    def __init__(self, cache: PromptCache, *, volume: float = 0.8,
                 masking: MaskingPlan | None = None, silent_close: float = SILENT_CLOSE) -> None:
        self.cache = cache
        self.volume = max(0.0, min(1.0, volume))
        self.masking = masking
        self.spoken: list[str] = []  # texts whose prompt started playing, for logs and tests
        self.chimed: list[str] = []  # and tunes
        self._silent_close = silent_close
        self._queue: queue.Queue[_Said | _Chime | None] = queue.Queue()
        self._mixer = threading.Lock()  # held while the mixer opens, closes or starts a sound
        self._open = False
        self._noise_samples = masking_noise()  # kept: each opening of the mixer loads them
        self._tune_samples = {name: tune_samples(name) for name in tunes.TUNES}
        self._said = self._handled = 0
        self._progress = threading.Condition()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._failure: Exception | None = None
        self._busy_until = 0.0
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT) or self._failure is not None:
            raise AudioUnavailable(str(self._failure or "the mixer did not start"))

    def say(self, text: str, volume: float = 1.0) -> None:
        self._hand_over(_Said(text, time.monotonic(), max(0.0, min(1.0, volume))))

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every text said so far has been handled (started, or skipped)."""
        with self._progress:
            return self._progress.wait_for(lambda: self._handled >= self._said, timeout)

    def play(self, tune: str, volume: float = 1.0) -> None:
        """Start the tune now on its own channel (a new tune cuts the one before short); with
        the mixer closed, the speaker thread opens it and starts the tune (it waits for no
        prompt then: nothing is playing)."""
        if tune not in self._tune_samples:
            tunes.tune(tune)  # an unknown name: the ValueError lists the known ones
            return
        if volume <= 0:
            return
        chime = _Chime(tune, self.volume * min(1.0, volume))
        with self._mixer:
            if self._open:
                self._start_chime(chime)
                return
        self._hand_over(chime)

    def wait_closed(self, timeout: float) -> bool:
        """Wait until the mixer has closed for silence (its audio thread gone)."""
        with self._progress:
            return self._progress.wait_for(lambda: not self._open, timeout)

    def is_chiming(self) -> bool:
        return bool(pygame.mixer.get_init()) and self._chime.get_busy()

    def is_speaking(self) -> bool:
        return bool(pygame.mixer.get_init()) and self._voice.get_busy()

    def is_masking(self) -> bool:
        return bool(pygame.mixer.get_init()) and self._mask.get_busy()

    def close(self) -> None:
        self._stop.set()
        self._queue.put(None)
        self._thread.join(START_TIMEOUT)

    # ------------------------------------------------------------ the speaker thread

    def _hand_over(self, item: _Said | _Chime) -> None:
        with self._progress:
            self._said += 1
        self._queue.put(item)

    def _run(self) -> None:
        quiet_alsa()  # its messages would scribble over the table and stay after it quits
        try:
            with self._mixer:
                self._open_mixer()
        except pygame.error as error:
            self._failure = error
            self._ready.set()
            return
        self._ready.set()
        try:
            self._serve()
        finally:
            with self._mixer:
                self._close_mixer()

    def _serve(self) -> None:
        """Take what was said or played; close the mixer after ``SILENT_CLOSE`` seconds
        with nothing to take and nothing playing (while closed, wait without a timeout)."""
        while True:
            try:
                item = self._queue.get(timeout=self._silent_close if self._open else None)
            except queue.Empty:
                with self._mixer:
                    if not pygame.mixer.get_busy():
                        self._close_mixer()
                continue
            if item is None:
                return
            try:
                with self._mixer:
                    self._open_mixer()
                    if isinstance(item, _Chime):
                        self._start_chime(item)
                if isinstance(item, _Said):
                    self._speak(item.text, item.at, item.volume)
            except pygame.error as error:
                log.warning("the speaker did not open again (%s): stays silent", error)
            with self._progress:
                self._handled += 1
                self._progress.notify_all()

    def _open_mixer(self) -> None:
        """Open the mixer and load the tunes and the noise, unless it is open (the caller
        holds the mixer's lock)."""
        if self._open:
            return
        pygame.mixer.init(frequency=RATE, size=-16, channels=1)
        self._voice, self._mask = pygame.mixer.Channel(0), pygame.mixer.Channel(1)
        self._chime = pygame.mixer.Channel(2)
        self._noise = pygame.mixer.Sound(buffer=self._noise_samples)
        self._tunes = {name: pygame.mixer.Sound(buffer=samples)
                       for name, samples in self._tune_samples.items()}
        self._open = True

    def _close_mixer(self) -> None:
        """Close the mixer (the caller holds the mixer's lock)."""
        pygame.mixer.quit()
        with self._progress:
            self._open = False
            self._progress.notify_all()

    def _start_chime(self, chime: _Chime) -> None:
        sound = self._tunes[chime.tune]
        sound.set_volume(chime.level)
        self._chime.play(sound)
        self.chimed.append(chime.tune)

    def _speak(self, text: str, said_at: float, volume: float) -> None:
        self._start_masking(text, volume)
        self._play(text, said_at, volume)
        if self.masking is not None and text in self.masking.stops:
            self._stop.wait(max(0.0, self._busy_until - time.monotonic()))
            self._mask.fadeout(MASK_FADE_MS)

    def _play(self, text: str, said_at: float, volume: float) -> None:
        """Start the prompt once the one before it has ended; skip it if it is missing, late
        or muted."""
        path = self.cache.get(text)
        self._stop.wait(max(0.0, self._busy_until - time.monotonic()))
        if path is None or self._stop.is_set() or volume <= 0:
            return
        if time.monotonic() - said_at > STALE_AFTER:
            log.info("narration %r dropped: the table has moved on", text)
            return
        sound = pygame.mixer.Sound(str(path))
        sound.set_volume(self.volume * volume)
        self._voice.play(sound)
        self.spoken.append(text)
        self._busy_until = time.monotonic() + sound.get_length()

    def _start_masking(self, text: str, volume: float) -> None:
        if self.masking is None or text not in self.masking.starts:
            return
        self._noise.set_volume(self.volume * volume * MASK_LEVEL)
        limit = round((self.masking.starts[text] + 2.0) * 1000)
        self._mask.play(self._noise, loops=-1, maxtime=limit, fade_ms=MASK_FADE_MS)


def open_speaker(cache: PromptCache, *, volume: float,
                 masking: MaskingPlan | None = None) -> Speaker | None:
    """The loudspeaker, or None (narration as text only) when muted or without audio."""
    if volume <= 0:
        return None
    try:
        speaker = MixerSpeaker(cache, volume=volume, masking=masking)
    except AudioUnavailable as error:
        log.warning("no audio device (%s): narration shows as text on the screens", error)
        return None
    if cache.synthesize is None:
        log.warning("espeak-ng is not installed: only prompts made before are spoken "
                    "(apt install espeak-ng, then run: companion voices)")
    return speaker
