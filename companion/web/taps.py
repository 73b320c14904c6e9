"""A tap is applied once: every request that writes may carry a key, and a key is applied once.

A tap is a request that changes something (a POST). ``static/app/taps-page.js`` gives
each tap a key made on the device (128 random bits, header
:data:`TAP_HEADER`) and sends the same key when it sends the tap again: its
answer was lost, or the connection dropped while it was on its way, and the
phone cannot know whether the server applied it. A plain form (no
JavaScript) carries a key the page was drawn with (field :data:`TAP_FIELD`):
the same form sent twice, by a double tap, is the same tap.

Every request that writes goes through here (an app-wide hook, not each view):

- Before the view: the key, the device's session (its secret CSRF token, which
  no other device has) and the request itself (path and form) make a digest,
  and the digest is written (claimed) by the first statement of the request's
  transaction (:func:`companion.store.taps.claim`), the transaction that then
  makes the tap's change: "applied" and "key recorded" are one fact, committed
  together or not at all. A digest there already is a **repeat**: it is
  answered from the first, and the view does not run.
- Copies of one tap are applied once: on SQLite the writers go one at a time; on
  PostgreSQL the second copy's claim waits for the first's transaction and is a
  repeat once that commits. So a copy never runs after the first went in, and its
  refusal ("not your turn", after the bet went in) never shows.
- A refused tap (4xx) commits nothing, so no key is kept: sent again, it is
  judged afresh. A tap that changed nothing takes its claim back at its commit.

How a repeat is "answered from the first": a first answer that was a redirect
(every plain or boosted form here) has its status and ``Location`` kept with
the key, and the repeat gets the same redirect. An htmx tap's answer is its
region (``companion.web.regions.tap_answer``): nothing is kept, and the repeat
gets that region as it stands now, which shows the tap's effect and anything
that happened since (an answer kept as it was then could be older than what the
page shows already).

Requests whose answer hands the device a new secret (making a table, taking one
over, the JSON API) are judged afresh every time: their answer cannot be given
twice, since the server keeps only the secret's hash.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
import time
from collections.abc import Callable

from flask import (
    Flask,
    Response,
    abort,
    has_request_context,
    make_response,
    redirect,
    request,
    url_for,
)
from flask import session as cookie
from flask_babel import gettext as _
from sqlalchemy import event
from sqlalchemy.orm import Session

from ..extensions import db
from ..request_state import in_place, request_state, state_if_any
from ..store import Table
from ..store import taps as store
from ..store.commits import changed, written
from ..transactions import write_again
from .regions import page_pulse, tap_answer
from .roles import find_table, is_keeper

TAP_HEADER = "X-Companion-Tap"
"""The header that carries a tap's key (``static/app/taps-page.js``)."""

TAP_FIELD = "tap"
"""The form field that carries the key a plain form was drawn with."""

KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
"""What a key looks like: ``taps-page.js`` sends 32 hex digits, a page draws 22 base64 ones."""

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})

FRESH_EACH_TIME = frozenset({"tables.new", "home.recover"})
"""Endpoints judged afresh every time: their answer gives the device a new secret (a
scorekeeper key, a recovery code) that the server keeps only as a hash, so it cannot
answer a repeat with it. (The JSON API, which reads no cookie, is not keyed either.)"""

NOT_FORM = frozenset({"csrf_token", TAP_FIELD})
"""Form fields left out of a tap's digest: the same tap sent again may carry a newer CSRF
token (a page drawn again in between), and the key is in the digest already."""

REGION = (200, None)
"""An htmx tap's answer (its region), as a tap's first answer: nothing to keep, since the
repeat draws the region as it stands."""

PRUNE_EVERY = 600.0
"""Seconds between two prunings of old keys by one process (in a tap's transaction)."""

_pruned = [0.0]
_pruning = threading.Lock()
_after_repeat: dict[str, Callable[..., None]] = {}


def install(app: Flask) -> None:
    """Apply every keyed tap once (see the module)."""
    app.before_request(_claim_or_repeat)
    app.after_request(_after_the_tap)
    app.jinja_env.globals["tap_key"] = form_key
    app.add_url_rule(HERE, "taps.here", here)


HERE = "/taps/here"
"""What a page with a kept tap asks while it hears nothing (``static/app/taps.js``,
HERE_URL): a page that follows no table (a hand being entered) has no stream or poll to
tell it the Wi-Fi is back, whatever the browser says of its connection."""


def here() -> Response:
    """The server is there: an empty answer, never stored (a page whose kept taps wait for
    the server asks this; the first answer sends them)."""
    response = make_response("", 204)
    response.headers["Cache-Control"] = "no-store"
    return response


def form_key() -> str:
    """The key this page's forms carry for a browser without JavaScript (one per page drawn:
    the digest holds the form's path and fields, so forms of one page do not clash)."""
    state = request_state()
    if state.form_key is None:
        state.form_key = secrets.token_urlsafe(16)
    return state.form_key


