"""The models: tables, their seats, seat-back requests and games.

The database keeps facts (who sits where, what happened in each round) and
never a sum: scores, totals, pots and money are recomputed by
``companion.rules.replay`` from a game's record every time they are shown.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    ColumnElement,
    DateTime,
    ForeignKey,
    Index,
    String,
    UniqueConstraint,
    and_,
    func,
    select,
)
from sqlalchemy.orm import Mapped, aliased, mapped_column, relationship

from ..extensions import db

NAME_LENGTH = 40
"""The longest name of a player or a table."""

PENDING, APPROVED, DENIED, CANCELLED = "pending", "approved", "denied", "cancelled"
"""The states of a seat-back request."""

PENDING_PER_TABLE = 8
"""The most seat-back requests waiting at one table."""

PENDING_PER_ADDRESS = 2
"""The most seat-back requests waiting at one table from one address (one café's Wi-Fi may
be several phones, but no phone needs more than one request)."""

PLAYING, ENDED = "playing", "ended"
"""The states of a game."""

RECORD_FIELDS = ("game", "players", "first_dealer", "options", "rounds")
"""The common fields of a game record, in the order they are written."""


def _now() -> datetime:
    return datetime.now(UTC)


class Table(db.Model):
    """A real table of players: made by a scorekeeper, joined by phones with its code."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(8), unique=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    game: Mapped[str] = mapped_column(String(20))
    allow_phone_names: Mapped[bool] = mapped_column(default=False)
    first_dealer: Mapped[int | None] = mapped_column(default=None)
    """The position of the seat that deals first in the next game."""
    dealer_drawn: Mapped[bool] = mapped_column(default=False)
    """True when the first dealer was drawn at random (the screens say so)."""
    unit: Mapped[str] = mapped_column(String(8), default="chips", server_default="chips")
    """The money unit: a currency's ISO 4217 code (``GBP``, ``NOK``, ``JPY``; amounts in its
    minor unit: pence, øre, whole yen) or ``chips`` (``companion.rules.money``)."""
    version: Mapped[int] = mapped_column(default=0)
    """Bumped with every change a screen shows, so an unchanged poll costs one lookup."""
    scorekeeper_key_hash: Mapped[str] = mapped_column(String(64))
    recovery_code_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="table", order_by="Seat.position", cascade="all, delete-orphan",
        passive_deletes=True)
    games: Mapped[list[Game]] = relationship(
        back_populates="table", order_by="Game.number", cascade="all, delete-orphan",
        passive_deletes=True)
    latest_game: Mapped[Game | None] = relationship(
        viewonly=True, primaryjoin=lambda: _latest_game_of_table())
    """The table's latest game, loaded without its older ones (what most pages need)."""

    def seat_at(self, position: int) -> Seat | None:
        """The seat at ``position`` (1 is the first, clockwise), if there is one."""
        return next((s for s in self.seats if s.position == position), None)

    @property
    def started(self) -> bool:
        """True once the table has started a game (any game of any of its evenings).

        From then on a free seat is taken only with the scorekeeper's approval: the
        tablet may be playing for a player without a phone, and the ledger's debts name
        the seats' players, so a seat is no longer anyone's for a tap."""
        return self.latest_game is not None

    @property
    def current_game(self) -> Game | None:
        """The table's latest game, if one was started."""
        return self.latest_game

    @property
    def playing(self) -> Game | None:
        """The game being played now, if any."""
        game = self.current_game
        return game if game is not None and game.status == PLAYING else None

    def __repr__(self) -> str:
        return f"<Table {self.code} {self.name!r}>"


class Seat(db.Model):
    """A place at a table, clockwise from 1; free until a phone holds its key."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("table_id", "position"),
        UniqueConstraint("table_id", "name"),
        # One phone key holds at most one seat at a table.
        UniqueConstraint("table_id", "key_hash"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    position: Mapped[int]
    name: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    key_hash: Mapped[str | None] = mapped_column(String(64))
    player_id: Mapped[int | None] = mapped_column(default=None)
    """The id of the table's player who sits here (``companion.store.players``): the same
    at every evening, whatever the seat's name becomes. No foreign key: adding one to
    ``seats`` on SQLite remakes the table, and that drops its seat requests (a player goes
    only with their table, and :func:`~companion.store.players.seat_player` makes a new one
    for an id it cannot find)."""

    table: Mapped[Table] = relationship(back_populates="seats")

    @property
    def held(self) -> bool:
        """True when a phone holds this seat."""
        return self.key_hash is not None

    def __repr__(self) -> str:
        return f"<Seat {self.position} {self.name!r}{' held' if self.held else ''}>"


class SeatRequest(db.Model):
    """A phone asking the scorekeeper for a seat: its own back (it lost its cookie), or,
    once the table has started a game, a free one."""

    __tablename__ = "seat_requests"
    __table_args__ = (Index("ix_seat_requests_table_id_status", "table_id", "status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    key_hash: Mapped[str] = mapped_column(String(64), index=True)
    """The asking phone's key: on approval it becomes the seat's key."""
    address_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    """A hash of the address the request came from, to limit the requests one address makes."""
    name: Mapped[str | None] = mapped_column(String(NAME_LENGTH), default=None)
    """The name the phone typed, asking for a seat that has none: the seat's on approval."""
    status: Mapped[str] = mapped_column(String(10), default=PENDING)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    seat: Mapped[Seat] = relationship()

    def __repr__(self) -> str:
        return f"<SeatRequest seat={self.seat_id} {self.status}>"


class Game(db.Model):
    """One game played at a table: the facts of its record (``docs/records.md``)."""

    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    number: Mapped[int]
    """1 for the table's first game, and so on."""
    game: Mapped[str] = mapped_column(String(20))
    players: Mapped[list[str]] = mapped_column(JSON)
    first_dealer: Mapped[str] = mapped_column(String(NAME_LENGTH))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    rounds: Mapped[list[Any]] = mapped_column(JSON, default=list)
    flags: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """Record-level flags such as Tromplemond's ``void`` and ``banned``."""
    player_ids: Mapped[dict[str, int] | None] = mapped_column(JSON, default=None)
    """Each player's id at the table (``companion.store.players``), by their name in this
    game; None for a game from before players were kept (its names are its ids)."""
    status: Mapped[str] = mapped_column(String(10), default=PLAYING)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    table: Mapped[Table] = relationship(back_populates="games")

    def record(self) -> dict[str, Any]:
        """The game's record, as ``replay`` reads it and ``record.json`` exports it."""
        return {
            "game": self.game,
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "options": dict(self.options),
            "rounds": list(self.rounds),
            **self.flags,
        }

    def __repr__(self) -> str:
        return f"<Game {self.number} {self.game}>"


def _latest_game_of_table() -> ColumnElement[bool]:
    """The join of a table to its game with the highest number."""
    other = aliased(Game)
    highest = (select(func.max(other.number)).where(other.table_id == Table.id)
               .correlate(Table).scalar_subquery())
    return and_(Game.table_id == Table.id, Game.number == highest)
