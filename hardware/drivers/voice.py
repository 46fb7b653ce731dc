"""Narration spoken aloud: espeak-ng makes the prompts, the speaker plays them through ALSA.

Prompts are WAV files cached under the state directory, named by a hash of voice and text, so
``companion voices`` (run at install time) makes every scripted prompt once and a table with
no espeak-ng still speaks them. A text with no prompt, a machine with no audio device, or a
volume of 0 simply stays silent: the narration is already on every seat's screen with its
buzzer cue, and its timing comes from the engine's narration scripts, never from the audio.

One worker thread owns the device (hardware/drivers/alsa_pcm.py: libasound through ctypes,
about 1 MiB where pygame's mixer cost 15); :meth:`MixerSpeaker.say` and
:meth:`MixerSpeaker.play` only queue, so the app's loop never waits for sound. The thread
mixes up to three sounds (hardware/drivers/sound_mix.py) and writes them a ``PERIOD`` at a
time: a prompt, the masking noise, a tune. When no buzzer sounds, the speaker plays the tunes
(each note a short synthesized tone) at once and over any speech, since a tune waiting behind
a narration would come too late: it starts within a period and the device's ``LATENCY``.
Prompts play one after another; one that waited longer than ``STALE_AFTER`` is dropped rather
than spoken out of step with the screens. An optional masking noise covers the table's private
steps (a scripted check with eyes shut), since a quiet room gives away who moves.

The device is open only while there is something to hear, so an idle table has no audio
thread or timer waking it (SDL's woke 43 times a second). It opens at start, so a machine
without a sound card is known at once; once nothing sounds it is drained and, after
``SILENT_CLOSE`` seconds more, closed; the next prompt or tune opens it again. A device that
fails while playing (a USB speaker unplugged) is told once in the log; the table goes on
without sound, and the next sound tries the device again.
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
import sys
import threading
import time
import wave
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from gpiozero.tones import Tone

from .. import tunes
from ..base import Speaker
from ..closing import Closing
from ..exc import AlsaError, AudioUnavailable
from .alsa_pcm import Pcm
from .sound_mix import Track, mix

log = logging.getLogger(__name__)

DEFAULT_VOICE = "en-gb"
SPEED = 150  # words per minute: espeak-ng's default 175 is hurried across a table
RATE = 22050  # espeak-ng's own rate: its prompts play without resampling
STALE_AFTER = 8.0
START_TIMEOUT = 10.0
SYNTH_TIMEOUT = 30.0
MASK_LEVEL = 0.3  # of the narration volume
MASK_FADE = round(0.8 * RATE)  # frames of the noise's fade in and out
MASK_SECONDS = 2.0  # the length of the looped noise
TONE_LEVEL = 0.5  # of full scale: a tune stands out without drowning the voice
TONE_FADE = 0.004  # seconds of fade at each end of a note: no click
SILENT_CLOSE = 5.0  # seconds with nothing playing before the device closes
DEVICE = "default"  # ALSA's: dmix or PipeWire on Pi OS, mixing with anything else playing
PERIOD = 512  # frames mixed and written at a time (23 ms)
LATENCY = 0.05  # seconds of sound the device holds ahead of what is heard

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


def masking_noise(seconds: float = MASK_SECONDS, rate: int = RATE) -> array.array[int]:
    """Soft brown noise (a leaky random walk) as 16-bit mono samples: it loops unobtrusively."""
    generator = random.Random(8)  # fixed: the same noise every time, nothing to learn from it
    level, samples = 0.0, array.array("h")
    for _ in range(round(seconds * rate)):
        level = 0.98 * level + generator.uniform(-1.0, 1.0)
        samples.append(max(-32767, min(32767, round(level * 2200))))
    return samples


def tune_samples(name: str, rate: int = RATE) -> array.array[int]:
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
    return samples


def read_prompt(path: Path) -> array.array[int]:
    """A prompt's samples; espeak-ng writes mono 16-bit WAV at ``RATE``, anything else is
    refused (``wave.Error``) rather than played at the wrong speed."""
    with wave.open(str(path)) as file:
        shape = (file.getnchannels(), file.getsampwidth(), file.getframerate())
        if shape != (1, 2, RATE):
            raise wave.Error(f"{shape[0]} channels, {shape[1] * 8}-bit, {shape[2]} Hz")
        samples = array.array("h", file.readframes(file.getnframes()))
    if sys.byteorder == "big":  # WAV is little-endian
        samples.byteswap()
    return samples


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
    """The table's loudspeaker, mixing on its own thread into ALSA's ``device``; a context
    manager that closes it."""

    def __init__(self, cache: PromptCache, *, volume: float = 0.8,
                 masking: MaskingPlan | None = None, silent_close: float = SILENT_CLOSE,
                 device: str = DEVICE) -> None:
        self.cache = cache
        self.volume = max(0.0, min(1.0, volume))
        self.masking = masking
        self.spoken: list[str] = []  # texts whose prompt started playing, for logs and tests
        self.chimed: list[str] = []  # and tunes
        self._silent_close = silent_close
        self._device = device
        self._queue: queue.Queue[_Said | _Chime | None] = queue.Queue()
        self._pcm: Pcm | None = None
        self._noise_samples = masking_noise()
        self._tune_samples = {name: tune_samples(name) for name in tunes.TUNES}
        self._voice: Track | None = None  # the three sounds, owned by the speaker thread
        self._mask: Track | None = None
        self._chime: Track | None = None
        self._waiting: deque[_Said] = deque()  # prompts said while another plays
        self._fade_after_voice = False  # the prompt playing ends a private script
        self._told = False  # the device's failure is in the log already
        self._said = self._handled = 0
        self._progress = threading.Condition()
        self._ready = threading.Event()
        self._failure: AlsaError | None = None
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT) or self._failure is not None:
            raise AudioUnavailable(str(self._failure or "the speaker did not start"))

    def say(self, text: str, volume: float = 1.0) -> None:
        self._hand_over(_Said(text, time.monotonic(), max(0.0, min(1.0, volume))))

    def wait_idle(self, timeout: float) -> bool:
        """Wait until everything said or played so far has been handled (started, or
        skipped)."""
        with self._progress:
            return self._progress.wait_for(lambda: self._handled >= self._said, timeout)

    def play(self, tune: str, volume: float = 1.0) -> None:
        """Start the tune over whatever plays (a new tune cuts the one before short)."""
        if tune not in self._tune_samples:
            tunes.tune(tune)  # an unknown name: the ValueError lists the known ones
            return
        if volume > 0:
            self._hand_over(_Chime(tune, self.volume * min(1.0, volume)))

    def wait_closed(self, timeout: float) -> bool:
        """Wait until the device has closed for silence."""
        with self._progress:
            return self._progress.wait_for(lambda: self._pcm is None, timeout)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(START_TIMEOUT)

    # ------------------------------------------------------------ the speaker thread

    def _hand_over(self, item: _Said | _Chime) -> None:
        with self._progress:
            self._said += 1
        self._queue.put(item)

    def _handled_one(self, count: int = 1) -> None:
        with self._progress:
            self._handled += count
            self._progress.notify_all()

    def _run(self) -> None:
        try:
            self._open()
        except AlsaError as error:
            self._failure = error
        self._ready.set()
        if self._failure is None:
            try:
                self._serve()
            finally:
                self._close()

    def _serve(self) -> None:
        """Take everything queued, then write a period while anything sounds; with nothing
        sounding, wait for the next item, closing the device after ``SILENT_CLOSE``."""
        while True:
            sounding = any((self._voice, self._mask, self._chime))
            try:
                if sounding:
                    item = self._queue.get_nowait()
                else:
                    item = self._queue.get(timeout=None if self._pcm is None
                                           else self._silent_close)
            except queue.Empty:
                if sounding:
                    self._write()
                else:
                    self._close()
                continue
            if item is None:
                return
            self._take(item)

    def _take(self, item: _Said | _Chime) -> None:
        try:
            self._open()
        except AlsaError as error:
            self._tell(error)
            self._handled_one()
            return
        if isinstance(item, _Chime):
            self._chime = Track(self._tune_samples[item.tune], item.level)
            self.chimed.append(item.tune)
            self._handled_one()
        else:
            self._waiting.append(item)
            self._next_prompt()

    def _next_prompt(self) -> None:
        """Start the next waiting prompt unless one plays; skip those missing, late or
        muted; fade the noise out after a private script's last prompt."""
        while self._voice is None and self._waiting:
            said = self._waiting.popleft()
            self._start_masking(said)
            self._voice = self._prompt(said)
            self._fade_after_voice = self.masking is not None and said.text in self.masking.stops
            if self._voice is None:
                self._end_of_voice()
            self._handled_one()

    def _prompt(self, said: _Said) -> Track | None:
        path = self.cache.get(said.text)
        if path is None or said.volume <= 0:
            return None
        if time.monotonic() - said.at > STALE_AFTER:
            log.info("narration %r dropped: the table has moved on", said.text)
            return None
        try:
            samples = read_prompt(path)
        except (OSError, EOFError, wave.Error) as error:
            log.warning("prompt for %r not played: %s", said.text, error)
            return None
        self.spoken.append(said.text)
        return Track(samples, self.volume * said.volume)

    def _end_of_voice(self) -> None:
        if self._fade_after_voice and self._mask is not None:
            self._mask.fade_out(MASK_FADE)
        self._fade_after_voice = False

    def _start_masking(self, said: _Said) -> None:
        if self.masking is None or said.text not in self.masking.starts:
            return
        level = self.volume * said.volume * MASK_LEVEL
        frames = round((self.masking.starts[said.text] + 2.0) * RATE)
        if level > 0:
            self._mask = Track(self._noise_samples, level, loop=True, frames=frames,
                               fade_in=MASK_FADE)

    def _write(self) -> None:
        """Mix and write one period; drain the device once the last sound has ended."""
        assert self._pcm is not None
        try:
            voice = self._voice_part()
            self._pcm.write(mix([voice, *(t.take(PERIOD) for t in (self._mask, self._chime)
                                          if t is not None)]))
            self._mask = None if self._mask is None or self._mask.done else self._mask
            self._chime = None if self._chime is None or self._chime.done else self._chime
            if not any((self._voice, self._mask, self._chime)):
                self._pcm.drain()
                self._told = False  # it played to the end: a later failure is news again
        except AlsaError as error:
            self._tell(error)
            self._voice = self._mask = self._chime = None
            self._handled_one(len(self._waiting))
            self._waiting.clear()
            self._close()

    def _voice_part(self) -> list[float]:
        """The voice's next period: a prompt that ends in it is followed by the next one
        at once, with no gap."""
        part: list[float] = []
        while self._voice is not None and len(part) < PERIOD:
            part += self._voice.take(PERIOD - len(part))
            if self._voice.done:
                self._voice = None
                self._end_of_voice()
                self._next_prompt()
        return part

    def _tell(self, error: AlsaError) -> None:
        """Log a failing device once, not for every sound it then cannot play."""
        if not self._told:
            log.warning("the speaker failed (%s): silent until it opens again", error)
        self._told = True

    def _open(self) -> None:
        if self._pcm is None:
            pcm = Pcm(self._device, RATE, LATENCY)
            with self._progress:
                self._pcm = pcm

    def _close(self) -> None:
        if self._pcm is not None:
            self._pcm.close()
            with self._progress:
                self._pcm = None
                self._progress.notify_all()


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
