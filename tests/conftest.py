"""Shared fixtures: gpiozero's mock pins, installed the gpiozero way (never by patching)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from bench.processes import NULL_SPEAKER
from tests.speaker_tap import Tap

# pygame with no display and no banner, and a speaker that plays nothing on a machine with no
# sound card: set here, before pytest imports the test modules, so none of them has to set it
# ahead of its own imports.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("ALSA_CONFIG_PATH", str(NULL_SPEAKER))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Off the MicroPython port's platforms the pod firmware tests skip: say so at the end of
    every run, not only under -rs, so a green run on a Pi is not mistaken for a full one."""
    from tests.pod_sim.harness import micropython_missing

    missing = micropython_missing()
    if missing:
        terminalreporter.write_line(f"SKIPPED the pod firmware tests: {missing}", yellow=True)


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """A MockFactory with PWM-capable pins as the default pin factory, reset afterwards."""
    previous = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


@pytest.fixture
def tap(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Tap:
    """The speaker's ALSA device, writing what it plays to a file the test reads."""
    return Tap(tmp_path_factory.mktemp("alsa"), monkeypatch)
