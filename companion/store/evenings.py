"""A table's evenings: the games played there until the scorekeeper closes it, and payments.

An **evening** (``docs/records.md``, "The evening") is every game a table
plays until its scorekeeper closes it; then the table keeps its seats and
its next game belongs to a fresh evening. The database keeps its facts
only: which of the table's games it holds (``first_game`` to ``last_game``,
by the games' numbers: the last is set when it closes), its name, when it
opened and closed, and the **payments** marked so far (``[payer, payee,
amount]``, one row each, in the order marked; undo deletes the row). What
each player is up or down and who still pays whom are recomputed by
``companion.rules.evening`` from :func:`evening_record`.

A game needs no mark of its evening: games are numbered in the order they
start and never renumbered, so the open evening is every game after the
last closed one. Its row is made when it is first written
(:func:`open_evening`: a payment, a name, the close); until then the ledger
shows :func:`current_evening`, the same evening not yet saved. Writes that
check what is owed first lock the evening's row (:func:`locked_evening`),
so a double tap on "paid" marks one payment; each write bumps the table's
version, so every screen's ledger refreshes. The commit is the caller's.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Select, String, UniqueConstraint, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from .commits import bump
from .models import NAME_LENGTH, Game, Table
from .players import evening_ids
from .queries import last_game_number


def _now() -> datetime:
    return datetime.now(UTC)


class Evening(db.Model):
    """One evening at a table: games ``first_game`` to ``last_game``, and the payments."""

    __tablename__ = "evenings"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    number: Mapped[int]
    """1 for the table's first evening, and so on."""
    name: Mapped[str | None] = mapped_column(String(NAME_LENGTH), default=None)
    """What the players call it ("Friday"), if anything: the record's ``evening``."""
    unit: Mapped[str | None] = mapped_column(String(8), default=None)
    """The money unit, kept when the evening closes (while it is open: the table's)."""
    first_game: Mapped[int]
    """The number of the table's first game in this evening."""
    last_game: Mapped[int | None] = mapped_column(default=None)
    """The number of its last game, set when it closes (open: every later game is in it)."""
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)

    table: Mapped[Table] = relationship()
    payments: Mapped[list[Payment]] = relationship(
        back_populates="evening", order_by="Payment.id", cascade="all, delete-orphan",
        passive_deletes=True)

    @property
    def closed(self) -> bool:
        """True once the scorekeeper closed the evening."""
        return self.closed_at is not None

    @property
    def money_unit(self) -> str:
        """The unit its amounts are in: kept at the close, else the table's now."""
        return self.unit or self.table.unit

    @property
    def games(self) -> list[Game]:
        """Its games, in the order they were played."""
        return list(db.session.scalars(games_of(self)))

    def __repr__(self) -> str:
        return f"<Evening {self.number}{' closed' if self.closed else ''}>"


AMOUNT_LIMIT = 2**31 - 1
"""The largest amount a payment holds (its column is a 32-bit integer on PostgreSQL). An
amount typed on the ledger stays far below (``companion.web.forms.MAX_AMOUNT``); an
imported evening that names more is refused (``companion.web.api``)."""


class Payment(db.Model):
    """A transfer marked paid: ``payer`` gave ``payee`` ``amount`` (the smallest unit)."""

    __tablename__ = "payments"

    id: Mapped[int] = mapped_column(primary_key=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id", ondelete="CASCADE"),
                                            index=True)
    payer: Mapped[str] = mapped_column(String(NAME_LENGTH))
    payee: Mapped[str] = mapped_column(String(NAME_LENGTH))
    amount: Mapped[int]
    marked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    evening: Mapped[Evening] = relationship(back_populates="payments")

    def as_fact(self) -> list[Any]:
        """The payment as the evening record writes it: ``[payer, payee, amount]``."""
        return [self.payer, self.payee, self.amount]

    def __repr__(self) -> str:
        return f"<Payment {self.payer} → {self.payee} {self.amount}>"


# --------------------------------------------------------------------------- queries


def open_evening_of(table_id: int) -> Select[tuple[Evening]]:
    """A table's open evening (there is at most one)."""
    return select(Evening).where(Evening.table_id == table_id, Evening.closed_at.is_(None))


def evenings_of(table_id: int) -> Select[tuple[Evening]]:
    """A table's evenings, first first."""
    return select(Evening).where(Evening.table_id == table_id).order_by(Evening.number)


def evening_number(table_id: int, number: int) -> Select[tuple[Evening]]:
    """Evening ``number`` of a table."""
    return select(Evening).where(Evening.table_id == table_id, Evening.number == number)


def evening_of_game(table_id: int, number: int) -> Select[tuple[Evening]]:
    """The saved evening that holds game ``number`` of a table (none: the open evening,
    not saved yet)."""
    return select(Evening).where(Evening.table_id == table_id, Evening.first_game <= number,
                                 or_(Evening.last_game.is_(None), Evening.last_game >= number))


