"""Trefeltromp's tables in each of its phases, for the sweeps (``tests.web.phases``): played
with its own test helpers (``tests/web/test_trefeltromp.py``)."""

from __future__ import annotations

from tests.web import test_trefeltromp as trefeltromp
from tests.web.phases import nothing, phases


def _draw(game) -> None:
    game.deal()
    game.checks(*game.order())


def _reveal(game) -> None:
    game.to_banen()
    assert game.lay("Ann", "Fool").status_code == 303


def _folded(game) -> None:
    game.deal()
    game.acts(("Bo", "bet", 10), ("Cy", "fold"), ("Ann", "fold"))


PHASES = phases("trefeltromp", trefeltromp.start, trefeltromp.P3, {
    "ready to deal": (nothing, "Ann"),
    "betting": (lambda game: (game.deal(), game.acts(("Bo", "check"))), "Cy"),
    "draw": (_draw, "Bo"),
    "reveal": (_reveal, "Bo"),
    "hand 1 won": (_folded, "Cy"),
})
