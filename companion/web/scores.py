"""A game's pages: the public score table (live) and its record as JSON.

Every number shown comes from ``replay`` of the game's record; nothing is
added up here or in the templates.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, jsonify, render_template, url_for

from ..extensions import db
from ..rules import RuleError, replay
from ..store import Game, Table, queries
from . import tromplemond
from .charts import score_chart
from .forms import game_title, money_text
from .limits import wrong_codes
from .live import live_table
from .roles import find_table, is_keeper, phone

bp = Blueprint("games", __name__)


@bp.app_template_filter("money")
def money(amount: object, unit: str | None = None, sign: bool = False) -> str:
    """The one money filter: ``{{ amount|money(table.unit) }}`` → ``£1.50``, ``15 chips``."""
    return money_text(amount, unit, sign)


def result_of(game: Game) -> tuple[dict[str, Any] | None, str | None]:
    """The game's result from the rules, or the rules' message when its record is refused."""
    try:
        return replay(game.record()), None
    except RuleError as error:
        return None, str(error)


def scoreboard_context(table: Table, game: Game | None, live_url: str) -> dict[str, Any]:
    """What ``_scoreboard.html`` shows: the replayed result as rounds × players."""
    result, problem = result_of(game) if game is not None else (None, None)
    return {
        "table": table,
        "game": game,
        "game_title": game_title(game.game) if game is not None else game_title(table.game),
        "result": result,
        "columns": list(result["totals"]) if result else [],
        "problem": problem,
        "live_url": live_url,
        "chart": score_chart(result) if result else "",
    }


def current_scoreboard_context(table: Table) -> dict[str, Any]:
    """The score table of the table's current game, as the seat and scorekeeper pages show it."""
    return scoreboard_context(table, table.current_game,
                              url_for("games.current_scoreboard", code=table.code))


def render_scoreboard(table: Table, game: Game | None, live_url: str) -> str:
    """The live score table region: Tromplemond's own (with its money), or the common one."""
    tromp = tromplemond.scores_context(table, game, live_url)
    if tromp is not None:
        return render_template("tromplemond/_scores.html", **tromp)
    return render_template("games/_scoreboard.html",
                           **scoreboard_context(table, game, live_url))


def _game(table: Table, number: int) -> Game:
    game = db.session.scalar(queries.game_number(table.id, number))
    if game is None:
        abort(404, f"This table has no game {number}.")
    return game


@bp.get("/t/<code>/games/<int:number>")
@wrong_codes
def game(code: str, number: int):
    """A game's public page: anyone with the join link may watch the score table."""
    table = find_table(code)
    game = _game(table, number)
    live_url = url_for("games.scoreboard", code=table.code, number=number)
    return render_template(
        "games/game.html", keeper=is_keeper(table), me=phone(table),
        tromp=tromplemond.scores_context(table, game, live_url),
        **scoreboard_context(table, game, live_url))


@bp.get("/t/<code>/games/<int:number>/scoreboard")
@wrong_codes
def scoreboard(code: str, number: int):
    """A game's live score table (the ``_scoreboard.html`` region)."""
    table = live_table(code, "games.game", number=number)
    game = _game(table, number)
    live_url = url_for("games.scoreboard", code=table.code, number=number)
    return render_scoreboard(table, game, live_url)


def _current_game_page(table: Table) -> str:
    game = table.current_game
    if game is None:
        return url_for("seats.join", code=table.code)
    return url_for("games.game", code=table.code, number=game.number)


@bp.get("/t/<code>/scoreboard")
@wrong_codes
def current_scoreboard(code: str):
    """The live score table of whichever game the table plays now (or last played)."""
    table = live_table(code, _current_game_page)
    game = table.current_game
    live_url = url_for("games.current_scoreboard", code=table.code)
    return render_scoreboard(table, game, live_url)


@bp.get("/t/<code>/games/<int:number>/record.json")
@wrong_codes
def record(code: str, number: int):
    """The game's record (DESIGN.md "The game record"): its export, and the import format."""
    table = find_table(code)
    response = jsonify(_game(table, number).record())
    response.headers["Content-Disposition"] = (
        f'inline; filename="{table.code.lower()}-game-{number}.json"')
    return response
