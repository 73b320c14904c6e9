"""A table's players: the same person at every evening, whatever their seat's name.

A **player** is one row per person who played at a table. A seat links to its
player (``Seat.player_id``) and each game keeps its players' ids by name
(``Game.player_ids``), so the evening record can say who is who
(``player_ids``, ``docs/records.md``) and the record book
(``companion.rules.records``) keeps a renamed player's record theirs.

When a game starts, each seat without a player gets one: a player of the table
with the seat's name who sits nowhere (they left and came back), else a new
one. Renaming a seat keeps its player (a renamed player); clearing its name
lets it go (the seat is for somebody new). A phone remembers the player it
sat as (``companion.web.roles``), so at the next evening it is offered that
player again in one tap.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Select, String, select, update
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .models import NAME_LENGTH, Game, Seat, Table


def _now() -> datetime:
    return datetime.now(UTC)


class Player(db.Model):
    """A person who played at a table; ``name`` is the one they had last."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"),
                                          index=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    @property
    def record_id(self) -> str:
        """The player's id as an evening record writes it."""
        return str(self.id)

    def __repr__(self) -> str:
        return f"<Player {self.id} {self.name!r}>"


def players_of(table_id: int) -> Select[tuple[Player]]:
    """A table's players, first first."""
    return select(Player).where(Player.table_id == table_id).order_by(Player.id)


def player_of_table(table: Table, player_id: object) -> Player | None:
    """The table's player with this id (None: none, or the id is no player of this table)."""
    if not isinstance(player_id, int) or isinstance(player_id, bool):
        return None
    player = db.session.get(Player, player_id)
    return player if player is not None and player.table_id == table.id else None


def seat_player(table: Table, seat: Seat) -> Player:
    """The player who sits in a named seat, found or made now (a game is starting)."""
    assert seat.name is not None
    player = db.session.get(Player, seat.player_id) if seat.player_id is not None else None
    if player is None:
        seated = {s.player_id for s in table.seats if s.player_id is not None}
        player = next((p for p in db.session.scalars(players_of(table.id))
                       if p.name == seat.name and p.id not in seated), None)
        if player is None:
            player = Player(table_id=table.id, name=seat.name)
            db.session.add(player)
            db.session.flush()
        seat.player_id = player.id
    player.name = seat.name
    return player


def seated_ids(table: Table) -> dict[str, int]:
    """Each named seat's player id, by the seat's name (players are made as needed)."""
    return {seat.name: seat_player(table, seat).id for seat in table.seats if seat.name}


def renamed(seat: Seat, name: str | None) -> None:
    """A seat's name changes: its player keeps the seat (and is renamed with it at the next
    game), unless the name is cleared, which lets the player go."""
    if name is None:
        seat.player_id = None


def imported_ids(table: Table, names: Sequence[str],
                 given: Mapping[str, Any] | None) -> dict[str, int]:
    """Players for an imported evening's ``names``: one per id of its ``player_ids`` (a
    player it leaves out has their name as id), linked to the seats of the same name."""
    ids = dict(given or {})
    made: dict[str, Player] = {}
    found: dict[str, int] = {}
    for name in names:
        key = str(ids.get(name, name))
        if key not in made:
            made[key] = Player(table_id=table.id, name=name)
            db.session.add(made[key])
    db.session.flush()
    for name in names:
        found[name] = made[str(ids.get(name, name))].id
    for seat in table.seats:
        if seat.name in found:
            seat.player_id = found[seat.name]
    return found


def seat_for(table: Table, player: Player) -> Seat | None:
    """The free seat a phone that sat as ``player`` is offered: the player's own, or (when
    no seat is theirs any more) the first free seat with no name, if nobody else has the
    player's name; None when there is none."""
    own = next((s for s in table.seats if s.player_id == player.id), None)
    if own is not None:
        return None if own.held else own
    if any(s.name == player.name for s in table.seats):
        return None
    return next((s for s in table.seats if not s.held and s.name is None), None)


def sit_again(table: Table, seat: Seat, player: Player, hashed_key: str) -> bool:
    """The phone with the key ``hashed_key`` takes ``seat`` (:func:`seat_for`) as
    ``player``, naming it after them when it has no name. False, changing nothing, when
    another phone took it a moment earlier."""
    values: dict[str, Any] = {"key_hash": hashed_key, "player_id": player.id}
    if seat.name is None:
        values["name"] = player.name
    taken = db.session.execute(
        update(Seat).where(Seat.id == seat.id, Seat.key_hash.is_(None)).values(**values)
        .execution_options(synchronize_session=False))
    if taken.rowcount != 1:
        return False
    db.session.expire(seat)
    return True


def game_ids(game: Game) -> dict[str, str]:
    """The game's players' ids as the evening record writes them (empty for an old game)."""
    return {name: str(number) for name, number in (game.player_ids or {}).items()
            if name in game.players}


def evening_ids(games: Sequence[Game]) -> dict[str, str]:
    """The evening's ``player_ids``: each name's id from the first game that gives one. A
    second name for one id in an evening (renamed between its games) is left out: within an
    evening the ledger goes by name, and the rules refuse two names with one id."""
    ids: dict[str, str] = {}
    for game in games:
        for name, player_id in game_ids(game).items():
            if name not in ids and player_id not in ids.values():
                ids[name] = player_id
    return ids


__all__ = ["Player", "evening_ids", "game_ids", "imported_ids", "player_of_table",
           "players_of", "renamed", "seat_for", "seat_player", "seated_ids", "sit_again"]
