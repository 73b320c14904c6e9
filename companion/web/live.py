"""Live regions: small partials that htmx polls on every ``companion:tick``.

A region is rendered with its table's version (``?v=<version>``); a poll whose
version is still current gets 204 and no body, so htmx leaves the page alone
and the server does one indexed lookup.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, abort, redirect, request, url_for

from ..extensions import db
from ..store import Table, is_code, normalise_code, queries
from .roles import find_table, keeper_holds


def is_htmx() -> bool:
    """True for a request htmx made (a poll or a boosted link or form)."""
    return request.headers.get("HX-Request") == "true"


def unchanged(code: str, *, keeper: bool = False) -> Response | None:
    """204 when the table's version is the one the poll has; else None (render the region).

    With ``keeper``, the region is the scorekeeper's: another device answers 403.
    """
    normal = normalise_code(code)
    row = db.session.execute(queries.table_version(normal)).first() if is_code(normal) else None
    if row is None:
        abort(404, f"There is no table with the code {code[:20]}.")
    _table_id, version, keeper_hash = row
    if keeper and not keeper_holds(normal, keeper_hash):
        abort(403, "This screen no longer runs the table: another device took it over.")
    if request.args.get("v") == str(version):
        return Response(status=204)
    return None


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
    quiet = unchanged(code, keeper=keeper)
    if quiet is not None:
        abort(quiet)
    table = find_table(code)
    url = page(table) if callable(page) else url_for(page, code=table.code, **page_values)
    elsewhere = page_instead(url)
    if elsewhere is not None:
        abort(elsewhere)
    return table
