"""The scorekeeper's side: make a table, arrange its seats, run it from the big screen."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from ..door import set_aside
from ..extensions import db
from ..rules import RuleError
from ..store import ENDED, PENDING, Seat, SeatRequest, Table, changes, evenings, queries, spaced
from .actions import table_action
from .currencies import starting_unit
from .flow import GameFlow, flow_for, flows
from .forms import (
    MAX_SEATS,
    FormError,
    clean_name,
    first_duplicate,
    required_name,
    seat_called,
    whole_number,
)
from .limits import new_tables, wrong_codes
from .qr import join_url, qr_svg
from .regions import Screen, current_game, live_page, live_region
from .roles import find_table, is_keeper, recovery_code, remember_keeper, require_keeper
from .words import counts_said, sentence

bp = Blueprint("tables", __name__)


def _game_choices() -> list[dict[str, object]]:
    """The games with their player counts, for the create form."""
    return [{"value": name, "title": flow.title, "counts": flow.allowed_players(),
             "players": counts_said(flow.allowed_players())}
            for name, flow in flows().items()]


def _check_game(game: object) -> GameFlow:
    if not isinstance(game, str) or game not in flows():
        raise FormError(_("Pick one of the games"))
    return flows()[game]


def _form_page(form, *, error: str | None = None, status: int = 200):
    """The create-table form, for the game and the number of seats chosen so far."""
    choices = _game_choices()
    game = form.get("game") if form.get("game") in flows() else choices[0]["value"]
    counts = next(c["counts"] for c in choices if c["value"] == game)
    typed_seats = form.get("seats", "")
    seats = int(typed_seats) if typed_seats.isascii() and typed_seats.isdigit() \
        and int(typed_seats) in counts else counts[0] if len(counts) == 1 \
        else (4 if 4 in counts else counts[0])
    return render_template("tables/new.html", games=choices, form=form, game=game,
                           counts=counts, seats=seats, error=error), status


@bp.route("/new", methods=["GET", "POST"])
@new_tables
@table_action(find=False)
def new():
    """The create-table form (GET) and making the table (POST): this device keeps score.

    The form asks for as many seats as the chosen game takes; with htmx it is
    drawn again as the game, the seats or the names change (the first-dealer
    list names the players typed).
    """
    if request.method == "GET":
        return _form_page(request.args)
    form = request.form
    try:
        name = required_name(form.get("name"), _l("The table's name"))
        flow = _check_game(form.get("game"))
        count = whole_number(form.get("seats"), _l("The number of seats"), 1, MAX_SEATS)
        flow.check_player_count(count)
        typed = form.getlist("player")
        if len(typed) > MAX_SEATS:
            raise FormError(_("A table has at most %(most)s seats", most=MAX_SEATS))
        names = [clean_name(text, _("Seat %(number)s's name", number=i))
                 for i, text in enumerate(typed, 1)]
        extra = next((i for i, n in enumerate(names, 1) if n and i > count), None)
        if extra is not None:
            raise FormError(_("Seat %(number)s has a name, but the table has only %(count)s "
                              "seats: add seats or clear that name", number=extra, count=count))
        names = (names + [None] * count)[:count]
        allow_phone_names = form.get("phone_names") == "on"
        blank = next((i for i, n in enumerate(names, 1) if n is None), None)
        if blank is not None and not allow_phone_names:
            raise FormError(_("Seat %(number)s has no name: type every player's name, or tick "
                              "\u201cplayers type their own names\u201d", number=blank))
        twice = first_duplicate(names)
        if twice is not None:
            raise FormError(_("Two seats are called %(name)s: give each player their own name",
                              name=twice))
        dealer_choice = form.get("dealer", "random")
        dealer = (None if dealer_choice == "random"
                  else whole_number(dealer_choice, _l("The first dealer's seat"), 1, count))
    except FormError as error:
        return _form_page(form, error=str(error), status=400)
    # The recovery code's slow hash, before the first statement, with the gate's place
    # given up: the other tables' taps go on meanwhile.
    made = set_aside(changes.new_recovery)
    table, key, recovery = changes.create_table(
        name=name, game=flow.name, names=names, allow_phone_names=allow_phone_names,
        first_dealer=dealer, unit=starting_unit(flow.default_unit), recovery=made)
    remember_keeper(table, key, recovery)  # (the cookie goes with the answer, after the commit)
    return redirect(url_for("tables.keeper", code=table.code), code=303)


@bp.get("/t/<code>")
@wrong_codes
def keeper(code: str):
    """The scorekeeper's big screen: the round, the scores, the join QR, the seats."""
    table = find_table(code)
    if not is_keeper(table):
        # The one page a lost scorekeeper lands on: say how to get the table back.
        return render_template(
            "error.html", code=403, title=_("Not the scorekeeper's screen"),
            message=_("This device does not run this table. If you are its scorekeeper on a "
                      "new device, take it over with the recovery code."),
            links=[(url_for("home.recover", code=table.code), _("Take over this table")),
                   (url_for("seats.join", code=table.code), _("Take a seat instead"))]), 403
    url = join_url(table)
    recovery = recovery_code(table)
    # A table on this device shows no join code (no phone reaches it): no QR to draw.
    qr = None if current_app.config.get("OFFLINE") else qr_svg(url)
    return TABLET.draw(table, join_url=url, qr=qr, spaced_code=spaced(table.code),
                       recovery=spaced(recovery) if recovery else None,
                       new_recovery=bool(request.args.get("new_recovery")),
                       moved=bool(request.args.get("moved")), move=_move(table))


