"""The front door: everything a request meets before Flask, in one place and in order
(server plumbing, beside :mod:`companion.serving`; the app keeps its gate at
:data:`companion.live.polls.GATE`, where a stream's pushed answer takes a place too).

1. **Once per start**, before the first answer: the door's ``first`` hook (the sealed
   choices a restart left without their keys are voided, so every screen hears of it).
2. **The body is read whole**, within a size and a time limit (:class:`BodyReader`), before
   the request waits for anything: a slow body costs a waiting greenlet, never a place.
3. **An unchanged poll is answered** here with a 204 after one indexed lookup
   (:mod:`companion.live.polls`): no session, no rate-limit check, no view.
4. **The gate** (:class:`Gate`): a few requests at work at once, the others in turn.
5. **The app** makes the answer; a refusal for a rate limit (429) goes back only
   ``REFUSAL_PAUSE`` seconds later, holding no place at the gate.

Each step is a few lines of :meth:`FrontDoor.__call__`; the sections below say why each
is there.

The gate
--------
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

The body
--------
The gate lets a few requests into the app at once. A request that took its place there
before its body had come held it while the app waited for the body: one POST that sent
its headers and never its body (a guest's script, or a phone whose upload stalled on
weak Wi-Fi) kept every table's taps waiting for as long as its socket stayed open. So
the door, before the gate, reads each body first and hands the app the body from memory:
a slow body costs a waiting greenlet (a thread, with gunicorn's gthread worker), never a
place at the gate.

- **Size**: at most ``MAX_CONTENT_LENGTH`` bytes (512 KiB; the largest record
  the API imports, with room to spare). A larger ``Content-Length`` is refused
  with a 413 before a byte of the body is read; a chunked body, as soon as it
  grows past the limit.
- **Time**: :data:`~companion.config.BODY_SECONDS` (10 s) for any body, and a
  second more for every :data:`BODY_RATE` bytes it says it has: a tap's form
  (under 4 KB) has 10 s, a 512 KiB import 42 s, which a poor phone link
  (128 kbit/s: a weak 3G signal, a crowded café Wi-Fi) still makes. A body not
  all there by then is answered 408, and the app never sees the request: it
  changes nothing.

The time limit holds while the body is being read, not just between reads
(gunicorn's reader waits for as many bytes as it is asked for): at the deadline,
one watching thread (:class:`Watchdog`) shuts the reading side of the late
request's socket, which ends the read at once. That works alike with gevent's
worker (where the thread is a greenlet) and with threads. Without a socket to
shut (the test client), the deadline is checked between reads.

Once refused, the connection is closed after the answer: the rest of that body
is not waited for.
"""

from __future__ import annotations

import heapq
import io
import itertools
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Flask, current_app, has_request_context, request
from werkzeug.exceptions import BadRequest, HTTPException, RequestEntityTooLarge, RequestTimeout

from .config import REFUSAL_PAUSE
from .live.polls import GATE, NOT_CHANGED, POLL_PATH, VERSION, VersionLookup

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

# --------------------------------------------------------------------------- the door


