"""What a game's rules module gives: :class:`GameRules`, the contract every registered game meets.

The rest of the companion (the evening's ledger, the web layer) uses a rules module only
through these names, never by looking one up: a game without a part of its own says so
explicitly (``next_dealer = no_next_dealer``, ``money_lines = no_money_lines``).
``tests/rules/test_contract.py`` checks every game in the registry against it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from .common import Checklist
from .ledger import MoneyLine


@runtime_checkable
class GameRules(Protocol):
    """A game's pure rules module (``companion.rules.<game>``)."""

    PLAYERS: Collection[int]
    """How many players the game takes."""
    DEFAULTS: Mapping[str, Any]
    """The record's options when it names none (``docs/records.md``)."""
    RECORD_FLAGS: tuple[str, ...]
    """The record's own top-level fields beyond every game's (Tromplemond's ``void``)."""
    CHIP_GAME: bool
    """True when ``replay``'s money is in chips, worth money once the ``chip_value`` option
    says what a chip is worth (Clumond, Trefeltromp); False when it is money already or
    there is none."""

    def replay(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """The record's result (``RuleError`` with a message a player can act on)."""
        ...

    def deck_prep(self, players: Sequence[str], options: Mapping[str, Any]) -> Checklist:
        """The once-per-game checklist: which cards to take out of which deck."""
        ...

    def deal_steps(self, players: Sequence[str], dealer: str,
                   options: Mapping[str, Any]) -> Checklist:
        """The dealing steps of one round, for the actual dealer."""
        ...

    def next_dealer(self, record: Mapping[str, Any]) -> str | None:
        """Who deals the next round (None: over, or the rules do not say)."""
        ...

    def money_lines(self, record: Mapping[str, Any]) -> list[MoneyLine]:
        """The money that moved in the game, line by line (none for a game of points)."""
        ...


def no_next_dealer(record: Mapping[str, Any]) -> str | None:
    """The ``next_dealer`` of a game whose rules do not say who deals next (its flow does)."""
    return None


def no_money_lines(record: Mapping[str, Any]) -> list[MoneyLine]:
    """The ``money_lines`` of a game played for points: no money moves."""
    return []


__all__ = ["GameRules", "no_money_lines", "no_next_dealer"]