def _move(table: Table) -> dict[str, str] | None:
    """On a table on this device (``OFFLINE``): where its evening's record is (in this
    browser's app) and the server's import page it goes to (the same origin, outside the
    app's mount), for the "Move this table to the server" button; None on a server."""
    if not current_app.config.get("OFFLINE"):
        return None
    mount = request.script_root
    server_import = url_for("records.import_page")
    if mount and server_import.startswith(mount + "/"):
        server_import = server_import[len(mount):]
    return {"record": url_for("ledger.record", code=table.code,
                              number=evenings.current_evening(table).number),
            "server": server_import}


def _keeper_table(code: str) -> Table:
    table = find_table(code)
    require_keeper(table)
    return table


def _seat(table: Table, position: int) -> Seat:
    seat = table.seat_at(position)
    if seat is None:
        abort(400, _("There is no seat %(number)s at this table.", number=position))
    return seat


WHILE_PLAYING = {
    "move": _l("Seats can be moved only between games: game %(number)s is being played."),
    "name": _l("Names can be changed only between games: game %(number)s is being played."),
    "next": _l("The next game can be chosen only between games: game %(number)s is being "
               "played."),
    "add": _l("Seats can be added only between games: game %(number)s is being played."),
    "remove": _l("Seats can be taken away only between games: game %(number)s is being "
                 "played."),
    "dealer": _l("The first dealer can be chosen only between games: game %(number)s is "
                 "being played."),
}
"""What a change of the seats says while a game is being played, by the change (each a whole
sentence, for the translators)."""


def _not_while_playing(table: Table, what: str) -> None:
    """Refuse (409) change ``what`` (a key of :data:`WHILE_PLAYING`) while a game is played."""
    if table.playing is not None:
        abort(409, str(WHILE_PLAYING[what]) % {"number": table.playing.number})


@bp.post("/t/<code>/seats/<int:position>/move")
@table_action
def move_seat(table: Table, position: int):
    """Move a seat one place up (counter-clockwise) or down (clockwise) before the game."""
    seat = _seat(table, position)
    _not_while_playing(table, "move")
    direction = request.form.get("direction")
    if direction not in ("up", "down"):
        abort(400, _("Move a seat up or down."))
    other = table.seat_at(position - 1 if direction == "up" else position + 1)
    if other is None:
        abort(400, _("Seat %(number)s is already first.", number=position) if direction == "up"
              else _("Seat %(number)s is already last.", number=position))
    changes.move_seat(table, seat, other)


