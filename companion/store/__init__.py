"""Storage: the models (facts only), query helpers and the writes.

>>> from companion.store import normalise_code, is_code
>>> is_code(normalise_code("bcdf-ghjk"))
True
"""

from __future__ import annotations

# Every module with models is imported, so each model is known to db and migrations (a
# game's own store module, companion/games/<game>/store.py, is imported by
# the game's web package, which the app loads from the registry).
from . import changes, commits, evenings, players, queries, rounds, sealed, taps
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
    "players", "queries", "rounds", "same_key", "sealed", "spaced", "taps",
]
