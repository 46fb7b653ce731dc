"""alsa-lib's own error messages, kept off the terminal.

When SDL looks for a sound card through ALSA and finds none, alsa-lib prints a dozen
"ALSA lib confmisc.c:855:(parse_card) cannot find card '0'" lines straight to the process's
stderr: over the simulated table, and left on the terminal when it quits. The speaker
already says, in one line, that there is no audio device. So before the mixer starts, every
alsa-lib SDL may use is given an error handler that writes nothing (SDL's errors
still come back as ``pygame.error``): the one SDL opens by name, ``libasound.so.2`` (opened
here first and held, so SDL's own open finds this copy, handler and all, rather than load
and drop its own), and any already mapped into the process (a wheel's bundled copy).
"""

from __future__ import annotations

import ctypes
import logging
from pathlib import Path

log = logging.getLogger(__name__)


def _silent_handler() -> ctypes.c_void_p:
    """The address of a C function that does nothing: libc's ``getpid``.

    alsa-lib calls its handler as ``handler(file, line, function, err, fmt, ...)``, also from
    SDL's device-watching thread while the mixer's start holds the interpreter, so the
    handler must not be Python (it would wait for the interpreter: a deadlock). On the C
    calling conventions of every Linux the companion runs on, a call with arguments the
    callee does not read is harmless, and ``getpid`` reads none and changes nothing.
    """
    return ctypes.cast(ctypes.CDLL(None).getpid, ctypes.c_void_p)


def loaded_alsa(maps: Path = Path("/proc/self/maps")) -> list[str]:
    """The alsa-lib files mapped into this process (none where audio never loaded it)."""
    try:
        lines = maps.read_text().splitlines()
    except OSError:
        return []
    paths = {line.split(maxsplit=5)[-1] for line in lines if "libasound" in line}
    return sorted(p for p in paths if p.startswith("/") and "libasound" in Path(p).name)


SDL_OPENS = "libasound.so.2"  # the name SDL's ALSA driver loads at run time
_held: list[ctypes.CDLL] = []  # opened and quieted: kept loaded for the process's life


def quiet_alsa() -> None:
    """Give every alsa-lib SDL may use the silent error handler (none there: nothing)."""
    for name in (SDL_OPENS, *loaded_alsa()):
        try:
            library = ctypes.CDLL(name)
            library.snd_lib_error_set_handler(_silent_handler())
        except (OSError, AttributeError) as error:
            log.debug("alsa-lib %s not quieted (%s)", name, error)
            continue
        _held.append(library)