def _rename_page(table: Table, seat: Seat, value: str, error: str | None = None,
                 status: int = 200):
    return render_template("tables/rename.html", table=table, seat=seat, value=value,
                           error=error), status


@bp.get("/t/<code>/seats/<int:position>/name")
@wrong_codes
def rename_seat_page(code: str, position: int):
    """The form that names (or renames) a seat's player before the game starts."""
    table = _keeper_table(code)
    seat = _seat(table, position)
    _not_while_playing(table, "name")
    return _rename_page(table, seat, seat.name or "")


@bp.post("/t/<code>/seats/<int:position>/name")
@table_action
def rename_seat(table: Table, position: int):
    """Name (or rename) a seat's player before the game starts."""
    seat = _seat(table, position)
    _not_while_playing(table, "name")
    typed = request.form.get("name", "")
    try:
        name = clean_name(typed, _l("The name"))
        if name is None and not table.allow_phone_names:
            raise FormError(_("The name is empty: type one"))
        clash = seat_called(table.seats, name, other_than=seat)
        if clash is not None:
            raise FormError(_("Seat %(number)s is already called %(name)s", number=clash.position,
                              name=clash.name))
    except FormError as error:
        return _rename_page(table, seat, typed[:80], str(error), 400)
    changes.rename_seat(table, seat, name)
    return None


@bp.post("/t/<code>/next-game")
@table_action
def next_game(table: Table):
    """Choose the game the table plays next: between games, any of the games."""
    _not_while_playing(table, "next")
    try:
        flow = _check_game(request.form.get("game"))
    except FormError as error:
        abort(400, f"{error}.")
    changes.set_game(table, flow.name)


@bp.post("/t/<code>/seats/add")
@table_action
def add_seat(table: Table):
    """Add a seat for one more player (between games)."""
    _not_while_playing(table, "add")
    if len(table.seats) >= MAX_SEATS:
        abort(409, _("A table has at most %(most)s seats.", most=MAX_SEATS))
    changes.add_seat(table)


@bp.post("/t/<code>/seats/<int:position>/remove")
@table_action
def remove_seat(table: Table, position: int):
    """Take a seat away (between games): its player sits out the next game."""
    seat = _seat(table, position)
    _not_while_playing(table, "remove")
    if len(table.seats) <= 1:
        abort(409, _("A table keeps at least one seat."))
    changes.remove_seat(table, seat)


@bp.post("/t/<code>/seats/<int:position>/free")
@table_action
def free_seat(table: Table, position: int):
    """Take a seat away from the phone that holds it (it can be claimed again)."""
    seat = _seat(table, position)
    if not seat.held:
        abort(409, _("Seat %(number)s is already free.", number=position))
    changes.free_seat(table, seat)


@bp.post("/t/<code>/dealer")
@table_action
def dealer(table: Table):
    """Choose who deals first, or draw a seat at random."""
    _not_while_playing(table, "dealer")
    choice = request.form.get("dealer", "")
    try:
        position = (None if choice == "random" else
                    whole_number(choice, _l("The first dealer's seat"), 1, len(table.seats)))
    except FormError as error:
        abort(400, f"{error}.")
    changes.set_first_dealer(table, position)


def _start_page(table: Table, flow: GameFlow, *, form=None, error: str | None = None,
                status: int = 200):
    return render_template("games/start.html", table=table, flow=flow,
                           problems=start_problems(table), error=error,
                           **flow.options_values(table, form)), status


@bp.get("/t/<code>/start")
@wrong_codes
def start_page(code: str):
    """The game's options, before it starts."""
    table = _keeper_table(code)
    return _start_page(table, flow_for(table.game))


@bp.post("/t/<code>/start")
@table_action
def start(table: Table):
    """Start a game with the seats as they are and the options chosen."""
    flow = flow_for(table.game)
    problems = start_problems(table)
    if problems:
        if flow.options_template is None:
            abort(409, " ".join(problems))
        return _start_page(table, flow, form=request.form, error=" ".join(problems),
                           status=409)
    try:
        options, unit = flow.read_options(table, request.form)
        if unit is not None:
            changes.set_unit(table, unit)
        game = changes.start_game(table, options=options)
        flow.replay(game.record())
    except (FormError, RuleError) as error:
        return _start_page(table, flow, form=request.form,
                           error=sentence(error, full_stop=False), status=400)
    flow.started(game)
    return None


