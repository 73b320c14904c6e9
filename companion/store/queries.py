"""Query helpers: each returns a ``select()`` for ``db.session.scalar(s)``/``execute``."""

from __future__ import annotations

from sqlalchemy import Select, bindparam, func, select
from sqlalchemy.orm import joinedload

from .models import PENDING, Game, Seat, SeatRequest, Table

_TABLE_BY_CODE = (select(Table).where(Table.code == bindparam("code"))
                  .options(joinedload(Table.latest_game), joinedload(Table.seats)))


_TABLE_TO_CHANGE = select(Table).where(Table.code == bindparam("code")).with_for_update()


def table_by_code(code: str) -> Select[tuple[Table]]:
    """The table with join code ``code``, with its latest game and its seats (most pages
    show them, and a phone is known by its seat): one statement.

    Every screen's every request looks its table up: the statement is made once.
    """
    return _TABLE_BY_CODE.params(code=code)


def table_to_change(code: str) -> Select[tuple[Table]]:
    """The table with join code ``code``, its row locked until the transaction ends.

    Nothing is joined to it: a row joined to the locked one would be the one
    read before the wait for the lock, not the one committed while it waited.
    """
    return _TABLE_TO_CHANGE.params(code=code)


def last_game_number(table_id: int) -> Select[tuple[int | None]]:
    """The number of the table's latest game (None: it has played none)."""
    return select(func.max(Game.number)).where(Game.table_id == table_id)


def seat_at(table_id: int, position: int) -> Select[tuple[Seat]]:
    """The seat at ``position`` of a table."""
    return select(Seat).where(Seat.table_id == table_id, Seat.position == position)


def seat_held_by(table_id: int, key_hash: str) -> Select[tuple[Seat]]:
    """The seat a phone's key holds at a table."""
    return select(Seat).where(Seat.table_id == table_id, Seat.key_hash == key_hash)


def pending_requests(table_id: int) -> Select[tuple[SeatRequest]]:
    """The seat-back requests waiting for the scorekeeper, oldest first."""
    return (select(SeatRequest)
            .where(SeatRequest.table_id == table_id, SeatRequest.status == PENDING)
            .order_by(SeatRequest.id))


def request_of(table_id: int, key_hash: str) -> Select[tuple[SeatRequest]]:
    """A phone's latest seat-back request at a table."""
    return (select(SeatRequest)
            .where(SeatRequest.table_id == table_id, SeatRequest.key_hash == key_hash)
            .order_by(SeatRequest.id.desc()).limit(1))


def game_number(table_id: int, number: int) -> Select[tuple[Game]]:
    """Game ``number`` of a table."""
    return select(Game).where(Game.table_id == table_id, Game.number == number)
