"""Every exception the hardware package raises of its own, under one root.

Each keeps the builtin base it always had (a bad file is a ``ValueError``, a missing device a
``RuntimeError``), so an ``except ValueError`` written before this module still catches it;
:class:`HardwareError` lets a caller catch all of them at once.
"""


class HardwareError(Exception):
    """Something in hardware/ failed in a way it names itself (not a library's error)."""


class ConfigError(HardwareError, ValueError):
    """table.toml is wrong; the message says where, what and how to fix it."""


class UnreadableFile(HardwareError, ValueError):
    """The file cannot be read as the small text file we asked for; the message says why."""


class WindowError(HardwareError, RuntimeError):
    """No window could be opened (no display, no video driver)."""


class NoKeyboard(HardwareError, RuntimeError):
    """The simulated table's keys cannot come from its input (/dev/null, a file: a start
    without a terminal, as under systemd or cron)."""


class AudioUnavailable(HardwareError, RuntimeError):
    """No audio device could be opened: narration stays on the screens."""


class AlsaError(HardwareError, OSError):
    """alsa-lib failed: no library, a device that does not open, or one that went away."""


class PodVersionError(HardwareError, ValueError):
    """The pod speaks another protocol version: its firmware and the companion differ."""


class RequestRefused(HardwareError, ValueError):
    """A web request the phone seats' server refuses (hardware/web/http.py): it is answered
    with ``status`` and ``text``, and nothing else."""

    def __init__(self, status: int, text: str = "") -> None:
        super().__init__(status, text)
        self.status, self.text = status, text


class LibcryptoError(HardwareError, OSError):
    """OpenSSL's libcrypto is missing, or refused a call the phone seats' encryption makes."""
