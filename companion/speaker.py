"""The table's loudspeaker, opened once the table is ready.

Opening it loads libasound, opens the ALSA device and synthesizes the tunes: time the seats
do not need to be ready, and several times longer on a Pi Zero 2 W. So the
speaker opens on a thread of its own once the loop has said READY, and stays open across
reloads (table.toml does not describe it). Narration said and tunes played before it is open
are not heard; narration is on the screens as text all the same.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from hardware.base import Speaker

Opener = Callable[[], Speaker | None]


class LateSpeaker(Speaker):
    def __init__(self, open_speaker: Opener) -> None:
        self._open_speaker = open_speaker
        self._speaker: Speaker | None = None
        self._opening: threading.Thread | None = None
        self._tried = threading.Event()  # opening finished, with a speaker or without
        self._lock = threading.Lock()

    def open_now(self) -> None:
        """Open it on this thread (a simulated table: the audio library may print while it
        looks for a sound card, and must do so before the table takes the terminal)."""
        with self._lock:
            if self._opening is None:
                self._opening = threading.current_thread()
                self._open()

    def open_soon(self) -> None:
        """Open it on a thread of its own, unless it is open or opening already."""
        with self._lock:
            if self._opening is None:
                self._opening = threading.Thread(target=self._open, name="speaker-open",
                                                 daemon=True)
                self._opening.start()

    def available(self) -> bool:
        """False once opening found no audio device; True before that is known."""
        return not self._tried.is_set() or self._speaker is not None

    def say(self, text: str, volume: float = 1.0) -> None:
        speaker = self._speaker
        if speaker is not None:
            speaker.say(text, volume)

    def play(self, tune: str, volume: float = 1.0) -> None:
        speaker = self._speaker
        if speaker is not None:
            speaker.play(tune, volume)

    def close(self) -> None:
        opening = self._opening
        if opening is not None and opening is not threading.current_thread():
            opening.join()
        if self._speaker is not None:
            self._speaker.close()

    def _open(self) -> None:
        try:
            self._speaker = self._open_speaker()
        finally:
            self._tried.set()
