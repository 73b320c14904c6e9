"""Tremp's tables in each of its phases, for the sweeps (``tests.web.phases``): played
with its own test helpers (``tests/web/test_tremp.py``)."""

from __future__ import annotations

from tests.web import test_tremp as tremp
from tests.web.phases import nothing, phases


def _score(game) -> None:
    game.bidding(tremp.EXAMPLE)
    assert game.tricks(8).status_code == 303


PHASES = phases("tremp", tremp.start, tremp.PLAYERS, {
    "dealing": (nothing, "Sam"),
    "bidding": (lambda game: game.bidding(["5H"]), "Nick"),
    "tricks": (lambda game: game.bidding(tremp.EXAMPLE), "Sam"),
    "score": (_score, "Rob"),
    "hand 1 scored": (lambda game: (_score(game), game.confirm()), "Nick"),
})
