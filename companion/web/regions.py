"""The live regions: each one object that draws a part of a page, first and again.

A region is a part of a page that follows the table live, swapped in by its ``id``. Each
is one :class:`Region`, declared where its page's module says what it shows
(:func:`live_region`): its name, its template, its stamp (what it is made from: ``v`` the
table's version, ``s`` the scoreboard's, ``p`` the seats', ``g`` the game the header
names; :data:`STAMPS`) and its context, made from the :class:`Screen` that shows it. The
same object draws the page's first paint and every update (:meth:`Region.draw`).

A page that follows the table (a :class:`LivePage`: the tablet, a phone's seat page, a
game's score page, the join page) includes its regions by name in its template
(``{{ region("scoreboard") }}``), and that is how its pulse knows them: a pulse answer
(:func:`pulse_answer`, one template: ``_pulse.html``) carries the page's regions whose
stamp changed, read from the page's template (:func:`regions_of`), the round first. The
round regions are generic wrappers (their ``id``, ``data-phase``) around what the game's
flow draws inside them, from the flow's :class:`~companion.web.flow.View` of the moment.

A new live region is its template, a :func:`live_region` for its context, and
``{{ region("name") }}`` in each page that shows it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qs

from flask import Flask, current_app, render_template, request, url_for
from jinja2 import nodes, pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from ..extensions import db
from ..live import at_version
from ..store import Game, Seat, SeatRequest, Table, queries
from .flow import GameFlow, View, flow_for, flows
from .roles import Phone, phone


def table_flow(table: Table) -> GameFlow:
    """The flow of the table's current game (or of the game the table plays next)."""
    game = table.current_game
    return flow_for(game.game if game is not None else table.game)


def named_game(table: Table) -> GameFlow:
    """The game a page's header names: the one the table is playing, or, between games, the
    one it plays next (so every screen's header follows the table on to its next game)."""
    playing = table.playing
    return flow_for(playing.game if playing is not None else table.game)


# --------------------------------------------------------------------------- a screen


@dataclass(eq=False)
class Screen:
    """One device's live page at a table, as its regions are drawn from it: made once per
    answer, and what its regions share (the moment of the game) made once for all of them."""

    table: Table
    page: str
    """The page's name (:data:`PAGES`)."""
    game: Game | None
    """The game whose scores the page shows."""
    phone: Phone | None
    """This phone's standing (its seat, its request), on a page that shows it."""
    error: str | None = None
    """A refusal, on top of the round (a tap's answer)."""
    moments: dict[tuple[int, str | None], View] = field(default_factory=dict)
    """The moments of the games made for this answer, by (game id, the player seeing it)."""

    @property
    def keeper(self) -> bool:
        """True on the scorekeeper's big screen."""
        return self.page == "tablet"

    @property
    def player(self) -> str | None:
        """The player this screen's round is drawn for (None: the tablet's, or nobody's)."""
        seat = self.phone.seat if self.phone is not None else None
        return seat.name if seat is not None and not self.keeper else None

    def moment(self, game: Game, player: str | None) -> View:
        """The flow's moment of ``game`` for ``player``'s screen, made once per answer."""
        key = (game.id, player)
        if key not in self.moments:
            self.moments[key] = flow_for(game.game).moment(self.table, game, player)
        return self.moments[key]

    @property
    def view(self) -> View | None:
        """This screen's moment of the table's current game (what its round shows)."""
        game = self.table.current_game
        return self.moment(game, self.player) if game is not None else None

    def stamps(self) -> dict[str, Any]:
        """What the page shows now, as its pulse carries it (:data:`STAMPS`)."""
        return {key: made(self) for key, made in STAMPS.items()}


# --------------------------------------------------------------------------- the regions


RegionContext = Callable[[Screen], dict[str, Any]]
"""What a region shows, made from the screen that shows it."""


