"""Trumplestiltskin's tables in each of its phases, for the sweeps (``tests.web.phases``): played
with its own test helpers (``tests/web/test_trumplestiltskin.py``)."""

from __future__ import annotations

from tests.web import test_trumplestiltskin as trumplestiltskin
from tests.web.phases import nothing, phases

_DESIGN = trumplestiltskin.DESIGN_HAND


def _design_bids(game) -> None:
    game.bids(*(tuple(speech) for speech in _DESIGN["bids"]))


def _gnome_turned(game) -> None:
    _design_bids(game)
    game.ok("gnome", {"card": "9H"})
    assert game.points("Ann", _DESIGN["points"]["Ann"]).status_code == 303


def _every_point_in(game) -> None:
    _design_bids(game)
    game.ok("gnome", {"card": "9H"})
    game.all_points(_DESIGN["points"])


def _thrown_in(game) -> None:
    game.bids(*((name, "pass") for name in game.order()))


PHASES = phases(
    "trumplestiltskin", trumplestiltskin.start, trumplestiltskin.PLAYERS, {
        "dealing": (nothing, "Bo"),
        "auction": (lambda game: game.bids(("Bo", 10)), "Cy"),
        "gnome": (_design_bids, "Di"),
        "points": (_gnome_turned, "Bo"),
        "tally": (_every_point_in, "Ann"),
        "thrown in": (_thrown_in, "Bo"),
        "hand 1 scored": (lambda game: (_every_point_in(game), game.confirm()), "Cy"),
    })