def latest_evening(table_id: int) -> Select[tuple[Evening]]:
    """The table's latest evening (open or closed)."""
    return evenings_of(table_id).order_by(None).order_by(Evening.number.desc()).limit(1)


def games_of(evening: Evening) -> Select[tuple[Game]]:
    """The games of an evening, in the order they were played."""
    query = select(Game).where(Game.table_id == evening.table_id,
                               Game.number >= evening.first_game)
    if evening.last_game is not None:
        query = query.where(Game.number <= evening.last_game)
    return query.order_by(Game.number)


# --------------------------------------------------------------------------- the evening


def _fresh(table: Table) -> Evening:
    """The evening after the table's latest (which is closed): every game after it."""
    latest = db.session.scalar(latest_evening(table.id))
    evening = Evening(table_id=table.id, number=latest.number + 1 if latest else 1,
                      first_game=(latest.last_game or 0) + 1 if latest else 1)
    first = db.session.scalar(games_of(evening).limit(1))
    evening.opened_at = first.created_at if first is not None else _now()
    return evening


def current_evening(table: Table) -> Evening:
    """The table's open evening, for reading: a fresh one (not saved) when it has none yet."""
    evening = db.session.scalar(open_evening_of(table.id))
    if evening is None:
        # Never added to the session: a page that only reads writes nothing.
        evening = _fresh(table)
        evening.table = table
    return evening


def open_evening(table: Table) -> Evening:
    """The table's open evening, made now when it has none (a game starts, a name is given)."""
    query = open_evening_of(table.id)
    evening = db.session.scalar(query)
    if evening is None:
        try:
            with db.session.begin_nested():
                evening = _fresh(table)
                db.session.add(evening)
        except IntegrityError:  # another request made it a moment earlier
            evening = db.session.scalar(query)
            assert evening is not None
    return evening


def locked_evening(evening: Evening) -> Evening:
    """The evening's row locked for this transaction, with its payments read after the lock."""
    db.session.scalar(select(Evening).where(Evening.id == evening.id).with_for_update()
                      .execution_options(populate_existing=True))
    db.session.expire(evening, ["payments", "closed_at", "last_game"])
    return evening


def evening_record(evening: Evening) -> dict[str, Any]:
    """The evening's record (``docs/records.md``): its export, and what the rules read."""
    games = evening.games
    record = {
        "evening": evening.name,
        "unit": evening.money_unit,
        "games": [game.record() for game in games],
        "paid": [payment.as_fact() for payment in evening.payments],
    }
    ids = evening_ids(games)
    if ids:
        record["player_ids"] = ids
    return record


# --------------------------------------------------------------------------- writes


def rename_evening(evening: Evening, name: str | None) -> None:
    """Give the evening a name ("Friday"), or take it away (``None``)."""
    evening.name = name
    bump(evening.table)


def mark_paid(evening: Evening, payer: str, payee: str, amount: int) -> Payment:
    """Mark a payment made (the rules checked it against the evening first)."""
    payment = Payment(evening=evening, payer=payer, payee=payee, amount=amount)
    db.session.add(payment)
    bump(evening.table)
    return payment


def undo_payment(evening: Evening, payment: Payment) -> None:
    """Take a payment marked by mistake off the evening."""
    evening.payments.remove(payment)
    db.session.delete(payment)
    bump(evening.table)


def set_chip_value(game: Game, value: int | None) -> None:
    """Set a chip game's ``chip_value`` option (``None``: its chips are not money)."""
    game.options = options_with(game, {"chip_value": value})
    bump(game.table)


def close_evening(evening: Evening) -> None:
    """Close the evening after its games (all over); the table's next game opens a fresh one."""
    evening.last_game = db.session.scalar(last_game_number(evening.table_id)) or 0
    evening.unit = evening.money_unit
    evening.closed_at = _now()
    bump(evening.table)


def add_payments(evening: Evening, paid: Any) -> None:
    """Write the ``paid`` entries of an imported evening record (the rules checked them)."""
    for payer, payee, amount in paid or ():
        mark_paid(evening, payer, payee, int(amount))


def options_with(game: Game, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The game's options with ``changes`` (a value of ``None`` takes the option out)."""
    options = {k: v for k, v in game.options.items() if k not in changes}
    options.update({k: v for k, v in changes.items() if v is not None})
    return options


__all__ = ["Evening", "Payment", "add_payments", "close_evening", "current_evening",
           "evening_number", "evening_record", "evenings_of", "games_of",
           "latest_evening", "locked_evening",
           "mark_paid", "open_evening", "open_evening_of", "options_with", "rename_evening",
           "set_chip_value", "undo_payment"]
