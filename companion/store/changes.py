"""The writes of tables and seats: make a table, arrange its seats, answer its phones'
requests, start and end its games. Each helper changes facts in the current session and
leaves the commit to the caller, so that one request is one transaction; each goes with
:func:`~companion.store.commits.bump` (the table's version raised: every screen shows the
change). The table's lock and the notes of what a commit changed are
:mod:`companion.store.commits`.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from ..extensions import db
from . import players as people
from .codes import key_hash, new_code, new_key, recovery_hash
from .commits import bump
from .models import (
    APPROVED,
    CANCELLED,
    DENIED,
    PENDING,
    PENDING_PER_ADDRESS,
    PENDING_PER_TABLE,
    RECORD_FIELDS,
    Game,
    Seat,
    SeatRequest,
    Table,
)
from .queries import seat_held_by


def _fresh_join_code() -> str:
    # 28**8 codes: a clash is all but impossible, but look before using one.
    while True:
        code = new_code()
        if db.session.scalar(select(Table.id).where(Table.code == code)) is None:
            return code


def new_recovery() -> tuple[str, str]:
    """A new recovery code and its (slow) hash."""
    recovery = new_code()
    return recovery, recovery_hash(recovery)


def create_table(*, name: str, game: str, names: Sequence[str | None],
                 allow_phone_names: bool, first_dealer: int | None, unit: str = "chips",
                 recovery: tuple[str, str] | None = None) -> tuple[Table, str, str]:
    """Make a table with one seat per entry of ``names`` (``None``: the phone names it).

    ``first_dealer`` is a seat position, or ``None`` to draw one at random
    here. Returns the table, its scorekeeper key and its recovery code: both
    are shown or given once and kept only as hashes. The money unit starts as
    ``unit`` (the game's usual one). ``recovery``: a recovery code made
    beforehand and its hash (:func:`new_recovery`), else one is made here.
    """
    key = new_key()
    recovery, recovery_hashed = recovery or new_recovery()
    drawn = first_dealer is None
    if first_dealer is None:
        first_dealer = secrets.randbelow(len(names)) + 1
    table = Table(
        code=_fresh_join_code(), name=name, game=game, allow_phone_names=allow_phone_names,
        unit=unit,
        first_dealer=first_dealer, dealer_drawn=drawn, version=1,
        scorekeeper_key_hash=key_hash(key), recovery_code_hash=recovery_hashed,
        seats=[Seat(position=i, name=n) for i, n in enumerate(names, start=1)],
    )
    db.session.add(table)
    db.session.flush()
    return table, key, recovery


def set_first_dealer(table: Table, position: int | None) -> None:
    """Choose the first dealer's seat, or draw one at random (``None``)."""
    table.dealer_drawn = position is None
    if position is None:
        position = secrets.randbelow(len(table.seats)) + 1
    table.first_dealer = position
    bump(table)


def move_seat(table: Table, seat: Seat, other: Seat) -> None:
    """Swap two seats' places (before the game starts); the first dealer moves along."""
    here, there = seat.position, other.position
    # Through a free number, because (table, position) is unique at every step.
    for seat_id, position in ((seat.id, -here), (other.id, here), (seat.id, there)):
        db.session.execute(update(Seat).where(Seat.id == seat_id).values(position=position)
                           .execution_options(synchronize_session=False))
    if table.first_dealer == here:
        table.first_dealer = there
    elif table.first_dealer == there:
        table.first_dealer = here
    db.session.expire(seat)
    db.session.expire(other)
    db.session.expire(table, ["seats"])
    bump(table)


def set_game(table: Table, game: str) -> None:
    """Choose the game the table plays next (between games)."""
    if table.game != game:
        table.game = game
        bump(table)


def add_seat(table: Table) -> Seat:
    """Add an empty seat after the last one (between games)."""
    seat = Seat(table_id=table.id, position=len(table.seats) + 1, name=None)
    db.session.add(seat)
    db.session.flush()
    db.session.expire(table, ["seats"])
    bump(table)
    return seat


def remove_seat(table: Table, seat: Seat) -> None:
    """Take a seat away (between games); the seats after it move up one place.

    Its phone, if any, loses the seat; the first dealer stays with their player
    (or moves to the seat that now takes the removed one's place).
    """
    gone = seat.position
    db.session.execute(delete(SeatRequest).where(SeatRequest.seat_id == seat.id)
                       .execution_options(synchronize_session=False))
    db.session.delete(seat)
    db.session.flush()
    later = sorted((s for s in table.seats if s.position > gone), key=lambda s: s.position)
    for moved in later:  # in order, each into the place the one before it left free
        db.session.execute(update(Seat).where(Seat.id == moved.id)
                           .values(position=moved.position - 1)
                           .execution_options(synchronize_session=False))
    count = len(table.seats) - 1
    if table.first_dealer is not None and table.first_dealer > gone:
        table.first_dealer -= 1
    if table.first_dealer is not None and table.first_dealer > count:
        table.first_dealer = count or None
    db.session.expire(table, ["seats"])
    bump(table)


def rename_seat(table: Table, seat: Seat, name: str | None) -> None:
    """Give a seat its player's name (``None``: leave it for the phone to fill in)."""
    people.renamed(seat, name)
    seat.name = name
    bump(table)


class NeedsApproval(ValueError):
    """A free seat taken with one tap at a table that has started a game: it is asked for."""


def claim_seat(table: Table, seat: Seat, key: str, name: str | None = None) -> bool:
    """Let the phone with ``key`` take a free seat (naming it when the seat has no name),
    with one tap: before the table's first game only (:attr:`Table.started`; after it a
    free seat is asked for, :func:`ask_for_seat`).

    Returns False, changing nothing, when another phone got there first.
    """
    if table.started:
        raise NeedsApproval(f"Seat {seat.position}: the table has started a game")
    values: dict[str, Any] = {"key_hash": key_hash(key)}
    claim = update(Seat).where(Seat.id == seat.id, Seat.key_hash.is_(None))
    if name is not None:
        claim = claim.where(Seat.name.is_(None))
        values["name"] = name
    try:
        with db.session.begin_nested():
            done = db.session.execute(claim.values(**values)
                                      .execution_options(synchronize_session=False))
    except IntegrityError:  # the same name or the same phone, a moment earlier
        return False
    if done.rowcount != 1:
        return False
    _cancel_requests(table, values["key_hash"])
    db.session.expire(seat)
    bump(table)
    return True


def free_seat(table: Table, seat: Seat) -> None:
    """Take a seat from whichever phone holds it; the name stays."""
    seat.key_hash = None
    bump(table)


def _cancel_requests(table: Table, hashed: str) -> None:
    """Let a phone's pending requests lapse (it asked again, or took a free seat)."""
    db.session.execute(
        update(SeatRequest)
        .where(SeatRequest.table_id == table.id, SeatRequest.key_hash == hashed,
               SeatRequest.status == PENDING)
        .values(status=CANCELLED).execution_options(synchronize_session=False))


def withdraw_request(table: Table, request: SeatRequest) -> None:
    """The asking phone no longer asks for the seat (it tapped the wrong one)."""
    _cancel_requests(table, request.key_hash)
    db.session.expire(request)
    bump(table)


class TooManyRequests(ValueError):
    """More seat-back requests are waiting than a table (or one address) may have."""


def ask_for_seat(table: Table, seat: Seat, key: str, address: str = "",
                 name: str | None = None) -> SeatRequest:
    """Ask the scorekeeper for a seat: a held one back, or (once the table has started a
    game) a free one, ``name`` being what the phone typed when the seat has no name. Any
    earlier request of this phone lapses.

    Refused (:class:`TooManyRequests`) when the table already has
    :data:`PENDING_PER_TABLE` requests waiting, or the address has
    :data:`PENDING_PER_ADDRESS`: a stranger cannot flood the tablet.
    """
    hashed, where = key_hash(key), key_hash(address)
    _cancel_requests(table, hashed)
    waiting = db.session.execute(
        select(SeatRequest.address_hash).where(SeatRequest.table_id == table.id,
                                               SeatRequest.status == PENDING)).scalars().all()
    if len(waiting) >= PENDING_PER_TABLE:
        raise TooManyRequests("Too many phones are asking for their seats at this table: "
                              "ask the scorekeeper to answer them first.")
    if sum(1 for h in waiting if h == where) >= PENDING_PER_ADDRESS:
        raise TooManyRequests("This network has asked for seats too often: ask the "
                              "scorekeeper to answer the requests waiting first.")
    request = SeatRequest(table_id=table.id, seat=seat, key_hash=hashed, address_hash=where,
                          name=name)
    db.session.add(request)
    bump(table)
    return request


def answer_request(table: Table, request: SeatRequest, approve: bool) -> bool:
    """Approve (the asking phone gets the seat, the old one loses it) or deny a request.

    Returns False, changing nothing, when the request was already answered,
    or when the asking phone has taken another seat meanwhile (then the
    request lapses: never two seats for one phone).
    """
    if request.status != PENDING:
        return False
    if approve and db.session.scalar(seat_held_by(table.id, request.key_hash)) is not None:
        request.status = CANCELLED
        bump(table)
        return False
    answered = db.session.execute(
        update(SeatRequest).where(SeatRequest.id == request.id, SeatRequest.status == PENDING)
        .values(status=APPROVED if approve else DENIED)
        .execution_options(synchronize_session=False))
    if answered.rowcount != 1:
        return False
    if approve:
        request.seat.key_hash = request.key_hash
        if request.seat.name is None:  # (the caller checked that nobody else has the name)
            request.seat.name = request.name
        # The seat is gone: the others asking for it hear no.
        db.session.execute(
            update(SeatRequest)
            .where(SeatRequest.seat_id == request.seat_id, SeatRequest.status == PENDING)
            .values(status=DENIED).execution_options(synchronize_session=False))
    db.session.expire(request)
    bump(table)
    return True


def take_over(table: Table) -> tuple[str, str]:
    """Hand the table to a new device (after a recovery code): a new key, a new recovery code.

    Both old ones stop working, so the old device cannot take the table back.
    Returns the new key and the new recovery code (kept only as hashes).
    """
    key, recovery = new_key(), new_code()
    table.scorekeeper_key_hash = key_hash(key)
    table.recovery_code_hash = recovery_hash(recovery)
    bump(table)
    return key, recovery


def start_game(table: Table, record: Mapping[str, Any] | None = None, *,
               options: Mapping[str, Any] | None = None,
               player_ids: Mapping[str, int] | None = None) -> Game:
    """Start the table's next game: from its seats (with ``options``), or from a ``record``.

    The seats must all be named and the record already checked by the rules. The game
    keeps its players' ids (``companion.store.players``): the seats' players, or
    ``player_ids`` given with a record.
    """
    if record is None:
        player_ids = people.seated_ids(table)
        players = [seat.name or "" for seat in table.seats]
        dealer = table.seat_at(table.first_dealer or 1)
        record = {"game": table.game, "players": players,
                  "first_dealer": dealer.name if dealer else players[0],
                  "options": dict(options or {}), "rounds": []}
    number = table.games[-1].number + 1 if table.games else 1
    game = Game(
        table=table, number=number, game=record["game"], players=list(record["players"]),
        first_dealer=record.get("first_dealer") or record["players"][0],
        options=dict(record.get("options") or {}), rounds=list(record.get("rounds") or []),
        flags={k: v for k, v in record.items() if k not in RECORD_FIELDS},
        player_ids=dict(player_ids) if player_ids else None,
    )
    db.session.add(game)
    db.session.flush()
    db.session.expire(table, ["latest_game"])
    bump(table)
    return game


def set_unit(table: Table, unit: str) -> None:
    """Choose the money unit the table's amounts are typed and shown in."""
    if table.unit != unit:
        table.unit = unit
        bump(table)


def end_game(table: Table, game: Game, status: str) -> None:
    """Close a game (it stays on record); the table may start another."""
    game.status = status
    bump(table)
