"""Unchanged live polls, answered before Flask: one indexed lookup and an empty 204.

Every screen polls its live regions every two seconds with the table's
version (``?v=7``, see ``templates/_macros.html``). Most polls find nothing
new: for those, this WSGI middleware reads the table's version and answers
``204 No Content`` at once — no session, no rate-limit check, no view. Any
other request, and any poll whose version is not the table's (or whose table
does not exist: a wrong code is counted by the app as always), goes on to
the app, which renders the region (or refuses).

A 204 says only "nothing changed since version 7" about a table whose code
the poller already has; taking a table over, or any change, bumps the version,
so the next poll reaches the app and its checks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Engine

POLL_PATH = re.compile(r"^/[tj]/([0-9A-Z]{8})/")
"""A table's pages and regions start with its code (canonical: upper case, no dashes)."""

VERSION = re.compile(r"(?:^|&)v=([0-9]{1,12})(?:&|$)")

LOOKUP = text("SELECT version FROM tables WHERE code = :code")

NOT_CHANGED = ("204 No Content", [("Cache-Control", "no-store"), ("Content-Length", "0")])


class UnchangedPolls:
    """Wrap a WSGI app: answer a live poll whose version is still current with a 204."""

    def __init__(self, app: Callable[..., Iterable[bytes]], engine: Engine) -> None:
        self.app = app
        self.engine = engine
        self.answered = 0
        """How many polls were answered here (for the benchmarks)."""

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        """Answer an unchanged poll here; pass anything else on."""
        if (environ.get("REQUEST_METHOD") == "GET" and environ.get("HTTP_HX_REQUEST") == "true"
                and not environ.get("HTTP_HX_BOOSTED")):
            path = POLL_PATH.match(environ.get("PATH_INFO", ""))
            version = VERSION.search(environ.get("QUERY_STRING", "")) if path else None
            if version is not None and self._current(path.group(1)) == int(version.group(1)):
                self.answered += 1
                start_response(*NOT_CHANGED)
                return []
        return self.app(environ, start_response)

    def _current(self, code: str) -> int | None:
        """The table's version, or None when there is no such table."""
        with self.engine.connect() as connection:
            return connection.execute(LOOKUP, {"code": code}).scalar()
