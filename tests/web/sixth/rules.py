"""Sixes, a made-up game (the test's sixth game): its pure rules, meeting ``GameRules``.

Each round is dealt out in full; every player then counts the sixes in the tricks they
took (four in the deck). A six is a point; the first to ``target`` points wins (the most
points, when several get there in the same round). Played for money (a ``stake`` in the
table's unit), each player who did not win pays the stake at the end, and the winners
share it (the first of them in seat order takes what does not divide).

It says nothing about the record book: the book counts its games played and won, and
its money.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.rules.common import Checklist, left_of, read_header
from companion.rules.errors import Phrase, RuleError, add_messages
from companion.rules.ledger import MoneyLine, What, lines_of

PLAYERS = range(2, 7)
DEFAULTS: dict[str, Any] = {"target": 5, "stake": 0}
RECORD_FLAGS: tuple[str, ...] = ()
CHIP_GAME = False
SIXES = 4
"""The sixes in a deck."""

add_messages({
    "sixes.target": "the target must be a whole number from 1 to 99, not {target!r}",
    "sixes.stake": "the stake must be a whole number from 0 to 100000, not {stake!r}",
    "sixes.say_all": "round {number}: say every player's sixes",
    "sixes.not_whole": "round {number}: sixes are whole numbers",
    "sixes.too_many": "round {number}: there are only {sixes} sixes in the deck",
    "sixes.game_over": "round {number}: the game was over",
    "sixes.deck.title": "The deck",
    "sixes.deck.take": "Take one 52-card deck, jokers out.",
    "sixes.deal.title": "{dealer} deals",
    "sixes.deal.every": "Deal every card, one at a time, starting with {first}.",
})


def read_target(options: Mapping[str, Any]) -> int:
    """The target: a whole number of points from 1 to 99."""
    target = options.get("target")
    if not isinstance(target, int) or isinstance(target, bool) or not 1 <= target <= 99:
        raise RuleError("sixes.target", target=target)
    return target


def read_stake(options: Mapping[str, Any]) -> int:
    """The stake each player who did not win pays, in the table's smallest unit (0: the
    game is played for points)."""
    stake = options.get("stake", 0)
    if not isinstance(stake, int) or isinstance(stake, bool) or not 0 <= stake <= 100_000:
        raise RuleError("sixes.stake", stake=stake)
    return stake


def read_round(number: int, players: Sequence[str], facts: object) -> dict[str, int]:
    """One round's sixes by player: whole numbers, four in all at the most."""
    sixes = facts.get("sixes") if isinstance(facts, Mapping) else None
    if not isinstance(sixes, Mapping) or set(sixes) != set(players):
        raise RuleError("sixes.say_all", number=number)
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in sixes.values()):
        raise RuleError("sixes.not_whole", number=number)
    if sum(sixes.values()) > SIXES:
        raise RuleError("sixes.too_many", number=number, sixes=SIXES)
    return {p: sixes[p] for p in players}


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record's rounds, totals, and the winner once someone reaches the target."""
    header = read_header(record, "sixes", PLAYERS, DEFAULTS)
    target = read_target(header.options)
    read_stake(header.options)
    totals = dict.fromkeys(header.players, 0)
    rounds, dealer, winners = [], header.first_dealer, []
    for number, facts in enumerate(header.rounds, 1):
        if winners:
            raise RuleError("sixes.game_over", number=number)
        scores = read_round(number, header.players, facts)
        totals = {p: totals[p] + scores[p] for p in header.players}
        rounds.append({"dealer": dealer, "scores": scores, "totals": dict(totals)})
        dealer = left_of(header.players, dealer)
        best = max(totals.values())
        winners = [p for p, n in totals.items() if n == best] if best >= target else []
    money: dict[str, int] = {}
    for line in _lines(header.players, winners, read_stake(header.options)):
        money[line.player] = money.get(line.player, 0) + line.amount
    return {"rounds": rounds, "totals": totals, "finished": bool(winners), "winners": winners,
            "money": {p: money.get(p, 0) for p in header.players} if money else {}}


def _lines(players: Sequence[str], winners: Sequence[str], stake: int) -> list[MoneyLine]:
    """The stakes paid in at the end, and the winners' shares of them."""
    losers = [p for p in players if p not in winners]
    if not winners or not stake or not losers:
        return []
    pot = stake * len(losers)
    share, odd = divmod(pot, len(winners))
    shares = {w: share + (odd if i == 0 else 0) for i, w in enumerate(winners)}
    return (lines_of(None, What.ANTE, dict.fromkeys(losers, stake))
            + lines_of(None, What.PAYOUT, shares))


def money_lines(record: Mapping[str, Any]) -> list[MoneyLine]:
    """The stakes and shares of a finished game played for money (none for points)."""
    result = replay(record)
    header = read_header(record, "sixes", PLAYERS, DEFAULTS)
    return _lines(header.players, result["winners"], read_stake(header.options))


def next_dealer(record: Mapping[str, Any]) -> str | None:
    """Clockwise from the first dealer, one seat a round (None once the game is over)."""
    if replay(record)["finished"]:
        return None
    header = read_header(record, "sixes", PLAYERS, DEFAULTS)
    return left_of(header.players, header.first_dealer, len(header.rounds))


def deck_prep(players: Sequence[str], options: Mapping[str, Any]) -> Checklist:
    """One 52-card deck."""
    return Checklist(Phrase("sixes.deck.title"), (Phrase("sixes.deck.take"),))


def deal_steps(players: Sequence[str], dealer: str, options: Mapping[str, Any]) -> Checklist:
    """Every card, one at a time, from the dealer's left."""
    first = left_of(players, dealer)
    return Checklist(Phrase("sixes.deal.title", {"dealer": dealer}),
                     (Phrase("sixes.deal.every", {"first": first}),))
