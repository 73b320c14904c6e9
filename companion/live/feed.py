"""The change feed: how a server hears that a table changed.

The event streams (:mod:`companion.live.streams`) tell each screen its table's new
version. They hear of it through a :class:`ChangeFeed`, which has two duties:

- :meth:`~ChangeFeed.versions`: the versions of tables now. Once a request of this
  process has committed changes (its answer sent), the streams ask it for the versions of
  the tables it changed, and tell their screens at once.
- :meth:`~ChangeFeed.follow`: hear of changes made anywhere else (another worker, another
  server, a script) to the tables the streams follow, and tell the streams.

Two feeds meet :class:`ChangeFeed`, named in :data:`FEEDS` and chosen by the app's
``CHANGE_FEED`` setting (``COMPANION_CHANGE_FEED``; see ``docs/architecture.md``):

- ``polling`` (:class:`PollingFeed`, the default on SQLite: one process, the laptop's
  case): it reads the followed tables' versions every :data:`WATCH_EVERY` seconds, in one
  thread, while streams are open;
- ``notify`` (:class:`NotifyFeed`, the default on PostgreSQL): the database tells it.
  Each raise of a version is notified by the transaction that makes it
  (:func:`companion.store.commits.bump`); the process keeps one connection that
  ``LISTEN``s, and reads no version on a timer: several workers and several servers on
  one database hear each other's changes at once, whether anything changed or not costs
  nothing.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Protocol

from sqlalchemy.engine import Engine

from ..store.commits import VERSIONS_CHANNEL, origin
from .polls import VersionLookup

log = logging.getLogger(__name__)

WATCH_EVERY = 0.5
"""Seconds between two reads of the followed tables' versions (:class:`PollingFeed`)."""

Hear = Callable[[Mapping[int, int]], None]
"""Told new versions: table id to version."""
Following = Callable[[], Collection[int] | None]
"""The tables followed now; None once nothing is followed (the feed may rest)."""


class ChangeFeed(Protocol):
    """How a server hears that a table changed (see the module)."""

    def versions(self, table_ids: Iterable[int]) -> dict[int, int]:
        """The versions of these tables now (empty when they could not be read)."""
        ...

    def follow(self, following: Following, hear: Hear) -> None:
        """Start telling ``hear`` the new versions of the tables ``following()`` names,
        changed anywhere, until ``following()`` says None. Called again after that, it
        starts again."""
        ...


class PollingFeed:
    """The versions read from the database: at once after this process's own changes, and
    every ``every`` seconds for the followed tables, in one thread while any are followed."""

    def __init__(self, lookup: VersionLookup, every: float | None = None) -> None:
        self.lookup = lookup
        self.every = every
        """Seconds between two reads (None: :data:`WATCH_EVERY`, as it is at each read)."""

    def versions(self, table_ids: Iterable[int]) -> dict[int, int]:
        """The tables' versions, read now."""
        return self.lookup.of_tables(table_ids)

    def follow(self, following: Following, hear: Hear) -> None:
        """Read the followed tables' versions every ``every`` seconds, in a thread of its
        own, until nothing is followed."""
        threading.Thread(target=self._watch, args=(following, hear), name="change-feed",
                         daemon=True).start()

    def _watch(self, following: Following, hear: Hear) -> None:
        stop = threading.Event()
        while True:
            stop.wait(WATCH_EVERY if self.every is None else self.every)
            table_ids = following()
            if table_ids is None:
                return
            hear(self.versions(table_ids))


LOOK_EVERY = 0.5
"""Seconds between two looks of :class:`NotifyFeed`'s listener at what is followed (in this
process's memory: whether streams are still open, whether the worker stops), while no
notification comes."""
OWN_LATE = 1.0
"""Seconds after which :class:`NotifyFeed` tells the streams of a change this process made
itself: its request has told them by then, once its answer was sent (the tap's screen
first); this is for a change whose request did not."""
RECONNECT = (0.1, 5.0)
"""Seconds :class:`NotifyFeed` waits before it connects again after its connection dropped:
the first wait, doubled at each failure up to the second."""