class FrontDoor:
    """Wrap the Flask app's WSGI callable: the steps of the module, in order.

    ``first``: called (in an app context) before the first answer, and again before the
    next answer whenever ``first_for(flask_app)`` gives something new (the sealed choices'
    key store, say: a new one is a restart). ``at_once``: the gate's places (0: no gate).
    ``lookup``: where unchanged polls read a table's version.
    """

    def __init__(self, app: Callable[..., Iterable[bytes]], flask_app: Flask, *,
                 lookup: VersionLookup, at_once: int,
                 first: Callable[[], Any] | None = None,
                 first_for: Callable[[Flask], Any] = lambda _app: True) -> None:
        self.app = app
        self.flask_app = flask_app
        self.lookup = lookup
        self.gate = Gate(at_once) if at_once else None
        self.body = BodyReader(flask_app)
        self.first = first
        self.first_for = first_for
        self._first_done: Any = None
        self._first_lock = threading.Lock()
        self.answered = 0
        """How many unchanged polls were answered here (for the benchmarks)."""

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        """Take one request through the door (see the module)."""
        if self.first is not None:
            self._once()
        refused = self.body.take(environ)
        if refused is not None:
            return self.body.refuse(environ, start_response, refused)
        if self._unchanged_poll(environ):
            self.answered += 1
            start_response(*NOT_CHANGED)
            return []
        statuses: list[str] = []

        def noting(status: str, headers: list, *rest: Any) -> Callable:
            statuses.append(status)
            return start_response(status, headers, *rest)

        if self.gate is None:
            answer = self.app(environ, noting)
        else:
            with self.gate.place(environ):
                answer = self.app(environ, noting)
        if statuses and statuses[-1].startswith("429"):
            time.sleep(self.flask_app.config.get("REFUSAL_PAUSE", REFUSAL_PAUSE))
        return answer

    def _once(self) -> None:
        """Call ``first`` before this process's first answer (the first request waits)."""
        key = self.first_for(self.flask_app)
        if self._first_done is key:
            return
        with self._first_lock:
            if self._first_done is not key:
                with self.flask_app.app_context():
                    self.first()
                self._first_done = key

    def _unchanged_poll(self, environ: dict[str, Any]) -> bool:
        """True for a live poll (an htmx GET of a table's region with ``?v=``) whose version
        is the table's own."""
        if (environ.get("REQUEST_METHOD") != "GET" or environ.get("HTTP_HX_REQUEST") != "true"
                or environ.get("HTTP_HX_BOOSTED")):
            return False
        path = POLL_PATH.match(environ.get("PATH_INFO", ""))
        version = VERSION.search(environ.get("QUERY_STRING", "")) if path else None
        return version is not None and self.lookup(path.group(1)) == int(version.group(1))


# --------------------------------------------------------------------------- the body


BODY_RATE = 16 * 1024
"""Bytes a second of a poor phone link (128 kbit/s): a body's time limit grows by a second
for each that many bytes it says it has."""
READ_STEP = 64 * 1024
"""Bytes asked of the server's reader at a time."""
CUT_SHORT = ("The request's body was cut short or did not match what its headers said, so "
             "nothing was done with it. Try again.")
"""The 400's message for a body that ended before its length, or broke."""


@dataclass(eq=False)
class _Watch:
    """One body being read: its socket, and whether the watchdog cut it off."""

    sock: socket.socket | None
    done: bool = False
    cut_off: bool = False


class Watchdog:
    """Cuts off the bodies still coming at their deadlines: one thread, started when a body
    is first watched, sleeps until the earliest deadline and shuts the reading side of that
    request's socket (its read then ends at once, with what came). It ends when nothing is
    left to watch."""

    def __init__(self) -> None:
        self._deadlines: list[tuple[float, int, _Watch]] = []
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    @contextmanager
    def watching(self, sock: socket.socket | None, deadline: float) -> Iterator[_Watch]:
        """Watch the block that reads a body from ``sock``: cut it off at ``deadline`` (a
        ``time.monotonic()``) when it has not ended by then."""
        watch = _Watch(sock)
        if sock is None:
            yield watch
            return
        with self._changed:
            heapq.heappush(self._deadlines, (deadline, next(self._order), watch))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="body-watchdog",
                                                daemon=True)
                self._thread.start()
            elif self._deadlines[0][2] is watch:
                self._changed.notify()
        try:
            yield watch
        finally:
            with self._changed:
                watch.done = True

    def _run(self) -> None:
        while True:
            with self._changed:
                while self._deadlines and self._deadlines[0][2].done:
                    heapq.heappop(self._deadlines)
                if not self._deadlines:
                    self._thread = None
                    return
                deadline, _order, watch = self._deadlines[0]
                left = deadline - time.monotonic()
                if left > 0:
                    self._changed.wait(left)
                    continue
                heapq.heappop(self._deadlines)
                watch.cut_off = True
                try:
                    watch.sock.shutdown(socket.SHUT_RD)
                except OSError:  # the client had gone already
                    pass


def time_limit(length: int, seconds: float) -> float:
    """Seconds a body of ``length`` bytes may take to arrive: ``seconds`` (``BODY_SECONDS``),
    and one more for every :data:`BODY_RATE` bytes.

    >>> time_limit(400, 10.0), time_limit(512 * 1024, 10.0)
    (10.0244140625, 42.0)
    """
    return seconds + length / BODY_RATE


