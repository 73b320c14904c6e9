"""The live regions every game shares: the tablet's round, a phone's round, the scoreboard.

Each region is a generic wrapper (its ``id``, its live polling, its
``data-phase``) around what the game's flow draws inside it, from the
flow's :class:`~companion.web.flow.View` of the moment.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qs

from flask import render_template, request, url_for

from ..extensions import db
from ..live import at_version
from ..store import Game, Seat, SeatRequest, Table, queries
from .flow import GameFlow, View, flow_for, flows
from .forms import FormError
from .roles import Phone, is_keeper, phone, welcome_back


def table_flow(table: Table) -> GameFlow:
    """The flow of the table's current game (or of the game the table plays next)."""
    game = table.current_game
    return flow_for(game.game if game is not None else table.game)


def round_context(table: Table, *, keeper: bool, me: Phone | None = None) -> dict[str, Any]:
    """What a round region shows: the flow's view of the current game for this screen."""
    game = table.current_game
    flow = table_flow(table)
    name = me.seat.name if me is not None and me.seat is not None else None
    view = flow.moment(table, game, None if keeper else name) if game is not None else None
    return {"table": table, "game": game, "flow": flow, "view": view, "keeper": keeper,
            "me": name}


def tablet_region(table: Table, *, error: str | None = None) -> str:
    """The scorekeeper's round region, rendered (with a refusal on top, if any)."""
    return render_template("rounds/_tablet.html", error=error,
                           **round_context(table, keeper=True))


def phone_region(table: Table, *, error: str | None = None) -> str:
    """This phone's round region, rendered (with a refusal on top, if any)."""
    return render_template("rounds/_phone.html", error=error,
                           **round_context(table, keeper=False, me=phone(table)))


def tablet_pulse(table: Table, **extra: object) -> str:
    """The tablet's pulse answer: its round, and the scoreboard and seats if they changed."""
    return render_template("tables/_pulse.html", **keeper_context(table, pulse=True) | extra)


def phone_pulse(table: Table, **extra: object) -> str:
    """A phone's pulse answer: its round, and its seat and the scoreboard if they changed."""
    return render_template("seats/_pulse.html",
                           **seat_context(table, phone(table), pulse=True) | extra)


def tap_answer(table: Table, *, keeper: bool) -> str:
    """The answer to an htmx tap: the round region in place and, when the tap said what its
    page shows (the tablet's or the phone's page), that page's pulse answer around it (the
    other regions that changed, and the new pulse), so the page needs no poll to catch up."""
    page = page_pulse()
    own = url_for("pulse.keeper" if keeper else "pulse.seat", code=table.code)
    if page is not None and page[0] == own:  # the round goes in place: the tap's own target
        return (tablet_pulse if keeper else phone_pulse)(table, round_oob=False)
    return tablet_region(table) if keeper else phone_region(table)


def scoreboard_context(table: Table, game: Game | None, live_url: str, *,
                       view: View | None = None) -> dict[str, Any]:
    """What the scoreboard region shows, for this device (its own line highlighted).

    ``view``: this device's moment, when the page has it already (its round region's).
    """
    flow = flow_for(game.game) if game is not None else table_flow(table)
    keeper = is_keeper(table)
    me = None if keeper else phone(table)
    name = me.seat.name if me is not None and me.seat is not None else None
    return {"flow": flow, "live_url": live_url,
            **flow.scoreboard(table, game, me=name, keeper=keeper, view=view)}


def current_scoreboard_context(table: Table, *, view: View | None = None) -> dict[str, Any]:
    """The scoreboard of the table's current game, as the seat and tablet pages show it."""
    return scoreboard_context(table, table.current_game,
                              url_for("games.current_scoreboard", code=table.code), view=view)


SCORE_FROM = frozenset({Table.__tablename__, Game.__tablename__})
"""The database tables the scoreboard's stamp is made from."""

SEATS_FROM = frozenset({Table.__tablename__, Game.__tablename__, Seat.__tablename__,
                        SeatRequest.__tablename__})
"""The database tables the seats' stamp is made from."""