class NotifyFeed:
    """The versions as PostgreSQL notifies them: one listening connection per process, in
    one thread (a greenlet under gunicorn's gevent worker: psycopg waits on the socket
    cooperatively once gevent has patched ``select``), while any table is followed.

    Each notification (``"<table id> <version> <origin>"``, on
    :data:`~companion.store.commits.VERSIONS_CHANNEL`) is told to the streams at once,
    except this process's own (:data:`OWN_LATE`). Each time it (re)connects, once it
    listens, it reads the followed tables' versions once: what changed while it was not
    listening is not missed. A dropped connection is made again (:data:`RECONNECT`).
    """

    def __init__(self, lookup: VersionLookup) -> None:
        self.lookup = lookup
        self.connection = None
        """The listening connection, while there is one (psycopg's)."""
        self.connects = 0
        """How many times the listener connected (for the tests)."""

    def versions(self, table_ids: Iterable[int]) -> dict[int, int]:
        """The tables' versions, read now (after this process's own changes, and once at
        each connection of the listener)."""
        return self.lookup.of_tables(table_ids)

    def follow(self, following: Following, hear: Hear) -> None:
        """Listen (in a thread of its own) until nothing is followed."""
        threading.Thread(target=self._listen, args=(following, hear), name="change-feed",
                         daemon=True).start()

    def _connect(self):
        engine = self.lookup.engine
        args, kwargs = engine.dialect.create_connect_args(engine.url)
        connection = engine.dialect.loaded_dbapi.connect(*args, **kwargs)
        connection.autocommit = True
        connection.execute(f"LISTEN {VERSIONS_CHANNEL}")
        return connection

    def _listen(self, following: Following, hear: Hear) -> None:
        wait = RECONNECT[0]
        while True:
            table_ids = following()
            if table_ids is None:
                return
            try:
                connection = self._connect()
            except Exception as error:
                log.warning("change feed: cannot listen (%s); again in %.1f s",
                            str(error).strip(), wait)
                time.sleep(wait)
                wait = min(2 * wait, RECONNECT[1])
                continue
            self.connection = connection
            self.connects += 1
            wait = RECONNECT[0]
            try:
                # Listening now: what changed before (while the streams opened, or while
                # the connection was down) is read once.
                hear(self.versions(table_ids))
                if not self._hear(connection, following, hear):
                    return
            except Exception as error:
                log.warning("change feed: connection lost (%s); listening again",
                            str(error).strip())
                time.sleep(wait)
            finally:
                self.connection = None
                try:
                    connection.close()
                except Exception:  # already gone
                    pass

    def _hear(self, connection, following: Following, hear: Hear) -> bool:
        """Tell ``hear`` the notifications, until nothing is followed (False) or the
        connection fails (it raises)."""
        mine = origin()
        own: list[tuple[float, dict[int, int]]] = []  # (when to tell, versions)
        while True:
            heard: dict[int, int] = {}
            for note in connection.notifies(timeout=LOOK_EVERY):
                try:
                    table_id, version, made_by = note.payload.split(" ", 2)
                    got = {int(table_id): int(version)}
                except ValueError:
                    continue  # not one of ours
                if made_by == mine:
                    own.append((time.monotonic() + OWN_LATE, got))
                    continue
                hear(got)
            now = time.monotonic()
            while own and own[0][0] <= now:
                heard.update(own.pop(0)[1])
            if heard:
                hear(heard)
            if following() is None:
                return False


FEEDS: dict[str, Callable[[Engine], ChangeFeed]] = {
    "polling": lambda engine: PollingFeed(VersionLookup(engine)),
    "notify": lambda engine: NotifyFeed(VersionLookup(engine)),
}
"""The change feeds an app may use, by the name its ``CHANGE_FEED`` setting gives."""


def default_feed(database: str) -> str:
    """The change feed for a database kind (``"sqlite"`` or ``"postgresql"``).

    >>> default_feed("sqlite"), default_feed("postgresql")
    ('polling', 'notify')
    """
    return "notify" if database == "postgresql" else "polling"


def feed_for(name: str | None, engine: Engine) -> ChangeFeed:
    """The change feed called ``name`` (``CHANGE_FEED``; None: the database's default), on
    ``engine``'s database."""
    database = engine.dialect.name
    name = name or default_feed(database)
    if name not in FEEDS:
        raise ValueError(f"COMPANION_CHANGE_FEED must be one of {', '.join(FEEDS)}, "
                         f"not {name[:20]!r}")
    if name == "notify" and database != "postgresql":
        raise ValueError("COMPANION_CHANGE_FEED=notify needs PostgreSQL (DATABASE_URL): "
                         f"this database is {database}; use polling")
    return FEEDS[name](engine)


__all__ = ["FEEDS", "WATCH_EVERY", "ChangeFeed", "NotifyFeed", "PollingFeed", "default_feed",
           "feed_for"]
