"""NaCl's ``box`` (X25519, XSalsa20, Poly1305): what seals and opens the slips.

On a server it is PyNaCl's, always (a dependency: the server does not start without it).
In the browser's Python (Pyodide, ``sys.platform == "emscripten"``), where PyNaCl has no
build, a table on the tablet alone (issue 42, ``companion.offline``) seals with the same
``box`` written out here in plain Python (RFC 7748's X25519, Salsa20's HSalsa20 and
XSalsa20, Poly1305, as NaCl puts them together): the slips, the tablet's slip script
(tweetnacl) and the stored rows are byte for byte those of a server, and a test checks this
code against PyNaCl (``tests/store/test_box.py``). It is not constant-time: there, nothing
crosses a wire and nobody times the tablet's Python from outside.
"""

from __future__ import annotations

import hmac
import os
import sys

KEY_BYTES = 32
NONCE_BYTES = 24
TAG_BYTES = 16


class BoxError(ValueError):
    """A boxed message that does not open with these keys (forged, or for someone else)."""


# -- plain Python (the browser's) -----------------------------------------------------------

_P = 2**255 - 19
_A24 = 121665
_MASK = 0xFFFFFFFF
_SIGMA = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)  # "expand 32-byte k"


def x25519(scalar: bytes, point: bytes) -> bytes:
    """RFC 7748's X25519: ``scalar`` times the curve point whose u-coordinate is ``point``."""
    k = bytearray(scalar)
    k[0] &= 248
    k[31] &= 127
    k[31] |= 64
    n = int.from_bytes(k, "little")
    x1 = int.from_bytes(point, "little") & ((1 << 255) - 1)
    x2, z2, x3, z3, swap = 1, 0, x1, 1, 0
    for t in range(254, -1, -1):
        bit = (n >> t) & 1
        if swap ^ bit:
            x2, x3, z2, z3 = x3, x2, z3, z2
        swap = bit
        a, b = (x2 + z2) % _P, (x2 - z2) % _P
        aa, bb = a * a % _P, b * b % _P
        e = (aa - bb) % _P
        c, d = (x3 + z3) % _P, (x3 - z3) % _P
        da, cb = d * a % _P, c * b % _P
        x3 = (da + cb) ** 2 % _P
        z3 = x1 * (da - cb) ** 2 % _P
        x2 = aa * bb % _P
        z2 = e * (aa + _A24 * e) % _P
    if swap:
        x2, z2 = x3, z3
    return (x2 * pow(z2, _P - 2, _P) % _P).to_bytes(32, "little")


def _rotl(v: int, c: int) -> int:
    return ((v << c) & _MASK) | (v >> (32 - c))


def _rounds(x: list[int]) -> list[int]:
    """Salsa20's 20 rounds (10 double rounds) on the 16 words ``x``, in place."""
    def quarter(a: int, b: int, c: int, d: int) -> None:
        x[b] ^= _rotl((x[a] + x[d]) & _MASK, 7)
        x[c] ^= _rotl((x[b] + x[a]) & _MASK, 9)
        x[d] ^= _rotl((x[c] + x[b]) & _MASK, 13)
        x[a] ^= _rotl((x[d] + x[c]) & _MASK, 18)

    for _ in range(10):
        quarter(0, 4, 8, 12)
        quarter(5, 9, 13, 1)
        quarter(10, 14, 2, 6)
        quarter(15, 3, 7, 11)
        quarter(0, 1, 2, 3)
        quarter(5, 6, 7, 4)
        quarter(10, 11, 8, 9)
        quarter(15, 12, 13, 14)
    return x


def _words(data: bytes) -> list[int]:
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


def _state(key: bytes, middle: list[int]) -> list[int]:
    k = _words(key)
    return [_SIGMA[0], *k[:4], _SIGMA[1], *middle, _SIGMA[2], *k[4:], _SIGMA[3]]


def hsalsa20(key: bytes, given: bytes) -> bytes:
    """HSalsa20: a 32-byte key from ``key`` and 16 bytes ``given``."""
    x = _rounds(_state(key, _words(given)))
    return b"".join(x[i].to_bytes(4, "little") for i in (0, 5, 10, 15, 6, 7, 8, 9))