class BodyReader:
    """Reads each request's whole body (within the ``flask_app``'s ``MAX_CONTENT_LENGTH``
    bytes and :func:`time_limit`) and puts it in memory for the app; or says why not (a
    413, a 408 or a 400), to be answered by ``flask_app``'s error pages."""

    def __init__(self, flask_app: Flask) -> None:
        self.flask_app = flask_app
        self.watchdog = Watchdog()

    def take(self, environ: dict[str, Any]) -> HTTPException | None:
        """Read the body (if any) into ``environ``; or the error to answer instead."""
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        try:
            length = None if chunked else int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = -1
        if length == 0:
            return None
        try:
            if length is not None and length < 0:
                raise BadRequest(CUT_SHORT)
            body = self._read(environ, length)
        except HTTPException as error:
            return error
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ["wsgi.input"] = io.BytesIO(body)
        environ["wsgi.input_terminated"] = True
        return None

    def _read(self, environ: dict[str, Any], length: int | None) -> bytes:
        """The whole body, or an HTTP error (413, 408, 400) to answer instead."""
        most = self.flask_app.config["MAX_CONTENT_LENGTH"]
        if length is not None and length > most:
            raise self._too_large(length)
        stream = environ["wsgi.input"]
        wanted = most + 1 if length is None else length
        limit = time_limit(most if length is None else length,
                           self.flask_app.config["BODY_SECONDS"])
        deadline = time.monotonic() + limit
        parts: list[bytes] = []
        got, broken = 0, False
        with self.watchdog.watching(environ.get("gunicorn.socket"), deadline) as watch:
            while got < wanted:
                try:
                    part = stream.read(min(READ_STEP, wanted - got))
                except Exception:  # the connection broke, the chunks were wrong, or the
                    part, broken = b"", True  # watchdog shut the socket
                if not part:
                    break
                parts.append(part)
                got += len(part)
                if got < wanted and time.monotonic() > deadline:
                    watch.cut_off = True
                    break
        if watch.cut_off:
            seconds = max(1, round(limit))
            raise RequestTimeout(
                f"The request took more than {seconds} second{'s' * (seconds != 1)} to arrive, "
                "so nothing was done with it. Check the connection and try again.")
        if length is None and got > most:
            raise self._too_large(None)
        if broken or (length is not None and got < length):
            raise BadRequest(CUT_SHORT)
        return b"".join(parts)

    def _too_large(self, length: int | None) -> RequestEntityTooLarge:
        size = "" if length is None else f" (this one: {_kib(length)})"
        return RequestEntityTooLarge(
            f"That is more than the app takes in one go: a request may bring at most "
            f"{_kib(self.flask_app.config['MAX_CONTENT_LENGTH'])}{size}.")

    def refuse(self, environ: dict[str, Any], start_response: Callable,
                error: HTTPException) -> Iterable[bytes]:
        """The app's own error page (or JSON, under /api) for ``error``, made without the
        body; the connection is closed after it."""
        environ = {**environ, "wsgi.input": io.BytesIO(), "CONTENT_LENGTH": "0"}
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        with self.flask_app.request_context(environ):
            response = self.flask_app.make_response(
                self.flask_app.handle_http_exception(error))
        sock = environ.get("gunicorn.socket")
        answer = response(environ, start_response)
        return _ThenClose(answer, sock) if sock is not None else answer



class _ThenClose:
    """An answer after which the server closes the connection: the rest of a refused body is
    not read (the reading side is shut once the answer has been sent)."""

    def __init__(self, answer: Iterable[bytes], sock: socket.socket) -> None:
        self.answer = answer
        self.sock = sock

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.answer)

    def close(self) -> None:
        """Called by the server once the answer is sent."""
        try:
            self.sock.shutdown(socket.SHUT_RD)
        except OSError:
            pass
        close = getattr(self.answer, "close", None)
        if close is not None:
            close()


def _kib(size: int) -> str:
    """A size in KiB, for a message.

    >>> _kib(512 * 1024), _kib(600_000)
    ('512 KiB', '586 KiB')
    """
    return f"{round(size / 1024)} KiB"


__all__ = ["BODY_RATE", "GATE", "FrontDoor", "Gate", "Watchdog", "set_aside", "time_limit"]
