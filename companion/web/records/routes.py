"""The record book's page, the night's recap (page, SVG, text, as files too) and the
import page."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from flask_babel import format_number
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, TooManyRequests

from ...live import at_version
from ...store import Table
from ...store.evenings import Evening
from ..actions import table_action
from ..api import NOT_A_RECORD, Refused, make_evening, make_game, read_json
from ..device import locale_name
from ..errors import handle, message_of
from ..ledger import evening_numbered
from ..limits import drawn_from, heavy_pages, import_limits, wrong_codes
from ..qr import lasting_url, public_url, qr_svg
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


def _file_name(table: Table, number: int) -> str:
    """The recap's file name, without its ending: ``recap-k7tq2mxb-2``."""
    return f"recap-{table.code.lower()}-{number}"


def _answer(body: str, mimetype: str, file_name: str) -> Response:
    """The recap as a file: shown in the browser, or, with ``?download=1``, saved (an
    attachment): a plain link that works without JavaScript, and on a page served over
    plain http, where the browser has no share sheet and no clipboard to offer."""
    headers = {"Cache-Control": "no-cache"}
    if request.args.get("download") == "1":
        headers["Content-Disposition"] = f'attachment; filename="{file_name}"'
    return Response(body, mimetype=mimetype, headers=headers)


@bp.get(EVENING + "/recap")
@wrong_codes
@heavy_pages
def recap(code: str, number: int):
    """The night's recap: the picture, the same as text, the ways to send them on (the
    share sheet, the clipboard, downloads) and a QR code of the page for the other phones
    at the table."""
    table = find_table(code)
    evening = evening_numbered(table, number)
    shown = _recap(table, evening)
    here = public_url("records.recap", code=table.code, number=number)
    lasting = lasting_url("records.recap", code=table.code, number=number)
    return render_template("records/recap.html", table=table, evening=evening, recap=shown,
                           svg=recap_svg(shown), text=shown.text(lasting or ""),
                           back=_back(table), file_name=_file_name(table, number),
                           here=here, lasting=lasting,
                           qr=qr_svg(here, label=_("QR code of this recap's address"),
                                     element_id="recap-qr"))


@bp.get(EVENING + "/recap.svg")
@wrong_codes
@heavy_pages
def recap_picture(code: str, number: int):
    """The recap's picture (the page draws the PNG for sharing from it); ``?download=1``
    saves it."""
    table = find_table(code)
    shown = _recap(table, evening_numbered(table, number))
    return _answer(recap_svg(shown), "image/svg+xml", f"{_file_name(table, number)}.svg")


@bp.get(EVENING + "/recap.txt")
@wrong_codes
@heavy_pages
def recap_text(code: str, number: int):
    """The recap as plain text, with the link that works away from the table if there is
    one; ``?download=1`` saves it."""
    table = find_table(code)
    shown = _recap(table, evening_numbered(table, number))
    lasting = lasting_url("records.recap", code=table.code, number=number)
    return _answer(shown.text(lasting or ""), "text/plain", f"{_file_name(table, number)}.txt")


# --------------------------------------------------------------------------- import


def _import_page(error: str | None = None, status: int = 200):
    return render_template("records/import.html", error=error), status


@bp.get("/import")
def import_page():
    """Pick a game's or an evening's record (a JSON file) to make a table of it."""
    return _import_page()


@bp.post("/import")
@import_limits
@table_action(find=False)
def import_file():
    """Make a table of the picked record, with the same checks and limits as
    ``POST /api/games`` and ``/api/evenings``; this screen becomes its scorekeeper. A refusal
    is said for a person, in the device's language (:meth:`Refused.said`), never as the
    API's developer's English."""
    picked = request.files.get("record")
    if picked is None or not picked.filename:
        return _import_page(_("Pick a file: a game's record.json or an evening's "
                              "evening.json."), 400)
    try:
        record = read_json(picked.read(), "the file")
        if "games" in record:
            table, key, recovery, evening = make_evening(record)
            where = url_for("ledger.evening", code=table.code, number=evening.number)
        elif "game" in record:
            table, key, recovery, _game = make_game(record)
            where = url_for("tables.keeper", code=table.code)
        else:
            return _import_page(str(NOT_A_RECORD), 400)
    except Refused as refused:
        return _import_page(refused.said(), refused.code or 400)
    if request.form.get("moved"):
        # A table on this device moved here (its "Move this table to the server" button):
        # its scorekeeper goes on at the scorekeeper's screen, told where the table came from.
        where = url_for("tables.keeper", code=table.code, moved=1)
    remember_keeper(table, key, recovery)
    return redirect(where, code=303)


@bp.errorhandler(RequestEntityTooLarge)
@bp.errorhandler(TooManyRequests)
def _import_refused(error: HTTPException):
    """A file too big for a record, or one import too many, said on the import page (with
    its form, to pick again) rather than on an error page; elsewhere, as every error."""
    if request.endpoint != "records.import_file":
        return handle(error)
    if error.code == 413:
        size = current_app.config["MAX_CONTENT_LENGTH"] // 1024
        return _import_page(_("This file is too big for a record: the app takes files of at "
                              "most %(size)s KB, so nothing was made. Pick the .json file the "
                              "companion exported.", size=format_number(size)), 413)
    return _import_page(message_of(error), error.code or 429)


__all__ = ["bp"]
