"""Who may do what: the scorekeeper key and a phone's seat key, held in the signed cookie.

The session holds, per table code, the scorekeeper's key and recovery code
(``session["keeper"]``), the phone's key (``session["phone"]``) and the player it
last sat as (``session["player"]``, offered again at the next evening). The
database keeps only hashes; a key in the cookie proves the role only while
its hash is still the one on record.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from flask import abort, current_app, session
from flask_babel import lazy_gettext as _l

from ..extensions import db
from ..live import request_state
from ..store import (
    DENIED,
    PENDING,
    Seat,
    SeatRequest,
    Table,
    commits,
    is_code,
    key_hash,
    new_key,
    normalise_code,
    players,
    queries,
    same_key,
)
from ..transactions import reads_only

KEEPER, PHONE, PLAYER = "keeper", "phone", "player"
REMEMBERED = 10
"""How many tables a cookie remembers per role (a cookie holds about 4 KB)."""


def find_table(code: str, *, to_change: bool = False) -> Table:
    """The table with join code ``code``, or a 404 a player can act on.

    ``to_change``: for an action that changes the table (the action helpers say so,
    :mod:`companion.web.actions`): its row is locked before anything else of it is read
    (:func:`companion.store.commits.find_to_change`)."""
    normal = normalise_code(code)
    if not is_code(normal):
        table = None
    elif to_change:  # the action locks its row first
        table = commits.find_to_change(normal)
    elif reads_only():
        state = request_state()  # (the table may be in hand: RequestState.read_table)
        table = state.read_table
        if table is None or table.code != normal:
            table = db.session.scalar(queries.table_by_code(normal))
            if table is not None and state.read_table is None:
                state.read_table = table
    else:
        table = db.session.scalar(queries.table_by_code(normal))
    if table is None:
        abort(404, _l("There is no table with the code %(code)s. Check the code under the "
                      "QR code on the scorekeeper's screen.", code=code[:20]))
    return table


def _remember(role: str, code: str, value: object) -> None:
    entries = dict(session.get(role) or {})
    entries.pop(code, None)
    entries[code] = value
    while len(entries) > REMEMBERED:
        entries.pop(next(iter(entries)))
    session[role] = entries
    # A seat outlives a closed tab: the cookie lasts PERMANENT_SESSION_LIFETIME.
    session.permanent = True


def remember_keeper(table: Table, key: str, recovery_code: str) -> None:
    """Make this device the table's scorekeeper (and let it show the recovery code)."""
    _remember(KEEPER, table.code, {"key": key, "recovery": recovery_code})


def is_keeper(table: Table) -> bool:
    """True when this device holds the table's current scorekeeper key."""
    entry = (session.get(KEEPER) or {}).get(table.code) or {}
    return isinstance(entry, dict) and same_key(entry.get("key"), table.scorekeeper_key_hash)


def recovery_code(table: Table) -> str | None:
    """The recovery code this scorekeeper device was given, to show behind a tap."""
    entry = (session.get(KEEPER) or {}).get(table.code) or {}
    return entry.get("recovery") if is_keeper(table) else None


def require_keeper(table: Table) -> None:
    """Stop with 403 unless this device is the table's scorekeeper."""
    if not is_keeper(table):
        abort(403, _l("Only the scorekeeper's screen can run this table. If you are the "
                      "scorekeeper on a new device, take the table over with its recovery "
                      "code."))


def phone_key(table: Table) -> str | None:
    """This phone's key at the table, if it ever took or asked for a seat there."""
    key = (session.get(PHONE) or {}).get(table.code)
    return key if isinstance(key, str) else None


def phone_key_or_new(table: Table) -> str:
    """This phone's key at the table, or one its session gives it (:func:`remember_phone`).

    A phone with no key yet gets one made from its session (the session's
    own secret CSRF token, signed with the app's key), not a random one: two
    taps of a fresh phone in the same instant then carry the same key, and a
    key holds at most one seat of a table (the database's unique constraint).
    """
    key = phone_key(table)
    if key is not None:
        return key
    token = session.get("csrf_token")
    if not isinstance(token, str):
        return new_key()
    secret = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(secret, f"phone:{table.code}:{token}".encode(), hashlib.sha256).hexdigest()


