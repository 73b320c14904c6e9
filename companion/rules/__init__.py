"""The rules every game shares, and each registered game's, as pure functions of a record.

Each game's own rules are in its folder (``companion/games/<game>/rules.py``), found
through the registry (:mod:`companion.rules.games`); this package keeps what is common to
all games: cards, the contract, settling up, the evening, the errors' and the records'
machinery.

No Flask, no SQLAlchemy: a record of facts goes in, a JSON-ready result
comes out (see ``docs/records.md``); an evening's record of games and payments
gives the evening's ledger (:func:`evening`, ``docs/records.md``, "The evening"), and
a table's evenings its record book (:func:`record_book`, :mod:`companion.rules.records`).

>>> from companion.rules import replay
>>> result = replay({"game": "tremp", "players": ["Rob", "Sam", "Nick", "Emily"],
...                  "first_dealer": "Rob", "rounds": []})
>>> result["totals"], result["finished"]
({'Rob & Nick': 0, 'Sam & Emily': 0}, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .common import Checklist
from .errors import RuleError
from .evening import evening
from .games import GAMES, game_module, replay
from .records import record_book
from .settle import settle_up

__all__ = ["GAMES", "Checklist", "RuleError", "deal_steps", "deck_prep", "evening",
           "game_module", "record_book", "replay", "settle_up"]


def deck_prep(game: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
              ) -> Checklist:
    """The once-per-game checklist: which cards to take out of which deck."""
    return game_module(game).deck_prep(players, options or {})


def deal_steps(game: str, players: Sequence[str], dealer: str,
               options: Mapping[str, Any] | None = None) -> Checklist:
    """The dealing steps of one round (or hand), for the actual dealer."""
    return game_module(game).deal_steps(players, dealer, options or {})
