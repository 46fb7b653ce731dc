"""The pod link's framing: COBS + CRC-16 + sequence numbers, robust against any byte stream."""

from __future__ import annotations

import serial
from hypothesis import given, settings
from hypothesis import strategies as st

from podproto import wire
from podproto.wire import Decoder, SequenceCheck, Sequencer

payloads = st.binary(max_size=300)
quick = settings(max_examples=50)  # keeps the whole pod test set well under 20 s
messages = st.lists(st.tuples(st.sampled_from([wire.SCREEN, wire.BUTTON]), payloads),
                    min_size=1, max_size=6)


def frames_of(messages: list[tuple[int, bytes]]) -> list[bytes]:
    sequencer = Sequencer()
    return [sequencer.frame(kind, payload) for kind, payload in messages]


def test_pod_wire_crc_is_ccitt_false() -> None:
    """The CRC matches the published check value, so any other implementation can talk to us."""
    assert wire.crc16(b"123456789") == 0x29B1 == wire.pure_crc16(b"123456789")


@quick
@given(st.binary(max_size=1100), st.integers(0, 0xFFFF))
def test_pod_wire_pi_crc_is_the_pods(data: bytes, start: int) -> None:
    """On the Pi the CRC is binascii.crc_hqx, and it agrees with the pod's pure Python on any
    bytes: the two ends never disagree about a frame."""
    assert wire.crc16 is not wire.pure_crc16
    assert wire.crc16(data, start) == wire.pure_crc16(data, start)


@given(st.binary(max_size=2000))
def test_pod_wire_cobs_round_trip_has_no_zeros(data: bytes) -> None:
    """Stuffed bytes never contain the delimiter and unstuff to the original."""
    encoded = wire.cobs_encode(data)
    assert 0 not in encoded
    assert wire.cobs_decode(encoded) == data


@quick
@given(messages)
def test_pod_wire_frames_round_trip(messages: list[tuple[int, bytes]]) -> None:
    """Frames fed in arbitrary pieces come out whole, numbered in order."""
    stream = b"".join(frames_of(messages))
    decoder = Decoder()
    got = []
    for start in range(0, len(stream), 37):
        got += decoder.feed(stream[start : start + 37])
    assert [(kind, payload) for _, kind, payload in got] == messages
    assert [seq for seq, _, _ in got] == list(range(len(messages)))
    assert decoder.errors == 0


@quick
@given(st.binary(max_size=1500), messages)
def test_pod_wire_garbage_never_raises_and_resynchronises(garbage: bytes, messages) -> None:
    """After any garbage, every following frame still decodes."""
    decoder = Decoder()
    decoder.feed(garbage)
    got = decoder.feed(b"".join(frames_of(messages)))
    assert [(kind, payload) for _, kind, payload in got][-len(messages):] == messages


@quick
@given(messages, st.data())
def test_pod_wire_truncated_frame_is_dropped(messages, data) -> None:
    """A frame cut short (a byte lost, a cable pulled) is dropped; the next one decodes."""
    frames = frames_of(messages)
    victim = data.draw(st.integers(0, len(frames) - 1))
    cut = data.draw(st.integers(1, len(frames[victim]) - 2))
    frames[victim] = frames[victim][:cut]
    decoder = Decoder()
    got = decoder.feed(b"".join(frames))
    expected = [m for i, m in enumerate(messages) if i != victim]
    assert [(kind, payload) for _, kind, payload in got] == expected


def test_pod_wire_frame_that_lost_only_its_last_stuffed_byte_is_dropped() -> None:
    """A body ending in 00 (a CRC whose low byte is 00, one frame in 256) is stuffed with
    that 00 as the frame's last code byte. Lost, the rest used to read as a shorter body with
    a matching CRC (found by the property above): the frame's length now refuses it."""
    sequencer = Sequencer()
    for payload in (bytes([n, 0x4F, 0x8E]) for n in range(256)):
        frame = sequencer.frame(wire.SCREEN, payload)
        if frame.endswith(b"\x01\x00"):  # its body ends in 00
            break
    else:
        raise AssertionError("no payload of the 256 gave a CRC ending in 00")
    decoder = Decoder()
    got = decoder.feed(frame[:-2] + sequencer.frame(wire.BUTTON, b"ok"))
    assert [(kind, payload) for _, kind, payload in got] == [(wire.BUTTON, b"ok")]
    assert decoder.errors == 1


