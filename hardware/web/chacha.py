"""ChaCha20-Poly1305 (RFC 8439) from OpenSSL's libcrypto, through ``ctypes``: the phone seats' AEAD.

The service already has libcrypto mapped: Python's ``_hashlib`` and ``_ssl`` link it, and
asyncio imports ``ssl``. Reaching it through ``ctypes`` (which the speaker's binding,
``hardware.drivers.alsa_pcm``, already loads) maps nothing new, where importing the
``cryptography`` package's AEAD cost 8.7 MiB resident (BENCHMARKS.md; issue 23's memory goal).

The library is the one ``_hashlib`` (else ``_ssl``) was linked against: that extension's file
is opened and the symbols are looked up through it, which searches its dependencies, so a
Python built against its own OpenSSL uses that one. A Python whose extensions are built into
it falls back to the system's ``libcrypto``.

Each :class:`ChaCha20Poly1305` keeps one OpenSSL context per direction, set up with its key
once: a message only sets its nonce, so it costs no key set-up and no look-up of the cipher
(OpenSSL 3's manual warns that naming the cipher at every initialisation costs one). The
table's loop and the web server's thread both seal, so a lock guards the contexts, which are
freed when the object goes. A message is five calls into libcrypto, and their cost is mostly
``ctypes``' own, so: the functions come through ``ctypes.PyDLL``, which keeps the interpreter
locked for the call (a fraction of a microsecond of work on a 1 KiB frame; releasing the
interpreter, as ``ctypes.CDLL`` does, would also let the other thread take it for up to its
switch interval in the middle of a seal), and every pointer is declared ``c_void_p`` and
passed as bytes or an address, which ctypes converts faster than its typed pointers.
"""

from __future__ import annotations

import ctypes
import importlib.util
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from functools import cache

from ..exc import LibcryptoError

KEY_BYTES = 32
NONCE_BYTES = 12  # OpenSSL's default nonce length for ChaCha20-Poly1305, RFC 8439's
TAG_BYTES = 16
LARGEST = 2**31 - 1  # EVP lengths are C ints: ctypes would wrap a longer one silently

# openssl/evp.h
EVP_CTRL_AEAD_GET_TAG = 0x10
EVP_CTRL_AEAD_SET_TAG = 0x11

PACKAGES = "libssl3 (libssl3t64 on Debian trixie and later)"
LINKED = ("_hashlib", "_ssl")  # Python's extensions that link libcrypto


def candidates() -> Iterator[str]:
    """Where libcrypto may be reached, best first: the extensions linked to it, then the
    system's (found only if those fail: ``find_library`` runs ``ldconfig``)."""
    for name in LINKED:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.has_location and spec.origin is not None:
            yield spec.origin
    import ctypes.util

    system = ctypes.util.find_library("crypto")
    if system is not None:
        yield system


@cache
def libcrypto() -> ctypes.PyDLL:
    """libcrypto, loaded once."""
    return load(candidates())


def load(files: Iterable[str]) -> ctypes.PyDLL:
    """The first of ``files`` through which ChaCha20-Poly1305 is reached, with the signatures
    of the functions used here; LibcryptoError, naming the package, if none is."""
    for file in files:
        try:
            library = ctypes.PyDLL(file)
        except OSError:
            continue
        if hasattr(library, "EVP_chacha20_poly1305"):
            break
    else:
        raise LibcryptoError(f"OpenSSL's libcrypto with ChaCha20-Poly1305 was not found: the "
                             f"phone seats need it (Debian's package {PACKAGES})")
    address, size = ctypes.c_void_p, ctypes.c_int  # every pointer is passed as an address
    signatures = {
        "EVP_chacha20_poly1305": ([], address),
        "EVP_CIPHER_CTX_new": ([], address),
        "EVP_CIPHER_CTX_free": ([address], None),
        "EVP_CIPHER_CTX_ctrl": ([address, ctypes.c_int, ctypes.c_int, address], ctypes.c_int),
        # ctx, cipher, engine, key, nonce
        "EVP_EncryptInit_ex": ([address] * 5, ctypes.c_int),
        "EVP_DecryptInit_ex": ([address] * 5, ctypes.c_int),
        # ctx, out, the length written, in, its length
        "EVP_EncryptUpdate": ([address, address, address, address, size], ctypes.c_int),
        "EVP_DecryptUpdate": ([address, address, address, address, size], ctypes.c_int),
        # ctx, out, the length written
        "EVP_EncryptFinal_ex": ([address] * 3, ctypes.c_int),
        "EVP_DecryptFinal_ex": ([address] * 3, ctypes.c_int),
    }
    for name, (arguments, result) in signatures.items():
        function = getattr(library, name)
        function.argtypes, function.restype = arguments, result
    return library


