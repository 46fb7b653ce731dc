"""The seat-pod serial link's framing and messages: ONE file for the Pi and the pod.

The same file runs under CPython (the companion) and MicroPython (the pod firmware, which has
it as ``podproto/wire.py`` on its flash), so it keeps to what both share: no dataclasses, no
``typing`` or ``__future__`` imports (MicroPython has neither; annotations are never evaluated
there), only ``struct`` and bytes methods MicroPython implements.

A frame on the wire is ``00 COBS(seq kind len_hi len_lo payload crc_hi crc_lo) 00``. COBS
removes every zero from the body so 00 only ever delimits; the leading 00 ends whatever
garbage came before, so the frame after any noise decodes. The CRC is CRC-16/CCITT-FALSE
over everything before it. The length makes a frame cut short fail for certain: a CRC whose
low byte is 00 ends the stuffed frame in one code byte, and a frame that lost just that byte
would otherwise pass its CRC (its last payload byte and the CRC's high byte read as a CRC).
Each direction numbers its frames 0..255 in a circle; the receiver drops a frame that repeats
the previous number (a duplicate) and counts the numbers it never saw (lost frames).
The message layouts are in firmware/PROTOCOL.md.
"""

import struct

PROTOCOL_VERSION = 3  # 2: BUZZ carries the seat's volume; 3: frames carry their length
MAX_BODY = 1100  # seq + kind + length + a whole 1024-byte screen with its headers + crc
_MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 2

# Pod to Pi.
HELLO = 0x01
BUTTON = 0x02
POD_BEAT = 0x03
RESEND = 0x04
# Pi to pod.
WHO = 0x81
SCREEN = 0x82
VIBRATE = 0x83
BUZZ = 0x84
HOST_BEAT = 0x85
REJECT = 0x86

# The OLED controllers a seat's display can be: ONE list for table.toml's ``display``, the Pi's
# driver (hardware/drivers/oled.py) and the pod's (firmware/oled.py). HELLO's display byte is
# the index in DISPLAYS, 0 for a pod without a display.
CHIPS = ("ssd1306", "sh1106")
DISPLAYS = ("none",) + CHIPS
BUTTONS = ("act", "peek")
HAS_PEEK, HAS_VIBRATOR, HAS_PIEZO = 1, 2, 4  # HELLO feature bits

# SCREEN flags: the order a pod carries them out in is CLEAR, OFF_FIRST, windows, ON_AFTER.
OFF_FIRST = 1  # switch the display off before writing (the end of a peek)
ON_AFTER = 2  # switch it on once written
CLEAR = 4  # zero the whole RAM first

SAME, DUPLICATE, GAP = 0, 1, 2  # what SequenceCheck.check says of a frame


def _crc_table() -> list:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = (crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def pure_crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) in plain Python, for the pod, whose
    MicroPython has no ``binascii.crc_hqx``: a table costs 512 bytes and saves 8x."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


try:
    from binascii import crc_hqx
except ImportError:  # MicroPython
    crc16 = pure_crc16