@dataclass(frozen=True)
class Region:
    """A live region: its template, drawn from its context, and swapped in by its ``id``
    whenever its stamp changed."""

    name: str
    """How a page includes it (``{{ region(name) }}``)."""
    template: str
    stamp: str
    """The stamp that changes when it must be drawn again (a key of :data:`STAMPS`; ``v``:
    every change: the round, carried by every answer)."""
    context: RegionContext

    @property
    def every_answer(self) -> bool:
        """True for the round: drawn again on every answer (every change changes it), in
        place when the answer is a tap's on its page."""
        return self.stamp == "v"

    def draw(self, screen: Screen, *, oob: bool = False) -> Markup:
        """The region, drawn for ``screen``: in its page (the first paint), or out of band
        (``oob``: swapped in by its id, in a pulse answer)."""
        context = {"table": screen.table, **self.context(screen), "oob": oob}
        return Markup(render_template(self.template, **context))


REGIONS: dict[str, Region] = {}
"""Every live region, by name (each declared by :func:`live_region`)."""


def live_region(name: str, template: str, stamp: str) -> Callable[[RegionContext],
                                                                  RegionContext]:
    """Make a function the context of live region ``name``: drawn with ``template``, again
    whenever stamp ``stamp`` changed."""
    if stamp not in STAMPS:
        raise ValueError(f"region {name!r}: no stamp {stamp!r}")

    def register(context: RegionContext) -> RegionContext:
        REGIONS[name] = Region(name, template, stamp, context)
        return context

    return register


# --------------------------------------------------------------------------- the stamps


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


STAMPS: dict[str, Callable[[Screen], Any]] = {
    "v": lambda screen: screen.table.version,
    "s": lambda screen: score_stamp(screen.table, screen.game),
    "p": lambda screen: seats_stamp(screen.table, screen.phone),
    "g": lambda screen: game_stamp(screen.table),
}
"""Each stamp a pulse carries (in its URL, in this order), made from the screen."""


# --------------------------------------------------------------------------- the live pages


@dataclass(frozen=True)
class LivePage:
    """A page that follows the table live: its template, its pulse, and what its screen
    shows (the game of its scores; whether it shows this phone's standing)."""

    name: str
    template: str
    pulse: str
    """Its pulse's endpoint (:mod:`companion.web.pulse`), given the page's values."""
    game: Callable[..., Game | None]
    """The game whose scores it shows: ``game(table, **values)``."""
    shows_phone: bool = False

    def screen(self, table: Table, *, error: str | None = None, **values: Any) -> Screen:
        """This device's screen of the page."""
        return Screen(table, self.name, self.game(table, **values),
                      phone(table) if self.shows_phone else None, error)

    def context(self, screen: Screen, *, pulse: bool = False, **values: Any) -> dict[str, Any]:
        """What the page's template is drawn from: the screen (its regions draw from it),
        the table, the game its header names, and its pulse (for a pulse answer, ``pulse``:
        with the stamps that changed since the ones the page shows)."""
        table = screen.table
        now = screen.stamps()
        context: dict[str, Any] = {
            "screen": screen, "table": table, "named": named_game(table),
            "pulse_url": url_for(self.pulse, code=table.code, **values), "pulse_stamps": now,
            # (a table on this device has no event stream: its one screen's taps say all)
            "pulse_events": "" if current_app.config.get("OFFLINE")
            else url_for("streams.events", code=table.code)}
        if pulse:
            shown = shown_stamps()
            context["changed"] = {key for key, value in now.items()
                                  if shown.get(key) != str(value)}
        return context

    def draw(self, table: Table, *, values: Mapping[str, Any] | None = None,
             **extra: Any) -> str:
        """The whole page, first painted (its pulse named with ``values``; ``extra``: what
        its template shows besides its regions)."""
        values = dict(values or {})
        screen = self.screen(table, error=None, **values)
        return render_template(self.template, **self.context(screen, **values), **extra)


PAGES: dict[str, LivePage] = {}
"""The live pages, by name (each declared by :func:`live_page`, with its page's views)."""


def live_page(name: str, template: str, pulse: str, game: Callable[..., Game | None], *,
              shows_phone: bool = False) -> LivePage:
    """Declare live page ``name`` (see :class:`LivePage`)."""
    PAGES[name] = LivePage(name, template, pulse, game, shows_phone)
    return PAGES[name]


