"""gunicorn's settings for the companion: the Procfile and ``manage.py serve`` both use them.

Worker processes made after the app (``preload_app``): the memory region that holds the
private keys of open votes is made once, in the app, before the workers fork, so every
worker (and a worker started again after a timeout) holds the same keys
(``companion.store.sealing_keys``). How many (``WEB_CONCURRENCY``): by default one per
core (of those this process may run on) when the database is PostgreSQL and the rate
limits are counted in Redis (``RATELIMIT_STORAGE_URI=redis://…``), else one
(``companion.config.default_workers``). With one, the rate limits may be counted in its
memory; with several, a change made through one worker reaches the others' event streams
through PostgreSQL's notifications (``companion.live.feed``).

On PostgreSQL the master claims the database for its sealing keys before the workers fork
(``companion.store.sealed.claim_database``): a second server on the same database is
refused unless every server keeps them in one shared Redis (``COMPANION_SEALING_STORE``).

The worker is gevent's (``COMPANION_WORKER``, default ``gevent``): each
request, and each event stream a screen keeps open, is a greenlet, which
gives the interpreter up only where it waits (the network, the database
server). With threads (``gthread``), a request coming back from the database
waited for whichever thread held the interpreter, up to a switch interval at
every statement: at 200 tables (``scripts/bench_load.py``) a write's p95 was
five to twenty times its own work. ``COMPANION_WORKER=gthread`` still runs
threads: ``COMPANION_THREADS`` for requests, and one more for each stream
(at most ``COMPANION_STREAMS``: see ``companion.live.streams``). Either way
the app works on ``COMPANION_REQUESTS_AT_ONCE`` requests at once (default 2
on SQLite, 1 on PostgreSQL; ``companion.door``).

More workers (``WEB_CONCURRENCY``) need the rate limits in shared storage
(``RATELIMIT_STORAGE_URI=redis://…``): gunicorn refuses to start otherwise.
"""

from __future__ import annotations

import gc
import os
import sys

WORKER = os.environ.get("COMPANION_WORKER") or "gevent"
if WORKER == "gevent":
    # Before anything else is imported: the app's locks and waits must be gevent's own.
    from gevent import monkey

    monkey.patch_all()

from companion.config import default_workers, event_streams  # noqa: E402 (after the patching)
from companion.serving import after_a_sleep  # noqa: E402

# How long a thread runs before it must let another have the interpreter (Python's own
# default: 5 ms). Each switch costs, and a request that waits for the database gets the
# interpreter back only at a switch: with hundreds of screens, shorter intervals made the
# server thrash (all its core busy, nothing answered), 10 ms answered the fastest
# (scripts/bench_load.py). For the gthread worker only: gevent's runs one thread.
sys.setswitchinterval(float(os.environ.get("COMPANION_SWITCH_INTERVAL") or 0.01))

bind = f"{os.environ.get('COMPANION_HOST', '0.0.0.0')}:{os.environ.get('PORT', '5000')}"
preload_app = True
workers = int(os.environ.get("WEB_CONCURRENCY")
              or default_workers(os.environ, len(os.sched_getaffinity(0))))
worker_class = WORKER
threads = int(os.environ.get("COMPANION_THREADS", "16")) + event_streams(os.environ)  # gthread
keepalive = 30  # screens poll (every 2 s without a stream): keep their connections open
# Every screen keeps two connections open (its event stream, and keepalive for its polls and
# taps), and gthread stops accepting new ones at worker_connections (default 1000): 200 tables
# of five screens would wait in the listen backlog (scripts/bench_load.py).
worker_connections = 4000
control_socket_disable = True  # no runtime control (gunicornc); two servers never share one

# What a request's head may be (gunicorn answers 414 or 431 beyond; each its default, named
# here; change them with GUNICORN_CMD_ARGS="--limit-request-line 8190"). The longest address
# the app makes is an event stream's, which carries its page's pulse address: under 200
# characters. The largest header is the cookie, under 3 KB however many tables a device
# joins (it remembers 10 a role). Browsers send 10 to 20 headers. A request's body:
# ``companion.door``; all the limits: the README's "Limits".
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190


GC_THRESHOLDS = (3000, 10, 100)
"""The worker's garbage collector: a young pass every 3,000 new objects (Python: 700), and
a full pass after 100 middle ones (Python: 10). At 200 tables (``scripts/bench_load.py``)
each pass looks at every object it holds at a cost of about 0.7 µs each, with a thousand
event streams open: a full pass stopped every request for 90–120 ms, every 5 s with
Python's thresholds; with these, once in minutes, the young and middle passes at most 5
and 12 ms, and the collector's time in 30 s 330 ms instead of 540."""


def on_starting(server) -> None:
    """Refuse several workers that would each count the rate limits on their own; make
    the master forgive its workers a sleep of the whole machine
    (:func:`companion.serving.after_a_sleep`); and claim the database for this server's
    sealing keys, or refuse to start beside another server whose keys are not shared
    (:func:`companion.store.sealed.claim_database`)."""
    storage = os.environ.get("RATELIMIT_STORAGE_URI") or "memory://"
    if server.cfg.workers > 1 and storage.startswith("memory://"):
        raise RuntimeError(
            f"{server.cfg.workers} workers would each keep their own rate limits: set "
            "RATELIMIT_STORAGE_URI to shared storage (redis://host:6379) or WEB_CONCURRENCY=1")
    server.murder_workers = after_a_sleep(server.murder_workers, lambda: server.timeout)
    from companion.store.sealed import EXTENSION as SEALING
    from companion.store.sealed import claim_database

    app = server.app.callable
    if SEALING in getattr(app, "extensions", {}):
        # Held by the master as long as it runs (see the module).
        server.companion_claim = claim_database(app)


def when_ready(server) -> None:
    """Compile the app's templates before the worker is forked (it inherits them, and its
    first requests compile none: ``companion.compile_templates``).

    Under gevent, also let what the app started in this process finish first: the rate
    limiter's first clean-up (a timer 10 ms after it is made) would otherwise run in the
    worker as a thread the worker never started, and fail at its end."""
    app = server.app.callable
    if hasattr(app, "jinja_env"):
        from companion import compile_templates

        compile_templates(app)
    if WORKER == "gevent":
        import gevent

        gevent.sleep(0.1)


def post_fork(server, worker) -> None:
    """Each worker opens its own database connections (none are shared across the fork),
    and its garbage collector leaves alone what the preloaded app made (it lives as long as
    the worker): a full collection, which stops every request under way, then looks at
    what the requests made (at 200 tables, a full collection stopped the worker for a
    median 25-30 ms without the freeze, 15 ms with it)."""
    gc.freeze()
    from companion.extensions import db

    app = server.app.callable
    if app is not None:
        with app.app_context():
            db.engine.dispose(close=False)


def post_worker_init(worker) -> None:
    """The worker's event streams end as soon as it stops (not after the graceful timeout).

    What the worker has made so far (the app, its templates, its modules) lives as long
    as it does: the garbage collector stops going through it (``gc.freeze``), so that
    its full passes, which stop every request, are shorter. And it collects less often
    than Python's default (:data:`GC_THRESHOLDS`).
    """
    import gc

    from companion.live.streams import EXTENSION

    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)

    app = worker.wsgi
    if hasattr(app, "extensions") and EXTENSION in app.extensions:
        app.extensions[EXTENSION].stopping = lambda: not worker.alive
