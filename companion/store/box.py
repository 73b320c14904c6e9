"""NaCl's ``box`` (X25519, XSalsa20, Poly1305): what seals and opens the slips.

On a server it is PyNaCl's, always (a dependency: the server does not start without it).
In the browser's Python (Pyodide, ``sys.platform == "emscripten"``), where PyNaCl has no
build, a table on the tablet alone (``companion.offline``) seals with tweetnacl, the same
library the phones' slip script uses (``static/vendor/nacl-fast.min.js``, which the worker
loads before Python starts), through Pyodide's bridge to JavaScript: the slips and the
stored rows are byte for byte a server's (``tests/test_pyodide_rules.py`` checks the two
against each other).
"""

from __future__ import annotations

import sys

KEY_BYTES = 32
NONCE_BYTES = 24
TAG_BYTES = 16


class BoxError(ValueError):
    """A boxed message that does not open with these keys (forged, or for someone else)."""


# -- the one in use ---------------------------------------------------------------------------

try:
    from nacl.bindings import crypto_box as _nacl_box
    from nacl.bindings import crypto_box_open as _nacl_box_open
    from nacl.exceptions import CryptoError as _CryptoError
    from nacl.public import PrivateKey as _PrivateKey
    from nacl.utils import random as _nacl_random
except ImportError:
    if sys.platform != "emscripten":
        raise  # a server seals with PyNaCl, always
    PLAIN = True
else:
    PLAIN = False
"""Whether this process seals with tweetnacl, through the browser (only ever in Pyodide)."""


def _tweetnacl():
    """The browser's tweetnacl (``globalThis.nacl``), and Pyodide's converter to it."""
    import js  # Pyodide's bridge: the JavaScript global scope
    from pyodide.ffi import to_js

    return js.nacl, to_js


def key_pair() -> tuple[bytes, bytes]:
    """A new key pair: (public, private)."""
    if PLAIN:
        nacl, _ = _tweetnacl()
        pair = nacl.box.keyPair()
        return pair.publicKey.to_bytes(), pair.secretKey.to_bytes()
    private = _PrivateKey.generate()
    return bytes(private.public_key), bytes(private)


def box(message: bytes, nonce: bytes, public: bytes, private: bytes) -> bytes:
    """``message`` boxed from ``private`` to ``public`` (the tag, then the ciphertext)."""
    if PLAIN:
        nacl, to_js = _tweetnacl()
        return nacl.box(to_js(message), to_js(nonce), to_js(public), to_js(private)).to_bytes()
    return _nacl_box(message, nonce, public, private)


def box_open(boxed: bytes, nonce: bytes, public: bytes, private: bytes) -> bytes:
    """What ``boxed`` says, opened with ``private`` from ``public`` (``BoxError`` when it
    does not open)."""
    if PLAIN:
        nacl, to_js = _tweetnacl()
        opened = nacl.box.open(to_js(boxed), to_js(nonce), to_js(public), to_js(private))
        if opened is None or not hasattr(opened, "to_bytes"):  # null: it does not open
            raise BoxError("the box does not open with these keys")
        return opened.to_bytes()
    try:
        return _nacl_box_open(boxed, nonce, public, private)
    except _CryptoError as error:
        raise BoxError(str(error)) from None


def random_bytes(size: int) -> bytes:
    """``size`` random bytes (libsodium's; in the browser, tweetnacl's crypto.getRandomValues)."""
    if PLAIN:
        nacl, _ = _tweetnacl()
        return nacl.randomBytes(size).to_bytes()
    return _nacl_random(size)


__all__ = ["KEY_BYTES", "NONCE_BYTES", "PLAIN", "BoxError", "box", "box_open", "key_pair",
           "random_bytes"]
