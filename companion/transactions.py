"""How a request talks to the database: writers one at a time, readers without ceremony.

A request either writes (a tap, a form: POST) or only reads (a page, a poll:
GET). One that writes commits once, and only reads after its commit (it
draws its answer). :func:`reads_only` says which a request is doing now; the
engine's ``commit`` event notes the commit (:func:`_note_commit`).

SQLite (:func:`_tune_sqlite`): pysqlite's own transaction handling is
switched off so that a request that writes starts with ``BEGIN IMMEDIATE``:
two phones writing at the same moment then wait for each other instead of
one failing with "database is locked" half-way. The writers of this process
also queue for SQLite's lock on a lock of their own (:data:`WRITERS`), held
from ``BEGIN IMMEDIATE`` to the commit or rollback. SQLite's busy handler
waits by sleeping, longer each time (up to 100 ms a sleep): with several
writers waiting, the lock would lie free while they sleep, writes would take
longer than they come, and the waiting writers would hold every request (the
polls behind them too). A writer waiting on :data:`WRITERS` goes on as soon
as it is free. A request that only reads begins a plain ``BEGIN``: its reads
see one snapshot, and never wait for a writer (WAL).

PostgreSQL (:func:`_tune_server`): each statement is a round trip to the
server, and while a request waits for one the worker runs others, so a
request's latency grows with its round trips more than with its work.

- A request that only reads runs in autocommit (:class:`Session`): no
  ``BEGIN`` before its first statement and no ``ROLLBACK`` after its last.
  It loses nothing by it: under PostgreSQL's default isolation (read
  committed) each statement of a transaction sees what was committed when
  it starts, not one snapshot for the whole transaction. A request that
  writes is one transaction, as always.
- A connection is pinged before use (the server may have restarted since it
  was last used) only when it lay unused for :data:`IDLE_PING` seconds: under
  load a connection is taken again within milliseconds, and a ping before
  every request would be one more round trip each time.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from flask import g, has_request_context, request
from flask_sqlalchemy.session import Session as FlaskSession
from sqlalchemy import event, exc
from sqlalchemy.engine import Engine

from .request_state import STATE, request_state

WRITERS = threading.RLock()
"""The SQLite writers of this process, one at a time (see the module)."""
WRITERS_PATIENCE = 10.0  # seconds, as SQLite's busy timeout
QUEUED = "companion_writer_queued"
IDLE_PING = 2.0
"""Seconds a server connection may lie unused in the pool before it is pinged again."""
RETURNED = "companion_returned"
AUTOCOMMIT = "_companion_autocommit"


def reads_only() -> bool:
    """True inside a request that writes nothing from now on: a GET (or HEAD, OPTIONS), or
    any request once it has committed its change (it only draws its answer after)."""
    if not has_request_context():
        return False
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return True
    state = g.get(STATE)
    return state is not None and state.committed


def write_again() -> None:
    """Let a request that has committed its change write once more, in a second transaction
    of its own: that transaction begins as a writer's (on SQLite, in the writers' queue:
    :data:`WRITERS`), not as a read."""
    if has_request_context():
        request_state().committed = False


def _note_commit(_connection: Any) -> None:
    if has_request_context():
        request_state().committed = True


class Session(FlaskSession):
    """The app's session: on a database server, a request that only reads reads in
    autocommit (see the module)."""

    def get_bind(self, mapper: Any = None, clause: Any = None, bind: Any = None,
                 **kwargs: Any) -> Any:
        """The engine as Flask-SQLAlchemy chooses it; its autocommit twin for reads on a
        server."""
        engine = super().get_bind(mapper=mapper, clause=clause, bind=bind, **kwargs)
        if engine.dialect.name == "sqlite" or not reads_only():
            return engine
        return autocommit_twin(engine)


def autocommit_twin(engine: Engine) -> Engine:
    """``engine`` reading in autocommit: the same pool (made again when the pool is)."""
    kept = engine.__dict__.get(AUTOCOMMIT)
    if kept is None or kept[0] is not engine.pool:
        kept = (engine.pool, engine.execution_options(isolation_level="AUTOCOMMIT"))
        engine.__dict__[AUTOCOMMIT] = kept
    return kept[1]


def install(engine: Engine) -> None:
    """Tune ``engine`` for requests as the module says."""
    event.listen(engine, "commit", _note_commit)
    if engine.dialect.name == "sqlite":
        _tune_sqlite(engine)
    else:
        _tune_server(engine)


def _tune_server(engine: Engine) -> None:
    @event.listens_for(engine, "checkin")
    def _on_checkin(_dbapi_connection, record):
        record.info[RETURNED] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _on_checkout(dbapi_connection, record, _proxy):
        returned = record.info.get(RETURNED)
        if returned is not None and time.monotonic() - returned < IDLE_PING:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
            dbapi_connection.rollback()  # the ping's own transaction, if it opened one
        except Exception as error:  # the pool takes another connection (or makes one)
            raise exc.DisconnectionError("the database connection was lost") from error


def _tune_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record):
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection):
        if not has_request_context() or reads_only():  # a script, the shell: as SQLite does
            connection.exec_driver_sql("BEGIN")
            return
        queued = WRITERS.acquire(timeout=WRITERS_PATIENCE)
        connection.info[QUEUED] = queued  # past the patience: SQLite's own wait decides
        try:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        except BaseException:
            _let_next_writer(connection)
            raise

    @event.listens_for(engine, "commit")
    def _on_commit(connection):
        _let_next_writer(connection)

    @event.listens_for(engine, "rollback")
    def _on_rollback(connection):
        _let_next_writer(connection)


def _let_next_writer(connection: Any) -> None:
    """Release :data:`WRITERS` if this connection's transaction holds it."""
    if connection.info.pop(QUEUED, False):
        WRITERS.release()


__all__ = ["IDLE_PING", "WRITERS", "Session", "autocommit_twin", "install", "reads_only",
           "write_again"]