else:

    def crc16(data: bytes, crc: int = 0xFFFF) -> int:
        """The same CRC in C on CPython: identical results, some 57 times faster per frame."""
        return crc_hqx(data, crc)


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: ``data`` without any zero, one byte longer per 254."""
    data = bytes(data)
    out = bytearray()
    start = 0
    while True:
        zero = data.find(b"\x00", start)
        end = len(data) if zero < 0 else zero
        while end - start >= 254:
            out.append(0xFF)
            out.extend(data[start : start + 254])
            start += 254
        out.append(end - start + 1)
        out.extend(data[start:end])
        if zero < 0:
            return bytes(out)
        start = zero + 1


def cobs_decode(data: bytes) -> bytes | None:
    """The bytes :func:`cobs_encode` was given, or None when ``data`` cannot be COBS."""
    out = bytearray()
    index, size = 0, len(data)
    while index < size:
        code = data[index]
        if code == 0 or index + code > size:
            return None
        out.extend(data[index + 1 : index + code])
        index += code
        if code < 0xFF and index < size:
            out.append(0)
    return bytes(out)


def encode(seq: int, kind: int, payload: bytes = b"") -> bytes:
    """One frame, delimiters included, ready to write to the port."""
    payload = bytes(payload)
    body = struct.pack(">BBH", seq & 0xFF, kind, len(payload)) + payload
    crc = crc16(body)
    return b"\x00" + cobs_encode(body + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


class Decoder:
    """Bytes in, frames out. Never raises: noise, bad CRCs, truncated and oversized frames are
    counted in ``errors`` and dropped, and decoding picks up again at the next 00."""

    def __init__(self) -> None:
        self.errors = 0
        self._pending = bytearray()
        self._overflow = False

    def feed(self, data: bytes) -> list:
        """The frames completed by ``data``, as ``(seq, kind, payload)`` tuples."""
        data = bytes(data)
        frames = []
        start = 0
        while start < len(data):
            end = data.find(b"\x00", start)
            if end < 0:
                self._collect(data[start:])
                break
            self._collect(data[start:end])
            frame = self._finish()
            if frame is not None:
                frames.append(frame)
            start = end + 1
        return frames

    def _collect(self, chunk: bytes) -> None:
        if self._overflow:
            return
        if len(self._pending) + len(chunk) > _MAX_ENCODED:
            self._overflow = True
            self._pending = bytearray()
            self.errors += 1
            return
        self._pending.extend(chunk)

    def _finish(self) -> tuple | None:
        encoded, overflow = bytes(self._pending), self._overflow
        self._pending, self._overflow = bytearray(), False
        if overflow or not encoded:
            return None
        body = cobs_decode(encoded)
        if (body is None or len(body) < 6 or crc16(body[:-2]) != body[-2] << 8 | body[-1]
                or body[2] << 8 | body[3] != len(body) - 6):
            self.errors += 1
            return None
        return body[0], body[1], body[4:-2]


class Sequencer:
    """The numbers one end puts on its frames, 0..255 and round again."""

    def __init__(self) -> None:
        self._next = 0

    def frame(self, kind: int, payload: bytes = b"") -> bytes:
        seq = self._next
        self._next = (seq + 1) & 0xFF
        return encode(seq, kind, payload)


class SequenceCheck:
    """Tells a repeated frame (dropped) and a gap (frames lost: ``missed`` counts them)."""

    def __init__(self) -> None:
        self.last = -1
        self.missed = 0
        self.duplicates = 0

    def check(self, seq: int) -> int:
        """SAME (the next number), GAP (some were lost before it) or DUPLICATE (drop it)."""
        verdict = SAME
        if self.last >= 0:
            gap = (seq - self.last) & 0xFF
            if gap == 0:
                self.duplicates += 1
                return DUPLICATE
            if gap > 1:
                self.missed += gap - 1
                verdict = GAP
        self.last = seq
        return verdict

    def reset(self) -> None:
        """The other end restarted (a HELLO, a new port): its numbers start afresh."""
        self.last = -1


# --- message payloads (layouts in firmware/PROTOCOL.md); parsers return None, never raise ---

def hello(seat: int, display: str, features: int, firmware: str) -> bytes:
    head = struct.pack(">BBBB", PROTOCOL_VERSION, seat, DISPLAYS.index(display), features)
    return head + firmware.encode()


def parse_hello(payload: bytes) -> tuple | None:
    """``(protocol, seat, display, features, firmware)``; protocol first, so any version's
    HELLO parses far enough to say which version it speaks."""
    if len(payload) < 4:
        return None
    protocol, seat, display, features = struct.unpack(">BBBB", payload[:4])
    name = DISPLAYS[display] if display < len(DISPLAYS) else "unknown"
    return protocol, seat, name, features, _text(payload[4:])


def button(index: int, pressed: bool, pod_ms: int) -> bytes:
    return struct.pack(">BBI", index, 1 if pressed else 0, pod_ms & 0xFFFFFFFF)


def parse_button(payload: bytes) -> tuple | None:
    """``(index, pressed, pod_ms)``."""
    if len(payload) != 6 or payload[0] >= len(BUTTONS) or payload[1] > 1:
        return None
    index, pressed, pod_ms = struct.unpack(">BBI", payload)
    return index, pressed == 1, pod_ms


def pod_beat(pod_ms: int, echo: int, levels: int) -> bytes:
    """The pod's heartbeat: its clock, the last Pi heartbeat it handled, its button levels."""
    return struct.pack(">IHB", pod_ms & 0xFFFFFFFF, echo & 0xFFFF, levels)


def parse_pod_beat(payload: bytes) -> tuple | None:
    """``(pod_ms, echo, levels)``; bit i of levels is button i held."""
    if len(payload) != 7:
        return None
    return struct.unpack(">IHB", payload)


def host_beat(token: int) -> bytes:
    return struct.pack(">H", token & 0xFFFF)


def parse_host_beat(payload: bytes) -> int | None:
    return struct.unpack(">H", payload)[0] if len(payload) == 2 else None


def who() -> bytes:
    return bytes((PROTOCOL_VERSION,))


def steps(pairs: list) -> bytes:
    """VIBRATE ``(on_ms, off_ms)`` or BUZZ ``(hz, ms)`` pairs (hz 0 is a rest)."""
    return b"".join(struct.pack(">HH", first, second) for first, second in pairs)


def parse_steps(payload: bytes) -> list | None:
    if len(payload) % 4:
        return None
    return [struct.unpack(">HH", payload[i : i + 4]) for i in range(0, len(payload), 4)]


def buzz(level: int, pairs: list) -> bytes:
    """BUZZ: the seat's volume (1..255, 255 loudest) and ``(hz, ms)`` steps."""
    return bytes((level,)) + steps(pairs)


def parse_buzz(payload: bytes) -> tuple | None:
    """``(level, pairs)``, or None for a malformed payload."""
    pairs = parse_steps(payload[1:]) if payload else None
    return None if pairs is None else (payload[0], pairs)


def screen(flags: int, windows: list) -> bytes:
    """``windows``: ``(first_page, last_page, start, end, data)``, data page by page."""
    parts = [bytes((flags, len(windows)))]
    for first_page, last_page, start, end, data in windows:
        parts.append(bytes((first_page, last_page, start, end)))
        parts.append(bytes(data))
    return b"".join(parts)


def parse_screen(payload: bytes, pages: int = 8, width: int = 128) -> tuple | None:
    """``(flags, windows)`` as given to :func:`screen`, or None if any window does not fit."""
    if len(payload) < 2:
        return None
    flags, count = payload[0], payload[1]
    windows, at = [], 2
    for _ in range(count):
        if at + 4 > len(payload):
            return None
        first_page, last_page, start, end = payload[at : at + 4]
        if not (first_page <= last_page < pages and start < end <= width):
            return None
        size = (last_page - first_page + 1) * (end - start)
        data = payload[at + 4 : at + 4 + size]
        if len(data) != size:
            return None
        windows.append((first_page, last_page, start, end, data))
        at += 4 + size
    return (flags, windows) if at == len(payload) else None


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeError:
        return "?"