def remember_phone(table: Table, key: str) -> None:
    """Keep the phone's key for the table in its cookie (it took or asked for a seat)."""
    _remember(PHONE, table.code, key)


def forget_phone(table: Table) -> None:
    """Drop the phone's key for the table (it left its seat of its own accord)."""
    entries = dict(session.get(PHONE) or {})
    if entries.pop(table.code, None) is not None:
        session[PHONE] = entries


@dataclass(frozen=True)
class Phone:
    """Where this phone stands at a table."""

    seat: Seat | None = None
    """The seat it holds."""
    request: SeatRequest | None = None
    """Its latest seat-back request, when it holds no seat."""
    known: bool = False
    """True when it once took or asked for a seat here."""

    @property
    def waiting(self) -> bool:
        """Asked for a seat back, and the scorekeeper has not answered yet."""
        return self.seat is None and self.request is not None and self.request.status == PENDING

    @property
    def denied(self) -> bool:
        """The scorekeeper said no to its latest request."""
        return self.seat is None and self.request is not None and self.request.status == DENIED

    @property
    def lost(self) -> bool:
        """It held a seat (or was given one) and no longer does."""
        return self.known and self.seat is None and not self.waiting and not self.denied


def remembered_player(table: Table) -> int | None:
    """The id of the player this device last sat as at the table (``store.players``)."""
    player_id = (session.get(PLAYER) or {}).get(table.code)
    return player_id if isinstance(player_id, int) else None


def phone(table: Table) -> Phone:
    """Where this phone stands at ``table``: its seat, its request, or nothing. A seat's
    player is remembered in the cookie, apart from the key: the next evening, after the
    phone left its seat, it is offered that player again."""
    key = phone_key(table)
    if key is None:
        return Phone()
    hashed = key_hash(key)
    seat = next((s for s in table.seats if s.key_hash == hashed), None)
    if seat is not None:
        if seat.player_id is not None and remembered_player(table) != seat.player_id:
            _remember(PLAYER, table.code, seat.player_id)
        return Phone(seat=seat, known=True)
    return Phone(request=db.session.scalar(queries.request_of(table.id, hashed)), known=True)


def my_player(table: Table) -> int | None:
    """The id of the player this phone is at the table: its seat's player, else the player
    it last sat as (remembered in its cookie). A phone whose seat was freed or removed after
    its player left still knows who it is, so the pages of past games and evenings still
    read that player's lines as "You"."""
    seat = phone(table).seat
    return seat.player_id if seat is not None else remembered_player(table)


@dataclass(frozen=True)
class Welcome:
    """A free seat offered to this device as the player it sat as before, in one tap."""

    seat: Seat
    player: players.Player

    @property
    def name(self) -> str:
        """The name the device sits under: the seat's, else the player's."""
        return self.seat.name or self.player.name


def welcome_back(table: Table) -> Welcome | None:
    """The seat this device is offered as the player it last sat as at this table (its own
    seat, free again, or a blank one when it has none), if it holds no seat now."""
    player_id = remembered_player(table)
    if player_id is None:
        return None
    player = players.player_of_table(table, player_id)
    seat = players.seat_for(table, player) if player is not None else None
    return Welcome(seat, player) if seat is not None and player is not None else None


def require_seat(table: Table) -> Seat:
    """This phone's seat at the table, or 403."""
    seat = phone(table).seat
    if seat is None:
        abort(403, _l("This phone holds no seat at this table. Take a seat from the join "
                      "page, or ask the scorekeeper for yours back."))
    return seat


def require_seat_at(table: Table, position: int) -> Seat:
    """This phone's seat, which must be the one at ``position``: a phone acts only for itself."""
    seat = require_seat(table)
    if seat.position != position:
        abort(403, _l("This phone holds seat %(mine)s, not seat %(number)s: a phone acts only "
                      "for its own seat.", mine=seat.position, number=position))
    return seat
