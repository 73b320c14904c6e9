"""Join codes, recovery codes and keys: made with ``secrets``, stored only as hashes.

A join code is what a player types from the tablet: eight letters from an
alphabet with no vowels (no words) and none of 0/O/1/I (no misreading).
Keys (scorekeeper and seat) are long random tokens held in the signed
session cookie; the database keeps their SHA-256 only. A recovery code is
short enough to type, so it is stored with a slow salted hash (scrypt), except in the
browser's Python (a table on this device, issue 42), which has no scrypt nor PBKDF2: there
it is a salted SHA-256 (:data:`BROWSER_HASH`), which only the browser's Python reads. That
database never leaves the tablet, whose holder has the table anyway.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sys

from werkzeug.security import check_password_hash, generate_password_hash

ALPHABET = "BCDFGHJKLMNPQRSTVWXZ23456789"
CODE_LENGTH = 8
_CODE = re.compile(f"^[{ALPHABET}]{{{CODE_LENGTH}}}$")


def new_code() -> str:
    """A fresh random code (join or recovery), e.g. ``'K7TQ2MXB'``."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: object) -> str:
    """A typed code as stored: upper case, spaces and dashes dropped.

    >>> normalise_code(" k7tq-2mxb ")
    'K7TQ2MXB'
    >>> normalise_code(None)
    ''
    """
    if not isinstance(text, str):
        return ""
    return re.sub(r"[\s\-_.]+", "", text).upper()


def is_code(text: str) -> bool:
    """True when ``text`` (normalised) could be a code at all.

    >>> is_code("K7TQ2MXB"), is_code("K7TQ2MX0"), is_code("K7TQ")
    (True, False, False)
    """
    return bool(_CODE.match(text))


def spaced(code: str) -> str:
    """A code split in two for reading aloud and typing: ``'K7TQ 2MXB'``."""
    half = len(code) // 2
    return f"{code[:half]} {code[half:]}"


def new_key() -> str:
    """A fresh secret key for a scorekeeper or a seat (about 256 bits)."""
    return secrets.token_urlsafe(32)


def key_hash(key: str) -> str:
    """What the database keeps of a key: its SHA-256, in hex (64 characters)."""
    return hashlib.sha256(key.encode()).hexdigest()


def same_key(key: str | None, stored_hash: str | None) -> bool:
    """True when ``key`` is the one whose hash is ``stored_hash`` (in constant time)."""
    if not key or not stored_hash:
        return False
    return hmac.compare_digest(key_hash(key), stored_hash)


BROWSER_HASH = "browser-sha256"
"""The method a recovery code's hash names when the browser's Python made it."""
IN_BROWSER = sys.platform == "emscripten" and not hasattr(hashlib, "scrypt")
"""Whether this is the browser's Python, which hashes recovery codes with :data:`BROWSER_HASH`."""


def _browser_hash(code: str, salt: str) -> str:
    return f"{BROWSER_HASH}${salt}${hashlib.sha256((salt + code).encode()).hexdigest()}"


def recovery_hash(code: str) -> str:
    """A slow salted hash of a recovery code, which is short enough to guess offline
    (in the browser's Python, a salted SHA-256: see the module)."""
    if IN_BROWSER:
        return _browser_hash(code, secrets.token_hex(16))
    return generate_password_hash(code)


def check_recovery(code: str, stored_hash: str) -> bool:
    """True when ``code`` matches ``stored_hash`` (one of :data:`BROWSER_HASH` only in the
    browser's Python: a server never takes one)."""
    if stored_hash.startswith(BROWSER_HASH + "$"):
        salt = stored_hash.split("$")[1]
        return IN_BROWSER and hmac.compare_digest(_browser_hash(code, salt), stored_hash)
    return check_password_hash(stored_hash, code)
