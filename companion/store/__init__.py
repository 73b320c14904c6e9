"""Storage: the models (facts only), query helpers and the writes.

>>> from companion.store import normalise_code, is_code
>>> is_code(normalise_code("bcdf-ghjk"))
True
"""

from __future__ import annotations

from . import ballots, changes, queries, tromplemond  # every model is known to db and migrations
from .codes import (
    ALPHABET,
    CODE_LENGTH,
    check_recovery,
    is_code,
    key_hash,
    new_key,
    normalise_code,
    same_key,
    spaced,
)
from .models import (
    APPROVED,
    CANCELLED,
    DENIED,
    ENDED,
    NAME_LENGTH,
    PENDING,
    PLAYING,
    RECORD_FIELDS,
    Game,
    Seat,
    SeatRequest,
    Table,
)

__all__ = [
    "ALPHABET", "APPROVED", "CANCELLED", "CODE_LENGTH", "DENIED", "ENDED", "NAME_LENGTH",
    "PENDING", "PLAYING", "RECORD_FIELDS", "Game", "Seat", "SeatRequest", "Table", "ballots",
    "changes",
    "check_recovery", "is_code", "key_hash", "new_key", "normalise_code", "queries", "same_key",
    "spaced", "tromplemond",
]
