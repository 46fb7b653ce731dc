"""hardware/exc.py holds every exception hardware/ defines, each under HardwareError and still
the builtin it always was, so older ``except ValueError`` clauses keep catching it."""

import importlib
import inspect
import pkgutil

import pytest

import hardware
from hardware import exc

BUILTIN_BASES = {
    exc.ConfigError: ValueError,
    exc.UnreadableFile: ValueError,
    exc.WindowError: RuntimeError,
    exc.AudioUnavailable: RuntimeError,
    exc.AlsaError: OSError,
    exc.NoKeyboard: RuntimeError,
    exc.PodVersionError: ValueError,
    exc.LibcryptoError: OSError,
    exc.RequestRefused: ValueError,
}


def defined_exceptions() -> set[type]:
    """Every exception class whose home is a module of the hardware package."""
    found = set()
    for module in pkgutil.walk_packages(hardware.__path__, "hardware."):
        for _, value in inspect.getmembers(importlib.import_module(module.name), inspect.isclass):
            if issubclass(value, BaseException) and value.__module__.startswith("hardware"):
                found.add(value)
    return found


def test_exc_holds_every_hardware_exception() -> None:
    """A new exception defined anywhere else in hardware/ fails here."""
    assert {e for e in defined_exceptions() if e.__module__ != "hardware.exc"} == set()
    assert defined_exceptions() == {exc.HardwareError, *BUILTIN_BASES}


@pytest.mark.parametrize(("error", "builtin"), BUILTIN_BASES.items())
def test_exc_keeps_the_root_and_the_builtin(error: type, builtin: type) -> None:
    assert issubclass(error, exc.HardwareError) and issubclass(error, builtin)
