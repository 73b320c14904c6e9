"""What each commit changed: the tables whose version it raised, and the database tables it
wrote.

The store raises a table's version with every change a screen shows
(:func:`companion.store.changes.bump`) and notes it in the open transaction. Once the
transaction commits, the listeners here keep what it raised for the two readers that come
after the commit: the event streams (:func:`take_committed`: whose screens to tell) and
the version memo (:func:`take_steps`: what a value kept for the version before still
holds). A rolled-back transaction keeps nothing.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session, SessionTransaction

from ..store.changes import VERSION_ONLY, raised

COMMITTED = "companion.committed"
"""``Session.info`` key: the tables whose version the session's committed transactions raised."""

TOUCHED = "companion.touched"
"""``Session.info`` and ``Connection.info`` key: the database tables the open transaction
wrote to (``*``: a statement whose table is not known)."""

STEPPED = "companion.stepped"
"""``Session.info`` key: the committed raises (:class:`Step`) not yet taken."""

ANY_TABLE = "*"
"""In a transaction's written tables: a statement whose table is not known."""

_WRITE = re.compile(r"\s*(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+"
                    r"(?:\"?\w+\"?\.)?\"?(\w+)", re.IGNORECASE)  # (a schema before the name)
_READ = ("SELECT", "SAVEPOINT", "RELEASE", "ROLLBACK", "PRAGMA", "SHOW", "SET ")


class Step(NamedTuple):
    """A committed change of a table: the database raised its version to ``version`` (from
    the one just before), and the transaction wrote to the database tables ``wrote``."""

    table_id: int
    version: int
    wrote: frozenset[str]


def take_steps(session: Session) -> list[Step]:
    """The raises of tables' versions ``session`` committed since this was last asked."""
    return session.info.pop(STEPPED, [])


def take_committed(session: Session) -> set[int]:
    """The tables whose version ``session`` raised and committed since this was last asked."""
    return session.info.pop(COMMITTED, set())


def written(session: Session) -> set[str]:
    """The database tables ``session``'s open transaction wrote to so far."""
    return session.info.get(TOUCHED, set())


@event.listens_for(Session, "after_begin")
def _after_begin(session: Session, transaction: SessionTransaction,
                 connection: Connection) -> None:
    # One set for the transaction, reached from the session and from the statements of
    # its connection (_note_write).
    touched: set[str] = set()
    session.info[TOUCHED] = touched
    connection.info[TOUCHED] = touched


@event.listens_for(Engine, "before_cursor_execute")
def _note_write(connection: Connection, cursor: Any, statement: str, parameters: Any,
                context: Any, executemany: bool) -> None:
    touched = connection.info.get(TOUCHED)
    if touched is None or statement.lstrip()[:9].upper().startswith(_READ):
        return
    if context is not None and context.execution_options.get(VERSION_ONLY):
        return
    found = _WRITE.match(statement)
    touched.add(found.group(1).lower() if found else ANY_TABLE)


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    bumped, steps = raised(session)
    if bumped:
        session.info.setdefault(COMMITTED, set()).update(bumped)
    if steps:
        touched = session.info.get(TOUCHED)
        wrote = frozenset({ANY_TABLE} if touched is None else touched)
        session.info.setdefault(STEPPED, []).extend(
            Step(table_id, version, wrote) for table_id, version in steps)


@event.listens_for(Session, "after_transaction_end")
def _after_transaction_end(session: Session, transaction: SessionTransaction) -> None:
    if transaction.parent is None and not transaction.nested:
        # (The connection keeps its set until its next transaction begins: what it runs
        # outside a session's transaction meanwhile is written to a set nobody reads.)
        session.info.pop(TOUCHED, None)


__all__ = ["ANY_TABLE", "Step", "take_committed", "take_steps", "written"]
