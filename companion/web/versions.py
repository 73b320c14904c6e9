"""What a table shows at one version: made once, shared by every screen that asks.

Every change a screen shows raises the table's version (``store.changes.bump``),
so whatever is made from the table's facts alone (a game's moment, the
scoreboard's stamp, the seats' stamp) is the same for every screen and every
poll at that version. :func:`at_version` makes it for the first screen that
asks and hands the same object to the others: after a tap, the tablet and
four phones make the moment once, not five times.

Only what is made from committed facts is kept and shared: in a request that
writes nothing (GET); in an action that holds its round's lock and has changed
nothing yet (:func:`locked`: the facts are those of the version it read after
the lock, and no other change can come while it holds it); and after its
commit (``companion.transactions.reads_only``). Between its first change and its commit,
an action makes its own: its facts are changing, and may yet be rolled back.

A kept value is read, never changed (it is shared between threads). One
value is kept per table and purpose, the latest version's; at most
``size`` are kept, the least recently used going first. Each process (each
gunicorn worker) keeps its own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

from flask import Flask, current_app, g, has_request_context

from ..extensions import db
from ..store import Table
from ..store.changes import changed, locked_first
from ..transactions import reads_only

EXTENSION = "companion.versions"

T = TypeVar("T")


class VersionMemo:
    """The values made from a table's facts at its latest version, by table and purpose."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[int, Hashable], tuple[int, object]] = OrderedDict()
        self._lock = threading.Lock()
        self.made = 0
        """How many values were made while they could be kept (for the benchmarks)."""
        self.found = 0
        """How many were found kept."""

    def get(self, table: Table, what: Hashable, make: Callable[[], T]) -> T:
        """``make()`` for ``table`` at its version and purpose ``what``, made once and shared."""
        version = table.version  # read before anything ``make`` reads: never older than them
        key = (table.id, what)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and kept[0] == version:
                self._kept.move_to_end(key)
                self.found += 1
                return kept[1]  # type: ignore[return-value]
        value = make()
        with self._lock:
            self.made += 1
            kept = self._kept.get(key)
            if kept is None or kept[0] <= version:
                self._kept[key] = (version, value)
                self._kept.move_to_end(key)
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
        return value


def install(app: Flask) -> None:
    """Give the app its own memo (each app its own database, so its own versions)."""
    app.extensions[EXTENSION] = VersionMemo()


def locked(table: Table) -> None:
    """Say that this action holds its table's lock: until its first change, what it makes
    is what every screen sees at the table's version. The table's row (its version with it)
    was read under that lock (``changes.find_to_change``, as every request that writes finds
    its table), so nothing needs reading again."""
    assert locked_first(table.id), "an action finds its table with find_to_change"
    g.companion_locked = True


def _keepable() -> bool:
    """True when the facts this request reads are committed ones it does not change."""
    return reads_only() or (has_request_context() and g.get("companion_locked", False)
                            and not changed(db.session))


def at_version(table: Table, what: Hashable, make: Callable[[], T]) -> T:
    """``make()``, shared by every screen asking at the table's version (see the module)."""
    if not _keepable():
        return make()
    return current_app.extensions[EXTENSION].get(table, what, make)


__all__ = ["VersionMemo", "at_version", "install", "locked"]
