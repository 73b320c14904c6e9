"""The evening's ledger: every game's money at the table, who pays whom, payments marked.

One page per evening of a table (``/t/<code>/evenings/<n>``; ``/t/<code>/evening``
is the one open now), reached from the tablet and from every phone. It shows
a player × game grid of money (each cell opens its money lines), the money
still in play, who pays whom, and the payments marked; each phone sees its
own row and its own transfers picked out. The payee's phone or the
scorekeeper marks a transfer paid (and can undo it); the scorekeeper sets a
chip game's chip value, names and closes the evening. Past evenings stay
readable (``/t/<code>/evenings``), with each player's balance across them.

Every number comes from ``companion.rules.evening`` of the evening's record
(:func:`companion.store.evenings.evening_record`); this module only chooses
what to show. A game the scorekeeper ended before its end is not finished
by the rules: its money stays out of ``net`` and ``owing`` (nobody pays or
is paid for it: each player keeps what they put in), and the page says so, its cells
struck out. A game the rules give no money and no chips is played for points, and the
page says it moves no money. A phone's own row is found by its player's id
(:func:`my_name`), so a player whose seat was removed still reads "You".
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from babel.dates import format_datetime, format_skeleton, format_time
from babel.numbers import get_decimal_symbol
from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..extensions import db
from ..live import at_version
from ..rules import RuleError, game_module
from ..rules import evening as ledger_of
from ..rules.ledger import What
from ..rules.money import CHIPS, is_unit, minor_digits
from ..store import ENDED, PLAYING, Game, Table, changes, evenings
from ..store.evenings import Evening, Payment
from .actions import table_action
from .device import locale_name
from .flow import flow_for
from .forms import FormError, clean_name, read_money
from .limits import drawn_from, heavy_pages, wrong_codes
from .polled import polled_table
from .roles import find_table, is_keeper, phone, remembered_player
from .words import say

bp = Blueprint("ledger", __name__)

EVENING = "/t/<code>/evenings/<int:number>"

FINISHED, RUNNING, CLOSED_EARLY = "finished", "in play", "closed early"
"""How a game of the evening stands for the ledger (also the CSV's ``status``, as data)."""

STATUS_WORDS = {FINISHED: _l("finished"), RUNNING: _l("in play"),
                CLOSED_EARLY: _l("closed early")}
"""Each status as the grid's column heading says it, in the device's language."""

WHAT_WORDS = {
    What.JOINING_FEE.value: _l("joining fee"),
    What.TROMP_STAKE.value: _l("TROMP! stake"),
    What.ROUND_POT_WON.value: _l("round pot won"),
    What.KITTY.value: _l("kitty"),
    What.FEE_PAYOUT.value: _l("fee payout"),
    What.MONEY_RETURNED.value: _l("money returned"),
    What.ANTE.value: _l("ante"),
    What.MISSED_DECLARATION.value: _l("missed declaration"),
    What.BETS.value: _l("bets"),
    What.PAYOUT.value: _l("payout"),
    What.SHARE_OUT.value: _l("share-out"),
}
"""What a money line was (the rules' English ``what``, which the record and the CSV keep
as data), as the ledger's lines say it in the device's language."""

CSV_FIELDS = ("game", "table_game", "title", "status", "round", "player", "what", "amount",
              "unit")
"""The columns of the money lines' CSV, one line of money each (the English header row)."""

CSV_HEADERS = {"game": _l("game"), "table_game": _l("table_game"), "title": _l("title"),
               "status": _l("status"), "round": _l("round"), "player": _l("player"),
               "what": _l("what"), "amount": _l("amount"), "unit": _l("unit")}
"""The CSV's header row in the device's language (its rows stay data: numbers in the
CSV's plain form, the rules' English words)."""


def what_text(what: str) -> str:
    """A money line's ``what`` in the device's language (as it is, for a word not known)."""
    word = WHAT_WORDS.get(what)
    return str(word) if word is not None else what


def date_text(when: datetime, with_time: bool = False) -> str:
    """A day (and its time) as the device's language writes it: ``Fri 06 Nov 2026, 19:05``
    in English as ever, ``ven. 6 nov. 2026, 19:05`` in French, ``Fr., 6. Nov. 2026`` in
    German (Babel's formats, :func:`~companion.web.device.locale_name`)."""
    language = locale_name()
    if language == "en":
        return format_datetime(when, "EEE dd MMM yyyy, HH:mm" if with_time else "EEE dd MMM yyyy",
                               locale="en")
    day = format_skeleton("yMMMEd", when, locale=language)
    return f"{day}, {format_time(when, 'HH:mm', locale=language)}" if with_time else day


# --------------------------------------------------------------------------- what a page shows


@dataclass(frozen=True)
class Column:
    """One game of the evening, as the grid's column."""

    index: int
    """The game's count in the evening (from 1), as the rules' lines give it."""
    game: Game
    title: str
    status: str
    """:data:`FINISHED`, :data:`RUNNING` or :data:`CLOSED_EARLY`."""
    money: dict[str, int]
    """The rules' money in the evening's unit (``{}``: no money, or chips without a value)."""
    chips: dict[str, int] | None
    """A chip game's money in chips (None for other games)."""

    @property
    def round_word(self) -> str:
        """What players call a round of this game (``hand``), for its lines."""
        return flow_for(self.game.game).round_word

    @property
    def status_text(self) -> str:
        """The game's status in the device's language."""
        return str(STATUS_WORDS[self.status])

    def round_text(self, number: int) -> str:
        """A round of this game by its number, as its players call it ("Hand 3")."""
        if self.round_word == "hand":
            return _("Hand %(number)s", number=number)
        return _("Round %(number)s", number=number)

    @property
    def counted(self) -> bool:
        """True when the game's money counts in the evening's net."""
        return self.status == FINISHED

    @property
    def for_points(self) -> bool:
        """True when the game moves no money at all (a game of points, or a
        money game played without fee or stake): the rules give it no money and no chips."""
        return not self.money and self.chips is None

    @property
    def chip_value(self) -> int | None:
        """A chip game's chip value (None: not set, or not a chip game)."""
        return self.game.options.get("chip_value")


@dataclass(frozen=True)
class Cell:
    """A player's money in one game, and the lines behind it."""

    amount: int | None
    """In the evening's unit (None: the player did not play it, or it has no money)."""
    chips: int | None
    """In chips, for a chip game without a chip value."""
    lines: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Transfer:
    """A transfer still to make, as this screen sees it."""

    payer: str
    payee: str
    amount: int
    mine: bool
    """This phone's player pays or is paid."""
    may_mark: bool
    """This screen may mark it paid (the scorekeeper, or the payee's phone)."""


@dataclass(frozen=True)
class Ledger:
    """An evening's ledger for one screen (the tablet, a phone, or a watcher)."""

    table: Table
    evening: Evening
    unit: str
    result: dict[str, Any] | None
    """``companion.rules.evening`` of the record (None when the rules refuse it)."""
    problem: RuleError | None
    """Why the rules refuse the record (the page says it with ``|say``)."""
    columns: tuple[Column, ...]
    me: str | None
    """This phone's player (None for the tablet and for watchers)."""
    keeper: bool

    @property
    def players(self) -> list[str]:
        """The evening's players, in the order first seen."""
        return self.result["players"] if self.result else []

    def cell(self, player: str, column: Column) -> Cell:
        """``player``'s money in ``column``'s game."""
        if player not in column.game.players:
            return Cell(None, None, ())
        lines = tuple(line for line in self.result["lines"]
                      if line["game"] == column.index and line["player"] == player)
        chips = column.chips.get(player) if column.chips is not None and not column.money \
            else None
        return Cell(column.money.get(player), chips, lines)

    @property
    def transfers(self) -> list[Transfer]:
        """Who still pays whom, the fewest transfers (the rules' ``owing``)."""
        return [Transfer(payer, payee, amount, self.me in (payer, payee),
                         self.keeper or self.me == payee)
                for payer, payee, amount in (self.result["owing"] if self.result else [])]

    @property
    def payments(self) -> list[tuple[Payment, bool]]:
        """The payments marked, each with whether this screen may undo it."""
        return [(payment, self.keeper or self.me == payment.payee)
                for payment in self.evening.payments]

    @property
    def running(self) -> list[Column]:
        """The games being played now (for money or for points)."""
        return [column for column in self.columns if column.status == RUNNING]

    @property
    def in_play(self) -> list[Column]:
        """The games being played now for money (or chips): their money is still in play."""
        return [column for column in self.running if not column.for_points]

    @property
    def closed_early(self) -> list[Column]:
        """The games for money the scorekeeper closed before their end: their money is not
        counted."""
        return [column for column in self.columns
                if column.status == CLOSED_EARLY and not column.for_points]

    @property
    def for_points(self) -> list[Column]:
        """The games not finished yet, or closed early, that are played for points: they
        move no money, so nothing of theirs is in play or left uncounted."""
        return [column for column in self.columns
                if column.status != FINISHED and column.for_points]

    @property
    def square(self) -> bool:
        """True when nothing is owed and no game is being played."""
        return bool(self.result) and not self.result["owing"] and not self.running

    @property
    def uncounted_chips(self) -> list[Column]:
        """The chip games whose chips are not money yet (no chip value)."""
        return [column for column in self.columns
                if column.chips is not None and column.chip_value is None]


def _status(game: Game, finished: bool) -> str:
    if finished:
        return FINISHED
    return RUNNING if game.status == PLAYING else CLOSED_EARLY


def ruled(table: Table, evening: Evening) -> tuple[dict[str, Any], dict[str, Any] | None,
                                                   RuleError | None]:
    """The evening's record and what the rules make of it (their result, or the refusal,
    which each screen says in its own language), made once for every screen at the table's
    version: an evening of a long game is replayed in a good part of a second, and its
    pages ask for it several times."""
    def make() -> tuple[dict[str, Any], dict[str, Any] | None, RuleError | None]:
        record = evenings.evening_record(evening)
        try:
            return record, ledger_of(record), None
        except RuleError as error:
            return record, None, error

    return at_version(table, ("evening", evening.number), make)


def my_name(table: Table, record: dict[str, Any], players: Sequence[str]) -> str | None:
    """The name this phone's player has in the evening (None: the tablet, a watcher, or a
    player who did not play it).

    The phone's player (its seat's, or the one it last sat as: :func:`~.roles.my_player`)
    is found by id in the evening's ``player_ids``, so a player who left and whose seat was
    removed, or whose seat was renamed since, still reads their own row as "You". A seat
    without a player goes by its name."""
    if is_keeper(table):
        return None
    seat = phone(table).seat
    player_id = seat.player_id if seat is not None else remembered_player(table)
    if player_id is not None:
        by_id = {str(i): name for name, i in (record.get("player_ids") or {}).items()}
        if str(player_id) in by_id:
            return by_id[str(player_id)]
    return seat.name if seat is not None and seat.name in players else None


def ledger_view(table: Table, evening: Evening) -> Ledger:
    """The evening's ledger for this screen: the rules' result and what this screen may do."""
    games = evening.games
    keeper = is_keeper(table)
    record, result, problem = ruled(table, evening)
    columns = tuple(
        Column(index, game, flow_for(game.game).title, _status(game, shown["finished"]),
               shown["money"], shown.get("chips"))
        for index, (game, shown) in enumerate(zip(games, result["games"], strict=True), 1)
    ) if result else ()
    return Ledger(table=table, evening=evening, unit=evening.money_unit, result=result,
                  problem=problem, columns=columns,
                  me=my_name(table, record, result["players"] if result else []), keeper=keeper)


# --------------------------------------------------------------------------- finding evenings


def evening_numbered(table: Table, number: int) -> Evening:
    """Evening ``number`` of the table (the open one may not be saved yet), or 404."""
    evening = db.session.scalar(evenings.evening_number(table.id, number))
    if evening is None:
        current = evenings.current_evening(table)
        if current.number != number:
            abort(404, _("This table has no evening %(number)s.", number=number))
        evening = current
    return evening


def _locked(table: Table, number: int) -> Evening:
    """Evening ``number`` for a change: saved now if it was not, and locked."""
    evening = evening_numbered(table, number)
    if evening.id is None:
        evening = evenings.open_evening(table)
    return evenings.locked_evening(evening)


def _page(table: Table, evening: Evening):
    return redirect(_page_url(table, evening), code=303)


def _page_url(table: Table, evening: Evening) -> str:
    return url_for("ledger.evening", code=table.code, number=evening.number)


def _saved(table: Table, evening: Evening):
    """Back to the ledger once the change is committed (every other screen's follows live):
    :func:`~companion.web.actions.table_action` commits it."""
    return _page(table, evening)


REFUSED = {"payment": _l("The rules refuse that payment: %(error)s."),
           "chip value": _l("The rules refuse that chip value: %(error)s.")}
"""What the page says when the rules refuse a change, by the change (whole sentences)."""


def _checked(table: Table, evening: Evening, what: str):
    """The change kept when the rules still read the evening; else refused, unchanged.
    ``what`` is a key of :data:`REFUSED`."""
    try:
        ledger_of(evenings.evening_record(evening))
    except RuleError as error:
        return _refuse(table, evening, 400, str(REFUSED[what]) % {"error": say(error)})
    return _saved(table, evening)


def _refuse(table: Table, evening: Evening, status: int, message: str):
    """The ledger page again, with what went wrong on top; nothing is changed."""
    db.session.rollback()
    return render_template("ledger/evening.html", error=message,
                           **_context(table, evening_numbered(table, evening.number))), status


def _context(table: Table, evening: Evening) -> dict[str, Any]:
    return {"table": table, "ledger": ledger_view(table, evening), "typed_amount": typed_amount,
            "live_url": url_for("ledger.live", code=table.code, number=evening.number)}


# --------------------------------------------------------------------------- pages


@bp.get("/t/<code>/evening")
@wrong_codes
def current(code: str):
    """The ledger of the table's evening now (the link on the tablet and on every phone)."""
    table = find_table(code)
    return _page(table, evenings.current_evening(table))


def _drawn(evening: Evening) -> Evening:
    """The evening, its rounds counted for the limit on heavy pages."""
    drawn_from(sum(len(game.rounds) for game in evening.games))
    return evening


@bp.get(EVENING)
@wrong_codes
@heavy_pages
def evening(code: str, number: int):
    """An evening's ledger: the grid, who pays whom, the payments; live on every screen."""
    table = find_table(code)
    return render_template("ledger/evening.html",
                           **_context(table, _drawn(evening_numbered(table, number))))


@bp.get(EVENING + "/live")
@wrong_codes
def live(code: str, number: int):
    """The ledger's live region."""
    table = polled_table(code, "ledger.evening", number=number)
    evening = evening_numbered(table, number)
    return render_template("ledger/_ledger.html", **_context(table, evening))


@bp.get("/t/<code>/evenings")
@wrong_codes
@heavy_pages
def past(code: str):
    """The table's evenings, and each player's balance across them, by name."""
    table = find_table(code)
    shown = list(db.session.scalars(evenings.evenings_of(table.id)))
    current = evenings.current_evening(table)
    if current.id is None and current.games:
        shown.append(current)
    drawn_from(sum(len(game.rounds) for evening in shown for game in evening.games))
    rows = [(e, ledger_view(table, e)) for e in reversed(shown)]
    return render_template("ledger/evenings.html", table=table, rows=rows,
                           balances=balances(table, shown),
                           current_number=current.number)


@dataclass(frozen=True)
class Balance:
    """The players' balance across a table's evenings in one money unit."""

    unit: str
    evenings: tuple[tuple[Evening, dict[str, int]], ...]
    """Each evening (oldest first) and its ``net``."""
    result: dict[str, Any]
    """``companion.rules.evening`` of all those evenings' games and payments at once."""


def balances(table: Table, shown: Sequence[Evening]) -> list[Balance]:
    """Each player's balance across the evenings, by name: one per money unit used.

    The rules read the evenings' games and payments as one record, so the
    balance (``net``) and what is still owed across evenings (``owing``)
    are theirs, never a sum made here. An evening the rules refuse is left out.
    """
    by_unit: dict[str, list[tuple[Evening, dict[str, Any], dict[str, Any]]]] = {}
    for evening in shown:
        record, result, _problem = ruled(table, evening)
        if result is not None:
            by_unit.setdefault(record["unit"], []).append((evening, record, result))
    found = []
    for unit, ruled_ones in by_unit.items():
        together = {"unit": unit,
                    "games": [game for _e, record, _r in ruled_ones for game in record["games"]],
                    "paid": [paid for _e, record, _r in ruled_ones for paid in record["paid"]]}
        numbers = tuple(evening.number for evening, _record, _result in ruled_ones)
        found.append(Balance(unit, tuple((e, result["net"]) for e, _r, result in ruled_ones),
                             at_version(table, ("balance", unit, numbers),
                                        lambda together=together: ledger_of(together))))
    return found


# --------------------------------------------------------------------------- exports


@bp.get(EVENING + "/evening.json")
@wrong_codes
@heavy_pages
def record(code: str, number: int):
    """The evening's record: its export, and the format ``POST /api/evenings`` imports."""
    table = find_table(code)
    response = jsonify(ruled(table, _drawn(evening_numbered(table, number)))[0])
    response.headers["Content-Disposition"] = (
        f'inline; filename="{table.code.lower()}-evening-{number}.json"')
    return response


def plain_amount(amount: int, unit: str) -> str:
    """An amount as a form field or a spreadsheet takes it, with the unit's own decimals:
    ``-3.50``, ``1200`` (yen), ``15`` (chips).

    >>> plain_amount(-350, "GBP"), plain_amount(5, "EUR"), plain_amount(-15, "chips")
    ('-3.50', '0.05', '-15')
    >>> plain_amount(1250, "NOK"), plain_amount(-1200, "JPY"), plain_amount(1500, "KWD")
    ('12.50', '-1200', '1.500')
    """
    places = minor_digits(unit if is_unit(unit) else CHIPS)
    if not places:
        return str(amount)
    whole, part = divmod(abs(amount), 10**places)
    return f"{'-' if amount < 0 else ''}{whole}.{part:0{places}d}"


def typed_amount(amount: int, unit: str) -> str:
    """An amount as the device's language types it in a form field: ``-3.50`` in English,
    ``-3,50`` in French or German (``read_money`` reads either). The CSV keeps
    :func:`plain_amount`."""
    text = plain_amount(amount, unit)
    language = locale_name()
    return text if language == "en" else text.replace(".", get_decimal_symbol(language))


def _cell_text(value: object) -> object:
    """A text cell a spreadsheet will not run as a formula (a name may start with ``=``)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _lines_text(shown: Ledger) -> str:
    """The CSV of an evening's money lines (the same for every screen)."""
    columns = {column.index: column for column in shown.columns}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([str(CSV_HEADERS[field]) for field in CSV_FIELDS])
    for line in shown.result["lines"]:
        column = columns[line["game"]]
        unit = line.get("unit", shown.unit)
        writer.writerow([line["game"], column.game.number, _cell_text(column.title),
                         column.status, "" if line["round"] is None else line["round"],
                         _cell_text(line["player"]), line["what"],
                         plain_amount(line["amount"], unit), unit])
    return out.getvalue()


@bp.get(EVENING + "/lines.csv")
@wrong_codes
@heavy_pages
def lines_csv(code: str, number: int):
    """The money lines of the evening as CSV, one movement of money a row, for a spreadsheet."""
    table = find_table(code)
    shown = ledger_view(table, _drawn(evening_numbered(table, number)))
    if shown.result is None:
        abort(409, _("The rules refuse this evening's record: %(problem)s",
                     problem=say(shown.problem)))
    text = at_version(table, ("lines.csv", number, locale_name()), lambda: _lines_text(shown))
    response = Response(text, mimetype="text/csv")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{table.code.lower()}-evening-{number}-lines.csv"')
    return response


# --------------------------------------------------------------------------- payments


NOT_A_PLAYER = {"payer": _l("The payer must be a player of this evening, not "
                            "\u201c%(name)s\u201d"),
                "payee": _l("The payee must be a player of this evening, not "
                            "\u201c%(name)s\u201d")}
"""The refusal of a payer or a payee who is not a player of the evening."""


def _player(shown: Ledger, name: object, role: str) -> str:
    """``name`` when it is a player of the evening; ``role`` is ``payer`` or ``payee``."""
    if not isinstance(name, str) or name not in shown.players:
        raise FormError(str(NOT_A_PLAYER[role]) % {"name": str(name)[:40]})
    return name


@bp.post(EVENING + "/paid")
@table_action(who=None)
def mark_paid(table: Table, number: int):
    """Mark a transfer paid: the payee's phone, or the scorekeeper. Part of it may be paid."""
    evening = _locked(table, number)
    shown = ledger_view(table, evening)
    form = request.form
    try:
        payer = _player(shown, form.get("payer"), "payer")
        payee = _player(shown, form.get("payee"), "payee")
    except FormError as error:
        return _refuse(table, evening, 400, f"{error}.")
    if not (shown.keeper or shown.me == payee):
        abort(403, _("Only %(payee)s's phone or the scorekeeper marks a payment to "
                     "%(payee)s.", payee=payee))
    owed = next((t.amount for t in shown.transfers if (t.payer, t.payee) == (payer, payee)),
                None)
    if owed is None:
        return _refuse(table, evening, 409, _("%(payer)s owes %(payee)s nothing now: look "
                                              "at what is still owed and tap again.",
                                              payer=payer, payee=payee))
    try:
        amount = read_money(form.get("amount"), shown.unit, _("The amount"))
        if amount == 0:
            raise FormError(_("The amount is empty: type what was paid"))
        if amount > owed:
            raise FormError(_("%(payer)s owes %(payee)s %(owed)s, not %(amount)s",
                              payer=payer, payee=payee, owed=typed_amount(owed, shown.unit),
                              amount=typed_amount(amount, shown.unit)))
    except FormError as error:
        return _refuse(table, evening, 400, f"{error}.")
    evenings.mark_paid(evening, payer, payee, amount)
    return _checked(table, evening, "payment")


@bp.post(EVENING + "/payments/<int:payment_id>/undo")
@table_action(who=None)
def undo_payment(table: Table, number: int, payment_id: int):
    """Take back a payment marked by mistake: the scorekeeper, or the payee's phone."""
    evening = _locked(table, number)
    payment = next((p for p in evening.payments if p.id == payment_id), None)
    if payment is None:
        return _refuse(table, evening, 409, _("That payment is not marked on this evening "
                                              "(any more): look again."))
    shown = ledger_view(table, evening)
    if not (shown.keeper or shown.me == payment.payee):
        abort(403, _("Only %(payee)s's phone or the scorekeeper takes this payment back.",
                     payee=payment.payee))
    evenings.undo_payment(evening, payment)
    return _saved(table, evening)


# --------------------------------------------------------------------------- the scorekeeper


@bp.post(EVENING + "/games/<int:game_number>/chip-value")
@table_action
def chip_value(table: Table, number: int, game_number: int):
    """Set (or clear) a chip game's chip value: what one chip is worth in the table's money."""
    evening = _locked(table, number)
    if evening.closed:
        abort(409, _("Evening %(number)s is closed: its chip values stay as they were.",
                     number=number))
    game = next((g for g in evening.games if g.number == game_number), None)
    if game is None:
        abort(404, _("Game %(game)s is not part of evening %(number)s.", game=game_number,
                     number=number))
    if not game_module(game.game).CHIP_GAME:
        return _refuse(table, evening, 400, _("%(game)s is not played for chips: it has no "
                                              "chip value.", game=flow_for(game.game).title))
    unit = evening.money_unit
    typed = request.form.get("chip_value", "")
    try:
        value = read_money(typed, unit, _("The chip value")) if typed.strip() else None
    except FormError as error:
        return _refuse(table, evening, 400, f"{error}.")
    evenings.set_chip_value(game, value)
    return _checked(table, evening, "chip value")


@bp.post(EVENING + "/name")
@table_action
def name(table: Table, number: int):
    """Name the evening ("Friday"), or clear its name."""
    evening = _locked(table, number)
    try:
        named = clean_name(request.form.get("name", ""), _("The evening's name"))
    except FormError as error:
        return _refuse(table, evening, 400, f"{error}.")
    evenings.rename_evening(evening, named)
    return _saved(table, evening)


@bp.post(EVENING + "/close")
@table_action
def close(table: Table, number: int):
    """Close the evening: every game over (the one being played may be ended with it)."""
    evening = _locked(table, number)
    if evening.closed:
        abort(409, _("Evening %(number)s is already closed.", number=number))
    games = evening.games
    if not games:
        return _refuse(table, evening, 409, _("Nothing has been played this evening yet: "
                                              "there is nothing to close."))
    playing = table.playing
    if playing is not None:
        if request.form.get("end") != str(playing.number):
            return _refuse(table, evening, 409, _("Game %(number)s is being played: end it "
                                                  "first, or end it and close the evening in "
                                                  "one go.", number=playing.number))
        changes.end_game(table, playing, ENDED)
    evenings.close_evening(evening)
    return _saved(table, evening)


def game_ledger_url(table: Table, game: Game) -> str:
    """The ledger of the evening a game belongs to: the one place its money is settled,
    netted with the evening's other games (a game's end screen links to it)."""
    evening = db.session.scalar(evenings.evening_of_game(table.id, game.number))
    number = evening.number if evening is not None else evenings.current_evening(table).number
    return url_for("ledger.evening", code=table.code, number=number)


bp.add_app_template_global(game_ledger_url, "game_ledger_url")
bp.add_app_template_filter(date_text, "date_text")
bp.add_app_template_filter(what_text, "what_text")

__all__ = ["CSV_FIELDS", "CSV_HEADERS", "Balance", "Cell", "Column", "Ledger", "Transfer",
           "balances", "bp", "date_text", "game_ledger_url", "ledger_view", "plain_amount",
           "typed_amount", "what_text"]
