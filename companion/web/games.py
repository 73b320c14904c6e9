"""The games the app offers: each game's flow, found from the game registry.

The registry (``companion.rules.games``: :func:`~companion.rules.games.add_game`) names
each game's web package (``companion/games/<game>/web/``); its ``FLOW`` is the game's flow.
A package holds the flow, its blueprint, its views and forms, its templates
(``templates/<game>/``) and its stylesheet (``<game>.css``). A game without a web package
gets a :class:`~companion.web.flow.DefaultFlow`: its options are the rules' defaults, its
screens the checklists and the scoreboard.
"""

from __future__ import annotations

import importlib
import importlib.util

from flask import Flask, Response, send_from_directory

from ..rules.games import GAMES, registered
from .flow import FLOWS_EXTENSION, STYLESHEET_ENDPOINT, DefaultFlow, GameFlow


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




def install(app: Flask) -> dict[str, GameFlow]:
    """Give ``app`` every registered game: its flow (``flows()``), its blueprint (with its
    templates) under ``/t/<code>/games/<number>/<game>``, and its stylesheet; the flows."""
    flows = load_flows()
    app.extensions[FLOWS_EXTENSION] = flows
    for name, flow in flows.items():
        if flow.blueprint is not None:
            app.register_blueprint(flow.blueprint,
                                   url_prefix=f"/t/<code>/games/<int:number>/{name}")
    sheets = {name: flow.stylesheet for name, flow in flows.items() if flow.stylesheet}

    def stylesheet(game: str) -> Response:
        """A game's stylesheet, from its package, cached as the app's static files are."""
        path = sheets[game]
        return send_from_directory(path.parent, path.name)

    if sheets:
        app.add_url_rule(f"/static/css/<any({', '.join(sheets)}):game>.css",
                         endpoint=STYLESHEET_ENDPOINT, view_func=stylesheet)
    # Every page links every game's stylesheet (see game_stylesheets): the games are known
    # at start, so base.html has their names as a global, not from a hook on every page.
    app.jinja_env.globals["game_sheets"] = tuple(sheets)
    return flows


__all__ = ["install", "load_flow", "load_flows"]
