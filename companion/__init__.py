"""The companion: a phone-first web app for card games played with real cards.

``create_app`` is the application factory (``flask --app companion run``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

# Importing the package imports nothing but the standard library: the pure rules
# (``companion.rules``, ``companion.games.<game>.rules``) run without Flask too, in the
# browser on Pyodide (``scripts/pyodide_rules.mjs``). The app's imports are in
# ``create_app``; the settings it re-exports are read on first use (``__getattr__``).

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Make the app: settings from the environment, then ``test_config`` on top."""
    from flask import Flask
    from werkzeug.middleware.proxy_fix import ProxyFix

    from . import transactions
    from .config import DEFAULTS, OFFLINE_SETTINGS, engine_options, from_environment, secret_key
    from .extensions import csrf, db, limiter, migrate

    app = Flask(__name__, instance_relative_config=True,
                template_folder="../templates", static_folder="../static")
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(DEFAULTS)
    app.config.from_mapping(from_environment(app.instance_path))
    if test_config is not None:
        app.config.from_mapping(test_config)
    offline = bool(app.config.get("OFFLINE"))
    if offline:  # a table on this device: the app in the tablet's browser (companion.offline)
        app.config.from_mapping(OFFLINE_SETTINGS)
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
    if not offline:  # (flask_compress needs brotli, which the browser's Python lacks)
        from flask_compress import Compress

        Compress(app)
    with app.app_context():
        transactions.install(db.engine)

    from . import store  # (the models must be known to db and to migrations)
    from .web import register
    from .web.converters import BoundedInt

    # Every <int:…> in a URL fits the database's integers: a larger one is a 404, not a 500.
    app.url_map.converters["int"] = BoundedInt

    # The private keys of open sealings live in memory only: in a region made here, before
    # gunicorn forks its workers (preload_app), or in a Redis that keeps nothing on disk.
    store.sealed.install_keys(app, app.config.get("SEALING_STORE"))
    if app.config.get("BALLOT_KEY"):
        app.logger.warning(
            "COMPANION_BALLOT_KEY is ignored: each vote now has a key pair of its own, whose "
            "private key lives only in memory and is destroyed at the reveal (a key given "
            "in the environment could open the slips of the database's copies for ever). "
            "Remove the setting; several servers share COMPANION_SEALING_STORE=redis://…")

    register(app)
    app.after_request(add_security_headers)
    from .web import taps

    taps.install(app)  # after the headers' hook: its answer to a repeat gets them too
    from .door import FrontDoor
    from .live.polls import GATE, VersionLookup

    # What every request meets before Flask, in order (companion.door): the lost
    # sealings voided once per start, the body read whole, an unchanged poll answered,
    # the gate, a rate-limit refusal paused.
    with app.app_context():
        door = FrontDoor(app.wsgi_app, app, lookup=VersionLookup(db.engine),
                         at_once=app.config["REQUESTS_AT_ONCE"],
                         first=store.sealed.void_lost_at_start,
                         first_for=store.sealed.keys_of)
    app.wsgi_app = door  # type: ignore[method-assign]
    if door.gate is not None:
        app.extensions[GATE] = door.gate
    return app


def compile_templates(app: Flask) -> int:
    """Compile every template now, before a request needs it; returns how many.

    The server does it once, before its worker is forked (``gunicorn.conf.py``):
    otherwise each template is compiled the first time a request renders it, and the
    first pages after a start would wait for it (``docs/performance.md``).
    """
    names = app.jinja_env.list_templates(extensions=["html"])
    for name in names:
        app.jinja_env.get_template(name)
    return len(names)


def __getattr__(name: str) -> Any:
    """The settings the package re-exports (``HTMX_URL``, ``HTMX_SRI``), from
    :mod:`companion.config` on first use: that module imports more than the standard
    library, and the pure rules import this package."""
    if name in ("HTMX_SRI", "HTMX_URL"):
        from . import config

        return getattr(config, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["HTMX_SRI", "HTMX_URL", "compile_templates", "create_app"]
