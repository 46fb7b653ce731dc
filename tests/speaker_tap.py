"""A loudspeaker for machines with no sound card that keeps what it was sent.

alsa-lib's whole configuration (ALSA_CONFIG_PATH) names a default PCM that is the ``file``
plugin over ``null``: the speaker opens, sets up and writes a real ALSA device, and the raw
samples it played land in a file the test reads. Each opening of the device starts the file
anew. alsa-lib reads its configuration again when the path or the file changes, so a test
may swap the device under a running speaker.
"""

from __future__ import annotations

import array
from pathlib import Path

import pytest

TAP = """pcm.!default {{
    type file
    slave.pcm {{ type null }}
    file "{played}"
    format raw
}}
"""
NO_CARD = """pcm.!default {
    type hw
    card 9
}
"""
BROKEN = TAP.format(played="/dev/full")  # opens, then every write fails: an unplugged speaker


class Tap:
    """The speaker's device, as a test sets it up and reads it."""

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.folder = folder
        self.played_path = folder / "played.raw"
        self._monkeypatch = monkeypatch
        self._configs = 0
        self.use(TAP.format(played=self.played_path))

    def use(self, config: str) -> None:
        """Make ``config`` alsa-lib's configuration from the next opening of a device on."""
        self._configs += 1
        path = self.folder / f"asound-{self._configs}.conf"
        path.write_text(config, encoding="utf-8")
        self._monkeypatch.setenv("ALSA_CONFIG_PATH", str(path))

    def played(self) -> array.array[int]:
        """The samples written since the device last opened (none when it never did)."""
        samples = array.array("h")
        if self.played_path.exists():
            samples.frombytes(self.played_path.read_bytes())
        return samples

    def is_open(self) -> bool:
        """Whether this process holds the device (the plugin's file) open."""
        fds = Path("/proc/self/fd").iterdir()
        return any(_target(fd) == str(self.played_path) for fd in fds)


def _target(fd: Path) -> str:
    try:
        return str(fd.readlink())
    except OSError:  # closed since the listing
        return ""