def _xsalsa20_stream(length: int, nonce: bytes, key: bytes) -> bytes:
    sub = hsalsa20(key, nonce[:16])
    n = _words(nonce[16:24])
    out = bytearray()
    counter = 0
    while len(out) < length:
        start = _state(sub, [*n, counter & _MASK, counter >> 32])
        x = _rounds(list(start))
        out += b"".join(((x[i] + start[i]) & _MASK).to_bytes(4, "little") for i in range(16))
        counter += 1
    return bytes(out[:length])


def poly1305(key: bytes, message: bytes) -> bytes:
    """Poly1305's 16-byte tag of ``message`` under the one-time ``key``."""
    r = int.from_bytes(key[:16], "little") & 0x0FFFFFFC0FFFFFFC0FFFFFFC0FFFFFFF
    s = int.from_bytes(key[16:32], "little")
    p = (1 << 130) - 5
    acc = 0
    for i in range(0, len(message), 16):
        acc = (acc + int.from_bytes(message[i:i + 16] + b"\x01", "little")) * r % p
    return ((acc + s) & ((1 << 128) - 1)).to_bytes(16, "little")


def _shared(public: bytes, private: bytes) -> bytes:
    return hsalsa20(x25519(private, public), bytes(16))


def plain_box(message: bytes, nonce: bytes, public: bytes, private: bytes) -> bytes:
    """NaCl's ``crypto_box`` in plain Python: the tag, then the ciphertext."""
    stream = _xsalsa20_stream(32 + len(message), nonce, _shared(public, private))
    cipher = bytes(a ^ b for a, b in zip(message, stream[32:], strict=True))
    return poly1305(stream[:32], cipher) + cipher


def plain_box_open(boxed: bytes, nonce: bytes, public: bytes, private: bytes) -> bytes:
    """NaCl's ``crypto_box_open`` in plain Python (``BoxError`` when it does not open)."""
    if len(boxed) < TAG_BYTES or len(nonce) != NONCE_BYTES or len(public) != KEY_BYTES:
        raise BoxError("not a box")
    tag, cipher = boxed[:TAG_BYTES], boxed[TAG_BYTES:]
    stream = _xsalsa20_stream(32 + len(cipher), nonce, _shared(public, private))
    if not hmac.compare_digest(poly1305(stream[:32], cipher), tag):
        raise BoxError("forged or corrupt")
    return bytes(a ^ b for a, b in zip(cipher, stream[32:], strict=True))


def plain_key_pair() -> tuple[bytes, bytes]:
    """A new X25519 key pair in plain Python: (public, private)."""
    private = os.urandom(KEY_BYTES)
    return x25519(private, (9).to_bytes(32, "little")), private


# -- the one in use ---------------------------------------------------------------------------

try:
    from nacl.bindings import crypto_box as _nacl_box
    from nacl.bindings import crypto_box_open as _nacl_box_open
    from nacl.exceptions import CryptoError as _CryptoError
    from nacl.public import PrivateKey as _PrivateKey
    from nacl.utils import random as _nacl_random
except ImportError:
    if sys.platform != "emscripten":
        raise  # a server seals with PyNaCl, never with the plain code
    PLAIN = True
else:
    PLAIN = False
"""Whether this process seals with the plain Python above (only ever in the browser)."""


def key_pair() -> tuple[bytes, bytes]:
    """A new key pair: (public, private)."""
    if PLAIN:
        return plain_key_pair()
    private = _PrivateKey.generate()
    return bytes(private.public_key), bytes(private)


def box(message: bytes, nonce: bytes, public: bytes, private: bytes) -> bytes:
    """``message`` boxed from ``private`` to ``public`` (the tag, then the ciphertext)."""
    if PLAIN:
        return plain_box(message, nonce, public, private)
    return _nacl_box(message, nonce, public, private)


def box_open(boxed: bytes, nonce: bytes, public: bytes, private: bytes) -> bytes:
    """What ``boxed`` says, opened with ``private`` from ``public`` (``BoxError`` when it
    does not open)."""
    if PLAIN:
        return plain_box_open(boxed, nonce, public, private)
    try:
        return _nacl_box_open(boxed, nonce, public, private)
    except _CryptoError as error:
        raise BoxError(str(error)) from None


def random_bytes(size: int) -> bytes:
    """``size`` random bytes (libsodium's; in the browser, its crypto.getRandomValues)."""
    return os.urandom(size) if PLAIN else _nacl_random(size)


__all__ = ["KEY_BYTES", "NONCE_BYTES", "PLAIN", "BoxError", "box", "box_open", "key_pair",
           "random_bytes"]
