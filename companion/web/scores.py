"""A game's public pages: the score page (live), its record as JSON, and each game's rules.

Every number shown comes from the rules (the flow's ``replay`` of the
record); nothing is added up here or in the templates.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import markdown
from flask import Blueprint, abort, jsonify, render_template, request
from flask_babel import gettext as _
from markupsafe import Markup, escape

from ..extensions import db
from ..live import at_version
from ..rules import RuleError
from ..rules.games import registered
from ..store import Game, Table, queries
from .device import locale_name
from .flow import flow_for, flows
from .limits import drawn_from, heavy_pages, wrong_codes
from .regions import Screen, live_page, live_region, table_flow
from .roles import find_table, is_keeper, phone
from .words import counts_said

bp = Blueprint("games", __name__)

HOUSE = "<strong>(house)</strong>"
"""A house decision's marker in a rules text, as Markdown writes it (``**(house)**``)."""


def house_badge() -> str:
    """The badge that stands for a house decision's marker, in the device's language."""
    title = escape(_("A house decision: not in the original rules"))
    word = escape(_("house"))
    return f'<strong class="house" title="{title}">{word}</strong>'


def _game(table: Table, number: int) -> Game:
    game = db.session.scalar(queries.game_number(table.id, number))
    if game is None:
        abort(404, _("This table has no game %(number)s.", number=number))
    return game


@bp.get("/t/<code>/games/<int:number>")
@wrong_codes
@heavy_pages
def game(code: str, number: int):
    """A game's public page: anyone with the join link may watch the scoreboard."""
    table = find_table(code)
    played = _game(table, number)
    drawn_from(len(played.rounds))
    return GAME.draw(table, values={"number": played.number}, me_phone=phone(table),
                     game=played, game_title=flow_for(played.game).title,
                     keeper=is_keeper(table))


@bp.get("/t/<code>/games/<int:number>/record.json")
@wrong_codes
@heavy_pages
def record(code: str, number: int):
    """The game's record: its export, and the format ``POST /api/games`` imports (made once
    for every screen at the table's version)."""
    table = find_table(code)
    played = _game(table, number)
    drawn_from(len(played.rounds))
    response = jsonify(at_version(table, ("record.json", number), played.record))
    response.headers["Content-Disposition"] = (
        f'inline; filename="{table.code.lower()}-game-{number}.json"')
    return response


@lru_cache(maxsize=64)
def _rules_html(path: Path, changed: float, badge: str) -> Markup:
    """A rules text as HTML, its house decisions badged (cached until the file changes)."""
    html = markdown.markdown(path.read_text(encoding="utf-8"), extensions=["tables"])
    return Markup(html.replace(HOUSE, badge))


def rules_file(game: str) -> Path | None:
    """The rules text of ``game`` in the device's language when it has one, else its
    English, where its registry entry says they are (None: there is none)."""
    try:
        entry = registered(game)
    except RuleError:
        return None
    return entry.rules_text(locale_name())


def rules_text(game: str) -> Markup | None:
    """The rules help text of ``game`` (:func:`rules_file`), as HTML (None: there is none)."""
    path = rules_file(game)
    if path is None:
        return None
    return _rules_html(path, path.stat().st_mtime, house_badge())


def rules_summary(game: str) -> str | None:
    """The first words of ``game``'s rules text (what kind of game it is), for the games page:
    its introduction's first sentence, up to its first colon (None: no rules text)."""
    path = rules_file(game)
    if path is None:
        return None
    paragraphs = [p for p in path.read_text(encoding="utf-8").split("\n\n")
                  if p.strip() and not p.startswith("#")]
    if not paragraphs:
        return None
    intro = " ".join(paragraphs[0].split())
    first = intro.split(". ", 1)[0].split(":", 1)[0].rstrip().rstrip(".")  # (French: " :")
    return first + "."


@bp.get("/rules")
def games_list():
    """The public games page: each game, the players it takes (from the game registry's
    rules) and a link to its rules, before any table exists."""
    games = [{"name": flow.name, "title": flow.title,
              "players": counts_said(flow.allowed_players()),
              "summary": rules_summary(flow.name)}
             for flow in flows().values()]
    return render_template("games/index.html", games=games)


@bp.get("/rules/<game>")
def rules_help(game: str):
    """A game's rules, with the house decisions marked so players can argue with them."""
    flow = flow_for(game)
    back = request.args.get("back", "")
    own = flow.rules_help()
    if own is not None:
        return render_template(own, flow=flow, back=back)
    text = rules_text(flow.name)
    if text is None:
        abort(404, _("The rules of %(game)s are not written up in this app yet.", game=flow.title))
    return render_template("games/rules.html", flow=flow, text=text, back=back,
                           games=list(flows().values()))


# --------------------------------------------------------------------------- the live page


def numbered_game(table: Table, number: int) -> Game | None:
    """The game a score page shows: the table's game ``number``."""
    return db.session.scalar(queries.game_number(table.id, number))


GAME = live_page("game", "games/game.html", "pulse.game", numbered_game)
"""A game's score page: its scoreboard (its regions: its template's)."""


@live_region("scoreboard", "games/_scoreboard_region.html", "s")
def scoreboard_context(screen: Screen) -> dict[str, Any]:
    """What the scoreboard region shows, for this device (its own line highlighted; hidden
    on the tablet before the first game)."""
    table, game = screen.table, screen.game
    flow = flow_for(game.game) if game is not None else table_flow(table)
    keeper = is_keeper(table)
    me = None if keeper else phone(table)
    name = me.seat.name if me is not None and me.seat is not None else None
    made = screen.moments.get((game.id, name)) if game is not None else None
    return {"flow": flow, "hide_empty": screen.keeper,
            **flow.scoreboard(table, game, me=name, keeper=keeper, view=made)}
