"""The record book's page, the night's recap (page, SVG, text) and the import page."""

from __future__ import annotations

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from ...live import at_version
from ...store import Table
from ...store.evenings import Evening
from ..actions import table_action
from ..api import make_evening, make_game, read_json
from ..device import locale_name
from ..ledger import evening_numbered
from ..limits import api_calls, drawn_from, heavy_pages, wrong_codes
from ..qr import public_url
from ..roles import find_table, is_keeper, my_player, phone, remember_keeper
from .book import night, table_book, table_evenings
from .picture import recap_svg

bp = Blueprint("records", __name__, template_folder="templates")

EVENING = "/t/<code>/evenings/<int:number>"


def _back(table: Table) -> tuple[str, str] | None:
    """Where this screen goes back to: the scorekeeper's screen, or the phone's seat."""
    if is_keeper(table):
        return url_for("tables.keeper", code=table.code), _("Scorekeeper screen")
    if phone(table).seat is not None:
        return url_for("seats.seat", code=table.code), _("My seat")
    return None


@bp.get("/t/<code>/records")
@wrong_codes
@heavy_pages
def record_book(code: str):
    """The table's record book: each player's figures per game across every evening, and
    the table's records, each with the places it came from."""
    table = find_table(code)
    shown = table_evenings(table)
    drawn_from(sum(len(game.rounds) for evening in shown for game in evening.games))
    book = at_version(table, ("record book", locale_name()), lambda: table_book(table))
    me = None if is_keeper(table) else my_player(table)
    return render_template("records/book.html", table=table, book=book, back=_back(table),
                           me=str(me) if me is not None else None)


def _recap(table: Table, evening: Evening):
    drawn_from(sum(len(game.rounds) for game in evening.games))
    return at_version(table, ("recap", evening.number, locale_name()),
                      lambda: night(table, evening))


@bp.get(EVENING + "/recap")
@wrong_codes
@heavy_pages
def recap(code: str, number: int):
    """The night's recap: the picture, the same as text, and a button to share it."""
    table = find_table(code)
    evening = evening_numbered(table, number)
    shown = _recap(table, evening)
    page = public_url("records.recap", code=table.code, number=number)
    return render_template("records/recap.html", table=table, evening=evening, recap=shown,
                           svg=recap_svg(shown), text=shown.text(page), back=_back(table),
                           file_name=f"recap-{table.code.lower()}-{number}")


@bp.get(EVENING + "/recap.svg")
@wrong_codes
@heavy_pages
def recap_picture(code: str, number: int):
    """The recap's picture (the page draws the PNG for sharing from it)."""
    table = find_table(code)
    shown = _recap(table, evening_numbered(table, number))
    return Response(recap_svg(shown), mimetype="image/svg+xml",
                    headers={"Cache-Control": "no-cache"})


@bp.get(EVENING + "/recap.txt")
@wrong_codes
@heavy_pages
def recap_text(code: str, number: int):
    """The recap as plain text."""
    table = find_table(code)
    shown = _recap(table, evening_numbered(table, number))
    page = public_url("records.recap", code=table.code, number=number)
    return Response(shown.text(page), mimetype="text/plain",
                    headers={"Cache-Control": "no-cache"})


# --------------------------------------------------------------------------- import


KINDS = {"game": ("a game record", make_game), "evening": ("an evening record", make_evening)}


def _import_page(error: str | None = None, status: int = 200):
    return render_template("records/import.html", error=error), status


@bp.get("/import")
def import_page():
    """Pick a game's or an evening's record (a JSON file) to make a table of it."""
    return _import_page()


@bp.post("/import")
@api_calls
@table_action(find=False)
def import_file():
    """Make a table of the picked record, with the same checks, limits and refusals as
    ``POST /api/games`` and ``/api/evenings``; this screen becomes its scorekeeper."""
    picked = request.files.get("record")
    if picked is None or not picked.filename:
        return _import_page(_("Pick a file: a game's record.json or an evening's "
                              "evening.json."), 400)
    body = picked.read()
    try:
        record = read_json(body, "the file")
        kind = "evening" if "games" in record else "game"
        _what, make = KINDS[kind]
        table, key, recovery, made = make(record)
    except HTTPException as refused:
        return _import_page(refused.description, refused.code or 400)
    remember_keeper(table, key, recovery)
    if kind == "evening":
        return redirect(url_for("ledger.evening", code=table.code, number=made.number),
                        code=303)
    return redirect(url_for("tables.keeper", code=table.code), code=303)


__all__ = ["bp"]
