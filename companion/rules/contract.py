"""What a game's rules module gives: :class:`GameRules`, the contract every registered game meets.

The rest of the companion (the evening's ledger, the web layer) uses a rules module only
through these names, never by looking one up: a game without a part of its own says so
explicitly (``next_dealer = no_next_dealer``, ``money_lines = no_money_lines``).
``tests/rules/test_contract.py`` checks every game in the registry against it.

Beyond the contract, a rules module may say what the table's record book reads of its
games (``companion.rules.records``); a game that says nothing gets the defaults of
:func:`record_facts_of`, :func:`runner_up_of` and :func:`record_kinds_of`:

- ``record_facts(record, game, unit) -> RecordFacts``: the rounds that count, what ranks
  its players for the runner-up, the pots taken, its candidates for the table's records
  (default: no round, no standing, no pot: the book counts its games played and won);
- ``RUNNER_UP``: False for a game without a runner-up (two sides; default: True for a
  game with a ``record_facts`` of its own, whose standing makes the runner-up);
- ``RECORDS``: its kinds of table records (:class:`RecordKind`; default none).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from .common import Checklist, Number
from .ledger import MoneyLine

CHIPS = "chips"
"""The unit of a chip game's pots, and of its lines when its chips have no value."""


@runtime_checkable
class GameRules(Protocol):
    """A game's pure rules module (``companion.games.<game>.rules``)."""

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


@dataclass(frozen=True)
class RecordKind:
    """One kind of the table's records a game gives (``highest_tromplemond_round``)."""

    name: str
    """Its name: the attribute of ``TableRecords`` and, dashed, the page's test id."""
    per_unit: bool = False
    """True for money in the table's unit: one record per unit (a TROMP! payout)."""
    rank: int = 100
    """Where the book and the recap list it among every game's records (lowest first;
    equal ranks in the registry's order)."""


@dataclass(frozen=True)
class RecordFacts:
    """What the record book reads of one game, by player name (``record_facts``)."""

    rounds: tuple[tuple[int, dict[str, Number]], ...] = ()
    """The rounds that count: (round number, each player's score in it)."""
    standing: dict[str, Number] | None = None
    """What ranks the players for the runner-up (None: nobody is runner-up)."""
    pot_unit: str = CHIPS
    """The unit of the game's pots."""
    takes: tuple[tuple[int | None, str, int], ...] = ()
    """Every single amount a player took from a pot: (round, player, amount), one per take
    (a share is a take of its own, never added to another share of the same round)."""
    records: tuple[tuple[str, Number, int | None, tuple[str, ...]], ...] = ()
    """The game's candidates for the table's records: (kind, value, round, players)."""


def exact(value: int | float | Fraction) -> Number:
    """A score as an exact number: JSON's 3.5 is 7/2, and a whole number is an int.

    >>> exact(3.5), exact(4.0), exact(Fraction(6, 3)), exact(-2)
    (Fraction(7, 2), 4, 2, -2)
    """
    number = Fraction(value)
    return int(number) if number.denominator == 1 else number


def round_scores(result: Mapping[str, Any]) -> list[tuple[int, dict[str, Number]]]:
    """Every round's number (from 1) and scores in a replay's result, exact."""
    return [(number, {p: exact(s) for p, s in hand["scores"].items()})
            for number, hand in enumerate(result["rounds"], 1)]


RecordReader = Callable[[Mapping[str, Any], Any, str], RecordFacts]
"""A game's ``record_facts(record, game, unit)``: ``game`` is the evening's reading of it
(``companion.rules.evening.Game``: its ``result``, ``players``), ``unit`` the table's."""


def no_record_facts(record: Mapping[str, Any], game: Any, unit: str) -> RecordFacts:
    """The ``record_facts`` of a game that says nothing of its records: no round, no
    standing, no pot (the book counts its games played and won, and its money)."""
    return RecordFacts()


def record_facts_of(rules: object) -> RecordReader:
    """The record-book reader of a rules module (:func:`no_record_facts` by default)."""
    return getattr(rules, "record_facts", no_record_facts)


def runner_up_of(rules: object) -> bool:
    """Whether a rules module's game has a runner-up (``RUNNER_UP``; by default, when it
    reads its games for the record book itself: its standing makes the runner-up)."""
    return bool(getattr(rules, "RUNNER_UP", hasattr(rules, "record_facts")))


def record_kinds_of(rules: object) -> tuple[RecordKind, ...]:
    """The kinds of table records a rules module's game gives (``RECORDS``, none by
    default)."""
    return tuple(getattr(rules, "RECORDS", ()))


__all__ = ["CHIPS", "GameRules", "RecordFacts", "RecordKind", "RecordReader",
           "exact", "no_money_lines", "no_next_dealer", "no_record_facts", "record_facts_of",
           "record_kinds_of", "round_scores", "runner_up_of"]
