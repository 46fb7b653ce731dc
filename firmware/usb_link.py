"""The pod's end of the serial link: USB CDC, which MicroPython offers as stdin/stdout.

Any frame may hold 0x03, so main.py turns Ctrl-C off before anything else and it stays off.
"""

import select
import sys

from podproto import wire

CHUNK = 256  # bytes read per loop at most, so the buttons are polled between chunks


class UsbLink:
    def __init__(self, stream_in=None, stream_out=None) -> None:
        self._in = stream_in or sys.stdin.buffer
        self._out = stream_out or sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(stream_in or sys.stdin, select.POLLIN)
        self.decoder = wire.Decoder()
        self.sequencer = wire.Sequencer()
        self.hung_up = False  # the other end closed (only a pty in tests does that)

    def receive(self, wait_ms: int) -> list:
        """Frames that arrive within ``wait_ms`` (the loop's only wait)."""
        ready = self._poll.poll(wait_ms)
        if not ready:
            return []
        self.hung_up = bool(ready[0][1] & (select.POLLHUP | select.POLLERR))
        data = bytearray()
        while len(data) < CHUNK and self._poll.poll(0):
            try:
                byte = self._in.read(1)
            except OSError:
                byte = b""
            if not byte:
                self.hung_up = True
                break
            data.extend(byte)
        return self.decoder.feed(data)

    def send(self, kind: int, payload: bytes = b"") -> None:
        self._out.write(self.sequencer.frame(kind, payload))

