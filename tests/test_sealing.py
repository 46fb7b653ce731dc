"""A phone seat's seals, made and opened through OpenSSL's libcrypto (hardware/web/chacha.py):
RFC 8439's own example, an independent implementation (``cryptography``, a test-only
dependency) reading and writing the same messages, and every tampered or misdirected message
refused."""

from __future__ import annotations

import ctypes.util
import gc
import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305 as Independent

from hardware.exc import LibcryptoError
from hardware.web.chacha import ChaCha20Poly1305, load
from hardware.web.sealing import SeatKey

# RFC 8439 section 2.8.2, "Example and Test Vector for AEAD_CHACHA20_POLY1305"
RFC_KEY = bytes.fromhex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")
RFC_NONCE = bytes.fromhex("070000004041424344454647")
RFC_AAD = bytes.fromhex("50515253c0c1c2c3c4c5c6c7")
RFC_PLAIN = (b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for "
             b"the future, sunscreen would be it.")
RFC_CIPHER = bytes.fromhex(
    "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6"
    "3dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b36"
    "92ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc"
    "3ff4def08e4b7a9de576d26586cec64b6116")
RFC_TAG = bytes.fromhex("1ae10b594f09e26a7e902ecbd0600691")

KEY = bytes(range(32))
TO_PHONE = b"table-companion seat 1 to-phone"  # what seat.js binds, typed out here
TO_TABLE = b"table-companion seat 1 to-table"


def from_phone(plain: bytes, key: bytes = KEY, aad: bytes = TO_TABLE) -> bytes:
    """A message as seat 1's phone seals it (the page's wire format), made independently."""
    nonce = os.urandom(12)
    return nonce + Independent(key).encrypt(nonce, plain, aad)


def flipped(message: bytes, bit: int) -> bytes:
    tampered = bytearray(message)
    tampered[bit // 8] ^= 1 << bit % 8
    return bytes(tampered)


def test_sealing_gives_rfc_8439s_example() -> None:
    aead = ChaCha20Poly1305(RFC_KEY)
    assert aead.encrypt(RFC_NONCE, RFC_PLAIN, RFC_AAD) == RFC_CIPHER + RFC_TAG
    assert aead.decrypt(RFC_NONCE, RFC_CIPHER + RFC_TAG, RFC_AAD) == RFC_PLAIN


def test_sealing_round_trips_every_size_and_empty_associated_data() -> None:
    aead = ChaCha20Poly1305(KEY)
    for size in (0, 1, 15, 16, 17, 63, 64, 65, 1024, 1030, 4096):
        nonce, plain = os.urandom(12), os.urandom(size)
        for aad in (b"", TO_PHONE):
            sealed = aead.encrypt(nonce, plain, aad)
            assert len(sealed) == size + 16
            assert aead.decrypt(nonce, sealed, aad) == plain


def test_sealing_and_an_independent_implementation_open_each_others_messages() -> None:
    """Every size from an empty message to 2000 bytes, each way: what the phones' side (the
    same construction in ``cryptography``) seals, the table opens, and the other way."""
    ours, theirs = ChaCha20Poly1305(KEY), Independent(KEY)
    sizes = random.Random(8439)
    for size in range(2001):
        plain, nonce = sizes.randbytes(size), os.urandom(12)
        aad = sizes.randbytes(sizes.randrange(64))
        assert theirs.decrypt(nonce, ours.encrypt(nonce, plain, aad), aad) == plain
        assert ours.decrypt(nonce, theirs.encrypt(nonce, plain, aad), aad) == plain


def test_sealing_a_seat_key_talks_with_the_phones_construction() -> None:
    """The table's seal opens on the phone's side with the seat's associated data, and the
    phone's message opens on the table's."""
    seat = SeatKey(1, KEY)
    frame = os.urandom(1030)
    sealed = seat.seal(frame)
    assert Independent(KEY).decrypt(sealed[:12], sealed[12:], TO_PHONE) == frame
    assert seat.open(from_phone(b"\x01 a hello")) == b"\x01 a hello"


def test_sealing_refuses_any_flipped_bit_of_nonce_ciphertext_or_tag() -> None:
    seat = SeatKey(1, KEY)
    message = from_phone(b"a press")
    assert seat.open(message) == b"a press"
    refused = [bit for bit in range(len(message) * 8) if seat.open(flipped(message, bit)) is None]
    assert refused == list(range(len(message) * 8))


def test_sealing_refuses_a_flipped_bit_of_the_associated_data() -> None:
    aead = ChaCha20Poly1305(KEY)
    nonce = os.urandom(12)
    sealed = aead.encrypt(nonce, b"a press", TO_TABLE)
    for bit in range(len(TO_TABLE) * 8):
        assert aead.decrypt(nonce, sealed, flipped(TO_TABLE, bit)) is None
    assert aead.decrypt(nonce, sealed, TO_TABLE) == b"a press"


def test_sealing_refuses_another_seat_the_other_direction_and_another_key() -> None:
    """A message moved to seat 2 (same key, even), reflected back to the table, sealed under
    another key, cut short or padded, is refused; the genuine one still opens after them."""
    seat = SeatKey(1, KEY)
    message = from_phone(b"a press")
    assert SeatKey(2, KEY).open(message) is None
    assert seat.open(seat.seal(b"a frame")) is None  # the table's own, sent back to it
    assert seat.open(from_phone(b"a press", aad=TO_PHONE)) is None
    assert seat.open(from_phone(b"a press", key=os.urandom(32))) is None
    assert seat.open(message[:-1]) is None
    assert seat.open(message + b"\x00") is None
    assert seat.open(message[:27]) is None  # shorter than a nonce and a tag
    assert seat.open(message) == b"a press"


def test_sealing_never_repeats_a_nonce_and_hides_equal_frames() -> None:
    seat = SeatKey(1, KEY)
    seals = [seat.seal(bytes(1030)) for _ in range(1000)]
    assert len({sealed[:12] for sealed in seals}) == 1000
    assert len({sealed[12:] for sealed in seals}) == 1000


def test_sealing_from_two_threads_at_once_keeps_every_message_whole() -> None:
    """The table's loop and the web server's thread both seal with one key (frames, acks)
    while the server opens presses: with the interpreter switching threads as often as it
    can, every message still comes out right."""
    seat = SeatKey(1, KEY)
    sealed: dict[bytes, list[tuple[bytes, bytes]]] = {b"a": [], b"b": []}
    opened: list[tuple[bytes, bytes | None]] = []
    presses = [bytes([n % 256]) * (n % 40) for n in range(3000)]
    messages = [from_phone(plain) for plain in presses]

    def seal(letter: bytes) -> None:
        for n in range(3000):
            plain = letter * (n % 50)
            sealed[letter].append((plain, seat.seal(plain)))

    def open_() -> None:
        opened.extend(zip(presses, map(seat.open, messages), strict=True))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=seal, args=(b"a",)),
                   threading.Thread(target=seal, args=(b"b",)), threading.Thread(target=open_)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    theirs = Independent(KEY)
    for letter in (b"a", b"b"):
        assert len(sealed[letter]) == 3000
        for plain, message in sealed[letter]:
            assert theirs.decrypt(message[:12], message[12:], TO_PHONE) == plain
    assert len(opened) == 3000
    assert all(plain == got for plain, got in opened)


