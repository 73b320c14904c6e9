"""Tromplemond's part of the record book's independent count (``records_reference``):
its rounds' scores and its takes worked out again from the hands
(the calls from the jacks in each hand, the round pots, the kitty and its end shares)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .gen_tromplemond import _POINTS

STANDING = "totals"
"""What of its replay ranks the players for the runner-up (None: it has none)."""


def _rank(card: str) -> str:
    """A card's rank however the generator spelled it (``K♥``, ``KH``, ``th``, `` J ♠ ``)."""
    text = card.replace(" ", "").upper()
    rank = text[:-1]
    return "10" if rank == "T" else rank


def _hand(hand: dict[str, Any]) -> tuple[int, int, int]:
    """A Tromplemond hand's card points, jacks in the back row and jacks on show."""
    if "points" in hand:
        return hand["points"], hand["secret_jacks"], hand["public_jacks"]
    secret = [_rank(c) for c in hand["secret"]]
    public = [_rank(c) for c in hand["public"]]
    return (sum(_POINTS[r] for r in secret + public), secret.count("J"), public.count("J"))


def _share(back: int, shown: int) -> Fraction | str:
    """What a correct TROMP! call wins of the round pot (RULES' table), or "extreme"."""
    table = {(1, 1): Fraction(1, 4), (2, 0): Fraction(1, 2), (2, 1): Fraction(1),
             (3, 0): Fraction(1), (3, 1): Fraction(1), (0, 2): Fraction(1, 2),
             (1, 2): Fraction(1, 2), (2, 2): "extreme"}
    return table.get((back, shown), Fraction(0))


def _tromplemond(record: dict, result: dict) -> tuple[list[dict[str, int]],
                                                      list[tuple[int | None, str, int, bool]]]:
    """Each round's scores, and each take: (round, player, amount, TROMP! money or not)."""
    players = record["players"]
    opts = record.get("options") or {}
    stake, fee = opts.get("tromp_stake", 0), opts.get("joining_fee", 0)
    payout = opts.get("payout", [75, 25])
    first = record.get("first_dealer") or players[0]
    start = players.index(first)
    pot = 4 * stake
    kitty = 0
    extreme: str | None = None
    supers: set[str] = set()
    ultimates: set[str] = set()
    scores_by_round: list[dict[str, int]] = []
    takes: list[tuple[int | None, str, int, bool]] = []
    for number, rnd in enumerate(record["rounds"], 1):
        dealer = players[(start + number - 1) % 4]
        off = rnd.get("voted_off") or rnd.get("shown_early")
        survivors = [p for p in players if p != off]
        hands = {p: _hand(rnd["hands"][p]) for p in players if p in rnd["hands"]}
        scores = {}
        for p in players:
            if p == off:
                scores[p] = 0
                continue
            others = [q for q in survivors if q != p]
            scores[p] = (hands[p][0] + sum(hands[q][0] // 2 for q in others)
                         - 20 * sum(hands[q][1] + hands[q][2] for q in others))
        if rnd.get("dealer_forfeit") and dealer != off:
            scores[dealer] = 0
        scores_by_round.append(scores)
        won: dict[str, int] = {}
        for p in rnd.get("called") or []:
            share = _share(hands[p][1], hands[p][2])
            if share == "extreme":
                if kitty:
                    takes.append((number, p, kitty, True))
                kitty, extreme = 0, p
            elif p in survivors:
                won[p] = int(pot * share)
                if (hands[p][1], hands[p][2]) == (3, 0):
                    supers.add(p)
                elif (hands[p][1], hands[p][2]) == (3, 1):
                    ultimates.add(p)
        if extreme is not None:
            won = {extreme: pot}
        for p in players:  # in seat order, as the replay gives a round's pot
            if won.get(p):
                takes.append((number, p, won[p], True))
        kitty += pot - sum(won.values())
    if record.get("void") or record.get("banned"):
        return scores_by_round, []  # all money goes back: nothing was taken
    if not result["finished"]:
        return scores_by_round, takes
    totals = {p: sum(s[p] for s in scores_by_round) for p in players}
    winner = result["winners"][0]
    others = {p: t for p, t in totals.items() if p != winner}
    runners = [p for p, t in others.items() if t == max(others.values())]
    fee_pot = 4 * fee
    if extreme is not None:
        fee_paid = {extreme: fee_pot}
    else:
        fee_paid = {p: fee_pot * payout[1] // 100 // len(runners) for p in runners}
        fee_paid[winner] = fee_pot - sum(fee_paid.values())
    takes += [(None, p, amount, False) for p, amount in fee_paid.items() if amount]
    left = kitty
    order = players[start:] + players[:start]
    super_paid = {p: kitty // 4 for p in players if p in supers}
    left -= sum(super_paid.values())
    ultimate_paid = {}
    if ultimates and left:
        ultimate_paid = {p: left // len(ultimates) for p in players if p in ultimates}
        left -= sum(ultimate_paid.values())
    best = max(s for scores in scores_by_round for s in scores.values())
    best_players = [p for p in order if any(s[p] == best for s in scores_by_round)]
    best_paid = {}
    if left and best_players:
        each, odd = divmod(left, len(best_players))
        best_paid = {p: each + (1 if i < odd else 0) for i, p in enumerate(best_players)}
    for paid in (super_paid, ultimate_paid, best_paid):
        takes += [(None, p, amount, True) for p, amount in paid.items() if amount]
    return scores_by_round, takes


def count(raw: dict, result: dict, at) -> None:
    """Count one game of Tromplemond (``raw``, replayed as ``result``) into ``at`` (a
    ``records_reference.Counting``): its rounds, its takes, its candidates for the records."""
    e, g, unit, void, players = at.e, at.g, at.unit, at.void, at.players
    figures, candidate, took = at.figures, at.candidate, at.took
    scores, takes = _tromplemond(raw, result)
    if not void:
        for r, s in enumerate(scores, 1):
            for p in players:
                figures[p].rounds.append(((e, g, r), Fraction(s[p])))
            top = max(s.values())
            candidate("highest", top, (e, g, r), [p for p in players if s[p] == top])
    for r, p, amount, tromp in takes:
        took(p, (e, g, r), amount, unit)
        if tromp:
            candidate("tromp", amount, (e, g, r), [p], unit)
