"""The change feed: how a server hears that a table changed.

The event streams (:mod:`companion.live.streams`) tell each screen its table's new
version. They hear of it through a :class:`ChangeFeed`, which has two duties:

- :meth:`~ChangeFeed.versions`: the versions of tables now. Once a request of this
  process has committed changes (its answer sent), the streams ask it for the versions of
  the tables it changed, and tell their screens at once.
- :meth:`~ChangeFeed.follow`: hear of changes made anywhere else (another worker, another
  server, a script) to the tables the streams follow, and tell the streams.

:class:`PollingFeed` is the first: it reads the followed tables' versions every
:data:`WATCH_EVERY` seconds, in one thread, while streams are open. A feed that hears
instead of reading (PostgreSQL's ``LISTEN``/``NOTIFY``, say) is one more class here that
meets :class:`ChangeFeed`, and one more entry in :data:`FEEDS`, chosen by the app's
``CHANGE_FEED`` setting (see ``docs/architecture.md``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Protocol

from sqlalchemy.engine import Engine

from .polls import VersionLookup

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


FEEDS: dict[str, Callable[[Engine], ChangeFeed]] = {
    "polling": lambda engine: PollingFeed(VersionLookup(engine)),
}
"""The change feeds an app may use, by the name its ``CHANGE_FEED`` setting gives."""


def feed_for(name: str, engine: Engine) -> ChangeFeed:
    """The change feed called ``name`` (``CHANGE_FEED``), on ``engine``'s database."""
    return FEEDS[name](engine)


__all__ = ["FEEDS", "WATCH_EVERY", "ChangeFeed", "PollingFeed", "feed_for"]
