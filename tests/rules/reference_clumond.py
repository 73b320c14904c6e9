"""Clumond's part of the record book's independent count (``records_reference``):
its rounds' stacks and payouts read from its replay."""

from __future__ import annotations

from fractions import Fraction

STANDING = "totals"
"""What of its replay ranks the players for the runner-up (None: it has none)."""


def count(raw: dict, result: dict, at) -> None:
    """Count one game of Clumond (``raw``, replayed as ``result``) into ``at`` (a
    ``records_reference.Counting``): its rounds, its takes, its candidates for the records."""
    e, g, players = at.e, at.g, at.players
    figures, candidate, took = at.figures, at.candidate, at.took
    before = {p: (raw.get("options") or {}).get("stack", 100) for p in players}
    for r, hand in enumerate(result["rounds"], 1):
        for p in players:
            figures[p].rounds.append(((e, g, r), Fraction(hand["totals"][p] - before[p])))
        before = hand["totals"]
        rows = hand["breakdown"]["players"]
        for p in players:
            if rows[p]["payout"]:
                took(p, (e, g, r), rows[p]["payout"], "chips")
        candidate("clumond", hand["breakdown"]["pot_after_payments"], (e, g, r),
                  [p for p in players if rows[p]["payout"]])
