"""A playback PCM of alsa-lib (libasound.so.2), through ``ctypes``: the speaker's device.

Only what a mono 16-bit speaker needs: open, set the parameters, write, drain, close, and
recover from an underrun or a suspend. libasound is on every Raspberry Pi OS and Debian
desktop and loading it costs under half a MiB, where pygame's mixer cost about 12 (issue 27).
Every blocking call (``snd_pcm_writei``, ``snd_pcm_drain``) runs with the interpreter
released, as every ``ctypes`` call does, so the speaker thread never holds the app's loop.

alsa-lib prints its own error lines to stderr ("ALSA lib pcm.c:...: Unknown PCM"), over a
simulated table and left on the terminal when it quits; the speaker already says in one line
what went wrong, from the error's own text (``snd_strerror``). So the library is given an
error handler that writes nothing as it is loaded, and every error comes back as
:class:`AlsaError`.
"""

from __future__ import annotations

import ctypes
import errno
import sys
from functools import cache

from ..exc import AlsaError

LIBRARY = "libasound.so.2"
PLAYBACK = 0  # SND_PCM_STREAM_PLAYBACK
INTERLEAVED = 3  # SND_PCM_ACCESS_RW_INTERLEAVED
S16_NATIVE = 2 if sys.byteorder == "little" else 3  # SND_PCM_FORMAT_S16_LE / _BE, as array("h")
BYTES_PER_FRAME = 2  # mono, 16-bit


def _silent_handler() -> ctypes.c_void_p:
    """The address of a C function that does nothing: libc's ``getpid``.

    alsa-lib calls its handler as ``handler(file, line, function, err, fmt, ...)``, possibly
    from a thread of its own plugins, so the handler is not Python (it would wait for the
    interpreter). On the C calling conventions of every Linux the companion runs on, a call
    with arguments the callee does not read is harmless, and ``getpid`` reads none and
    changes nothing.
    """
    return ctypes.cast(ctypes.CDLL(None).getpid, ctypes.c_void_p)


@cache
def libasound() -> ctypes.CDLL:
    """alsa-lib, loaded once, quiet, with the signatures of the functions used here."""
    try:
        library = ctypes.CDLL(LIBRARY)
    except OSError as error:
        raise AlsaError(f"{LIBRARY} is not installed ({error})") from error
    library.snd_lib_error_set_handler(_silent_handler())
    pcm, uint = ctypes.c_void_p, ctypes.c_uint
    library.snd_strerror.argtypes, library.snd_strerror.restype = [ctypes.c_int], ctypes.c_char_p
    library.snd_pcm_open.argtypes = [ctypes.POINTER(pcm), ctypes.c_char_p, ctypes.c_int,
                                     ctypes.c_int]
    library.snd_pcm_set_params.argtypes = [pcm, ctypes.c_int, ctypes.c_int, uint, uint,
                                           ctypes.c_int, uint]
    library.snd_pcm_writei.argtypes = [pcm, ctypes.c_char_p, ctypes.c_ulong]
    library.snd_pcm_writei.restype = ctypes.c_long
    library.snd_pcm_recover.argtypes = [pcm, ctypes.c_int, ctypes.c_int]
    for name in ("snd_pcm_drain", "snd_pcm_prepare", "snd_pcm_close"):
        getattr(library, name).argtypes = [pcm]
    return library


def _check(result: int, doing: str) -> int:
    if result < 0:
        raise AlsaError(f"{doing}: {libasound().snd_strerror(result).decode()}")
    return result


class Pcm:
    """One open playback PCM at ``rate`` Hz, mono, 16-bit native samples."""

    def __init__(self, name: str, rate: int, latency: float) -> None:
        """Open ``name`` (ALSA's ``default`` on a table); ``latency`` is the buffer's length
        in seconds, as much sound as may be queued ahead of what is heard."""
        library = libasound()
        self.name = name
        self._pcm = ctypes.c_void_p()
        _check(library.snd_pcm_open(ctypes.byref(self._pcm), name.encode(), PLAYBACK, 0),
               f"cannot open {name!r}")
        try:
            _check(library.snd_pcm_set_params(self._pcm, S16_NATIVE, INTERLEAVED, 1, rate, 1,
                                              round(latency * 1_000_000)),
                   f"{name!r} does not play {rate} Hz mono 16-bit")
        except AlsaError:
            library.snd_pcm_close(self._pcm)
            raise

    def write(self, samples: bytes) -> None:
        """Queue ``samples`` (waiting while the buffer is full); an underrun or a resume
        after suspend is recovered from, anything else (the device unplugged) raises."""
        library = libasound()
        while samples:
            written = library.snd_pcm_writei(self._pcm, samples, len(samples) // BYTES_PER_FRAME)
            if written < 0:
                _check(library.snd_pcm_recover(self._pcm, written, 1), self._failed)
                continue
            samples = samples[written * BYTES_PER_FRAME:]

    def drain(self) -> None:
        """Wait until what was written has been played, then be ready for more."""
        library = libasound()
        result = library.snd_pcm_drain(self._pcm)
        if result < 0 and result != -errno.EPIPE:  # an underrun: there was nothing left
            _check(result, self._failed)
        _check(library.snd_pcm_prepare(self._pcm), self._failed)

    @property
    def _failed(self) -> str:
        return f"cannot play on {self.name!r}"

    def close(self) -> None:
        """Close the device, dropping what is still queued (nothing, after a drain)."""
        libasound().snd_pcm_close(self._pcm)
