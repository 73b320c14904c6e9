"""Push: a screen hears at once when its table changes, and has the change with it.

A page that follows a table live (it has a ``#pulse``) keeps one event stream
open, ``GET /t/<code>/events`` (server-sent events). The stream says the
table's version when it opens, again as soon as the version changes, and
every :data:`HEARTBEAT` seconds in between, so that the page knows it still
hears. When the page opened it with its pulse (``static/app/sync-page.js`` does), a
change comes as the answer the page's poll would get, made in the stream
(:mod:`companion.live.push`): the screen makes no request at all. Otherwise
sync-page.js polls the page's pulse when the version it hears is not the one the
page shows: one request per change, not one every two seconds. Either way a
screen has a change within moments, not up to two seconds later. Without a
stream (an old browser, a proxy that holds the stream back, a server that
holds as many streams as it may), the page polls every two seconds as it
always did: the same pulse, the same answers.

How a stream hears of a change (:class:`Streams`):

- a request of this process that raised tables' versions tells their streams
  once its answer is sent (so the screen that made the change has it first,
  and the moment it made is there for the other screens to share:
  :mod:`companion.live.versions`); the screens of a table hear of it a moment
  apart (within :data:`SPREAD` seconds), so their polls come one after
  another, not in one burst;
- a change made anywhere else (another worker or server, a script) is heard
  through the app's change feed (:mod:`companion.live.feed`): on PostgreSQL at once,
  the database notifying every process that listens; on SQLite within
  :data:`~companion.live.feed.WATCH_EVERY` seconds, while streams are open, one
  thread reading the versions of their tables that often.

Each open stream waits in a greenlet of gunicorn's gevent worker (or holds
one of the gthread worker's threads, which keeps ``EVENT_STREAMS`` of them
for streams besides those for requests), and at most ``EVENT_STREAMS`` are
open at once, at most ``STREAMS_PER_ADDRESS`` from one address (the
client's, as the rate limits take it): a stream asked for beyond either says
only ``full`` (sync-page.js then closes it, polls, and asks again later). One
address cannot take every place (it once opened all 1,000 in 7 s, and every
other screen polled); a café's Wi-Fi, one address for a table or two of
phones, stays well inside its share. A stream ends after :data:`LIFETIME`
seconds (the browser opens the next at once), and when the worker stops.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from flask import Blueprint, Flask, Response, current_app
from flask_limiter.util import get_remote_address
from sqlalchemy.engine import Engine

from ..config import REFUSAL_PAUSE
from ..extensions import db
from ..store.commits import take_committed
from .feed import ChangeFeed, feed_for
from .hooks import EXTENSION as HOOKS
from .hooks import NO_HOOKS, Hooks, hooks
from .push import Origin, PagePush, SharedTable, made_by, page_push

EXTENSION = "companion.streams"
HEARTBEAT = 2.0
"""Seconds between two messages of a stream when nothing changes. A page that hears nothing
for a second longer marks itself possibly out of date ("Reconnecting…") and asks with a
poll (``static/app/sync.js``, HEARTBEAT_MS): a stream that died without a word (a Wi-Fi
blip) is noticed within about three seconds, not twenty. A heartbeat is a dozen bytes
written per open stream (500 a second for 1,000 streams), and the stream's greenlet or
thread wakes that often."""
LIFETIME = 300.0
"""Seconds a stream lasts; the browser opens the next one at once."""
RETRY_MS = 500
"""How long a browser waits before it opens a stream again when one drops: after a restart
the screens hear the new process within half a second of its start (it voids the votes
whose keys were lost and raises their tables' versions: every screen says so at once);
while the server is down, each screen tries twice a second, at the cost of a refused
connection each time."""
SPREAD = 0.2
"""Seconds over which the screens of a table hear of one change (at random)."""
FULL = "event: full\ndata: \n\n"
"""The whole stream of a server that holds as many streams as it may: the page closes it and
polls (a refusal by status, such as a 204, would be logged as an error by the browser)."""


@dataclass
class TableStreams:
    """One table's streams: the latest version heard, and how many streams listen."""

    version: int
    news: threading.Condition
    listeners: int = 0
    maker: Origin | None = None
    """The page the latest version came from, when a tap of this process made it."""
    shared: SharedTable = field(default_factory=SharedTable)
    """The table as its streams' answers last loaded it (:class:`~.push.SharedTable`)."""


@dataclass
class Streams:
    """Every table's streams in this process, and the change feed that tells them of the
    others' changes."""

    feed: ChangeFeed
    """How this process hears that a table changed."""
    limit: int
    per_address: int | None = None
    """Streams one address may hold open at once (None: as many as the process)."""
    stopping: Callable[[], bool] = lambda: False
    """True once the process is stopping: every stream ends (the server sets it)."""
    _tables: dict[int, TableStreams] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _streams: int = 0
    _by_address: Counter[str] = field(default_factory=Counter)
    _following: bool = False
    """True while the feed tells this process's streams of changes made elsewhere."""

    # -- streams

    @property
    def full(self) -> bool:
        """True when as many streams are open as may be."""
        return self._streams >= self.limit

    def full_for(self, address: str) -> bool:
        """True when no more stream may open for ``address``: the process holds as many as
        it may, or that address does."""
        return self.full or (self.per_address is not None
                             and self._by_address[address] >= self.per_address)

    def listen(self, table_id: int, version: int, address: str | None = None,
               ) -> SharedTable | None:
        """Open a stream on a table's streams (for a client at ``address``); the table's lookup
        its streams share. None when no more may open (:meth:`full_for`: streams asked for
        at the same moment were all let through its first look)."""
        with self._lock:
            if address is not None and self.full_for(address):
                return None
            self._streams += 1
            if address is not None:
                self._by_address[address] += 1
            here = self._tables.get(table_id)
            if here is None:
                here = TableStreams(version, threading.Condition(self._lock))
                self._tables[table_id] = here
            elif version > here.version:  # a newer version than the others heard: tell them
                here.version, here.maker = version, None
                here.news.notify_all()
            here.listeners += 1
            if not self._following:
                self._following = True
                self.feed.follow(self._followed, self.announce)
            return here.shared

    def leave(self, table_id: int, address: str | None = None) -> None:
        """Close a stream opened by :meth:`listen`."""
        with self._lock:
            self._streams -= 1
            if address is not None:
                self._by_address[address] -= 1
                if not self._by_address[address]:
                    del self._by_address[address]
            here = self._tables[table_id]
            here.listeners -= 1
            if not here.listeners:
                del self._tables[table_id]

    def wait(self, table_id: int, heard: int, timeout: float) -> int:
        """The table's version once it is not ``heard`` (or ``timeout`` seconds passed, or
        the process is stopping)."""
        with self._lock:
            here = self._tables[table_id]
            here.news.wait_for(lambda: here.version != heard or self.stopping(), timeout)
            return here.version

    def latest(self, table_id: int) -> tuple[int, Origin | None]:
        """The latest version heard of a table that a stream listens to, and the page it
        came from (when a tap of this process made it)."""
        with self._lock:
            here = self._tables[table_id]
            return here.version, here.maker

    @property
    def open_streams(self) -> int:
        """How many streams are open now."""
        return self._streams

    # -- changes

    def announce(self, versions: Mapping[int, int], maker: Origin | None = None) -> None:
        """Tell the streams of these tables their new versions (made by ``maker``'s page)."""
        with self._lock:
            for table_id, version in versions.items():
                here = self._tables.get(table_id)
                if here is not None and version > here.version:
                    here.version, here.maker = version, maker
                    here.news.notify_all()

    def announce_changed(self, table_ids: set[int], maker: Origin | None = None) -> None:
        """Tell the streams of the tables this process changed (their versions read now), a tap
        of ``maker``'s page having changed the one table."""
        with self._lock:
            heard = [table_id for table_id in table_ids if table_id in self._tables]
        if heard:
            versions = self.feed.versions(heard)
            # Only the version the tap made is its page's (not a later one read here).
            mine = (maker is not None and len(table_ids) == 1
                    and maker.version is not None and maker.version in versions.values())
            self.announce(versions, maker if mine else None)

    def _followed(self) -> list[int] | None:
        """For the feed: the tables whose streams are open (None when none is: the feed
        rests until the next opens). Once the process is stopping, every stream is woken
        to end."""
        with self._lock:
            if self.stopping():
                for here in self._tables.values():
                    here.news.notify_all()
            if not self._tables:
                self._following = False
                return None
            return list(self._tables)

    # -- a stream's messages

    def stream(self, table_id: int, version: int, page: PagePush | None = None,
               address: str | None = None) -> Iterator[str]:
        """A stream's messages (``data: <version>``, or the ``page``'s pulse answer when it
        can be made: :mod:`companion.live.push`), from its opening to its end, for a client
        at ``address``. It listens from its first message (an answer never sent holds
        nothing open)."""
        shared = self.listen(table_id, version, address)
        if shared is None:
            yield FULL
            return
        if page is not None:
            page.shared = shared
        try:
            yield f"retry: {RETRY_MS}\ndata: {version}\n\n"
            ends = time.monotonic() + LIFETIME
            while not self.stopping():
                left = ends - time.monotonic()
                if left <= 0:
                    break
                heard = self.wait(table_id, version, min(HEARTBEAT, left))
                if heard != version:
                    # The table's screens hear of a change a moment apart, not all at once:
                    # their polls then come one after another instead of in one burst.
                    time.sleep(random.uniform(0, SPREAD))
                    heard, maker = self.latest(table_id)
                    pushed = page.follow(heard, maker) if page is not None else None
                    if pushed is not None:
                        version = heard
                        yield pushed
                        continue
                version = heard
                yield f"data: {version}\n\n"
        finally:
            self.leave(table_id, address)


def streams() -> Streams:
    """This app's event streams."""
    return current_app.extensions[EXTENSION]


def events(code: str) -> Response:
    """The table's event stream: its version now, and at once each time it changes (with
    the page's pulse answer, when the page says its pulse: :mod:`companion.live.push`)."""
    every, address = streams(), get_remote_address()
    # As many streams as may be (or as this address may hold): this page polls instead
    # (and asks again in a while). Said before anything is looked up: a refusal costs little.
    if every.full_for(address):
        return _event_stream(_full(current_app.config.get("REFUSAL_PAUSE", REFUSAL_PAUSE)))
    table = hooks().find_table(code)
    table_id, version, page = table.id, table.version, page_push(table)
    db.session.remove()  # a stream holds no transaction (nor a connection) while it waits
    return _event_stream(every.stream(table_id, version, page, address))


def _event_stream(messages: Iterable[str]) -> Response:
    return Response(messages, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _full(pause: float) -> Iterator[str]:
    """The stream refused, said after ``pause`` seconds (out of the gate: the answer is sent
    after the request's place is given up): a client opening stream after stream is told
    once a second, not a thousand times in seven (``scripts/hostile_client.py``); a page
    told ``full`` polls meanwhile, as it would."""
    time.sleep(pause)
    yield FULL


def announce_after_request(response: Response) -> Response:
    """Tell the streams of the tables whose changes the request committed, once its answer
    is sent (so the screen that made the change has it before the others ask)."""
    if db.session.registry.has():
        changed = take_committed(db.session)
        if changed:
            every, maker = streams(), made_by(response)
            response.call_on_close(lambda: every.announce_changed(changed, maker))
    return response


def install(app: Flask, engine: Engine, told: Hooks = NO_HOOKS) -> None:
    """Give the app its event streams, their route and the change feed they hear from
    (``CHANGE_FEED``), with what the pages tell the live layer (``told``)."""
    app.extensions[HOOKS] = told
    app.extensions[EXTENSION] = Streams(feed_for(app.config.get("CHANGE_FEED"), engine),
                                        app.config["EVENT_STREAMS"],
                                        app.config["STREAMS_PER_ADDRESS"])
    bp = Blueprint("streams", __name__)
    bp.add_url_rule("/t/<code>/events", "events", told.counted(events))
    app.register_blueprint(bp)
    app.after_request(announce_after_request)


__all__ = ["Streams", "TableStreams", "install", "streams"]
