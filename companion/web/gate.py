"""At most a few requests at work at once in a server process; the others wait their turn.

gunicorn's gevent worker starts a greenlet for every request at once, and a
greenlet gives the interpreter up each time it waits for the database. On
PostgreSQL each statement is such a wait: with every request let in, a tap
(a dozen statements) waited behind every request that came in meanwhile, a
dozen times over, and took several times its own work (``scripts/bench_load.py``
at 200 tables: write p95 144 ms). Letting in two at a time
(``COMPANION_REQUESTS_AT_ONCE``), in the order they come, a request waited at
most once, at the door, and shared the interpreter with one other (write p95
50 ms; on SQLite, whose statements never wait, it changed nothing). Since the
event streams bring the answers (a change makes four answers, each a few
milliseconds of the interpreter), one at a time is best on PostgreSQL: a tap
then runs its round trips alone (:data:`~companion.config.DEFAULT_AT_ONCE`).
With one place, changes may take it.

Changes (any method but GET and HEAD) take at most ``size - 1`` of the places,
so that a screen's poll never waits for taps alone: a tap holds its place for a
dozen round trips, a poll for a few milliseconds, and when taps held every
place the polls queued behind them (``scripts/bench_load.py``, 200 tables on
PostgreSQL: poll p95 63–118 ms; with a place kept for reading, 18 ms).

A request holds its place while the app makes its answer, not while the
answer is sent: an event stream (whose messages are sent for minutes) and a
slow phone's download hold none. Unchanged polls are answered before it
(:mod:`companion.web.polls`): one statement each, they never wait here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

READS = frozenset({"GET", "HEAD"})


class Gate:
    """Wrap a WSGI app: at most ``size`` requests inside it at once, the others in turn,
    and at most ``size - 1`` of them changes (when ``size`` is more than one)."""

    def __init__(self, app: Callable[..., Iterable[bytes]], size: int) -> None:
        self.app = app
        self._places = threading.BoundedSemaphore(size)
        self._changes = threading.BoundedSemaphore(max(1, size - 1))

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        """Wait for a place, let the app make its answer, and give the place up."""
        if environ.get("REQUEST_METHOD", "GET") in READS:
            with self._places:
                return self.app(environ, start_response)
        with self._changes, self._places:
            return self.app(environ, start_response)

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Hold a reading request's place while the block runs (work done outside a
        request, such as an event stream's answer: :mod:`companion.web.push`)."""
        with self._places:
            yield


GATE = "companion.gate"
"""Where the app keeps its gate (``app.extensions``), when it has one."""


__all__ = ["GATE", "Gate"]
