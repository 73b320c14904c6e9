"""Clumond's tables in each of its phases, for the sweeps (``tests.web.phases``): played
with its own test helpers (``tests/web/test_clumond.py``)."""

from __future__ import annotations

from tests.web import test_clumond as clumond
from tests.web.phases import nothing, phases


def _entry(game) -> None:
    game.offers()
    round_ = clumond.TWO_MAKE_IT
    assert game.enter("Ann", round_["tricks"]["Ann"], round_["kept"]["Ann"]).status_code == 303


PHASES = phases("clumond", clumond.start, clumond.PLAYERS, {
    "dealing": (nothing, "Ann"),
    "going for Clumond": (lambda game: game.answer("Ann", False), "Bo"),
    "trump": (lambda game: game.answer("Ann", True), "Ann"),
    "entry": (_entry, "Bo"),
    "round 1 scored": (lambda game: game.play(**clumond.TWO_MAKE_IT), "Ann"),
})
