"""The JSON API: import a game record (a backup, a game moved from another server).

``POST /api/games`` takes a record (``docs/records.md``), checks it
with the rules, and makes a table playing that game: its seats are named
after the players and free for phones to claim. Nobody holds the new
table's scorekeeper key: the answer's recovery code takes it over.
No cookie is read, so the endpoint is exempt from CSRF.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import Blueprint, abort, jsonify, request

from ..extensions import csrf, db
from ..rules import RuleError, replay
from ..store import changes
from .flow import flow_for
from .forms import MAX_SEATS, FormError, clean_name
from .limits import api_calls
from .qr import public_url

bp = Blueprint("api", __name__, url_prefix="/api")
csrf.exempt(bp)


def _check_names(record: Mapping[str, object]) -> list[str]:
    """The players' names, within what a seat can hold (the rules checked the rest)."""
    players = record["players"]
    assert isinstance(players, list)
    if len(players) > MAX_SEATS:
        raise FormError(f"The app seats at most {MAX_SEATS} players, not {len(players)}")
    names = []
    for player in players:
        name = clean_name(player, f"The name {str(player)[:20]!r}")
        if name != player:
            raise FormError(f"The name {str(player)[:20]!r} has extra spaces")
        names.append(name)
    return names


@bp.post("/games")
@api_calls
def import_game():
    """Make a table playing the posted game record; answer its URLs and recovery code."""
    record = request.get_json(silent=True)
    if not isinstance(record, dict):
        abort(400, "Send a game record as a JSON object (Content-Type: application/json).")
    try:
        replay(record)
    except RuleError as error:
        abort(400, str(error))
    try:
        names = _check_names(record)
    except FormError as error:
        abort(400, f"{error}.")
    flow = flow_for(record["game"])
    table, _key, recovery = changes.create_table(
        name=f"{flow.title} (imported)", game=record["game"], names=names,
        allow_phone_names=False, unit=flow.default_unit,
        first_dealer=names.index(record.get("first_dealer", names[0])) + 1)
    game = changes.start_game(table, record)
    db.session.commit()
    return jsonify(
        table_url=public_url("tables.keeper", code=table.code),
        game_url=public_url("games.game", code=table.code, number=game.number),
        join_url=public_url("seats.join", code=table.code),
        recover_url=public_url("home.recover", code=table.code),
        recovery_code=recovery,
    ), 201
