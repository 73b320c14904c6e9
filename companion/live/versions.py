"""What a table shows at one version: made once, shared by every screen that asks.

Every change a screen shows raises the table's version (``store.commits.bump``),
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

A value made from some of the table's facts only names the database tables
they are read from (``depends_on``): it is carried to the next version when
the change that made it wrote none of them (``store.commits.Step``: each
change this process committed, the tables it wrote). A tick of a checklist
then costs its answer no read of the seats or of the vote: what was made
for the version before still holds. A change made by another process is not
known here: what depends on it is made again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Set
from typing import TypeVar

from flask import Flask, Response, current_app

from ..extensions import db
from ..request_state import request_state, state_if_any
from ..store import Table
from ..store.commits import ANY_TABLE, Step, changed, locked_first, take_steps
from ..transactions import reads_only

EXTENSION = "companion.versions"

T = TypeVar("T")


class VersionMemo:
    """The values made from a table's facts at its latest version, by table and purpose."""

    def __init__(self, size: int = 4096, steps: int = 16) -> None:
        self.size = size
        self.steps = steps
        self._kept: OrderedDict[tuple[int, Hashable], tuple[int, object]] = OrderedDict()
        self._steps: OrderedDict[int, dict[int, frozenset[str]]] = OrderedDict()
        """By table: the tables written by each change this process committed, by the
        version it made."""
        self._lock = threading.Lock()
        self.made = 0
        """How many values were made while they could be kept (for the benchmarks)."""
        self.found = 0
        """How many were found kept (or carried)."""
        self.carried = 0
        """How many of those were carried from an earlier version."""

    def learn(self, steps: Iterable[Step]) -> None:
        """Take note of changes committed by this process (the last ``steps`` per table)."""
        with self._lock:
            for step in steps:
                known = self._steps.get(step.table_id)
                if known is None:
                    known = self._steps[step.table_id] = {}
                known[step.version] = step.wrote
                if len(known) > self.steps:
                    del known[min(known)]
                self._steps.move_to_end(step.table_id)
                while len(self._steps) > self.size:
                    self._steps.popitem(last=False)

    def _holds(self, table_id: int, kept: int, version: int, depends_on: Set[str]) -> bool:
        """Whether every change from version ``kept`` to ``version`` is known and wrote
        none of ``depends_on`` (called with the lock held)."""
        known = self._steps.get(table_id, {})
        for made in range(kept + 1, version + 1):
            wrote = known.get(made)
            if wrote is None or ANY_TABLE in wrote or not wrote.isdisjoint(depends_on):
                return False
        return True

    def get(self, table: Table, what: Hashable, make: Callable[[], T],
            depends_on: Set[str] | None = None) -> T:
        """``make()`` for ``table`` at its version and purpose ``what``, made once and shared;
        with ``depends_on`` (the database tables it is made from), carried from an earlier
        version when no change since wrote to them."""
        version = table.version  # read before anything ``make`` reads: never older than them
        key = (table.id, what)
        with self._lock:
            kept = self._kept.get(key)
            if (kept is not None and depends_on is not None and kept[0] < version
                    and self._holds(table.id, kept[0], version, depends_on)):
                kept = self._kept[key] = (version, kept[1])
                self.carried += 1
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
    """Give the app its own memo (each app its own database, so its own versions), which
    learns of every change the app's requests commit."""
    app.extensions[EXTENSION] = VersionMemo()
    app.after_request(_learn_steps)


def _learn_steps(response: Response) -> Response:
    # What a request committed and drew nothing from afterwards (a redirect, say).
    if db.session.registry.has():
        _memo()
    return response


def _memo() -> VersionMemo:
    """The app's memo, once it has learnt the changes this request committed so far."""
    memo = current_app.extensions[EXTENSION]
    steps = take_steps(db.session())
    if steps:
        memo.learn(steps)
    return memo


def locked(table: Table) -> None:
    """Say that this action holds its table's lock: until its first change, what it makes
    is what every screen sees at the table's version. The table's row (its version with it)
    was read under that lock (``commits.find_to_change``, as every request that writes finds
    its table), so nothing needs reading again."""
    assert locked_first(table.id), "an action finds its table with find_to_change"
    request_state().locked = True


def _keepable() -> bool:
    """True when the facts this request reads are committed ones it does not change."""
    if reads_only():
        return True
    state = state_if_any()
    return state is not None and state.locked and not changed(db.session)


def at_version(table: Table, what: Hashable, make: Callable[[], T],
               depends_on: Set[str] | None = None) -> T:
    """``make()``, shared by every screen asking at the table's version, and carried to
    later versions while no change writes to ``depends_on`` (see the module)."""
    if not _keepable():
        return make()
    return _memo().get(table, what, make, depends_on)


__all__ = ["VersionMemo", "at_version", "install", "locked"]