@quick
@given(messages, st.data())
def test_pod_wire_flipped_byte_is_caught(messages, data) -> None:
    """A corrupted byte inside a frame fails its CRC (or its COBS) instead of passing as data."""
    frames = frames_of(messages)
    victim = data.draw(st.integers(0, len(frames) - 1))
    frame = bytearray(frames[victim])
    at = data.draw(st.integers(1, len(frame) - 2))
    frame[at] ^= data.draw(st.integers(1, 255))
    frames[victim] = bytes(frame)
    decoder = Decoder()
    got = decoder.feed(b"".join(frames))
    survivors = messages[:victim] + messages[victim + 1 :]
    assert [(kind, payload) for _, kind, payload in got] == survivors
    assert decoder.errors >= 1


@quick
@given(messages, st.data())
def test_pod_wire_duplicates_are_dropped_gaps_counted(messages, data) -> None:
    """A frame sent twice is taken once; a frame that never came is counted as missed."""
    frames = frames_of(messages)
    repeat = data.draw(st.integers(0, len(frames) - 1))
    frames.insert(repeat, frames[repeat])
    check = SequenceCheck()
    taken = [(kind, payload) for seq, kind, payload in Decoder().feed(b"".join(frames))
             if check.check(seq) != wire.DUPLICATE]
    assert taken == messages
    assert check.duplicates == 1 and check.missed == 0
    assert check.check((check.last + 3) & 0xFF) == wire.GAP and check.missed == 2


def test_pod_wire_oversized_frame_is_dropped() -> None:
    """Endless bytes without a delimiter do not grow memory; decoding resumes after them."""
    decoder = Decoder()
    assert decoder.feed(b"\x01" * 5000) == []
    assert decoder.feed(Sequencer().frame(wire.RESEND)) == [(0, wire.RESEND, b"")]
    assert decoder.errors == 1


def test_pod_wire_through_a_serial_loop() -> None:
    """Frames written to a pyserial port read back intact (the framing over a real port API)."""
    port = serial.serial_for_url("loop://", timeout=0.1)
    screen = wire.screen(wire.ON_AFTER, [(0, 7, 0, 128, bytes(range(256)) * 4)])
    port.write(Sequencer().frame(wire.SCREEN, screen))
    (_seq, kind, payload), = Decoder().feed(port.read(2000))
    assert (kind, wire.parse_screen(payload)) == (wire.SCREEN, (
        wire.ON_AFTER, [(0, 7, 0, 128, bytes(range(256)) * 4)]))


@given(st.binary(max_size=64))
def test_pod_wire_payload_parsers_never_raise(payload: bytes) -> None:
    """Every parser answers None (or a value) for any payload a broken pod could send."""
    for parse in (wire.parse_hello, wire.parse_button, wire.parse_pod_beat,
                  wire.parse_host_beat, wire.parse_steps, wire.parse_screen):
        parse(payload)


def test_pod_wire_messages_round_trip() -> None:
    """Each message reads back as written."""
    assert wire.parse_hello(wire.hello(3, "sh1106", wire.HAS_PEEK, "0.1.0")) == (
        wire.PROTOCOL_VERSION, 3, "sh1106", wire.HAS_PEEK, "0.1.0")
    assert wire.parse_button(wire.button(1, True, 2**32 + 5)) == (1, True, 5)
    assert wire.parse_pod_beat(wire.pod_beat(70, 9, 2)) == (70, 9, 2)
    assert wire.parse_steps(wire.steps([(150, 0), (120, 120)])) == [(150, 0), (120, 120)]
    assert wire.parse_screen(wire.screen(0, [(2, 1, 0, 4, b"abcd")])) is None
