"""Money lines: each movement of money that a game's facts imply.

A game with stakes explains its ``money`` as lines: who paid in or received
how much, in which round (or for the whole game), and what it was. A game's
lines add up, player by player, to its ``money``; each game module makes
them with its own walk of the facts (``money_lines(record)``), and the
evening's ledger (:func:`companion.rules.evening`) gathers them.

>>> [(line.player, line.amount, line.what.value)
...  for line in lines_of(2, What.ANTE, {"Ann": 5, "Bo": 5, "Cy": 0})]
[('Ann', -5, 'ante'), ('Bo', -5, 'ante')]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum


class What(Enum):
    """What a money line was, in the words the ledger shows.

    A line's amount is negative for what a player paid in and positive for
    what they received (:attr:`sign`).
    """

    JOINING_FEE = "joining fee"
    """Tromplemond: the fee each player paid into the joining-fee pot."""
    TROMP_STAKE = "TROMP! stake"
    """Tromplemond: the stake each player put in a round pot."""
    ROUND_POT_WON = "round pot won"
    """Tromplemond: what a TROMP! call (or the Extreme winner) took from a round pot."""
    KITTY = "kitty"
    """Tromplemond: the kitty an Extreme call took, or a share of it at the end."""
    FEE_PAYOUT = "fee payout"
    """Tromplemond: the winner's, runner-up's or Extreme winner's part of the joining-fee pot."""
    MONEY_RETURNED = "money returned"
    """Tromplemond: a void or abandoned game gives everyone back what they paid in."""
    ANTE = "ante"
    """Clumond, Trefeltromp: each player's ante into the pot."""
    MISSED_DECLARATION = "missed declaration"
    """Clumond: chips paid into the pot, one per trick of difference."""
    BETS = "bets"
    """Trefeltromp: chips put into the pot by bets, calls and raises."""
    PAYOUT = "payout"
    """Clumond, Trefeltromp: what a player took from the pot."""
    SHARE_OUT = "share-out"
    """Clumond, Trefeltromp: the pot shared out when the game ends."""

    @property
    def sign(self) -> int:
        """−1 for money paid in, +1 for money received.

        >>> What.ANTE.sign, What.PAYOUT.sign
        (-1, 1)
        """
        return -1 if self in _PAID_IN else 1


_PAID_IN = frozenset({What.JOINING_FEE, What.TROMP_STAKE, What.ANTE,
                      What.MISSED_DECLARATION, What.BETS})


@dataclass(frozen=True)
class MoneyLine:
    """One movement of money in a game: ``amount`` has the sign of ``what``.

    ``round`` counts from 1; None for what belongs to the whole game (a
    joining fee, the kitty at the end).
    """

    round: int | None
    player: str
    amount: int
    what: What

    def __post_init__(self) -> None:
        if isinstance(self.amount, bool) or not isinstance(self.amount, int) \
                or self.amount * self.what.sign <= 0:
            raise ValueError(f"a {self.what.value} line of {self.amount!r} has the wrong sign")


def lines_of(round_: int | None, what: What, sizes: Mapping[str, int]) -> list[MoneyLine]:
    """One line per player whose size is not 0, signed by ``what``, in the mapping's order."""
    return [MoneyLine(round_, player, what.sign * size, what)
            for player, size in sizes.items() if size]


@dataclass(frozen=True)
class Sources:
    """Where each player's money came from: the sum of their lines of each kind."""

    kinds: tuple[What, ...]
    """The kinds of line the game has, in the order they first appear."""
    by_player: dict[str, dict[What, int]]
    """Each player's sum per kind (0 where they have no line of that kind)."""


def sources(lines: list[MoneyLine], players: list[str]) -> Sources:
    """Each player's lines summed per kind, for a table of where the money came from.

    >>> lines = lines_of(None, What.JOINING_FEE, {"Ann": 100, "Bo": 100})
    >>> lines += lines_of(None, What.FEE_PAYOUT, {"Ann": 200})
    >>> result = sources(lines, ["Ann", "Bo"])
    >>> [k.value for k in result.kinds], result.by_player["Bo"][What.FEE_PAYOUT]
    (['joining fee', 'fee payout'], 0)
    """
    kinds = tuple(dict.fromkeys(line.what for line in lines))
    by_player = {player: dict.fromkeys(kinds, 0) for player in players}
    for line in lines:
        by_player[line.player][line.what] += line.amount
    return Sources(kinds, by_player)
