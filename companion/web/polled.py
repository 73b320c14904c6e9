"""The table of a polled request: a page's pulse (:mod:`companion.web.pulse`), or a part of
a page that polls by itself (the ledger's).

A poll says the version its page shows (``?v=<version>``); a poll whose version is still
current gets 204 and no body, so htmx leaves the page alone. Those are answered before
the app, by :mod:`companion.live.polls`, with one indexed lookup; here the table is found
for a poll that needs an answer, and a plain browser that opened a poll's URL is sent to
the whole page.
"""

from __future__ import annotations

from flask import Response, abort, redirect, request, url_for
from flask_babel import gettext as _

from ..store import Table
from .roles import find_table, is_keeper


def is_htmx() -> bool:
    """True for a request htmx made (a poll or a boosted link or form)."""
    return request.headers.get("HX-Request") == "true"


def page_instead(url: str) -> Response | None:
    """Send a plain browser (no htmx) that opened a poll's URL to the whole page."""
    if is_htmx():
        return None
    return redirect(url, code=303)


def polled_table(code: str, page: str, *, keeper: bool = False,
                 **page_values: object) -> Table:
    """The table of a poll, when the poll needs an answer.

    Otherwise it answers at once (by raising): 204 and no body when the poll's
    version is current, and a redirect to the whole page (the endpoint
    ``page`` with the table's code and ``page_values``)
    for a plain browser that opened the poll's own URL.
    """
    table = find_table(code)
    if keeper and not is_keeper(table):
        abort(403, _("This screen no longer runs the table: another device took it over."))
    if request.args.get("v") == str(table.version):
        # Most polls are answered before the app (companion.live.polls); a plain one lands here.
        abort(Response(status=204))
    elsewhere = page_instead(url_for(page, code=table.code, **page_values))
    if elsewhere is not None:
        abort(elsewhere)
    return table