def current_game(table: Table, **_values: Any) -> Game | None:
    """The game a page about the table now shows the scores of: the current one."""
    return table.current_game


@lru_cache(maxsize=32)
def _region_names(source: str) -> tuple[str, ...]:
    tree = current_app.jinja_env.parse(source)
    return tuple(call.args[0].value for call in tree.find_all(nodes.Call)
                 if isinstance(call.node, nodes.Name) and call.node.name == "region"
                 and call.args and isinstance(call.args[0], nodes.Const))


def regions_of(template: str) -> tuple[Region, ...]:
    """The regions a page's template includes (``region("name")``), in its order."""
    env = current_app.jinja_env
    source = env.loader.get_source(env, template)[0]  # type: ignore[union-attr]
    return tuple(REGIONS[name] for name in _region_names(source))


@pass_context
def region(context: Context, name: str) -> Markup:
    """A page's region ``name``, drawn for the page's screen (the templates' ``region``)."""
    return REGIONS[name].draw(context["screen"])


def register(app: Flask) -> None:
    """Give the templates ``region(name)``: a live region of the page, by name."""
    app.jinja_env.globals["region"] = region


# --------------------------------------------------------------------------- the answers


def pulse_answer(name: str, table: Table, *, round_oob: bool = True, error: str | None = None,
                 **values: Any) -> str:
    """Page ``name``'s pulse answer: its pulse again, its round, and its other regions that
    changed, in the order the page shows them (the round in place, not by id, when it
    answers a tap on the page: ``round_oob`` False; with ``error``, a refusal on top of the
    round)."""
    page = PAGES[name]
    screen = page.screen(table, error=error, **values)
    context = page.context(screen, pulse=True, **values)
    shown = regions_of(page.template)
    drawn = [part.draw(screen, oob=round_oob) for part in shown if part.every_answer]
    drawn += [part.draw(screen, oob=True) for part in shown
              if not part.every_answer and part.stamp in context["changed"]]
    return render_template("_pulse.html", **context, regions=drawn)


def tap_answer(table: Table, *, keeper: bool, error: str | None = None) -> str:
    """The answer to an htmx tap: the round region in place and, when the tap said what its
    page shows (the tablet's or the phone's page), that page's pulse answer around it (the
    other regions that changed, and the new pulse), so the page needs no poll to catch up.

    A refusal (``error`` on top of the round) is answered the same way: had it brought the
    round alone, the page, still behind the change that made the tap too late (another
    screen's), would poll at once and draw the round again without the message."""
    name = "tablet" if keeper else "phone"
    page_now = page_pulse()
    own = url_for(PAGES[name].pulse, code=table.code)
    if page_now is not None and page_now[0] == own:  # the round goes in place: the tap's target
        return pulse_answer(name, table, round_oob=False, error=error)
    return REGIONS[f"{name}-round"].draw(PAGES[name].screen(table, error=error))


PULSE_HEADER = "X-Companion-Pulse"
"""What a page shows, sent by static/app/sync-page.js with each of its taps: its #pulse's
URL (path and stamps)."""


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


# --------------------------------------------------------------------------- the generic regions


def round_context(screen: Screen) -> dict[str, Any]:
    """What a round region shows: the flow's view of the current game for this screen."""
    table = screen.table
    context = {"game": table.current_game, "flow": table_flow(table), "view": screen.view,
               "keeper": screen.keeper, "me": screen.player, "named": named_game(table),
               "error": screen.error}
    if screen.keeper:  # once the game is over, the next one is chosen at the top of the round
        context |= {"next_games": list(flows().values()), "next_flow": flow_for(table.game)}
    return context


live_region("tablet-round", "rounds/_tablet.html", "v")(round_context)
live_region("phone-round", "rounds/_phone.html", "v")(round_context)


@live_region("bar", "_bar.html", "g")
def header_context(screen: Screen) -> dict[str, Any]:
    """What the header shows: the table and the game it plays (the tablet's is its heading)."""
    return {"named": named_game(screen.table), "keeper": screen.keeper}
