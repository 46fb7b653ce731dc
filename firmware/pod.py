"""A seat pod: the main loop that ties the buttons, the OLED, the motor and the link together.

The loop waits for serial input at most POLL_MS, then polls the buttons, sends what changed,
beats, and steps the motor and piezo: no threads, no interrupts, nothing to race. When the Pi
has said nothing for LINK_LOST_MS the pod switches its display off before it draws its own
"waiting" screen: whatever the Pi last showed (perhaps a secret) does not outlive the link.
"""

import time

from buttons import SeatButtons
from pulses import vibration

from podproto import VERSION, wire

FIRMWARE = VERSION
POLL_MS = 5
BEAT_MS = 200
LINK_LOST_MS = 2000
TEXT_COLUMNS = 16  # framebuf's font is 8 px wide


class Uptime:
    """Milliseconds since start-up that never wrap (ticks_ms wraps; the Pi wants a clock)."""

    def __init__(self) -> None:
        self._last = time.ticks_ms()
        self.ms = 0

    def now(self) -> int:
        ticks = time.ticks_ms()
        self.ms += time.ticks_diff(ticks, self._last)
        self._last = ticks
        return self.ms


class Pod:
    def __init__(self, settings: dict, link, oled, buttons: SeatButtons, motor=None,
                 piezo=None) -> None:
        self.settings = settings
        self.seat = settings["seat"]
        self.link = link
        self.oled = oled
        self.buttons = buttons
        self.motor = motor
        self.piezo = piezo
        self.clock = Uptime()
        self.check = wire.SequenceCheck()
        self.echo = 0
        self.heard_at = -LINK_LOST_MS
        self.linked = False
        self._beat_at = 0

    def features(self) -> int:
        bits = wire.HAS_PEEK if self.buttons.peek is not None else 0
        bits |= wire.HAS_VIBRATOR if self.motor else 0
        return bits | (wire.HAS_PIEZO if self.piezo else 0)

    def run(self) -> None:
        self.show_lines(self.waiting_lines())
        self.say_hello()
        while True:
            self.step()

    def step(self) -> None:
        for frame in self.link.receive(POLL_MS):
            self.handle(*frame)
        if self.link.hung_up:
            time.sleep_ms(POLL_MS)
        now = self.clock.now()
        for index, pressed, at in self.buttons.poll(now):
            self.link.send(wire.BUTTON, wire.button(index, pressed, at))
        if now >= self._beat_at:
            self.beat(now)
        if self.linked and now - self.heard_at > LINK_LOST_MS:
            self.linked = False
            self.show_lines(self.waiting_lines())
        for device in (self.motor, self.piezo):
            if device:
                device.player.step(now)

    def handle(self, seq: int, kind: int, payload: bytes) -> None:
        if kind == wire.WHO:
            self.check.reset()
        verdict = self.check.check(seq)
        if verdict == wire.DUPLICATE:
            return
        if verdict == wire.GAP:
            self.link.send(wire.RESEND)  # a screen window may be lost: ask for it all
        self.heard_at = self.clock.now()
        self.linked = True
        handler = self.HANDLERS.get(kind)
        if handler is not None:
            handler(self, payload)

    def say_hello(self, payload: bytes = b"") -> None:
        if payload and payload[0] != wire.PROTOCOL_VERSION:
            self.show_lines(wrap(f"Table speaks protocol {payload[0]}, pod "
                                 f"{wire.PROTOCOL_VERSION}: update the pod", TEXT_COLUMNS))
        display = self.settings["display"]
        hello = wire.hello(self.seat, display, self.features(), FIRMWARE)
        self.link.send(wire.HELLO, hello)

    def beat(self, now: int) -> None:
        self.link.send(wire.POD_BEAT, wire.pod_beat(now, self.echo, self.buttons.levels))
        self._beat_at = now + BEAT_MS

    def on_host_beat(self, payload: bytes) -> None:
        token = wire.parse_host_beat(payload)
        if token is not None:
            self.echo = token
            self.beat(self.clock.now())  # at once: the Pi times the round trip

    def on_screen(self, payload: bytes) -> None:
        parsed = wire.parse_screen(payload)
        if parsed is None:
            self.link.send(wire.RESEND)
            return
        flags, windows = parsed
        oled = self.oled
        if flags & wire.OFF_FIRST:
            oled.power(False)
        if flags & wire.CLEAR:
            oled.clear()
            oled.write_all()
        for first_page, last_page, start, end, data in windows:
            self.copy(first_page, last_page, start, end, data)
            oled.write(first_page, last_page, start, end)
        if flags & wire.ON_AFTER:
            oled.power(True)

    def copy(self, first_page: int, last_page: int, start: int, end: int, data: bytes) -> None:
        width = end - start
        for row, page in enumerate(range(first_page, last_page + 1)):
            base = page * 128
            self.oled.buffer[base + start : base + end] = data[row * width : row * width + width]

    def on_vibrate(self, payload: bytes) -> None:
        pairs = wire.parse_steps(payload)
        if pairs and self.motor:
            self.motor.player.start(vibration(pairs), self.clock.now())

    def on_buzz(self, payload: bytes) -> None:
        parsed = wire.parse_buzz(payload)
        if parsed and parsed[1] and self.piezo:
            self.piezo.level = parsed[0]
            self.piezo.player.start(parsed[1], self.clock.now())

    def on_reject(self, payload: bytes) -> None:
        self.show_lines(wrap(payload.decode("utf-8", "replace"), TEXT_COLUMNS))

    def waiting_lines(self) -> list:
        if not 1 <= self.seat <= 8:
            return ["Seat not set:", "see the pod's", "README", "", "firmware " + FIRMWARE]
        return [f"Seat {self.seat}", "", "waiting for", "the table", "", "firmware " + FIRMWARE]

    def show_lines(self, lines: list) -> None:
        """Dark first, then the text, then light: the old image is never seen again."""
        self.oled.power(False)
        self.oled.clear()
        for row, line in enumerate(lines[:8]):
            self.oled.canvas.text(line, 0, row * 8, 1)
        self.oled.write_all()
        self.oled.power(True)

    HANDLERS = {
        wire.WHO: say_hello,
        wire.HOST_BEAT: on_host_beat,
        wire.SCREEN: on_screen,
        wire.VIBRATE: on_vibrate,
        wire.BUZZ: on_buzz,
        wire.REJECT: on_reject,
    }


def wrap(text: str, width: int) -> list:
    """Words into lines of at most ``width`` characters (long words are cut)."""
    lines, line = [], ""
    for word in text.split():
        while len(word) > width:
            lines.append(word[:width])
            word = word[width:]
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = (line + " " + word) if line else word
    if line:
        lines.append(line)
    return lines
