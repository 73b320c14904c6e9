"""Storage: the models (facts only), query helpers and the writes.

>>> from companion.store import normalise_code, is_code
>>> is_code(normalise_code("bcdf-ghjk"))
True
"""

from __future__ import annotations

# Every module with models is imported, so each model is known to db and migrations.
from . import changes, commits, evenings, players, queries, rounds, sealed, taps, tromplemond
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
    "PENDING", "PLAYING", "RECORD_FIELDS", "Game", "Seat", "SeatRequest", "Table", "changes",
    "check_recovery", "commits", "evenings", "is_code", "key_hash", "new_key", "normalise_code",
    "players", "queries", "rounds", "same_key", "sealed", "spaced", "taps", "tromplemond",
]
