"""The plain-Python ``box`` the browser's Python seals with (companion.store.box) is NaCl's:
the same bytes as PyNaCl for the same keys and nonce, opened both ways, forgeries refused."""

from __future__ import annotations

import os

import pytest
from nacl.bindings import crypto_box, crypto_box_open, crypto_scalarmult_base
from nacl.public import PrivateKey

from companion.store import box


def _pair() -> tuple[bytes, bytes]:
    private = PrivateKey.generate()
    return bytes(private.public_key), bytes(private)


def test_the_plain_key_pair_is_x25519():
    public, private = box.plain_key_pair()
    assert public == crypto_scalarmult_base(private)
    assert bytes(PrivateKey(private).public_key) == public


@pytest.mark.parametrize("length", [0, 1, 31, 32, 63, 64, 65, 512])
def test_the_plain_box_gives_pynacls_bytes_and_opens_them(length):
    (their_public, their_private), (my_public, my_private) = _pair(), _pair()
    message, nonce = os.urandom(length), os.urandom(box.NONCE_BYTES)
    sealed = box.plain_box(message, nonce, their_public, my_private)
    assert sealed == crypto_box(message, nonce, their_public, my_private)
    assert crypto_box_open(sealed, nonce, my_public, their_private) == message
    assert box.plain_box_open(sealed, nonce, my_public, their_private) == message


def test_the_plain_box_opens_pynacls_and_refuses_a_changed_byte():
    (their_public, their_private), (my_public, my_private) = _pair(), _pair()
    nonce = os.urandom(box.NONCE_BYTES)
    sealed = crypto_box(b"7 tricks" * 70, nonce, their_public, my_private)
    assert box.plain_box_open(sealed, nonce, my_public, their_private) == b"7 tricks" * 70
    for at in (0, 20, len(sealed) - 1):
        changed = bytearray(sealed)
        changed[at] ^= 1
        with pytest.raises(box.BoxError):
            box.plain_box_open(bytes(changed), nonce, my_public, their_private)
    with pytest.raises(box.BoxError):  # another key
        box.plain_box_open(sealed, nonce, _pair()[0], their_private)


def test_a_server_seals_with_pynacl():
    assert box.PLAIN is False
    public, private = box.key_pair()
    nonce = os.urandom(box.NONCE_BYTES)
    with pytest.raises(box.BoxError):
        box.box_open(b"\0" * 40, nonce, public, private)