def _context(init: Callable[..., int], key: bytes) -> int:
    """A new context for ChaCha20-Poly1305 under ``key``, its nonce still to come."""
    library = libcrypto()
    context = library.EVP_CIPHER_CTX_new()
    if not context:
        raise MemoryError("libcrypto could not allocate a cipher context")
    if init(context, library.EVP_chacha20_poly1305(), None, key, None) != 1:
        library.EVP_CIPHER_CTX_free(context)
        raise LibcryptoError("libcrypto refused to set up ChaCha20-Poly1305")
    return int(context)


class ChaCha20Poly1305:
    """One key's AEAD: :meth:`encrypt` gives the ciphertext and its tag, :meth:`decrypt` the
    plaintext, or None when the tag does not match (a forgery, another key, other data)."""

    def __init__(self, key: bytes) -> None:
        if len(key) != KEY_BYTES:
            raise ValueError(f"a ChaCha20-Poly1305 key has {KEY_BYTES} bytes")
        self._evp = library = libcrypto()
        self._lock = threading.Lock()  # guards both contexts and the length they write
        self._length = ctypes.c_int()
        self._written = ctypes.addressof(self._length)
        self._sealer = _context(library.EVP_EncryptInit_ex, key)
        weakref.finalize(self, library.EVP_CIPHER_CTX_free, self._sealer)
        self._opener = _context(library.EVP_DecryptInit_ex, key)
        weakref.finalize(self, library.EVP_CIPHER_CTX_free, self._opener)

    def __repr__(self) -> str:  # a log line must never tell a key
        return "ChaCha20Poly1305()"

    def encrypt(self, nonce: bytes, plain: bytes, aad: bytes) -> bytes:
        """``plain`` sealed under ``nonce``, ``aad`` bound to it: ciphertext, then the tag."""
        _check_sizes(nonce, plain, aad)
        evp, context, written, length = self._evp, self._sealer, self._written, len(plain)
        out = (ctypes.c_char * (length + TAG_BYTES))()
        with self._lock:
            done = (evp.EVP_EncryptInit_ex(context, None, None, None, nonce) == 1
                    and evp.EVP_EncryptUpdate(context, None, written, aad, len(aad)) == 1
                    and evp.EVP_EncryptUpdate(context, out, written, plain, length) == 1
                    and evp.EVP_EncryptFinal_ex(context, None, written) == 1
                    and evp.EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, TAG_BYTES,
                                                ctypes.addressof(out) + length) == 1)
        if not done:
            raise LibcryptoError("libcrypto refused to seal a message")
        return out.raw

    def decrypt(self, nonce: bytes, sealed: bytes, aad: bytes) -> bytes | None:
        """What :meth:`encrypt` sealed as ``sealed`` under ``nonce`` and ``aad``, or None."""
        _check_sizes(nonce, sealed, aad)
        length = len(sealed) - TAG_BYTES
        if length < 0:
            return None
        evp, context, written = self._evp, self._opener, self._written
        out = (ctypes.c_char * length)()
        with self._lock:
            done = (evp.EVP_DecryptInit_ex(context, None, None, None, nonce) == 1
                    and evp.EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, TAG_BYTES,
                                                sealed[length:]) == 1
                    and evp.EVP_DecryptUpdate(context, None, written, aad, len(aad)) == 1
                    and evp.EVP_DecryptUpdate(context, out, written, sealed, length) == 1)
            # Final fails for a tag that does not match: not ours, nothing to raise
            genuine = done and evp.EVP_DecryptFinal_ex(context, None, written) == 1
        if not done:
            raise LibcryptoError("libcrypto refused to open a message")
        return out.raw if genuine else None


def _check_sizes(nonce: bytes, data: bytes, aad: bytes) -> None:
    """OpenSSL reads NONCE_BYTES of the nonce whatever its length, and takes lengths as ints."""
    if len(nonce) != NONCE_BYTES:
        raise ValueError(f"a ChaCha20-Poly1305 nonce has {NONCE_BYTES} bytes")
    if len(data) > LARGEST or len(aad) > LARGEST:
        raise ValueError("a message this long does not fit one libcrypto call")
