"""The gate: at most a few requests at work at once in a server process, changes first.

The front door (:mod:`companion.door`) lets each request in through it; work done for a
page outside any request (an event stream's pushed answer, :mod:`companion.live.push`)
takes a reading place; a request may step out for slow work (:func:`set_aside`).

gunicorn's gevent worker starts a greenlet for every request at once, and a greenlet
gives the interpreter up each time it waits for the database. On PostgreSQL each
statement is such a wait: with every request let in, a tap (a dozen statements) waited
behind every request that came in meanwhile, a dozen times over. Let in a few at a time
(``COMPANION_REQUESTS_AT_ONCE``), in the order they come, a request waits at most once,
at the door. One at a time is best on PostgreSQL (a tap then runs its round trips alone:
:data:`~companion.config.DEFAULT_AT_ONCE`); on SQLite, whose statements never wait, two.

- Changes (any method but GET and HEAD) take at most ``size - 1`` of the places, so that
  a screen's poll never waits for taps alone: a tap holds its place for a dozen round
  trips, a poll for a few milliseconds. With one place, changes may take it.
- Work done for a page outside any request (an event stream making its page's pulse
  answer, :mod:`companion.live.push`) takes a place only when no request is waiting for
  one: a change makes several such answers at once, and a tap that came just after would
  wait behind all of them. The answers are the server's own work, sent when it is ready; a
  request is someone waiting at the table. (Under a load that never leaves the server idle
  they would wait for good: the server would be past its limit then anyway.)
- Among the requests waiting, the changes go in before the reads: a tap is a player
  waiting for the button they pressed; a screen's poll catches up with a change it will
  show a moment later either way.

A request holds its place while the app makes its answer, not while the answer is sent:
an event stream (whose messages are sent for minutes) and a slow phone's download hold
none. Unchanged polls are answered before it: one statement each, they never wait here.
Nor does a request whose body is still coming: it is read first. A request may give its
place up for work that needs neither the database nor the interpreter
(:func:`set_aside`: the slow hash of a new table's recovery code, in a thread of its
own) and take one again after, ahead of the requests waiting.

What each of these choices was measured to bring: ``docs/performance.md``, "Figures once
kept in docstrings".
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import current_app, has_request_context, request

READS = frozenset({"GET", "HEAD"})
TURN = "companion.gate.turn"
"""``environ`` key: the request's turn at the gate (while it is inside)."""

T = TypeVar("T")


@dataclass(eq=False)  # (a queue's remove() takes this very turn, not an equal one)
class _Turn:
    """One request (or one piece of work outside a request) waiting for a place."""

    change: bool
    admitted: bool = False
    go: threading.Event | None = None
    """Made when it has to wait: set when it is let in."""


class Gate:
    """At most ``size`` requests inside at once, the others in turn,
    and at most ``size - 1`` of them changes (when ``size`` is more than one). Work
    outside a request (:meth:`reading`) waits until no request waits."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.most_changes = max(1, size - 1)
        self._lock = threading.Lock()
        self._inside = self._changes = 0
        self._requests: deque[_Turn] = deque()
        self._later: deque[_Turn] = deque()
        """Work outside a request, let in after the requests waiting."""

    @contextmanager
    def stepping_out(self, turn: _Turn) -> Iterator[None]:
        """Give ``turn``'s place up while the block runs, then wait for one again, ahead of
        every request waiting (it waited its turn once already)."""
        with self._lock:
            self._inside -= 1
            self._changes -= turn.change
            turn.admitted = False
            self._let_in()
        try:
            yield
        finally:
            with self._lock:
                self._requests.appendleft(turn)
                turn.go = threading.Event()
                self._let_in()
            turn.go.wait()  # (the request's own place ends it, let in or not)

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Hold a reading place while the block runs, for work done outside a request
        (an event stream's answer: :mod:`companion.live.push`). It goes in only when no
        request is waiting for the place."""
        with self._place(False, self._later):
            yield

    @contextmanager
    def place(self, environ: dict[str, Any]) -> Iterator[None]:
        """Hold a place for this request (a change unless GET or HEAD) while the block runs."""
        with self._place(environ.get("REQUEST_METHOD", "GET") not in READS,
                         self._requests) as turn:
            environ[TURN] = turn
            try:
                yield
            finally:
                del environ[TURN]

    @contextmanager
    def _place(self, change: bool, queue: deque[_Turn]) -> Iterator[_Turn]:
        turn = _Turn(change)
        with self._lock:
            queue.append(turn)
            self._let_in()
            if not turn.admitted:
                turn.go = threading.Event()
        try:
            if turn.go is not None:
                turn.go.wait()
            yield turn
        finally:  # (also when the wait itself is cut short: a greenlet killed, say)
            with self._lock:
                if turn.admitted:
                    self._inside -= 1
                    self._changes -= change
                    self._let_in()
                elif turn in queue:
                    queue.remove(turn)
                elif turn in self._requests:  # (killed while stepping back in)
                    self._requests.remove(turn)

    def _let_in(self) -> None:
        """Fill the free places: requests first, and among them the changes that may go in
        before the reads, each in the order they came (a change that may not go in yet
        lets the reads behind it pass). Called holding the lock."""
        for queue in (self._requests, self._later):
            while self._inside < self.size:
                turn = (next((turn for turn in queue if turn.change and self._may_go_in(turn)),
                             None)
                        or next((turn for turn in queue if not turn.change), None))
                if turn is None:
                    break
                queue.remove(turn)
                self._inside += 1
                self._changes += turn.change
                turn.admitted = True
                if turn.go is not None:
                    turn.go.set()

    def _may_go_in(self, turn: _Turn) -> bool:
        return not turn.change or self._changes < self.most_changes


GATE = "companion.gate"
"""Where the app keeps its gate (``app.extensions``), when it has one."""


def set_aside(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)``, done with this request's place at the gate given up meanwhile (and
    under gevent, in a thread of its own): for work that needs neither the database nor the
    interpreter, such as a slow hash (hashlib lets the interpreter go while it hashes): the
    other taps and polls go on meanwhile. Call it before the request's first statement: a
    place given up while holding a transaction would keep other writers waiting all the
    same."""
    turn = request.environ.get(TURN) if has_request_context() else None
    gate = current_app.extensions.get(GATE) if turn is not None else None
    if gate is None or not turn.admitted:
        return _in_a_thread(work, *args)
    with gate.stepping_out(turn):
        return _in_a_thread(work, *args)


def _in_a_thread(work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` in gevent's pool of real threads when gevent runs this process (so
    that the other greenlets go on meanwhile); here otherwise."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return work(*args)
    if not monkey.is_module_patched("threading"):
        return work(*args)
    import gevent

    return gevent.get_hub().threadpool.apply(work, args)


__all__ = ["GATE", "TURN", "Gate", "set_aside"]
