"""Tremp's part of the record book's independent count (``records_reference``):
its rounds' team scores, and its length by counting hands."""

from __future__ import annotations

from fractions import Fraction

STANDING = None
"""What of its replay ranks the players for the runner-up (None: it has none)."""


def count(raw: dict, result: dict, at) -> None:
    """Count one game of Tremp (``raw``, replayed as ``result``) into ``at`` (a
    ``records_reference.Counting``): its rounds, its takes, its candidates for the records."""
    e, g, players = at.e, at.g, at.players
    figures, candidate = at.figures, at.candidate
    teams = {players[0]: 0, players[2]: 0, players[1]: 1, players[3]: 1}
    names = (f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}")
    for r, hand in enumerate(result["rounds"], 1):
        for p in players:
            figures[p].rounds.append(((e, g, r), Fraction(hand["scores"][names[teams[p]]])))
    if raw["rounds"]:
        candidate("tremp", len(raw["rounds"]), (e, g, None), list(players))
