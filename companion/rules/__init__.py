"""The rules of the five games, as pure functions of a game record.

No Flask, no SQLAlchemy: a record of facts goes in, a JSON-ready result
comes out (see ``shared/DESIGN.md``, "The game record").

>>> from companion.rules import replay
>>> result = replay({"game": "tremp", "players": ["Rob", "Sam", "Nick", "Emily"],
...                  "first_dealer": "Rob", "rounds": []})
>>> result["totals"], result["finished"]
({'Rob & Nick': 0, 'Sam & Emily': 0}, False)
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from .common import Checklist
from .errors import RuleError
from .settle import settle_up

GAMES: tuple[str, ...] = ("tromplemond", "clumond", "trumplestiltskin", "trefeltromp", "tremp")
"""The games the companion knows, by their record name."""

__all__ = ["GAMES", "Checklist", "RuleError", "deal_steps", "deck_prep", "game_module",
           "replay", "settle_up"]


def game_module(game: object) -> ModuleType:
    """The rules module of ``game`` (one of :data:`GAMES`)."""
    if game not in GAMES:
        raise RuleError(f"unknown game {game!r}; the companion knows {', '.join(GAMES)}")
    return importlib.import_module(f"{__name__}.{game}")


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """Turn a game record into its result (a JSON-ready dict).

    Raises :class:`RuleError`, with a message a player can act on, when the
    record breaks the rules.
    """
    if not isinstance(record, Mapping):
        raise RuleError("a game record must be a JSON object")
    return game_module(record.get("game")).replay(record)


def deck_prep(game: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
              ) -> Checklist:
    """The once-per-game checklist: which cards to take out of which deck."""
    return game_module(game).deck_prep(players, options or {})


def deal_steps(game: str, players: Sequence[str], dealer: str,
               options: Mapping[str, Any] | None = None) -> Checklist:
    """The dealing steps of one round (or hand), for the actual dealer."""
    return game_module(game).deal_steps(players, dealer, options or {})