def answer_will_be(status: int, location: str | None = None) -> None:
    """Say, before the commit, the answer a tap will get: a redirect is kept with the key in
    the same transaction (else it is written after the answer, in a second, small one)."""
    if has_request_context():
        request_state().tap_answer = (status, location)


def after_repeat(*endpoints: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Run the decorated function (with the URL's values) when a tap of one of ``endpoints``
    is answered as a repeat: what the first answer did besides its status and Location (a
    cookie it set, lost with the answer) is done again."""

    def register(function: Callable[..., None]) -> Callable[..., None]:
        for endpoint in endpoints:
            _after_repeat[endpoint] = function
        return function

    return register


def tap_digest(key: str) -> str | None:
    """The digest of this request with ``key``: the same for the same tap sent again by the
    same session, different for anything else (None: the request has no session)."""
    secret = cookie.get("csrf_token")
    if not isinstance(secret, str):
        return None
    form = sorted((name, value) for name, value in request.form.items(multi=True)
                  if name not in NOT_FORM)
    text = json.dumps([secret, key, request.method, request.path,
                       request.query_string.decode("latin-1"), form], ensure_ascii=False)
    return hashlib.blake2b(text.encode(), digest_size=store.DIGEST_LENGTH // 2).hexdigest()


def _keyed() -> bool:
    return (request.method in WRITES and request.endpoint not in FRESH_EACH_TIME
            and request.blueprint != "api")


def _claim_or_repeat() -> Response | None:
    """Before a tap's view: claim its key; a repeat is answered from the first, and the view
    does not run."""
    if not _keyed():
        return None
    key = request.headers.get(TAP_HEADER) or request.form.get(TAP_FIELD)
    if not key:
        return None
    if not KEY.fullmatch(key):
        abort(400, _("This tap carries a key the app does not make. Reload the page and tap "
                     "again."))
    digest = tap_digest(key)
    if digest is None:
        return None
    request_state().tap = digest
    if store.claim(digest):
        return None
    first = store.applied(digest)
    assert first is not None, "a key is there only with the change of a committed tap"
    return _repeat(first)


def _repeat(first: store.Tap) -> Response:
    """The answer to a repeat of ``first``: its redirect, or its region as it stands now."""
    status, location = first.status, first.location
    request_state().tap_repeated = True
    db.session.commit()  # (the claim's transaction: nothing changed; what follows only reads)
    then = _after_repeat.get(request.endpoint or "")
    if then is not None:
        then(**(request.view_args or {}))
    if status is not None and 300 <= status < 400 and location:
        return redirect(location, code=status)
    return _as_it_stands()


def _as_it_stands() -> Response:
    """A repeat whose first answer was a region (or is not known): the region now, for an
    htmx tap; otherwise the page the tap was made on."""
    code = (request.view_args or {}).get("code")
    if not isinstance(code, str):
        return redirect(url_for("home.index"), code=303)
    table = find_table(code)
    keeper = _from_the_tablet(table)
    if in_place():
        return make_response(tap_answer(table, keeper=keeper))
    page = "tables.keeper" if keeper else "seats.seat"
    return redirect(url_for(page, code=table.code) + "#round", code=303)


def _from_the_tablet(table: Table) -> bool:
    """Whether the tap came from the scorekeeper's screen (the page it said, else its form)."""
    if not is_keeper(table):
        return False
    page = page_pulse()
    if page is not None:
        return page[0] == url_for("pulse.keeper", code=table.code)
    return request.form.get("from") != "seat"


@event.listens_for(Session, "before_commit")
def _keep_with_the_change(session: Session) -> None:
    """At the commit of the tap's change: keep its answer with its key (a redirect); a
    commit that changes nothing takes the key back."""
    state = state_if_any()
    if state is None or not state.tap or state.tap_kept or state.tap_repeated \
            or session is not db.session():
        return
    session.flush()
    wrote = written(session) - {store.Tap.__tablename__}
    if not changed(session) and not wrote:
        store.drop(state.tap)
        state.tap = None  # (nothing of it is kept: sent again, it is judged afresh)
        return
    answer = state.tap_answer or REGION
    if answer != REGION:
        store.complete(state.tap, *answer)
    state.tap_kept = answer
    _prune_now_and_then()


def _prune_now_and_then() -> None:
    now = time.monotonic()
    if now - _pruned[0] < PRUNE_EVERY or not _pruning.acquire(blocking=False):
        return
    try:
        _pruned[0] = now
        store.prune()
    finally:
        _pruning.release()


def _after_the_tap(response: Response) -> Response:
    """After a tap that went in: keep its answer when the view did not say it beforehand."""
    state = state_if_any()
    digest, kept = (state.tap, state.tap_kept) if state is not None else (None, None)
    if not digest or kept is None or response.status_code >= 400:
        return response
    answer = (response.status_code, response.headers.get("Location"))
    if answer != kept and answer != REGION:
        write_again()
        store.complete(digest, *answer)
        db.session.commit()
    return response


__all__ = ["HERE", "KEY", "TAP_FIELD", "TAP_HEADER", "after_repeat", "answer_will_be", "form_key",
           "here", "install", "tap_digest"]
