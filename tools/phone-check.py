"""A phone seat's server and seals on this machine: what tools/pi-check.sh runs in each Pi OS root.

The phone seats lean on what the OS gives: h11 and wsproto from the package index, and the
seals on the libcrypto Python's own ``_hashlib`` links, reached through ``ctypes``. A C type
that is wrong on 32-bit ARM, or a libcrypto without ChaCha20-Poly1305, shows here, in the
root, and not in the test suite on the x86 machine. Exits 0 with one line per check, or with
the error.
"""

from __future__ import annotations

import os
import urllib.request

from hardware.web.chacha import NONCE_BYTES, TAG_BYTES, ChaCha20Poly1305
from hardware.web.sealing import TO_TABLE, SeatKey, associated_data
from hardware.web.server import PhoneServer


def seals() -> None:
    """A message sealed as seat.js seals it opens at the table; one flipped bit does not."""
    key = os.urandom(32)
    plain = b"a phone's edge"
    nonce = os.urandom(NONCE_BYTES)
    sealed = nonce + ChaCha20Poly1305(key).encrypt(nonce, plain, associated_data(1, TO_TABLE))
    assert len(sealed) == NONCE_BYTES + len(plain) + TAG_BYTES and plain not in sealed
    seat = SeatKey(1, key)
    assert seat.open(sealed) == plain, "a sealed message did not open"
    forged = sealed[:-1] + bytes([sealed[-1] ^ 1])
    assert seat.open(forged) is None, "a forged message opened"
    print("phone-check: seals through libcrypto: ok")


def pages() -> None:
    """The server listens on its thread and serves a seat's page and the public page."""
    events: list[object] = []
    server = PhoneServer([1], events.append, host="127.0.0.1", public_host="127.0.0.1").start()
    try:
        for path in ("/seat/1", "/table"):
            with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}",
                                        timeout=60) as answer:
                assert answer.status == 200 and b"<html" in answer.read(), path
        print(f"phone-check: the server's pages on h11: ok (port {server.port})")
    finally:
        server.close()


if __name__ == "__main__":
    seals()
    pages()
