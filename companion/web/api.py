"""The JSON API: import a game record or an evening (a backup, a move from another server).

``POST /api/games`` takes a record (``docs/records.md``), checks it
with the rules, and makes a table playing that game: its seats are named
after the players and free for phones to claim. ``POST /api/evenings``
does the same for an evening's record: a table with its games, in order,
and the payments marked. Nobody holds the new table's scorekeeper key: the
answer's recovery code takes it over. No cookie is read, so the endpoints
are exempt from CSRF.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, request

from ..door import set_aside
from ..extensions import csrf
from ..rules import RuleError, game_module, replay
from ..rules import evening as ledger_of
from ..rules.common import whole_number
from ..rules.errors import add_messages
from ..store import ENDED, NAME_LENGTH, RECORD_FIELDS, Game, Table, changes, evenings, players
from .actions import table_action
from .currencies import starting_unit
from .flow import flow_for
from .forms import MAX_SEATS, FormError, clean_name
from .limits import api_calls
from .qr import public_url

bp = Blueprint("api", __name__, url_prefix="/api")
csrf.exempt(bp)


def _exact_name(text: object, what: str) -> str:
    """A name as it is kept: within a seat's length, with no spaces to tidy."""
    name = clean_name(text, what)
    if name != text:
        raise FormError(f"{what} has extra spaces")
    return name


def _check_names(record: Mapping[str, object]) -> list[str]:
    """The players' names, within what a seat can hold (the rules checked the rest)."""
    players = record["players"]
    assert isinstance(players, list)
    if len(players) > MAX_SEATS:
        raise FormError(f"The app seats at most {MAX_SEATS} players, not {len(players)}")
    return [_exact_name(player, f"The name {str(player)[:20]!r}") for player in players]


def _made(table, recovery: str, **urls: str):
    """The answer to an import: the new table's addresses and its recovery code."""
    return jsonify(
        table_url=public_url("tables.keeper", code=table.code), **urls,
        join_url=public_url("seats.join", code=table.code),
        recover_url=public_url("home.recover", code=table.code),
        recovery_code=recovery,
    ), 201


def read_json_body(what: str) -> dict[str, Any]:
    """The request's body as a JSON object, read strictly (:func:`read_json`)."""
    return read_json(request.get_data(), what)


def read_json(body: bytes, what: str) -> dict[str, Any]:
    """``body`` as a JSON object, read strictly (400 with a message otherwise).

    Refused: anything but an object; NaN, Infinity and numbers too large for a
    float (1e400), which no JSON reader elsewhere takes back; text that is not
    valid Unicode (a lone surrogate such as "\\ud800"); nesting so deep it
    would exhaust the reader.
    """
    try:
        data = json.loads(body, parse_constant=_no_constant,
                          parse_float=_finite_float)
        _check_text(data)
    except RecursionError:
        abort(400, f"Send {what} as a JSON object: this one is nested too deeply.")
    except UnicodeError:
        abort(400, f"Send {what} as a JSON object in valid UTF-8 text.")
    except ValueError as error:
        abort(400, f"Send {what} as a JSON object (Content-Type: application/json): "
                   f"{str(error)[:120]}.")
    if not isinstance(data, dict):
        abort(400, f"Send {what} as a JSON object (Content-Type: application/json).")
    return data


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text[:20]} is too large a number")
    return number


