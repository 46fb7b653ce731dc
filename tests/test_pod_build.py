"""table.toml pod seats become live pod links, mixed with directly wired seats."""

from __future__ import annotations

import queue

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.base import SeatLink
from hardware.build import build_table
from hardware.config import parse_config
from hardware.drivers.bus import RecordingBus
from hardware.pods.link import PodLink
from hardware.pods.screen import PodScreen
from tests.pod_sim.harness import HANG_GUARD

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

MIXED = """\
[[seat]]
number = 1
act = 17
display = "ssd1306"
bus = 1

[[seat]]
number = 3
pod = "/dev/serial/by-id/usb-no-such-pod"
"""


def test_pod_build_mixes_direct_and_pod_seats(mock_factory: MockFactory) -> None:
    """A direct seat and a pod seat share one table; an absent pod is reported offline."""
    events: queue.Queue = queue.Queue()
    table = build_table(parse_config(MIXED), events.put, pin_factory=mock_factory,
                        bus_factory=lambda number: RecordingBus())
    try:
        assert isinstance(table.seats[3].screen, PodScreen)
        assert isinstance(table.seats[3].inputs[0], PodLink)
        assert events.get(timeout=HANG_GUARD) == SeatLink(3, up=False)
    finally:
        table.close()
