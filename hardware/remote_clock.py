"""A remote device's clock mapped onto the Pi's monotonic clock (a pod's, a phone's).

Button edges are stamped on the device that felt them, so a hold lasts as long as the finger
held it, whatever the USB latency or the Wi-Fi's jitter did to the messages on their way.
"""

from __future__ import annotations

DRIFT = 1e-4  # crystals differ by < 100 ppm: how fast the clock offset may creep up


class RemoteClock:
    """Device milliseconds to Pi seconds: the offset seen with the least delay wins.

    Each message says ``device_ms`` and arrives at ``now``; ``now - device_ms/1000`` is the
    offset plus that message's delay, so the smallest one seen is the truest. It may creep up
    by DRIFT per second, so two clocks that run slightly apart stay matched over an evening.
    """

    def __init__(self) -> None:
        self.offset: float | None = None
        self._seen_at = 0.0

    def observe(self, device_ms: int, now: float) -> None:
        sample = now - device_ms / 1000
        if self.offset is None:
            self.offset = sample
        else:
            self.offset = min(sample, self.offset + DRIFT * (now - self._seen_at))
        self._seen_at = now

    def to_host(self, device_ms: int, now: float) -> float:
        self.observe(device_ms, now)
        assert self.offset is not None
        return min(device_ms / 1000 + self.offset, now)
