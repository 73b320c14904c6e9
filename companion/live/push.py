"""Push: a screen's event stream brings its page's pulse answer, not only the news of it.

A page that follows a table live polls its pulse (:mod:`companion.web.pulse`) each time
its event stream (:mod:`companion.live.streams`) says a new version. When the page
opens its stream with its pulse's URL and an id of its own (``?page=…&pulse=…``,
``static/app/sync-page.js``), the stream makes that poll's answer itself, as the poll would have
it (the same view, with the page's cookie session, in the app's gate), and sends it::

    event: pulse
    data: <the pulse URL it answers: the page's, as the stream last knew it>
    data: <the answer, one line per data line>

The page swaps it in when it still shows what the answer starts from (its #pulse's URL
is that first line), and polls otherwise, as it did before: a screen hears a change and
has it in one message, and the server makes no request of it (the request's own work,
its rate-limit checks and its session: in process, a quarter of a phone's changed
poll at the start of a game, less later on; a phone's update needs no round trip
either).

A stream sends only the version, as before, when it cannot make the answer (the view
refused: the device is no longer the scorekeeper, the table is gone; or the page's
pulse was not given), and when the change came from its own page: a tap's answer
brings the page what changed (``X-Companion-Page`` on the tap, :func:`made_by`), and
the stream takes the page's new pulse URL from that answer.
"""

from __future__ import annotations

import html
import io
import logging
import re
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, Response, current_app, request, session
from flask.ctx import RequestContext
from flask.sessions import SessionMixin
from sqlalchemy import inspect
from sqlalchemy.orm.exc import DetachedInstanceError
from werkzeug.exceptions import HTTPException

from ..request_state import request_state
from ..store import Table
from ..store.codes import normalise_code
from .hooks import hooks
from .polls import GATE, VERSION

EVENT = "pulse"
"""The name of a stream's message that brings a pulse answer."""
PAGE_HEADER = "X-Companion-Page"
"""The page a tap comes from (its id, as it opened its stream)."""
PAGE_ID = re.compile(r"[0-9a-z]{8,32}")
"""A page's id: sync-page.js makes one at random for each page it shows."""
PULSE_URL = re.compile(r'<div id="pulse"[^>]*? hx-get="([^"]*)"')
"""The new pulse URL in a pulse answer (its #pulse, made by the ``pulse`` macro)."""
LONGEST_URL = 500
LINE_BREAK = re.compile(r"\r\n|\r|\n")
"""What ends a line of an event stream (each line of an answer is a data line)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Origin:
    """The page a change came from, and the pulse URL its tap's answer gave it."""

    page: str
    pulse: str | None
    version: int | None
    """The version that answer shows (None without one)."""


def pulse_url(answer: str) -> str | None:
    """The pulse URL a pulse answer leaves its page with (None: not a pulse answer)."""
    found = PULSE_URL.search(answer)
    return html.unescape(found.group(1)) if found else None


def version_of(url: str) -> int | None:
    """The table version a pulse URL says its page shows."""
    found = VERSION.search(url.partition("?")[2])
    return int(found.group(1)) if found else None


def made_by(response: Response) -> Origin | None:
    """The page an htmx tap came from (its ``X-Companion-Page``), and the pulse URL its
    answer gives that page, if it gives one."""
    page = request.headers.get(PAGE_HEADER, "")
    if not PAGE_ID.fullmatch(page):
        return None
    url = None
    if (request.headers.get("HX-Request") == "true" and response.status_code == 200
            and response.mimetype == "text/html" and not response.is_streamed):
        url = pulse_url(response.get_data(as_text=True))
    return Origin(page, url, version_of(url) if url else None)


@dataclass
class SharedTable:
    """The table as one of its streams' answers last loaded it: the table's other streams'
    answers to the same change start from it instead of looking the table up again (in
    process, the lookup was a third of a phone's answer on PostgreSQL).

    It is used only once the request that loaded it is over (its objects detached from
    their session: nothing loads into them any more) and only for the version it shows.
    An answer that needs what it did not load (:class:`DetachedInstanceError`) is made
    again by looking the table up.
    """

    table: Table | None = None

    def at(self, version: int) -> Table | None:
        """The table as last loaded, if it shows ``version`` and its request is over."""
        table = self.table
        if table is None or table.version != version or not inspect(table).detached:
            return None
        return table

    def keep(self, table: Table | None) -> None:
        """Keep the table an answer loaded (if it is newer than the one kept)."""
        if table is not None and (self.table is None or table.version >= self.table.version):
            self.table = table


