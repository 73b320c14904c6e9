"""The games the app offers: each game's flow, found from the game registry.

The registry (``companion.rules.games``: :func:`~companion.rules.games.add_game`) names
each game's web package; its ``FLOW`` is the game's flow. A package holds the flow, its
blueprint, its views and forms, its templates (``templates/<game>/``) and its stylesheet
(``<game>.css``). A game without a web package gets a
:class:`~companion.web.flow.DefaultFlow`: its options are the rules' defaults, its
screens the checklists and the scoreboard.
"""

from __future__ import annotations

import importlib
import importlib.util

from ...rules.games import GAMES, registered
from ..flow import DefaultFlow, GameFlow


def _has_package(path: str) -> bool:
    try:
        return importlib.util.find_spec(path) is not None
    except ModuleNotFoundError:  # its parent package does not exist either
        return False


def load_flow(name: str) -> GameFlow:
    """The flow of the registered game ``name``: its web package's ``FLOW``, or the default."""
    path = registered(name).web
    if not _has_package(path):
        return DefaultFlow(name)
    return importlib.import_module(path).FLOW


def load_flows() -> dict[str, GameFlow]:
    """Every registered game's flow, in the order the new-table form lists them."""
    return {name: load_flow(name) for name in GAMES}


__all__ = ["load_flow", "load_flows"]
