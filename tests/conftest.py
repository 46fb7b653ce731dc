"""Shared fixtures: gpiozero's mock pins, installed the gpiozero way (never by patching)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

# pygame with no display, no sound card and no banner: set here, before pytest imports the
# test modules, so none of them has to set it ahead of its own imports.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


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