@bp.post("/t/<code>/games/<int:number>/end")
@table_action
def end_game(table: Table, number: int):
    """Close the game being played; its record stays, and the table may start another
    (``game``, when sent: the game it plays next, chosen in the same step)."""
    game = db.session.scalar(queries.game_number(table.id, number))
    if game is None:
        abort(404, _("This table has no game %(number)s.", number=number))
    if table.playing is not game:
        abort(409, _("Game %(number)s is already over.", number=number))
    following = None
    if "game" in request.form:
        try:
            following = _check_game(request.form.get("game"))
        except FormError as error:
            abort(400, f"{error}.")
    changes.end_game(table, game, ENDED)
    if following is not None:
        changes.set_game(table, following.name)


@bp.post("/t/<code>/requests/<int:request_id>/<any(approve, deny):answer>")
@table_action
def answer_request(table: Table, request_id: int, answer: str):
    """Approve (the asking phone gets the seat) or deny a phone's request for a seat.

    A request that lapsed meanwhile (the phone took another seat) is taken
    off the list and the tablet shows the seats as they are. A name the phone
    typed for a seat without one must still be nobody else's.
    """
    asked = db.session.get(SeatRequest, request_id)
    if asked is None or asked.table_id != table.id:
        abort(400, _("There is no such request at this table."))
    if asked.status != PENDING:
        abort(409, _("That request was already answered, or that phone has taken another "
                     "seat meanwhile."))
    if answer == "approve" and asked.name and asked.seat.name is None:
        clash = seat_called(table.seats, asked.name)
        if clash is not None:
            abort(409, _("Someone at this table is already called %(name)s: deny this "
                         "request, and the phone can ask again with an initial added.",
                         name=clash.name))
    changes.answer_request(table, asked, approve=answer == "approve")


# --------------------------------------------------------------------------- the tablet's live page


def start_problems(table: Table) -> list[str]:
    """What stops the table from starting a game now (empty: ready)."""
    problems = []
    if table.playing is not None:
        problems.append(_("Game %(number)s is being played.", number=table.playing.number))
    unnamed = [str(seat.position) for seat in table.seats if not seat.name]
    if unnamed:
        which = ", ".join(unnamed)
        problems.append(ngettext("Seat %(which)s has no name yet.",
                                 "Seats %(which)s have no name yet.", len(unnamed), which=which))
    try:
        flow_for(table.game).check_player_count(len(table.seats))
    except FormError as error:
        problems.append(f"{error}.")
    return problems


TABLET = live_page("tablet", "tables/keeper.html", "pulse.keeper", current_game)
"""The scorekeeper's big screen: the round, the scoreboard, the game, the seats, the requests
(its regions: its template's)."""


@live_region("seats", "tables/_keeper.html", "p")
def seats_context(screen: Screen) -> dict[str, Any]:
    """What the scorekeeper's seats region shows: seats, the dealer, the start, the next
    game."""
    table = screen.table
    dealer = table.seat_at(table.first_dealer) if table.first_dealer else None
    return {
        "games": list(flows().values()),
        "next_flow": flow_for(table.game),
        "dealer": dealer,
        "problems": start_problems(table),
        "seats_fixed": table.playing is not None,
        "max_seats": MAX_SEATS,
    }


@live_region("requests", "tables/_requests.html", "p")
def requests_context(screen: Screen) -> dict[str, Any]:
    """What the requests region shows: the phones asking for a seat, at the top of the
    tablet."""
    return {"requests": db.session.scalars(queries.pending_requests(screen.table.id)).all()}


@live_region("game-area", "tables/_game_area.html", "s")
def game_area_context(screen: Screen) -> dict[str, Any]:
    """What the tablet's game panel shows: the game's links and, while it is under way,
    ending it."""
    return {"game": screen.table.current_game, "view": screen.view}
