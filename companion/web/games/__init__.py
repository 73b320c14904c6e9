"""The games the app offers: each game's flow, by its record name.

A game plugs in with one web package here (its flow, its blueprint), one
template folder (``templates/<game>/``) and one line below. A game without
a flow of its own yet gets a :class:`~companion.web.flow.DefaultFlow`: its
options are the rules' defaults, its screens the checklists and the
scoreboard.
"""

from __future__ import annotations

from ..flow import GameFlow
from . import clumond, trefeltromp, tremp, tromplemond, trumplestiltskin

FLOWS: dict[str, GameFlow] = {
    "tromplemond": tromplemond.FLOW,
    "clumond": clumond.FLOW,
    "trumplestiltskin": trumplestiltskin.FLOW,
    "trefeltromp": trefeltromp.FLOW,
    "tremp": tremp.FLOW,
}
"""Every game the app offers, in the order the new-table form lists them."""

__all__ = ["FLOWS"]