def resident_kib() -> int:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def test_sealing_gives_back_the_memory_of_a_dropped_key() -> None:
    """Keys are made anew at every start or reload of table.toml: the OpenSSL contexts of
    20000 keys dropped leave the process no bigger (about 40 MiB were they kept)."""
    for _ in range(2000):  # the allocator's own arenas settle first
        SeatKey(1).seal(b"x")
    gc.collect()
    before = resident_kib()
    for _ in range(20000):
        SeatKey(1).seal(b"x")
    gc.collect()
    assert resident_kib() - before < 4096


def test_sealing_maps_no_library_the_web_server_had_not() -> None:
    """The binding uses the libcrypto Python's own ssl and hashlib already hold: sealing in a
    process that imported them maps no new cryptographic library (``cryptography`` mapped its
    own 7.5 MiB)."""
    script = ("import asyncio, hashlib, ssl\n"
              "def mapped(): return {line.split()[-1] for line in open('/proc/self/maps') "
              "if 'crypt' in line or 'ssl' in line}\n"
              "before = mapped()\n"
              "from hardware.web.sealing import SeatKey\n"
              "SeatKey(1).seal(b'a frame')\n"
              "print(sorted(mapped() - before))\n"
              "import sys; print('cryptography' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).parent.parent)
    assert done.stdout.split("\n")[:2] == ["[]", "False"], done


def test_sealing_finds_the_systems_libcrypto_when_python_has_no_extension_linking_it() -> None:
    """A Python with neither ``_hashlib`` nor ``_ssl`` as a file of its own (built in, or
    left out): the system's libcrypto serves, and gives RFC 8439's example."""
    script = ("import sys; sys.modules['_hashlib'] = sys.modules['_ssl'] = None\n"
              "import ctypes.util\n"
              "from hardware.web.chacha import ChaCha20Poly1305, libcrypto\n"
              "print(libcrypto()._name == ctypes.util.find_library('crypto'))\n"
              f"print(ChaCha20Poly1305({RFC_KEY!r}).encrypt({RFC_NONCE!r}, {RFC_PLAIN!r}, "
              f"{RFC_AAD!r}).hex())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).parent.parent)
    assert done.stdout.split() == ["True", (RFC_CIPHER + RFC_TAG).hex()], done


def test_sealing_without_libcrypto_names_the_package_to_install(tmp_path: Path) -> None:
    """No file that reaches ChaCha20-Poly1305 (none there, or a library without it): the
    error says which package brings it."""
    libc = ctypes.util.find_library("c")
    assert libc is not None
    with pytest.raises(LibcryptoError, match="libssl3"):
        load([str(tmp_path / "libcrypto.so.3"), libc])


def test_sealing_refuses_a_wrong_key_or_nonce_length() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        SeatKey(1, bytes(16))
    with pytest.raises(ValueError, match="12 bytes"):
        ChaCha20Poly1305(KEY).encrypt(bytes(8), b"a frame", TO_PHONE)


def test_sealing_never_shows_the_key() -> None:
    """Two keys look the same in a log line."""
    other = os.urandom(32)
    assert repr(SeatKey(1, KEY)) == repr(SeatKey(1, other))
    assert repr(ChaCha20Poly1305(KEY)) == repr(ChaCha20Poly1305(other))
