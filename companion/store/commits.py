"""What a transaction that changes a table does besides its writes: the table's lock, the
raise of its version, and the notes of what each commit changed.

A request that changes a table finds it with :func:`find_to_change` (its row locked
before anything else of it is read). Every change a screen shows goes with :func:`bump`,
which raises the table's version in the database itself (``version = version + 1``), so
two phones changing a table in the same millisecond both count. What a commit raised and
wrote is noted (:class:`ChangeNotes`) for the two readers that come after it: the event
streams (:func:`take_committed`) and the version memo (:func:`take_steps`).

The writes themselves (a table, its seats, its requests, its games) are
:mod:`companion.store.changes`.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sqlalchemy import event, func, inspect, literal, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session, SessionTransaction
from sqlalchemy.orm.attributes import set_committed_value

from ..extensions import db
from .models import Table
from .queries import table_to_change

VERSIONS_CHANNEL = "companion_versions"
"""PostgreSQL's channel on which each raise of a table's version is notified (with the
transaction that makes it): ``"<table id> <version> <origin>"``, heard by every server
process on the database (:class:`companion.live.feed.NotifyFeed`)."""

_origin: tuple[int, str] | None = None


def origin() -> str:
    """This process's mark in the notifications of the versions it raises: a process hears
    its own changes from its requests (once their answers are sent), and the others' from
    the database. Made anew in each process (a forked worker gets its own)."""
    global _origin
    pid = os.getpid()
    if _origin is None or _origin[0] != pid:
        _origin = (pid, secrets.token_hex(8))
    return _origin[1]


def bump(table: Table) -> None:
    """Raise the table's version by one, atomically in the database.

    The statement goes to the session's connection, not through the ORM's bulk update
    (which flushes first and weighs what it changes): a quarter of a millisecond less
    for every change, in process on PostgreSQL. The session's own changes are flushed
    at the commit, in the same transaction.

    On PostgreSQL the same statement notifies the new version on :data:`VERSIONS_CHANNEL`
    (``pg_notify`` in its ``RETURNING``): the notification goes out when the transaction
    commits, and never if it rolls back. Every raise of a version is made here (nothing
    else writes ``tables.version``), so no trigger is needed, and the raise costs no
    second statement."""
    row = Table.__table__.c
    connection = db.session.connection()
    returned = [row.version]
    if connection.dialect.name == "postgresql":
        returned.append(func.pg_notify(VERSIONS_CHANNEL, func.concat(
            row.id, " ", row.version, " ", literal(origin()))))
    version = connection.execute(
        update(Table.__table__).where(row.id == table.id).values(version=row.version + 1)
        .returning(*returned).execution_options(**{VERSION_ONLY: True})).scalar_one()
    set_committed_value(table, "version", version)
    noted = notes(db.session)
    noted.bumped.add(table.id)
    noted.steps.append((table.id, version))


def find_to_change(code: str) -> Table | None:
    """The table with join code ``code``, for a transaction that changes it: its row is
    locked before anything else of the table is read.

    Every change to a table goes with :func:`bump`, which needs that lock: what this
    transaction reads of the table after it (the table's version, its games, their
    rounds) is what was last committed, and stays so until this transaction ends.
    """
    table = db.session.scalar(table_to_change(code))
    if table is not None:
        notes(db.session).locked[table.id] = []
    return table


def locked_first(table_id: int) -> bool:
    """True when the open transaction locked the table's row before it read anything else
    of it (:func:`find_to_change`): nothing it read of the table since needs reading again."""
    return table_id in notes(db.session).locked


def hold(table_id: int, row: object) -> None:
    """Keep ``row``, read after table ``table_id``'s lock, in the session until the
    transaction ends: the session holds a row that nothing refers to only weakly, and a
    later step of the transaction looks for it there instead of reading it again."""
    notes(db.session).locked[table_id].append(row)


def commit_keeping(table: Table, *rows: object) -> None:
    """Commit the open transaction, keeping what ``table`` and ``rows`` hold of their rows.

    A commit forgets every row the session read: the next use reads it again.
    When the table was found with :func:`find_to_change`, its row and the rows
    read after that lock (its game, the round's draft) are the ones this
    transaction commits: nobody else could change them meanwhile, and this
    transaction changed them only through these objects. Their columns stay;
    their collections, and every other row, are read again as after any commit.
    """
    session = db.session()
    if not locked_first(table.id):
        session.commit()
        return
    kept = {id(table), *map(id, rows)}
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = True
    for row in list(session.identity_map.values()):
        if id(row) not in kept:
            session.expire(row)
        elif collections := [r.key for r in inspect(row).mapper.relationships if r.uselist]:
            session.expire(row, collections)  # (no names at all would expire the whole row)


NOTES = "companion.changes"
"""The one ``Session.info`` key: the session's :class:`ChangeNotes`."""


@dataclass
class ChangeNotes:
    """What a session's transactions raised and wrote, in one object (:func:`notes`).

    The store notes what the open transaction raises (a rollback forgets it), and keeps
    what each commit raised until it is taken (:func:`take_committed`, :func:`take_steps`).
    """

    bumped: set[int] = field(default_factory=set)
    """The tables whose version the open transaction raised."""
    locked: dict[int, list[object]] = field(default_factory=dict)
    """The tables the open transaction found with :func:`find_to_change`, each with the rows
    :func:`hold` keeps for it."""
    steps: list[tuple[int, int]] = field(default_factory=list)
    """Each raise of a version by the open transaction, (table id, new version): the
    database made it from the version just before."""
    written: set[str] | None = None
    """The database tables the open transaction wrote to (None: not known)."""
    committed: set[int] = field(default_factory=set)
    """The tables whose version the session's committed transactions raised, not yet taken."""
    stepped: list[Any] = field(default_factory=list)
    """The committed raises (:class:`Step`), not yet taken."""


def notes(session: Session | Any) -> ChangeNotes:
    """``session``'s notes (made on first use)."""
    noted = session.info.get(NOTES)
    if noted is None:
        noted = session.info[NOTES] = ChangeNotes()
    return noted

VERSION_ONLY = "companion_version_only"
"""Execution option of :func:`bump`'s statement: it writes the version, nothing a screen
shows is made from (so it is not counted among the tables written)."""


def changed(session: Session) -> set[int]:
    """The tables whose version ``session``'s open transaction raised so far (:func:`bump`)."""
    noted = session.info.get(NOTES)
    return noted.bumped if noted is not None else set()


def raised(session: Session) -> tuple[set[int], list[tuple[int, int]]]:
    """What ``session``'s transaction, just committed, raised: the tables, and each raise
    (table id, new version). Taken once: asked again, it is empty (the commit's listener,
    :func:`_after_commit`, takes it)."""
    noted = notes(session)
    bumped, steps = noted.bumped, noted.steps
    noted.bumped, noted.steps = set(), []
    return bumped, steps


@event.listens_for(Session, "after_transaction_end")
def _after_transaction_end(session: Session, transaction: SessionTransaction) -> None:
    # The end of the whole transaction without a commit (a rollback): its raises never were.
    noted = session.info.get(NOTES)
    if noted is not None and transaction.parent is None and not transaction.nested:
        noted.bumped, noted.locked, noted.steps, noted.written = set(), {}, [], None



# ------------------------------------------------------------------ what each commit changed
#
# Once a transaction commits, what it raised is kept for the two readers that come after
# the commit: the event streams (take_committed: whose screens to tell) and the version
# memo (take_steps: what a value kept for the version before still holds). A rolled-back
# transaction keeps nothing.

TOUCHED = "companion.touched"
"""``Connection.info`` key: the database tables the open transaction wrote to (``*``: a
statement whose table is not known), the same set as the session's notes'
(:attr:`ChangeNotes.written`)."""

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
    noted = notes(session)
    steps, noted.stepped = noted.stepped, []
    return steps


def take_committed(session: Session) -> set[int]:
    """The tables whose version ``session`` raised and committed since this was last asked."""
    noted = notes(session)
    committed, noted.committed = noted.committed, set()
    return committed


def written(session: Session) -> set[str]:
    """The database tables ``session``'s open transaction wrote to so far."""
    return notes(session).written or set()


@event.listens_for(Session, "after_begin")
def _after_begin(session: Session, transaction: SessionTransaction,
                 connection: Connection) -> None:
    # One set for the transaction, reached from the session and from the statements of
    # its connection (_note_write).
    touched: set[str] = set()
    notes(session).written = touched
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
    noted = notes(session)
    if bumped:
        noted.committed.update(bumped)
    if steps:
        touched = noted.written
        wrote = frozenset({ANY_TABLE} if touched is None else touched)
        noted.stepped.extend(Step(table_id, version, wrote) for table_id, version in steps)
    # (The store forgets the written tables at the transaction's end. The connection keeps
    # its set until its next transaction begins: what it runs outside a session's
    # transaction meanwhile is written to a set nobody reads.)