def _leaves(data: Any) -> Iterator[Any]:
    """Every value in ``data`` that holds no other, and every key (without recursion: a
    record may be nested deeply)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            yield item


def _check_text(data: Any) -> None:
    """Every string (keys included) must be encodable: no lone surrogates."""
    for item in _leaves(data):
        if isinstance(item, str):
            item.encode("utf-8")


EXACT = 2**53 - 1
"""The largest number a record may hold: the largest whole number JSON readers elsewhere
(JavaScript's) take back exactly."""

add_messages({"api.number_too_large": "{shown} is more than the app keeps: a number of a record "
                                      "is at most {most}"})


def _exact_numbers(record: Any) -> None:
    """RuleError for a number of the record (the rules read it) beyond :data:`EXACT`: no JSON
    reader elsewhere would take it back, and the pages could not show what the rules make
    of it (Python writes no whole number of more than 4300 digits)."""
    for item in _leaves(record):
        if isinstance(item, int | float) and not isinstance(item, bool) and abs(item) > EXACT:
            shown = str(item) if len(str(item)) <= 20 else f"{str(item)[:20]}\u2026"
            raise RuleError("api.number_too_large", shown=shown, most=EXACT)


def _check_rounds(games: object, what: str) -> None:
    """Refuse (413) a record with more rounds than ``RECORD_ROUNDS``: every page of its table
    replays and draws them all (``docs/performance.md``: a page of 1,300 rounds held the
    server for seconds)."""
    most = current_app.config["RECORD_ROUNDS"]
    rounds = sum(len(game["rounds"]) for game in games if isinstance(game, dict)
                 and isinstance(game.get("rounds"), list)) if isinstance(games, list) else 0
    if rounds > most:
        abort(413, f"{what} has {rounds} rounds: the app takes at most {most} in one record "
                   "(a whole night's play), so nothing was made. Split it, one game or evening "
                   "at a time.")


@bp.post("/games")
@api_calls
@table_action(find=False)
def import_game():
    """Make a table playing the posted game record; answer its URLs and recovery code."""
    table, _key, recovery, game = make_game(read_json_body("a game record"))
    return _made(table, recovery,
                 game_url=public_url("games.game", code=table.code, number=game.number))


def make_game(record: dict[str, Any]) -> tuple[Table, str, str, Game]:
    """A new table playing a game ``record`` (the API's and the import page's): the table,
    its scorekeeper key and recovery code, the game. 400 (or 413) with a message a player
    can act on when the record is refused; the commit is the caller's."""
    _check_rounds([record], "This game")
    try:
        replay(record)
        _exact_numbers(record)
    except RuleError as error:
        abort(400, str(error))
    known = set(RECORD_FIELDS) | set(game_module(record["game"]).RECORD_FLAGS)
    unknown = sorted(set(record) - known)
    if unknown:
        abort(400, f"A {record['game']} record has no field {unknown[0][:40]!r}: a typo must "
                   "not drop a fact silently.")
    try:
        names = _check_names(record)
    except FormError as error:
        abort(400, f"{error}.")
    flow = flow_for(record["game"])
    table, key, recovery = changes.create_table(
        name=f"{flow.title} (imported)", game=record["game"], names=names,
        allow_phone_names=False, unit=starting_unit(flow.default_unit),
        first_dealer=names.index(record.get("first_dealer", names[0])) + 1,
        recovery=set_aside(changes.new_recovery))
    game = changes.start_game(table, record,
                              player_ids=players.imported_ids(table, names, None))
    return table, key, recovery, game


def _within_the_store(paid: Any) -> None:
    """RuleError, worded as the rules word a payment's, for a payment (the rules read it)
    larger than a payment row holds: the record is refused whole, as one they refuse."""
    for number, (_payer, _payee, amount) in enumerate(paid or (), 1):
        whole_number(amount, f"payment {number}: the amount", maximum=evenings.AMOUNT_LIMIT)


@bp.post("/evenings")
@api_calls
@table_action(find=False)
def import_evening():
    """Make a table with the posted evening's games and payments; answer as for a game.

    Its seats are the evening's players. A game the rules call finished is
    over; so is every game but the last, which is still being played when
    the rules say it runs on.
    """
    table, _key, recovery, evening = make_evening(read_json_body("an evening record"))
    return _made(table, recovery,
                 evening_url=public_url("ledger.evening", code=table.code,
                                        number=evening.number))


def make_evening(record: dict[str, Any]) -> tuple[Table, str, str, evenings.Evening]:
    """A new table with an evening ``record``'s games and payments, as :func:`make_game`
    makes one for a game: the table, its key, its recovery code, the evening."""
    _check_rounds(record.get("games"), "This evening")
    try:
        result = ledger_of(record)
        _within_the_store(record.get("paid"))
        _exact_numbers(record)
    except RuleError as error:
        abort(400, str(error))
    games = record.get("games") or []
    if not games:
        abort(400, "The evening has no games: there is nothing to make a table of.")
    try:
        names = _check_names({"players": result["players"]})
        name = record.get("evening")
        if name is not None:
            name = _exact_name(name, "The evening's name")
    except FormError as error:
        abort(400, f"{error}.")
    last = games[-1]
    title = f"{name or 'An evening'} (imported)"
    table, key, recovery = changes.create_table(
        name=title if len(title) <= NAME_LENGTH else name, game=last["game"], names=names,
        allow_phone_names=False, unit=record["unit"],
        first_dealer=names.index(last.get("first_dealer") or last["players"][0]) + 1,
        recovery=set_aside(changes.new_recovery))
    ids = players.imported_ids(table, names, record.get("player_ids"))
    for game, shown in zip(games, result["games"], strict=True):
        played = changes.start_game(table, game,
                                    player_ids={name: ids[name] for name in game["players"]})
        if shown["finished"] or game is not last:
            changes.end_game(table, played, ENDED)
    evening = evenings.open_evening(table)
    evening.name = name
    evenings.add_payments(evening, record.get("paid"))
    return table, key, recovery, evening
