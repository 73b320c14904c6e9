"""Trumplestiltskin's part of the record book's independent count (``records_reference``):
its rounds by the Trumplestiltskin generator's own tally, and the Gnome's points."""

from __future__ import annotations

from fractions import Fraction

from . import gen_trumplestiltskin

STANDING = "totals"
"""What of its replay ranks the players for the runner-up (None: it has none)."""


def count(raw: dict, result: dict, at) -> None:
    """Count one game of Trumplestiltskin (``raw``, replayed as ``result``) into ``at`` (a
    ``records_reference.Counting``): its rounds, its takes, its candidates for the records."""
    e, g, players = at.e, at.g, at.players
    figures, candidate = at.figures, at.candidate
    totals = dict.fromkeys(players, Fraction(0))
    gnome = Fraction(0)
    for r, hand in enumerate(raw["rounds"], 1):
        taker = gen_trumplestiltskin._taker_of(hand["bids"], len(players))
        before = dict(totals)
        gnome += gen_trumplestiltskin._tally(hand, taker, totals)
        if taker is not None:
            for p in players:
                figures[p].rounds.append(((e, g, r), totals[p] - before[p]))
    if raw["rounds"]:
        candidate("gnome", gnome, (e, g, None), [])
