"""The companion: a phone-first web app for card games played with real cards.

``create_app`` is the application factory (``flask --app companion run``).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, url_for
from sqlalchemy import event
from sqlalchemy.engine import Engine
from werkzeug.middleware.proxy_fix import ProxyFix

from .config import (
    DEFAULTS,
    HTMX_SRI,
    HTMX_URL,
    engine_options,
    from_environment,
    htmx_fallback,
    secret_key,
)
from .extensions import compress, csrf, db, limiter, migrate

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Make the app: settings from the environment, then ``test_config`` on top."""
    app = Flask(__name__, instance_relative_config=True,
                template_folder="../templates", static_folder="../static")
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(DEFAULTS)
    app.config.from_mapping(from_environment(app.instance_path))
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(app.instance_path)
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS",
                          engine_options(app.config["SQLALCHEMY_DATABASE_URI"]))
    app.json.sort_keys = False  # a record keeps its fields in the documented order
    app.json.ensure_ascii = False  # cards stay readable: 10♦, not \u2666

    from .web.security import SessionInterface, add_security_headers

    app.session_interface = SessionInterface()
    if app.config["PROXY_FIX"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1, x_port=1)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    csrf.init_app(app)
    limiter.init_app(app)
    compress.init_app(app)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            _tune_sqlite(db.engine)

    from . import store  # (the models must be known to db and to migrations)
    from .web import register
    from .web.converters import BoundedInt

    # Every <int:…> in a URL fits the database's integers: a larger one is a 404, not a 500.
    app.url_map.converters["int"] = BoundedInt

    # The key that seals secret choices lives in this process's memory only: made here,
    # before gunicorn forks its workers (--preload), or given for several servers.
    store.sealed.install_key(app, app.config.get("BALLOT_KEY"))

    register(app)
    app.after_request(add_security_headers)
    from .web.polls import UnchangedPolls

    with app.app_context():
        app.wsgi_app = UnchangedPolls(app.wsgi_app, db.engine)  # type: ignore[method-assign]
    app.context_processor(lambda: _htmx_context(app))
    return app


def _htmx_context(app: Flask) -> dict[str, str]:
    """Where base.html tells app.js to load htmx from: the URL, its hash, the app's own copy."""
    url, sri = app.config["HTMX_URL"], app.config["HTMX_SRI"]
    fallback = htmx_fallback(url, sri)
    return {"htmx_url": url, "htmx_sri": sri,
            "htmx_fallback": url_for("static", filename=fallback) if fallback else ""}


def _tune_sqlite(engine: Engine) -> None:
    """WAL, foreign keys, a busy timeout; writes take the lock at BEGIN, one at a time.

    pysqlite's own transaction handling is switched off so that a request
    that writes starts with ``BEGIN IMMEDIATE``: two phones writing at the
    same moment then wait for each other instead of one failing with
    "database is locked" half-way.

    The writers of this process also queue for SQLite's lock on a lock of their
    own (:data:`WRITERS`), held from ``BEGIN IMMEDIATE`` to the commit or
    rollback. SQLite's busy handler waits by sleeping, longer each time (up to
    100 ms a sleep): with several writers waiting, the lock would lie free
    while they sleep, writes would take longer than they come, and the
    waiting writers would hold every request thread (the polls behind them
    too). A thread waiting on :data:`WRITERS` goes on as soon as it is free.
    """

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
        if not _writing():
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
        _committed()

    @event.listens_for(engine, "rollback")
    def _on_rollback(connection):
        _let_next_writer(connection)


WRITERS = threading.RLock()
"""The writers of this process, one at a time (see :func:`_tune_sqlite`)."""
WRITERS_PATIENCE = 10.0  # seconds, as SQLite's busy timeout
QUEUED = "companion_writer_queued"


def _let_next_writer(connection) -> None:
    """Release :data:`WRITERS` if this connection's transaction holds it."""
    if connection.info.pop(QUEUED, False):
        WRITERS.release()


COMMITTED = "companion_sqlite_committed"


def _committed() -> None:
    """Note that this request has committed its change (it only reads from now on)."""
    from flask import g, has_request_context

    if has_request_context():
        setattr(g, COMMITTED, True)


def _writing() -> bool:
    """True inside a request that may write (anything but GET, HEAD, OPTIONS) and has not
    committed yet. After its commit, a request only reads (its answer): holding the write
    lock while it renders would make every other table's writes wait for its page."""
    from flask import g, has_request_context, request

    return (has_request_context() and request.method not in ("GET", "HEAD", "OPTIONS")
            and not g.get(COMMITTED, False))


__all__ = ["HTMX_SRI", "HTMX_URL", "create_app"]