@dataclass
class PagePush:
    """What a stream needs to make its page's pulse answer: the app, the stream's request
    (its cookie session), the page's id and the pulse URL the page shows."""

    app: Flask
    environ: dict[str, Any]
    session: SessionMixin
    page: str
    shown: str
    """The page's pulse URL, as the stream last knew it."""

    shared: SharedTable = field(default_factory=SharedTable)
    """The table's streams' shared lookup (the streams give each stream its table's)."""

    def follow(self, version: int, maker: Origin | None) -> str | None:
        """The message that brings the page version ``version`` (None: send the version
        only), ``maker`` being the page it came from when it is this stream's page."""
        if maker is not None and maker.page == self.page:
            if maker.pulse is not None and maker.version == version:
                self.shown = maker.pulse  # the tap's answer brought it
            return None
        return self.message(self.shared.at(version))

    def message(self, shared: Table | None = None) -> str | None:
        """The pulse answer the page would get by polling now, as a stream's message
        (made from the table ``shared`` as another answer loaded it, when given)."""
        path, _, query = self.shown.partition("?")
        environ = {**self.environ, "REQUEST_METHOD": "GET", "PATH_INFO": path,
                   "QUERY_STRING": query, "HTTP_HX_REQUEST": "true", "CONTENT_LENGTH": "0",
                   "wsgi.input": io.BytesIO()}
        gate = self.app.extensions.get(GATE)
        try:
            with gate.reading() if gate is not None else nullcontext(), \
                    RequestContext(self.app, environ, session=self.session):
                if request.url_rule is None or not is_pulse(request.url_rule.endpoint):
                    return None
                state = request_state()
                state.pushed = True
                if shared is not None:
                    state.read_table = shared
                answer = self.app.view_functions[request.url_rule.endpoint](
                    **(request.view_args or {}))
                self.shared.keep(state.read_table)
        except HTTPException:  # refused (or nothing new): the page polls, as before
            return None
        except Exception as error:  # the stream goes on; the page polls and gets the error
            if shared is not None and isinstance(error, DetachedInstanceError):
                return self.message()  # it needed more than the other one loaded: look it up
            log.exception("a pulse answer for an event stream failed")
            return None
        url = pulse_url(answer) if isinstance(answer, str) else None
        if url is None:
            return None
        answers, self.shown = self.shown, url
        lines = LINE_BREAK.sub("\ndata: ", answer)  # (a data line for each of the answer's)
        return f"event: {EVENT}\ndata: {answers}\ndata: {lines}\n\n"


def is_pulse(endpoint: str) -> bool:
    """True for a live page's pulse (the pages say which: :mod:`companion.live.hooks`)."""
    return hooks().is_pulse(endpoint)


def page_push(table: Table) -> PagePush | None:
    """For the event stream being opened: what it needs to bring its page the pulse
    answers (None when the page did not say its pulse, or said another table's)."""
    page, shown = request.args.get("page", ""), request.args.get("pulse", "")
    if not PAGE_ID.fullmatch(page) or not shown or len(shown) > LONGEST_URL:
        return None
    try:  # (an app served under a path of its own: its pages poll, as before)
        endpoint, values = current_app.url_map.bind("localhost").match(
            shown.partition("?")[0], method="GET")
    except HTTPException:
        return None
    if not is_pulse(endpoint) or normalise_code(str(values.get("code", ""))) != table.code:
        return None
    if current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token") not in session:
        return None  # its forms' token would be made now, in a cookie the page never gets
    environ = {key: value for key, value in request.environ.items()
               if isinstance(value, str)}
    return PagePush(current_app._get_current_object(), environ,  # type: ignore[attr-defined]
                  session._get_current_object(), page, shown)  # type: ignore[attr-defined]


__all__ = ["EVENT", "PAGE_HEADER", "Origin", "PagePush", "SharedTable", "made_by", "page_push",
           "pulse_url"]
