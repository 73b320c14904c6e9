"""Live regions: small partials that htmx polls on every ``companion:tick``.

A region is rendered with its table's version (``?v=<version>``); a poll whose
version is still current gets 204 and no body, so htmx leaves the page alone.
Those are answered before the app, by :mod:`companion.live.polls`, with one
indexed lookup; here the region is rendered for a poll that needs it.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, abort, redirect, request, url_for
from flask_babel import gettext as _

from ..store import Table
from .roles import find_table, is_keeper


def is_htmx() -> bool:
    """True for a request htmx made (a poll or a boosted link or form)."""
    return request.headers.get("HX-Request") == "true"


def page_instead(url: str) -> Response | None:
    """Send a plain browser (no htmx) that opened a region's URL to the whole page."""
    if is_htmx():
        return None
    return redirect(url, code=303)


def live_table(code: str, page: str | Callable[[Table], str], *, keeper: bool = False,
               **page_values: object) -> Table:
    """The table of a polled live region, when the poll needs a fresh region.

    Otherwise it answers at once (by raising): 204 and no body when the poll's
    version is current, and a redirect to the whole page (the endpoint
    ``page`` with the table's code and ``page_values``, or ``page(table)``)
    for a plain browser that opened the region's own URL.
    """
    table = find_table(code)
    if keeper and not is_keeper(table):
        abort(403, _("This screen no longer runs the table: another device took it over."))
    if request.args.get("v") == str(table.version):
        # Most polls are answered before the app (companion.live.polls); a plain one lands here.
        abort(Response(status=204))
    url = page(table) if callable(page) else url_for(page, code=table.code, **page_values)
    elsewhere = page_instead(url)
    if elsewhere is not None:
        abort(elsewhere)
    return table
