"""The live regions every game shares: the tablet's round, a phone's round, the scoreboard.

Each region is a generic wrapper (its ``id``, its live polling, its
``data-phase``) around what the game's flow draws inside it, from the
flow's :class:`~companion.web.flow.View` of the moment.
"""

from __future__ import annotations

from typing import Any

from flask import render_template, url_for

from ..store import Game, Table
from .flow import GameFlow, flow_for
from .roles import Phone, is_keeper, phone


def table_flow(table: Table) -> GameFlow:
    """The flow of the table's current game (or of the game the table plays next)."""
    game = table.current_game
    return flow_for(game.game if game is not None else table.game)


def round_context(table: Table, *, keeper: bool, me: Phone | None = None) -> dict[str, Any]:
    """What a round region shows: the flow's view of the current game for this screen."""
    game = table.current_game
    flow = table_flow(table)
    name = me.seat.name if me is not None and me.seat is not None else None
    view = flow.moment(table, game, None if keeper else name) if game is not None else None
    return {"table": table, "game": game, "flow": flow, "view": view, "keeper": keeper,
            "me": name}


def tablet_region(table: Table, *, error: str | None = None) -> str:
    """The scorekeeper's round region, rendered (with a refusal on top, if any)."""
    return render_template("rounds/_tablet.html", error=error,
                           **round_context(table, keeper=True))


def phone_region(table: Table, *, error: str | None = None) -> str:
    """This phone's round region, rendered (with a refusal on top, if any)."""
    return render_template("rounds/_phone.html", error=error,
                           **round_context(table, keeper=False, me=phone(table)))


def scoreboard_context(table: Table, game: Game | None, live_url: str) -> dict[str, Any]:
    """What the scoreboard region shows, for this device (its own line highlighted)."""
    flow = flow_for(game.game) if game is not None else table_flow(table)
    keeper = is_keeper(table)
    me = None if keeper else phone(table)
    name = me.seat.name if me is not None and me.seat is not None else None
    return {"flow": flow, "live_url": live_url,
            **flow.scoreboard(table, game, me=name, keeper=keeper)}


def current_scoreboard_context(table: Table) -> dict[str, Any]:
    """The scoreboard of the table's current game, as the seat and tablet pages show it."""
    return scoreboard_context(table, table.current_game,
                              url_for("games.current_scoreboard", code=table.code))


def scoreboard_region(table: Table, game: Game | None, live_url: str) -> str:
    """The scoreboard region, rendered."""
    return render_template("games/_scoreboard_region.html",
                           **scoreboard_context(table, game, live_url))
