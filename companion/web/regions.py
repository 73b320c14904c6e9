"""The live regions, declared once (:data:`REGIONS`), and the pulse answer that carries them.

A region is a part of a page that follows the table live, swapped in by its ``id``: its
name, its template, what it is made from (the stamp that changes when it must be drawn
again: ``v`` the table's version, ``s`` the scoreboard's, ``p`` the seats', ``g`` the
game the header names) and the pages that show it. Each page that follows the table
(:data:`PAGES`: the tablet, a phone's seat page, a game's score page, the join page)
says once how its context is made; a page's pulse answer (:func:`pulse_answer`, one
template: ``_pulse.html``) carries its regions whose stamp changed. The round regions
are generic wrappers (their ``id``, ``data-phase``) around what the game's flow draws
inside them, from the flow's :class:`~companion.web.flow.View` of the moment.

A new live region is one line in :data:`REGIONS` and its template.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from flask import render_template, request, url_for

from ..extensions import db
from ..live import at_version
from ..store import Game, Seat, SeatRequest, Table, queries
from .flow import GameFlow, View, flow_for, flows
from .roles import Phone, is_keeper, phone


def table_flow(table: Table) -> GameFlow:
    """The flow of the table's current game (or of the game the table plays next)."""
    game = table.current_game
    return flow_for(game.game if game is not None else table.game)


def named_game(table: Table) -> GameFlow:
    """The game a page's header names: the one the table is playing, or, between games, the
    one it plays next (so every screen's header follows the table on to its next game)."""
    playing = table.playing
    return flow_for(playing.game if playing is not None else table.game)


def round_context(table: Table, *, keeper: bool, me: Phone | None = None) -> dict[str, Any]:
    """What a round region shows: the flow's view of the current game for this screen."""
    game = table.current_game
    flow = table_flow(table)
    name = me.seat.name if me is not None and me.seat is not None else None
    view = flow.moment(table, game, None if keeper else name) if game is not None else None
    context = {"table": table, "game": game, "flow": flow, "view": view, "keeper": keeper,
               "me": name, "named": named_game(table)}
    if keeper:  # once the game is over, the next one is chosen at the top of the round
        context |= {"next_games": list(flows().values()), "next_flow": flow_for(table.game)}
    return context


def tablet_region(table: Table, *, error: str | None = None) -> str:
    """The scorekeeper's round region, rendered (with a refusal on top, if any)."""
    return render_template("rounds/_tablet.html", error=error,
                           **round_context(table, keeper=True))


def phone_region(table: Table, *, error: str | None = None) -> str:
    """This phone's round region, rendered (with a refusal on top, if any)."""
    return render_template("rounds/_phone.html", error=error,
                           **round_context(table, keeper=False, me=phone(table)))


# --------------------------------------------------------------------------- the regions


@dataclass(frozen=True)
class Region:
    """A live region: swapped in by its ``id`` whenever what it is made from changed."""

    name: str
    template: str
    made_from: str
    """The stamp that changes when it must be drawn again (``v``: every change; the round,
    carried by every answer; ``g``: the game the page names, with the table's name)."""
    pages: frozenset[str]
    """The pages that show it (names of :data:`PAGES`)."""

    @property
    def every_answer(self) -> bool:
        """True for the round: drawn again on every answer (every change changes it), in
        place when the answer is a tap's on its page."""
        return self.made_from == "v"


REGIONS: tuple[Region, ...] = (
    Region("round", "rounds/_tablet.html", "v", frozenset({"tablet"})),
    Region("round", "rounds/_phone.html", "v", frozenset({"phone"})),
    Region("bar", "_bar.html", "g", frozenset({"tablet", "phone"})),
    Region("join-game", "seats/_join_game.html", "g", frozenset({"join"})),
    Region("you", "seats/_you.html", "p", frozenset({"phone"})),
    Region("scoreboard", "games/_scoreboard_region.html", "s",
           frozenset({"tablet", "phone", "game"})),
    Region("game-area", "tables/_game_area.html", "s", frozenset({"tablet"})),
    Region("requests", "tables/_requests.html", "p", frozenset({"tablet"})),
    Region("seats", "tables/_keeper.html", "p", frozenset({"tablet"})),
    Region("join", "seats/_join.html", "p", frozenset({"join"})),
)
"""Every live region, in the order a pulse answer carries them."""

PageContext = Callable[..., dict[str, Any]]
"""What a live page shows, from the table: ``context(table, pulse=…, **values)``."""

PAGES: dict[str, PageContext] = {}
"""The live pages, by name: how each one's context is made (each page says it: :func:`page`)."""


def page(name: str) -> Callable[[PageContext], PageContext]:
    """Make a function the context of live page ``name`` (what its regions are drawn from)."""

    def register(context: PageContext) -> PageContext:
        PAGES[name] = context
        return context

    return register


def pulse_answer(name: str, table: Table, *, round_oob: bool = True, error: str | None = None,
                 **values: Any) -> str:
    """Page ``name``'s pulse answer: its pulse again and its regions that changed (the round
    in place, not by id, when it answers a tap on the page: ``round_oob`` False; with
    ``error``, a refusal on top of the round)."""
    context = PAGES[name](table, pulse=True, **values) | {"round_oob": round_oob}
    return render_template("_pulse.html", **context, error=error,
                           regions=[r for r in REGIONS if name in r.pages])


def tap_answer(table: Table, *, keeper: bool, error: str | None = None) -> str:
    """The answer to an htmx tap: the round region in place and, when the tap said what its
    page shows (the tablet's or the phone's page), that page's pulse answer around it (the
    other regions that changed, and the new pulse), so the page needs no poll to catch up.

    A refusal (``error`` on top of the round) is answered the same way: had it brought the
    round alone, the page, still behind the change that made the tap too late (another
    screen's), would poll at once and draw the round again without the message."""
    page_now = page_pulse()
    own = url_for("pulse.keeper" if keeper else "pulse.seat", code=table.code)
    if page_now is not None and page_now[0] == own:  # the round goes in place: the tap's target
        return pulse_answer("tablet" if keeper else "phone", table, round_oob=False,
                            error=error)
    return (tablet_region(table, error=error) if keeper
            else phone_region(table, error=error))


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


def game_stamp(table: Table) -> str:
    """The stamp of what a header names: the table's name and the game it plays."""
    return stamp(table.name, named_game(table).name)


def stamps(table: Table, game: Game | None, me: Phone | None = None) -> dict[str, Any]:
    """What a page shows now, as its pulse carries it."""
    return {"v": table.version, "s": score_stamp(table, game), "p": seats_stamp(table, me),
            "g": game_stamp(table)}


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
                               "pulse_events": url_for("streams.events", code=table.code)}
    if pulse:
        shown = shown_stamps()
        context |= {"oob": True, "round_oob": True,
                    "changed": {key for key, value in now.items()
                                if shown.get(key) != str(value)}}
    return context


def wanted(context: dict[str, Any], stamp_key: str) -> bool:
    """Whether a page (or a pulse answer) shows the region of this stamp."""
    return "changed" not in context or stamp_key in context["changed"]


def scoreboard_region(table: Table, game: Game | None, live_url: str) -> str:
    """The scoreboard region, rendered."""
    return render_template("games/_scoreboard_region.html",
                           **scoreboard_context(table, game, live_url))
