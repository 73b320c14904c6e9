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
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from flask_babel import force_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.exceptions import HTTPException

from ..door import set_aside
from ..extensions import csrf
from ..rules import RuleError, game_module, replay
from ..rules import evening as ledger_of
from ..rules.common import whole_number
from ..rules.errors import add_messages
from ..store import ENDED, NAME_LENGTH, RECORD_FIELDS, Game, Table, changes, evenings, players
from .actions import table_action
from .currencies import starting_unit
from .flow import flow_for, flows
from .forms import MAX_SEATS, FormError, clean_name
from .limits import import_limits
from .qr import public_url
from .words import and_list, sentence

bp = Blueprint("api", __name__, url_prefix="/api")
csrf.exempt(bp)


class Refused(HTTPException):
    """A record refused at import, said twice: its ``description`` is the API's English,
    precise for a developer (the reader's own words, the field's name); :meth:`said` is the
    import page's, for a person holding a file, in the device's language: what is wrong
    with the file, and what to do about it."""

    def __init__(self, status: int, description: str, said: Callable[[], str]) -> None:
        super().__init__(description)
        self.code = status
        self._said = said

    def said(self) -> str:
        """The refusal for a person, in the device's language (the import page's)."""
        return self._said()


NOT_READ = _l("This file is not a game or evening record: it could not be read. Pick the "
              ".json file the companion exported.")
NOT_A_RECORD = _l("This file is not a game or evening record: it holds something else. Pick "
                  "a game's record.json or an evening's evening.json, as the companion "
                  "exported it.")


def _in_english(say: Callable[[], str]) -> str:
    """What ``say`` says, in English (the API's language)."""
    with force_locale("en"):
        return say()


def _exact_name(text: object, what: str) -> str:
    """A name as it is kept: within a seat's length, with no spaces to tidy."""
    name = clean_name(text, what)
    if name != text:
        raise FormError(_("%(what)s has extra spaces", what=what))
    return name


def _check_names(players: Sequence[object]) -> list[str]:
    """The players' names, within what a seat can hold (the rules checked the rest);
    FormError in the device's language otherwise."""
    if len(players) > MAX_SEATS:
        raise FormError(_("The app seats at most %(most)s players, not %(count)s",
                          most=MAX_SEATS, count=len(players)))
    return [_exact_name(player, _("The name %(name)s", name=repr(str(player)[:20])))
            for player in players]


def _seat_names(players: Sequence[object], evening_name: object = None) -> list[str]:
    """The players' names as seats hold them (and the evening's name checked likewise);
    :class:`Refused` (400) otherwise."""

    def check() -> list[str]:
        names = _check_names(players)
        if evening_name is not None:
            _exact_name(evening_name, _("The evening's name"))
        return names

    def refusal() -> str:
        try:
            check()
        except FormError as error:
            return sentence(error)
        return ""

    try:
        return check()
    except FormError:
        raise Refused(400, _in_english(refusal), lambda: _(
            "A name in this file cannot be kept as it is, so nothing was made. %(reason)s "
            "Correct it in the file.", reason=refusal())) from None


def _innermost(error: RuleError) -> RuleError:
    """The refusal ``error`` wraps (``game 1: round 3: …`` wraps round 3's), or itself."""
    while isinstance(error.params.get("error"), RuleError):
        error = error.params["error"]
    return error


def _rules_said(error: RuleError) -> str:
    """A refusal of the rules as the import page says it, in the device's language."""
    inner = _innermost(error)
    if inner.code == "game.unknown":
        known = [flows()[name].title if name in flows() else str(name)
                 for name in inner.params.get("games", ())]
        return _("This file is a record of a game the companion does not know "
                 "(\u201c%(name)s\u201d). It knows %(games)s: pick a record of one of them.",
                 name=str(inner.params.get("name"))[:20], games=and_list(known))
    return _("The rules refuse this record, so nothing was made. %(reason)s Correct that in "
             "the file, or pick the one the companion exported.", reason=sentence(error))


def _rules_refusal(error: RuleError) -> Refused:
    """A refusal of the rules: the API's is the rules' English, the page's
    :func:`_rules_said`."""
    return Refused(400, str(error), lambda: _rules_said(error))


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
        raise Refused(400, f"Send {what} as a JSON object: this one is nested too deeply.",
                      lambda: str(NOT_READ)) from None
    except UnicodeError:
        raise Refused(400, f"Send {what} as a JSON object in valid UTF-8 text.",
                      lambda: str(NOT_READ)) from None
    except ValueError as error:
        raise Refused(400, f"Send {what} as a JSON object (Content-Type: application/json): "
                           f"{str(error)[:120]}.", lambda: str(NOT_READ)) from None
    if not isinstance(data, dict):
        raise Refused(400, f"Send {what} as a JSON object (Content-Type: application/json).",
                      lambda: str(NOT_A_RECORD))
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
        raise Refused(
            413, f"{what} has {rounds} rounds: the app takes at most {most} in one record (a "
                 "whole night's play), so nothing was made. Split it, one game or evening at a "
                 "time.",
            lambda: _("This file has %(rounds)s rounds: the app takes at most %(most)s in one "
                      "record (a whole night's play), so nothing was made. Split it into "
                      "files of one game or one evening each.", rounds=rounds, most=most))


@bp.post("/games")
@import_limits
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
        raise _rules_refusal(error) from None
    flow = flow_for(record["game"])
    known = set(RECORD_FIELDS) | set(game_module(record["game"]).RECORD_FLAGS)
    unknown = sorted(set(record) - known)
    if unknown:
        field = unknown[0][:40]
        raise Refused(400, f"A {record['game']} record has no field {field!r}: a typo must "
                           "not drop a fact silently.",
                      lambda: _("This %(game)s record has a field the app does not know "
                                "(\u201c%(field)s\u201d), so nothing was made: a typo must not "
                                "drop a fact unseen. Correct or remove it in the file.",
                                game=flow.title, field=field))
    names = _seat_names(record["players"])
    title = _("%(name)s (imported)", name=flow.title)
    table, key, recovery = changes.create_table(
        name=title if len(title) <= NAME_LENGTH else flow.title, game=record["game"],
        names=names,
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
@import_limits
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
        raise _rules_refusal(error) from None
    games = record.get("games") or []
    if not games:
        raise Refused(400, "The evening has no games: there is nothing to make a table of.",
                      lambda: _("This evening has no games, so there is nothing to make a "
                                "table of. Pick an evening with a game in it, or a game's "
                                "record.json."))
    name = record.get("evening")
    names = _seat_names(result["players"], name)
    last = games[-1]
    title = (_("%(name)s (imported)", name=name) if name is not None
             else _("An evening (imported)"))
    table, key, recovery = changes.create_table(
        name=title if len(title) <= NAME_LENGTH else (name or title[:NAME_LENGTH]),
        game=last["game"], names=names,
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
