"""Unchanged live polls, answered before Flask: one indexed lookup and an empty 204.

Every screen polls its live regions every two seconds with the table's
version (``?v=7``, see ``templates/_macros.html``). Most polls find nothing
new: for those, the front door (:mod:`companion.door`) reads the table's version and
answers
``204 No Content`` at once — no session, no rate-limit check, no view. Any
other request, and any poll whose version is not the table's (or whose table
does not exist: a wrong code is counted by the app as always), goes on to
the app, which renders the region (or refuses).

A 204 says only "nothing changed since version 7" about a table whose code
the poller already has; taking a table over, or any change, bumps the version,
so the next poll reaches the app and its checks.

The lookup runs on a few connections of its own, outside the app's pool
(:class:`VersionLookup`): a bare driver statement in autocommit, with no
pool checkout, ping, ``BEGIN`` or reset around it. Should
it fail (the database restarted), the connection is dropped and the poll
goes on to the app, which answers it as any request.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.pool import QueuePool

POLL_PATH = re.compile(r"^/[tj]/([0-9A-Z]{8})/")
"""A table's pages and regions start with its code (canonical: upper case, no dashes)."""

VERSION = re.compile(r"(?:^|&)v=([0-9]{1,12})(?:&|$)")

NOT_CHANGED = ("204 No Content", [("Cache-Control", "no-store"), ("Content-Length", "0")])

GATE = "companion.gate"
"""Where the app keeps the front door's gate (``app.extensions``), when it has one: the door
(:mod:`companion.door`) lets each request in through it, and a stream's pushed answer
(:mod:`companion.live.push`) waits there for a place too."""


class VersionLookup:
    """Tables' versions, read on bare driver connections of its own (at most ``size``).

    Its connections are shared by the server's requests, one at a time, in SQLAlchemy's
    own pool (the one used last first, so few stay busy; no reset, ping or ``BEGIN``
    around a lookup); a lookup waits ``patience`` seconds at most for one, then does
    without. A connection per thread would open one for every thread that ever
    answered a poll: hundreds, beyond what a PostgreSQL server allows (100 by default).
    """

    def __init__(self, engine: Engine, size: int = 8, patience: float = 1.0) -> None:
        self.engine = engine
        self.marker = "?" if engine.dialect.paramstyle == "qmark" else "%s"
        self.pool = QueuePool(lambda: self._connect(), pool_size=size, max_overflow=0,
                              timeout=patience, use_lifo=True, reset_on_return=None)

    def _connect(self) -> Any:
        dialect = self.engine.dialect
        args, kwargs = dialect.create_connect_args(self.engine.url)
        if dialect.name == "sqlite":
            kwargs = {**kwargs, "check_same_thread": False}  # used by one thread at a time
        connection = dialect.loaded_dbapi.connect(*args, **kwargs)
        if dialect.name == "sqlite":
            connection.isolation_level = None  # each read is its own: no snapshot kept open
        else:
            connection.autocommit = True
        return connection

    def _rows(self, sql: str, values: tuple[Any, ...]) -> list[tuple[Any, ...]] | None:
        """The statement's rows; None when none came in time or it failed (the connection
        is dropped)."""
        try:
            connection = self.pool.connect()
        except Exception:  # none free in time, or none could be made: whoever asked does without
            return None
        try:
            cursor = connection.cursor()
            try:
                cursor.execute(sql, values)
                return cursor.fetchall()
            finally:
                cursor.close()
        except Exception:  # any failure: whoever asked does without
            connection.invalidate()
            return None
        finally:
            connection.close()

    def __call__(self, code: str) -> int | None:
        """The version of the table with join code ``code``; None when there is no such
        table, or the lookup failed."""
        rows = self._rows(f"SELECT version FROM tables WHERE code = {self.marker}", (code,))
        return rows[0][0] if rows else None

    def of_tables(self, ids: Iterable[int]) -> dict[int, int]:
        """The versions of the tables with these ids (empty when the lookup failed)."""
        ids = tuple(ids)
        if not ids:
            return {}
        markers = ", ".join([self.marker] * len(ids))
        rows = self._rows(f"SELECT id, version FROM tables WHERE id IN ({markers})", ids)
        return dict(rows or ())
