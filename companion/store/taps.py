"""Taps applied: a tap's key, kept with its answer, so that a tap sent again is applied once.

A phone makes a key for each tap (``static/app/taps-page.js``) and sends the same key
when it sends that tap again (its answer was lost, or the Wi-Fi dropped while
it was on its way). The web layer (:mod:`companion.web.taps`) turns the key
into a **digest** of the key, the device's session and the request itself,
and :func:`claim` writes it first thing in the transaction that then makes the
tap's change: the change and "this key was applied" are one fact, committed
together or not at all. A tap refused (4xx) commits nothing, so it leaves no
row: sent again, it is judged afresh.

A row keeps the first answer's status and ``Location`` when it is a redirect
(:func:`complete`), so a repeat is answered as the first was; without them (an
htmx tap's answer, its region) the repeat gets its region as it stands now.
Rows older than :data:`KEPT` are deleted (:func:`prune`): no phone sends a tap
again a day later.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import DateTime, Index, String, delete, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db

DIGEST_LENGTH = 32
"""A digest's length in hex digits (128 bits)."""

LOCATION_LENGTH = 500
"""The longest ``Location`` kept (the app's own are far shorter; a longer one is not kept)."""

KEPT = timedelta(days=1)
"""How long an applied tap's key is kept."""


def _now() -> datetime:
    return datetime.now(UTC)


class Tap(db.Model):
    """A tap applied: its digest (key, session and request) and the first answer."""

    __tablename__ = "taps"
    __table_args__ = (Index("ix_taps_made_at", "made_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    digest: Mapped[str] = mapped_column(String(DIGEST_LENGTH), unique=True)
    status: Mapped[int | None] = mapped_column(default=None)
    """The first answer's status (None: not known, the answer drawn as things stand)."""
    location: Mapped[str | None] = mapped_column(String(LOCATION_LENGTH), default=None)
    """The first answer's ``Location``, for a redirect."""
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    def __repr__(self) -> str:
        return f"<Tap {self.digest[:8]} {self.status}>"


def applied(digest: str) -> Tap | None:
    """The tap with this digest, if one was applied (and its key is still kept)."""
    return db.session.scalar(select(Tap).where(Tap.digest == digest))


def claim(digest: str) -> bool:
    """Write the tap's key in the open transaction (the one that will hold its change);
    False, with nothing written, when a tap of the same digest was applied already.

    On PostgreSQL a copy of the same tap that another transaction wrote and has not yet
    committed is waited for: once it commits this returns False (it is a repeat), once it
    rolls back (refused) this one is written and goes on. Nothing else is read or locked.
    """
    values = {"digest": digest, "made_at": _now()}
    insert = (postgresql_insert if db.session.get_bind().dialect.name == "postgresql"
              else sqlite_insert)
    made = db.session.scalar(insert(Tap.__table__).values(**values)
                             .on_conflict_do_nothing(index_elements=["digest"])
                             .returning(Tap.__table__.c.id))
    return made is not None


def drop(digest: str) -> None:
    """Take a key claimed in the open transaction back (the tap changed nothing: sent
    again, it is judged afresh)."""
    db.session.execute(delete(Tap).where(Tap.digest == digest))


def complete(digest: str, status: int, location: str | None) -> None:
    """Keep the first answer of a tap claimed before its answer was known."""
    db.session.execute(update(Tap).where(Tap.digest == digest)
                       .values(status=status, location=_kept(location)))


def prune(now: datetime | None = None) -> int:
    """Delete the taps older than :data:`KEPT`; how many went."""
    before = (now or _now()) - KEPT
    return db.session.execute(delete(Tap).where(Tap.made_at < before)).rowcount


def _kept(location: str | None) -> str | None:
    return location if location is not None and len(location) <= LOCATION_LENGTH else None


__all__ = ["DIGEST_LENGTH", "KEPT", "LOCATION_LENGTH", "Tap", "applied", "claim", "complete",
           "drop", "prune"]
