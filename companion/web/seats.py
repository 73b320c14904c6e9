"""The phones' side: join a table, take a seat, ask for it back, and the seat page."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ..extensions import db
from ..store import Seat, Table, changes, commits, key_hash, players, queries
from .actions import table_action
from .forms import FormError, clean_name, seat_called, whole_number
from .limits import wrong_codes
from .regions import Screen, current_game, live_page, live_region, named_game
from .roles import (
    find_table,
    forget_phone,
    phone,
    phone_key,
    phone_key_or_new,
    remember_phone,
    require_seat_at,
    welcome_back,
)
from .taps import after_repeat

bp = Blueprint("seats", __name__)


def _seat_page(table: Table):
    return redirect(url_for("seats.seat", code=table.code), code=303)


@bp.get("/j/<code>")
@wrong_codes
def join(code: str):
    """The join page a QR code opens: the free seats as big buttons."""
    table = find_table(code)
    if code != table.code:
        return redirect(url_for("seats.join", code=table.code), code=302)
    me = phone(table)
    if me.seat is not None or me.waiting:
        return _seat_page(table)
    return JOIN.draw(table, me=me)


def _chosen_seat(table: Table) -> Seat:
    try:
        position = whole_number(request.form.get("seat"), _l("The seat"), 1, 99)
    except FormError:
        abort(400, _("Pick a seat from the list."))
    seat = table.seat_at(position)
    if seat is None:
        abort(400, _("There is no seat %(number)s at this table.", number=position))
    return seat


def _refuse(table: Table, status: int, message: str):
    """The join page again, with what went wrong on top."""
    return JOIN.draw(table, me=phone(table), error=message), status


@bp.get("/j/<code>/seats/<int:position>")
@wrong_codes
def name_seat(code: str, position: int):
    """Type your name into a blank seat (when the table lets phones name themselves)."""
    table = find_table(code)
    seat = table.seat_at(position)
    if seat is None or seat.name or seat.held or not table.allow_phone_names:
        return redirect(url_for("seats.join", code=table.code), code=303)
    if phone(table).seat is not None:
        return _seat_page(table)
    return render_template("seats/name.html", table=table, seat=seat)


@bp.post("/j/<code>/claim")
@table_action(who=None)
def claim(table: Table):
    """Take a free seat (typing a name into a blank one): with one tap before the table's
    first game, with the scorekeeper's approval after it. The cookie then holds the seat
    (or the request)."""
    if phone(table).seat is not None:
        return _seat_page(table)  # never two seats for one phone
    seat = _chosen_seat(table)
    if seat.held:
        return _refuse(table, 409, _(
            "%(name)s is taken. If it is yours, ask the scorekeeper for it back.",
            name=seat.name or _("Seat %(number)s", number=seat.position)))
    return _sit(table, seat)


def _typed_name(table: Table, seat: Seat) -> str:
    """The name typed for blank seat ``seat`` (``FormError`` when it cannot be its name)."""
    if not table.allow_phone_names:
        raise FormError(_("Seat %(number)s has no name yet: the scorekeeper names it",
                          number=seat.position))
    name = clean_name(request.form.get("name", ""), _l("Your name"))
    if name is None:
        raise FormError(_("Your name is empty: type it"))
    clash = seat_called(table.seats, name)
    if clash is not None:
        raise FormError(_("Someone at this table is already called %(name)s: add an initial",
                          name=clash.name))
    return name


def _sit(table: Table, seat: Seat):
    """Free seat ``seat`` for this phone: taken at once before the table's first game;
    once it has started one, asked of the scorekeeper (the tablet may be playing for the
    seat's player, and the ledger's debts name them)."""
    name = None
    if seat.name is None:
        try:
            name = _typed_name(table, seat)
        except FormError as error:
            return render_template("seats/name.html", table=table, seat=seat,
                                   value=request.form.get("name", "")[:80],
                                   error=str(error)), 400
    elif request.form.get("name"):
        abort(400, _("Seat %(number)s already has a name.", number=seat.position))
    key = phone_key_or_new(table)
    if table.started:
        return _ask(table, seat, key, name)
    if not changes.claim_seat(table, seat, key, name):
        db.session.rollback()
        return _refuse(table, 409, _("Someone took that seat a moment ago. Pick another."))
    remember_phone(table, key)  # (the cookie goes with the answer, after the commit)
    return _seat_page(table)


def _ask(table: Table, seat: Seat, key: str, name: str | None = None):
    """Ask the scorekeeper for ``seat`` on this phone; the seat page then says it waits."""
    try:
        changes.ask_for_seat(table, seat, key, request.remote_addr or "", name)
    except changes.TooManyRequests as error:
        db.session.rollback()
        return _refuse(table, 429, str(error))
    remember_phone(table, key)
    return _seat_page(table)


@bp.post("/j/<code>/again")
@table_action(who=None)
def again(table: Table):
    """Sit again as the player this device sat as (the next evening or game), in one tap
    and without asking: the signed cookie shows it held that player's seat here."""
    if phone(table).seat is not None:
        return _seat_page(table)
    welcome = welcome_back(table)
    if welcome is None:
        return _refuse(table, 409, _("That seat is no longer free: pick one below."))
    key = phone_key_or_new(table)
    if not players.sit_again(table, welcome.seat, welcome.player, key_hash(key)):
        return _refuse(table, 409, _("Someone took that seat a moment ago. Pick another."))
    commits.bump(table)
    remember_phone(table, key)  # (the cookie goes with the answer, after the commit)
    return _seat_page(table)


