"""A phone seat's key: every message between the table and the phone, sealed both ways.

ChaCha20-Poly1305 with a random 96-bit nonce per message (a seat sends a few thousand
messages an evening: a repeat is out of reach). The associated data names the seat and the
direction, so a message can be neither moved to another seat nor reflected back to its
sender. The key reaches the phone only in its link's ``#fragment``, which browsers never send
(docs/phones.md). The cipher is OpenSSL's, through ``chacha``.
"""

from __future__ import annotations

import base64
import os
import secrets

from .chacha import KEY_BYTES, NONCE_BYTES, TAG_BYTES, ChaCha20Poly1305

OVERHEAD = NONCE_BYTES + TAG_BYTES

TO_PHONE = b"to-phone"
TO_TABLE = b"to-table"


class SeatKey:
    """One seat's key; ``seal`` for the phone, ``open`` what the phone sent (None: not ours)."""

    def __init__(self, seat: int, key: bytes | None = None) -> None:
        self.seat = seat
        self._key = key if key is not None else secrets.token_bytes(KEY_BYTES)
        self._aead = ChaCha20Poly1305(self._key)  # which refuses a key of another length
        self._to_phone = associated_data(seat, TO_PHONE)
        self._to_table = associated_data(seat, TO_TABLE)

    def __repr__(self) -> str:  # a log line must never tell a key
        return f"SeatKey(seat={self.seat})"

    def fragment(self) -> str:
        """The key as the link's ``#fragment`` (base64url, no padding)."""
        return base64.urlsafe_b64encode(self._key).rstrip(b"=").decode("ascii")

    def seal(self, plain: bytes) -> bytes:
        nonce = os.urandom(NONCE_BYTES)
        return nonce + self._aead.encrypt(nonce, plain, self._to_phone)

    def open(self, sealed: bytes) -> bytes | None:
        """What the phone sealed, or None for anything else (garbage, a stranger, a replay
        from the other direction)."""
        if len(sealed) < OVERHEAD:
            return None
        return self._aead.decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], self._to_table)


def associated_data(seat: int, direction: bytes) -> bytes:
    """What every message of ``seat`` going ``direction`` is bound to (seat.js binds the same)."""
    return b"table-companion seat %d %s" % (seat, direction)
