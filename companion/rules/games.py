"""The five games by their record name: which rules module plays each, and ``replay``.

A module of its own so that the package's other modules (the evening's
ledger) can replay any game without importing the package itself.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from .errors import RuleError

GAMES: tuple[str, ...] = ("tromplemond", "clumond", "trumplestiltskin", "trefeltromp", "tremp")
"""The games the companion knows, by their record name."""


def game_module(game: object) -> ModuleType:
    """The rules module of ``game`` (one of :data:`GAMES`)."""
    if game not in GAMES:
        raise RuleError(f"unknown game {game!r}; the companion knows {', '.join(GAMES)}")
    return importlib.import_module(f"{__package__}.{game}")


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """Turn a game record into its result (a JSON-ready dict).

    Raises :class:`RuleError`, with a message a player can act on, when the
    record breaks the rules.
    """
    if not isinstance(record, Mapping):
        raise RuleError("a game record must be a JSON object")
    return game_module(record.get("game")).replay(record)