@bp.post("/j/<code>/ask")
@table_action(who=None)
def ask(table: Table):
    """Ask the scorekeeper for a seat: a held one back (this phone lost its cookie), or a
    free one once the table has started a game."""
    if phone(table).seat is not None:
        return _seat_page(table)
    seat = _chosen_seat(table)
    if seat.held:
        return _ask(table, seat, phone_key_or_new(table))
    if not table.started:
        return _refuse(table, 409, _("Seat %(number)s is free: take it without asking.",
                                     number=seat.position))
    return _sit(table, seat)


@bp.post("/j/<code>/withdraw")
@table_action(who=None)
def withdraw(table: Table):
    """Stop asking for a seat (the wrong one was tapped): back to the join page, a newcomer."""
    me = phone(table)
    if me.seat is not None:
        return _seat_page(table)
    if me.waiting:
        changes.withdraw_request(table, me.request)
    forget_phone(table)
    return redirect(url_for("seats.join", code=table.code), code=303)


@bp.post("/t/<code>/seats/<int:position>/leave")
@table_action(who=None)
def leave(table: Table, position: int):
    """Give up this phone's seat (the name stays; another phone may take it)."""
    seat = require_seat_at(table, position)
    changes.free_seat(table, seat)
    forget_phone(table)
    return redirect(url_for("seats.join", code=table.code), code=303)


@after_repeat("seats.claim", "seats.ask", "seats.again")
def _key_again(code: str) -> None:
    """A claim (or a request) answered as a repeat: the first answer, with the cookie that
    holds the phone's key, was lost. The key is made from the session, so it is the same:
    the cookie gets it again."""
    table = find_table(code)
    if phone_key(table) is not None:
        return
    key = phone_key_or_new(table)
    hashed = key_hash(key)
    if (db.session.scalar(queries.seat_held_by(table.id, hashed)) is not None
            or db.session.scalar(queries.request_of(table.id, hashed)) is not None):
        remember_phone(table, key)


@after_repeat("seats.leave")
def _gone_again(code: str, position: int) -> None:
    """Leaving answered as a repeat: the cookie forgets the seat, as the first answer said."""
    table = find_table(code)
    if phone(table).seat is None:
        forget_phone(table)


@bp.get("/t/<code>/seat")
@wrong_codes
def seat(code: str):
    """This phone's page at the table: "You are Sam (seat 2)", the seats, the game."""
    table = find_table(code)
    me = phone(table)
    if not me.known:
        return redirect(url_for("seats.join", code=table.code), code=303)
    screen = PHONE.screen(table)
    return render_template(PHONE.template, **PHONE.context(screen), me=me, view=screen.view)


# --------------------------------------------------------------------------- the live pages


JOIN = live_page("join", "seats/join.html", "pulse.join", lambda table: None, shows_phone=True)
"""The join page: the free seats, and the game the phone joins (its regions: its template's)."""

PHONE = live_page("phone", "seats/seat.html", "pulse.seat", current_game, shows_phone=True)
"""A phone's seat page: its seat, its round, the scoreboard (its regions: its template's)."""


@live_region("join", "seats/_join.html", "p")
def join_context(screen: Screen) -> dict[str, Any]:
    """What the join page's seats show: the free seats, this phone's standing there, and the
    seat it may sit in again in one tap."""
    me = screen.phone
    again = welcome_back(screen.table) if me.seat is None and not me.waiting else None
    return {"me": me, "again": again}


@live_region("join-game", "seats/_join_game.html", "g")
def joining_context(screen: Screen) -> dict[str, Any]:
    """The game the phone joins: the one being played, or (between games) the next one."""
    return {"named": named_game(screen.table)}


@live_region("you", "seats/_you.html", "p")
def you_context(screen: Screen) -> dict[str, Any]:
    """What a phone's seat region shows: its seat (or its request), the seats, who left."""
    return {"me": screen.phone, "gone": players_gone(screen.table)}


def players_gone(table: Table) -> frozenset[str]:
    """The players who have left the game being played (in a game where a player may leave
    between hands with their stack, ``leave`` in the record's hands): their phone may still hold
    its seat, but they are no longer seated at the game. None once the last have left (the
    game is over)."""
    game = table.playing
    if game is None:
        return frozenset()
    gone = frozenset(name for hand in game.rounds for name in (hand.get("leave") or []))
    # Everyone gone is the game's end, not a table of empty seats.
    return frozenset() if gone >= set(game.players) else gone