def stamp(*parts: Any) -> str:
    """A short digest of what a region shows: it changes when they change."""
    text = json.dumps(parts, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def score_stamp(table: Table, game: Game | None) -> str:
    """The scoreboard's stamp: the game's record, its status and the table's money unit."""
    if game is None:
        return stamp(None)
    return at_version(table, ("score", game.id),
                      lambda: stamp(game.id, game.status, table.unit, game.record()), SCORE_FROM)


def _table_seats_stamp(table: Table) -> str:
    """The seats' stamp as every screen sees them (a phone adds its own standing); whether
    the table has started a game (a free seat is then asked for)."""
    asking = [(r.id, r.seat_id) for r in db.session.scalars(queries.pending_requests(table.id))]
    playing = table.playing
    return stamp([(s.position, s.name, s.held) for s in table.seats], asking, table.first_dealer,
                 table.dealer_drawn, playing.number if playing else None, table.started)


def seats_stamp(table: Table, me: Phone | None = None) -> str:
    """The seats' stamp: who sits where, who holds a seat, who asks, who deals first, and
    where this phone stands."""
    seats = at_version(table, "seats", lambda: _table_seats_stamp(table), SEATS_FROM)
    if me is None:
        return seats
    return stamp(seats, me.seat.id if me.seat else None,
                 (me.request.id, me.request.status) if me.request else None, me.known)


def stamps(table: Table, game: Game | None, me: Phone | None = None) -> dict[str, Any]:
    """What a page shows now, as its pulse carries it."""
    return {"v": table.version, "s": score_stamp(table, game), "p": seats_stamp(table, me)}


PULSE_HEADER = "X-Companion-Pulse"
"""What a page shows, sent by app.js with each of its taps: its #pulse's URL (path and stamps)."""


def page_pulse() -> tuple[str, dict[str, str]] | None:
    """The pulse of the page a tap came from (its path and stamps), if the tap said."""
    sent = request.headers.get(PULSE_HEADER, "")
    if not sent:
        return None
    path, _, query = sent[:500].partition("?")
    return path, {key: values[0] for key, values in parse_qs(query).items()}


def shown_stamps() -> Mapping[str, str]:
    """The stamps of what the page shows: a pulse's own query, or what a tap said."""
    if request.method == "GET":
        return request.args
    page = page_pulse()
    return page[1] if page is not None else {}


def pulse_context(table: Table, url: str, now: dict[str, Any], pulse: bool) -> dict[str, Any]:
    """A page's pulse (its URL and stamps, and the table's event stream that says when to
    poll it); for a pulse answer, also the stamps that changed since the ones the page
    shows (``changed``: the regions it carries)."""
    context: dict[str, Any] = {"pulse_url": url, "pulse_stamps": now,
                               "pulse_events": url_for("doorbell.events", code=table.code)}
    if pulse:
        shown = shown_stamps()
        context |= {"oob": True, "round_oob": True,
                    "changed": {key for key, value in now.items()
                                if shown.get(key) != str(value)}}
    return context


def wanted(context: dict[str, Any], stamp_key: str) -> bool:
    """Whether a page (or a pulse answer) shows the region of this stamp."""
    return "changed" not in context or stamp_key in context["changed"]


def start_problems(table: Table) -> list[str]:
    """What stops the table from starting a game now (empty: ready)."""
    problems = []
    if table.playing is not None:
        problems.append(f"Game {table.playing.number} is being played.")
    unnamed = [str(seat.position) for seat in table.seats if not seat.name]
    if unnamed:
        which = ", ".join(unnamed)
        problems.append(f"Seat{'s' if len(unnamed) > 1 else ''} {which} "
                        f"ha{'ve' if len(unnamed) > 1 else 's'} no name yet.")
    try:
        flow_for(table.game).check_player_count(len(table.seats))
    except FormError as error:
        problems.append(f"{error}.")
    return problems


def seats_context(table: Table) -> dict[str, Any]:
    """What the scorekeeper's seats region shows: seats, requests, the dealer, the start."""
    dealer = table.seat_at(table.first_dealer) if table.first_dealer else None
    return {
        "table": table,
        "games": list(flows().values()),
        "next_flow": flow_for(table.game),
        "requests": db.session.scalars(queries.pending_requests(table.id)).all(),
        "dealer": dealer,
        "problems": start_problems(table),
        "seats_fixed": table.playing is not None,
    }


def keeper_context(table: Table, *, pulse: bool = False) -> dict[str, Any]:
    """Everything the tablet's regions show (the round, the scoreboard, the seats), its pulse.

    For a pulse answer (``pulse``), the scoreboard and the seats only when they changed.
    """
    context = pulse_context(table, url_for("pulse.keeper", code=table.code),
                            stamps(table, table.current_game), pulse)
    rounds = round_context(table, keeper=True)
    if wanted(context, "s"):
        context |= current_scoreboard_context(table, view=rounds["view"])
    context |= rounds
    if wanted(context, "p"):
        context |= seats_context(table)
    return context | {"hide_empty": True}


def join_context(table: Table, *, pulse: bool = False, **extra: object) -> dict[str, Any]:
    """What the join page shows (the free seats, this phone's standing there), its pulse."""
    me = phone(table)
    again = welcome_back(table) if me.seat is None and not me.waiting else None
    return ({"table": table, "flow": table_flow(table), "me": me, "again": again, **extra}
            | pulse_context(table, url_for("pulse.join", code=table.code), stamps(table, None, me),
                            pulse))


def seat_context(table: Table, me: Phone, *, pulse: bool = False) -> dict[str, Any]:
    """Everything a phone's regions show (its seat, its round, the scoreboard), its pulse.

    For a pulse answer (``pulse``), the scoreboard only when it changed.
    """
    context = pulse_context(table, url_for("pulse.seat", code=table.code),
                            stamps(table, table.current_game, me), pulse)
    rounds = round_context(table, keeper=False, me=me)
    if wanted(context, "s"):
        context |= current_scoreboard_context(table, view=rounds["view"])
    return context | rounds | {"table": table, "flow": table_flow(table), "me": me}


def game_page_context(table: Table, number: int, *, pulse: bool = False) -> dict[str, Any]:
    """What a game's score page shows (its scoreboard), and its pulse."""
    game = db.session.scalar(queries.game_number(table.id, number))
    return (scoreboard_context(table, game, url_for("games.scoreboard", code=table.code,
                                                     number=number))
            | pulse_context(table, url_for("pulse.game", code=table.code, number=number),
                            stamps(table, game), pulse))


def scoreboard_region(table: Table, game: Game | None, live_url: str) -> str:
    """The scoreboard region, rendered."""
    return render_template("games/_scoreboard_region.html",
                           **scoreboard_context(table, game, live_url))
