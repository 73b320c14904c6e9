"""Sealed choices: several seats each choose, nothing shows until all are in, then all at once.

A **sealing** is one such moment of a round: Tromplemond's vote (and each
tie-break after it), Trefeltromp's banen, detuiler and debekranse. It has
the players who choose (``choosers``), what they may choose (``choices``,
or any text the game checks itself), and one of two modes:

- :attr:`Mode.ANONYMOUS` (a secret ballot): at the reveal only the number
  of times each choice was made is written (``sealed_tallies``); nobody,
  the scorekeeper and the database's owner included, can tell who chose what.
- :attr:`Mode.ATTRIBUTED` (a simultaneous reveal): at the reveal every
  chooser's choice is written beside their name (``Sealing.shown``), for
  everyone to see at once.

A key pair per sealing, its private key in memory only
-----------------------------------------------------
When a sealing opens, the server makes it an X25519 key pair (PyNaCl, through
:mod:`companion.store.box`). The public key is stored with the sealing
(``public_key``) and given to the devices in the slip form; the private key lives
only in the sealing key store (:mod:`companion.store.sealing_keys`: a shared memory
region, or a Redis that keeps nothing on disk), never in the database, a file, a log or the
environment. A slip is sealed **on the device** (``static/app/slip.js``, with
tweetnacl): a key pair of its own, ``box`` to the sealing's public key, the
plaintext (:func:`slip_plaintext`) naming the sealing and the chooser as well
as the choice and padded to :data:`PLAIN_BYTES`, so every sealed slip
(:data:`BLOB_BYTES`) is as long as every other and a captured slip cannot be
dropped as another chooser's or another sealing's. A device without
JavaScript sends its choice in clear and the server seals it the same way
(:func:`seal_slip`).

The server opens a slip at once to check it (:func:`open_slip`), then keeps
it as sent, one row per chooser (``sealed_slips``). At the reveal it opens them
all, writes the counts or the shown choices, deletes the slips, and (once that
is committed) **destroys the private key**: from then on nobody opens those
slips from the database files, the WAL, a dump or a backup, with any key the
server holds or was given. The same at a drop, a discard or a verdict.

A sealing whose private key the store does not hold (the server restarted) is
void: :func:`void_lost` finds such sealings when a process starts serving,
drops their slips, gives them a new key pair, marks them ``restarted`` and
raises their tables' versions, so every screen says "please vote again" at once.
"""

from __future__ import annotations

import base64
import json
import logging
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from flask import Flask, current_app
from sqlalchemy import (
    JSON,
    ForeignKey,
    LargeBinary,
    Select,
    String,
    UniqueConstraint,
    delete,
    event,
    insert,
    select,
    text,
)
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..extensions import db
from ..rules.errors import Phrase, add_messages
from ..transactions import Session as AppSession
from .box import BoxError, box, box_open, key_pair, random_bytes
from .commits import bump
from .models import NAME_LENGTH, Game
from .sealing_keys import KEY_BYTES, MemoryKeys, SealingKeys, StoreFull, make_store

log = logging.getLogger(__name__)

PLAIN_BYTES = 512
"""Every slip's plaintext is padded to this many bytes (two 40-character names and a
choice take at most 400)."""

NONCE_BYTES = 24
BLOB_BYTES = KEY_BYTES + NONCE_BYTES + PLAIN_BYTES + 16
"""The size of every sealed slip: the device's public key, the nonce, the padded
plaintext, the tag."""

SEALED_FIELD = "sealed"
"""The form field of a slip sealed on the device: base64url, no padding."""

EXTENSION = "companion.sealing_keys"


class Mode(StrEnum):
    """How a sealing is revealed."""

    ANONYMOUS = "anonymous"
    """Counts only: never who chose what (a secret ballot)."""
    ATTRIBUTED = "attributed"
    """Each chooser's choice, shown beside their name (a simultaneous reveal)."""


add_messages({
    "seal.choice_too_long": "That choice is too long.",
    "seal.slip_unreadable": "That slip could not be read. Reload the page and try again.",
    "seal.slip_for_another_moment": "That slip was sealed for another moment: look at your "
        "screen again.",
    "seal.store_full": "The server holds as many open votes as it may ({slots} sealings are "
        "open at once on this server): finish one first.",
    "seal.nobody_to_choose": "Nobody is there to choose.",
    "seal.opened_a_moment_ago": "That was opened a moment ago. Look again.",
    "seal.settled_a_moment_ago": "This was settled a moment ago. Look at your screen again.",
    "seal.no_choice_here": "{chooser} has no choice to make here.",
    "seal.not_a_choice": "That is not one of the choices.",
    "seal.restarted": "The server restarted: please choose again.",
    "seal.chosen_already": "{chooser} has chosen already: one choice each.",
    "seal.not_its_choosers": "A sealed choice was not its chooser's: choose again.",
})


class SealError(ValueError):
    """A choice the sealing cannot take; ``status`` is the HTTP status it deserves.

    ``phrase`` is the refusal as a fact (a :class:`~companion.rules.errors.Phrase`: a
    ``seal.*`` or a game's code and its names and numbers), so that a page says it in the
    device's language (``companion.web.words.say(error.phrase)``); ``str(error)`` is its
    English. A web layer that refuses in words it has already said in the device's
    language gives those words instead (``say`` passes text as it is).
    """

    phrase: Phrase | str

    def __init__(self, phrase: Phrase | str, status: int = 400) -> None:
        super().__init__(str(phrase))
        self.phrase = phrase
        self.status = status


# --------------------------------------------------------------------------- slips


def slip_plaintext(sealing_id: int, chooser: str, choice: str) -> bytes:
    """What a slip seals: ``[sealing, chooser, choice]`` as JSON, padded with spaces to
    :data:`PLAIN_BYTES` (JSON ignores them), as ``static/app/slip.js`` makes it.

    >>> plain = slip_plaintext(7, "Rob", "Emily")
    >>> len(plain), plain[:24]
    (512, b'[7,"Rob","Emily"]       ')
    """
    data = json.dumps([sealing_id, chooser, choice], ensure_ascii=False,
                      separators=(",", ":")).encode("utf-8")
    if len(data) > PLAIN_BYTES:
        raise SealError(Phrase("seal.choice_too_long"))
    return data + b" " * (PLAIN_BYTES - len(data))


def seal_slip(public_key: bytes, sealing_id: int, chooser: str, choice: str) -> bytes:
    """A slip sealed to ``public_key`` as a device seals it: a key pair of its own, a
    random nonce, ``box``; its public key and the nonce go in front."""
    own_public, own_private = key_pair()
    nonce = random_bytes(NONCE_BYTES)
    boxed = box(slip_plaintext(sealing_id, chooser, choice), nonce, public_key, own_private)
    return own_public + nonce + boxed


@dataclass(frozen=True)
class OpenedSlip:
    """What a sealed slip says."""

    sealing_id: int
    chooser: str
    choice: str


def open_slip(private_key: bytes, blob: bytes) -> OpenedSlip:
    """Open a sealed slip with the sealing's private key (``SealError`` when it is not a
    slip sealed to that key)."""
    if len(blob) != BLOB_BYTES:
        raise SealError(Phrase("seal.slip_unreadable"))
    theirs, nonce = blob[:KEY_BYTES], blob[KEY_BYTES:KEY_BYTES + NONCE_BYTES]
    try:
        plain = box_open(blob[KEY_BYTES + NONCE_BYTES:], nonce, theirs, private_key)
        sealing_id, chooser, choice = json.loads(plain.decode("utf-8"))
    except (BoxError, ValueError, TypeError):
        raise SealError(Phrase("seal.slip_for_another_moment"), 409) from None
    if not (isinstance(sealing_id, int) and isinstance(chooser, str)
            and isinstance(choice, str)):
        raise SealError(Phrase("seal.slip_unreadable"))
    return OpenedSlip(sealing_id, chooser, choice)


def encode_blob(blob: bytes) -> str:
    """A sealed slip as the form carries it: base64url without padding (no character of
    it is escaped in a form body, so the body's size never varies).

    >>> encode_blob(bytes([251, 255]))
    '-_8'
    """
    return base64.urlsafe_b64encode(blob).rstrip(b"=").decode("ascii")


def decode_blob(value: str) -> bytes:
    """The sealed slip a form carries (``SealError`` when it is not one)."""
    try:
        blob = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except ValueError:
        blob = b""
    if len(blob) != BLOB_BYTES:
        raise SealError(Phrase("seal.slip_unreadable"))
    return blob


# --------------------------------------------------------------------------- the keys


def install_keys(app: Flask, setting: str | None) -> SealingKeys:
    """Make the app's sealing key store (before gunicorn forks its workers, with
    ``preload_app``): memory, or the Redis ``COMPANION_SEALING_STORE`` names."""
    keys = make_store(setting)
    app.extensions[EXTENSION] = keys
    return keys


SERVERS_LOCK = 0x636F6D70  # ("comp")
"""PostgreSQL advisory lock held by each server on the database for as long as it runs
(:func:`claim_database`): shared by servers whose sealing keys are in a shared Redis, alone
by a server that keeps them in its own memory."""


class KeysNotShared(RuntimeError):
    """Another server on the database cannot open this one's slips, or this one theirs."""


def claim_database(app: Flask) -> Any | None:
    """Claim the app's database for this server's sealing keys, or refuse to start.

    A server keeps the private keys of open sealings in its own memory (its workers share
    it: the region is made before they fork), or in a Redis several servers share
    (``COMPANION_SEALING_STORE``). A second server on one database with keys of its own
    could open none of the first one's slips, and its first request would void every
    open vote it holds no key for (:func:`void_lost`). So, on PostgreSQL, each server
    holds the advisory lock :data:`SERVERS_LOCK` while it runs, on a connection of its
    own: alone when its keys are in its memory, shared when they are in Redis; a server
    that cannot take it is refused with what to set. The lock goes when the server's
    process ends (its connection with it). SQLite's file serves one server: None.

    Called by gunicorn's master (``gunicorn.conf.py``); returns the connection to keep."""
    with app.app_context():
        engine = db.engine
    if engine.dialect.name != "postgresql":
        return None
    alone = isinstance(app.extensions[EXTENSION], MemoryKeys)
    args, kwargs = engine.dialect.create_connect_args(engine.url)
    connection = engine.dialect.loaded_dbapi.connect(*args, **kwargs)
    connection.autocommit = True
    take = "pg_try_advisory_lock" if alone else "pg_try_advisory_lock_shared"
    if connection.execute(f"SELECT {take}(%s)", (SERVERS_LOCK,)).fetchone()[0]:
        return connection
    connection.close()
    if alone:
        raise KeysNotShared(
            "Another server already serves this database: each would keep its own sealing "
            "keys and could not open the other's secret ballots. Several servers on one "
            "database need COMPANION_SEALING_STORE=redis://… (the same Redis for all, one "
            "that keeps nothing on disk) and RATELIMIT_STORAGE_URI=redis://…, each; or "
            "run more workers in one server instead (WEB_CONCURRENCY).")
    raise KeysNotShared(
        "A server that keeps its sealing keys in its own memory already serves this "
        "database: set COMPANION_SEALING_STORE=redis://… (the same Redis as this one's) "
        "on it too and start it again, then start this one.")


def sealing_keys() -> SealingKeys:
    """The running app's sealing key store."""
    return current_app.extensions[EXTENSION]


MADE = "companion.sealing_keys_made"
"""``Session.info`` key: the key pairs the open transaction made (destroyed if it rolls
back: a sealing never committed keeps no key)."""
GONE = "companion.sealing_keys_gone"
"""``Session.info`` key: the key pairs the open transaction ended (destroyed once it
commits: a reveal that rolls back keeps its key)."""


def _new_key() -> bytes:
    keys = sealing_keys()
    try:
        public = keys.make()
    except StoreFull as error:
        raise SealError(Phrase("seal.store_full", {"slots": error.slots}), 503) from None
    db.session.info.setdefault(MADE, []).append((keys, public))
    return public


def _end_key(public: bytes | None) -> None:
    if public is not None:
        db.session.info.setdefault(GONE, []).append((sealing_keys(), public))


def _destroy(pairs: list[tuple[SealingKeys, bytes]]) -> None:
    for keys, public in pairs:
        keys.destroy(public)


@event.listens_for(AppSession, "after_commit")
def _keys_after_commit(session: Session) -> None:
    if session.in_nested_transaction():  # a savepoint released: the transaction goes on
        return
    session.info.pop(MADE, None)
    _destroy(session.info.pop(GONE, []))


@event.listens_for(AppSession, "after_transaction_end")
def _keys_after_rollback(session: Session, transaction: Any) -> None:
    if transaction.parent is None and not transaction.nested:
        session.info.pop(GONE, None)
        _destroy(session.info.pop(MADE, []))


# --------------------------------------------------------------------------- the models


class Sealing(db.Model):
    """One sealed choice of a round: who chooses, among what, and (once revealed) the result."""

    __tablename__ = "sealings"
    __table_args__ = (UniqueConstraint("game_id", "round_index", "stage"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    round_index: Mapped[int]
    stage: Mapped[int]
    """1 for the round's first sealing, then 2, 3 … (a tie-break, the next reveal)."""
    step: Mapped[str] = mapped_column(String(20))
    """The game's name for this choice: ``vote``, ``tie-break``, ``banen`` …"""
    mode: Mapped[str] = mapped_column(String(10))
    choosers: Mapped[list[str]] = mapped_column(JSON)
    choices: Mapped[list[str] | None] = mapped_column(JSON, default=None)
    """What may be chosen (None: any text, which the game checks)."""
    public_key: Mapped[bytes | None] = mapped_column(LargeBinary(KEY_BYTES), default=None)
    """The public key its slips are sealed to (its private key: in memory only)."""
    restarted: Mapped[bool] = mapped_column(default=False)
    """True when a restart lost the private key and the choosers were asked again."""
    revealed: Mapped[bool] = mapped_column(default=False)
    shown: Mapped[dict[str, str] | None] = mapped_column(JSON, default=None)
    """Attributed mode, once revealed: each chooser's choice, in chooser order."""
    verdict: Mapped[str | None] = mapped_column(String(40), default=None)
    """A choice the game recorded instead of the slips (Tromplemond's card cut)."""

    def __repr__(self) -> str:
        return f"<Sealing round {self.round_index + 1} stage {self.stage} {self.step}>"


class Slip(db.Model):
    """A choice made and sealed. No id, no time, no order: the key is (sealing, chooser)."""

    __tablename__ = "sealed_slips"
    __table_args__ = {"sqlite_with_rowid": False}

    sealing_id: Mapped[int] = mapped_column(ForeignKey("sealings.id", ondelete="CASCADE"),
                                            primary_key=True)
    chooser: Mapped[str] = mapped_column(String(40), primary_key=True)
    blob: Mapped[bytes] = mapped_column(LargeBinary(BLOB_BYTES))


class Tally(db.Model):
    """How many chose ``choice`` in an anonymous sealing: written once, at the reveal."""

    __tablename__ = "sealed_tallies"
    __table_args__ = {"sqlite_with_rowid": False}

    sealing_id: Mapped[int] = mapped_column(ForeignKey("sealings.id", ondelete="CASCADE"),
                                            primary_key=True)
    choice: Mapped[str] = mapped_column(String(40), primary_key=True)
    count: Mapped[int]


# --------------------------------------------------------------------------- reads


@dataclass(frozen=True)
class SealedStatus:
    """Where a sealing stands, as any screen may see it: who is in, never what they chose."""

    id: int
    round_index: int
    stage: int
    step: str
    mode: Mode
    choosers: tuple[str, ...]
    choices: tuple[str, ...] | None
    chosen: frozenset[str]
    """Who has made their choice (sealed)."""
    revealed: bool
    counts: dict[str, int] | None = None
    """Anonymous, once revealed: how many chose each choice, in ``choices`` order."""
    shown: dict[str, str] | None = None
    """Attributed, once revealed: each chooser's choice, in chooser order."""
    verdict: str | None = None
    restarted: bool = False
    public_key: bytes | None = None
    """The key a device seals its slip to."""

    @property
    def seal_key(self) -> str:
        """The public key as the slip form carries it (base64url)."""
        return encode_blob(self.public_key or b"")

    @property
    def expected(self) -> int:
        """How many choices the sealing waits for."""
        return len(self.choosers)

    @property
    def open(self) -> bool:
        """True while choices are being made (not revealed, no verdict)."""
        return not self.revealed and self.verdict is None

    def may_choose(self, name: str | None) -> bool:
        """True when ``name`` has a choice still to make here."""
        return self.open and name in self.choosers and name not in self.chosen

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """The choosers still to choose, in order."""
        return tuple(n for n in self.choosers if n not in self.chosen)


def sealings_of(game_id: int, round_index: int) -> Select[tuple[Sealing]]:
    """The sealings of one round, stage by stage."""
    return (select(Sealing)
            .where(Sealing.game_id == game_id, Sealing.round_index == round_index)
            .order_by(Sealing.stage))


def latest(game: Game, round_index: int, *, lock: bool = False) -> Sealing | None:
    """The round's latest sealing (locked for this transaction with ``lock``)."""
    query = (select(Sealing)
             .where(Sealing.game_id == game.id, Sealing.round_index == round_index)
             .order_by(Sealing.stage.desc()).limit(1))
    if lock:
        query = query.with_for_update().execution_options(populate_existing=True)
    return db.session.scalar(query)


def lost(sealing: Sealing) -> bool:
    """True when ``sealing`` is open and the store does not hold its private key (the
    server restarted since it opened): its slips can never be opened."""
    return (not sealing.revealed and sealing.verdict is None
            and (sealing.public_key is None or not sealing_keys().holds(sealing.public_key)))


def status(sealing: Sealing) -> SealedStatus:
    """The status of ``sealing``: counts or shown choices only once it is revealed."""
    gone = lost(sealing)
    if sealing.revealed:
        chosen = frozenset(sealing.choosers)
    else:
        chosen = frozenset() if gone else frozenset(db.session.scalars(
            select(Slip.chooser).where(Slip.sealing_id == sealing.id)))
    counts = None
    if sealing.revealed and sealing.mode == Mode.ANONYMOUS:
        rows = dict(db.session.execute(select(Tally.choice, Tally.count)
                                       .where(Tally.sealing_id == sealing.id)).all())
        counts = {c: rows.get(c, 0) for c in (sealing.choices or sorted(rows))}
    return SealedStatus(
        id=sealing.id, round_index=sealing.round_index, stage=sealing.stage, step=sealing.step,
        mode=Mode(sealing.mode), choosers=tuple(sealing.choosers),
        choices=tuple(sealing.choices) if sealing.choices is not None else None,
        chosen=chosen, revealed=sealing.revealed, counts=counts,
        shown=dict(sealing.shown) if sealing.shown is not None else None,
        verdict=sealing.verdict, restarted=gone or sealing.restarted,
        public_key=sealing.public_key)


def statuses(game: Game, round_index: int) -> list[SealedStatus]:
    """The statuses of a round's sealings, stage by stage."""
    return [status(s) for s in db.session.scalars(sealings_of(game.id, round_index))]


# --------------------------------------------------------------------------- writes


def open_sealing(game: Game, round_index: int, step: str, mode: Mode,
                 choosers: Sequence[str], choices: Sequence[str] | None = None) -> Sealing:
    """Open the round's next sealing (the stage after its latest), with a key pair of its own."""
    sealing = _open(game, round_index, step, mode, choosers, choices)
    bump(game.table)
    return sealing


def _open(game: Game, round_index: int, step: str, mode: Mode, choosers: Sequence[str],
          choices: Sequence[str] | None = None) -> Sealing:
    """:func:`open_sealing`, the table's version left to the caller."""
    if not choosers:
        raise SealError(Phrase("seal.nobody_to_choose"), 409)
    before = latest(game, round_index)
    public = _new_key()
    sealing = Sealing(game_id=game.id, round_index=round_index,
                      stage=before.stage + 1 if before else 1, step=step, mode=str(mode),
                      choosers=list(choosers),
                      choices=list(choices) if choices is not None else None,
                      public_key=public, revealed=False)
    try:
        with db.session.begin_nested():
            db.session.add(sealing)
    except IntegrityError:  # another screen opened this stage a moment earlier
        sealing_keys().destroy(public)
        raise SealError(Phrase("seal.opened_a_moment_ago"), 409) from None
    return sealing


RESTARTED = Phrase("seal.restarted")
"""The refusal of a slip sealed to a key a restart lost: choose again."""


def void(game: Game, sealing: Sealing) -> None:
    """A sealing whose private key is lost: drop its slips, give it a new key pair, mark it
    ``restarted`` (every screen says so), raise the table's version."""
    db.session.execute(delete(Slip).where(Slip.sealing_id == sealing.id))
    _end_key(sealing.public_key)
    sealing.public_key = _new_key()
    sealing.restarted = True
    bump(game.table)


def seal(game: Game, sealing: Sealing, chooser: str, choice: str,
         blob: bytes | None = None) -> bool:
    """Seal ``chooser``'s ``choice``; the last choice reveals the sealing. Returns True then.

    ``blob`` is the slip as the device sealed it (:func:`open_slip` checked it): it is
    kept as sent when it says this ``choice``; otherwise (no JavaScript on the device, or
    the game wrote the choice its own way) the server seals ``choice`` the same way.
    The caller has locked the round (or the sealing): choices of one sealing take
    turns, so the one that completes it sees every other.
    """
    if sealing.revealed or sealing.verdict is not None:
        raise SealError(Phrase("seal.settled_a_moment_ago"), 409)
    if chooser not in sealing.choosers:
        raise SealError(Phrase("seal.no_choice_here", {"chooser": chooser}), 403)
    if sealing.choices is not None and choice not in sealing.choices:
        raise SealError(Phrase("seal.not_a_choice"))
    if sealing.mode == Mode.ANONYMOUS and len(choice) > NAME_LENGTH:
        raise SealError(Phrase("seal.choice_too_long"))
    if lost(sealing):
        if blob is not None:  # sealed to a key that is gone: it can never be opened
            raise SealError(RESTARTED, 409)
        void(game, sealing)  # (the old slips can never be opened: they go)
    private = sealing_keys().private_key(sealing.public_key)
    if private is None:  # pragma: no cover - destroyed this very moment by another worker
        raise SealError(RESTARTED, 409)
    if blob is None or open_slip(private, blob) != OpenedSlip(sealing.id, chooser, choice):
        blob = seal_slip(sealing.public_key, sealing.id, chooser, choice)
    try:
        with db.session.begin_nested():
            db.session.execute(insert(Slip).values(sealing_id=sealing.id, chooser=chooser,
                                                   blob=blob))
    except IntegrityError:
        raise SealError(Phrase("seal.chosen_already", {"chooser": chooser}), 409) from None
    made = set(db.session.scalars(select(Slip.chooser).where(Slip.sealing_id == sealing.id)))
    complete = made >= set(sealing.choosers)
    if complete:
        _reveal(sealing, private)
    bump(game.table)
    return complete


def _reveal(sealing: Sealing, private: bytes) -> None:
    """Every choice is in: open them, write the result, delete the slips, end the key."""
    slips = db.session.execute(select(Slip.chooser, Slip.blob)
                               .where(Slip.sealing_id == sealing.id)).all()
    opened = {}
    for chooser, blob in slips:
        slip = open_slip(private, blob)
        if (slip.sealing_id, slip.chooser) != (sealing.id, chooser):  # pragma: no cover
            raise SealError(Phrase("seal.not_its_choosers"), 409)
        opened[chooser] = slip.choice
    if sealing.mode == Mode.ANONYMOUS:
        choices = sealing.choices or sorted(set(opened.values()))
        counts = {c: 0 for c in choices}
        for choice in opened.values():
            counts[choice] += 1
        db.session.execute(insert(Tally), [
            {"sealing_id": sealing.id, "choice": c, "count": n} for c, n in counts.items()])
    else:
        sealing.shown = {c: opened[c] for c in sealing.choosers}
    db.session.execute(delete(Slip).where(Slip.sealing_id == sealing.id))
    _end_key(sealing.public_key)
    sealing.revealed = True
    db.session.flush()


def set_verdict(game: Game, sealing: Sealing, verdict: str) -> None:
    """Record a choice made instead of the slips (a card cut); the slips go unread."""
    db.session.execute(delete(Slip).where(Slip.sealing_id == sealing.id))
    _end_key(sealing.public_key)
    sealing.verdict = verdict
    bump(game.table)


def drop(game: Game, sealing: Sealing) -> None:
    """Forget an open sealing, with any slips in it, unread."""
    _drop([sealing])
    bump(game.table)


def _drop(sealings: Sequence[Sealing]) -> None:
    """Forget ``sealings`` with their slips, unread (the table's version is the caller's)."""
    ids = [sealing.id for sealing in sealings]
    for sealing in sealings:
        _end_key(sealing.public_key)
    for model in (Slip, Tally):
        db.session.execute(delete(model).where(model.sealing_id.in_(ids))
                           .execution_options(synchronize_session=False))
    db.session.execute(delete(Sealing).where(Sealing.id.in_(ids))
                       .execution_options(synchronize_session=False))
    db.session.expire_all()


def settle(game: Game, round_index: int, step: str | None, choosers: Sequence[str], *,
           forgotten: str | None = None) -> None:
    """Make the round's sealings what its facts call for: every sealing of step
    ``forgotten`` (taken back) goes, unread; the one open is of ``step`` for ``choosers``
    (kept when it is already, else opened; with ``step`` None none is open: an open one goes,
    unread). Attributed: each chooser's choice is shown by name. The table's version is the
    caller's to raise (:func:`companion.store.rounds.play_on` raises it once)."""
    if forgotten is not None:
        gone = [s for s in db.session.scalars(sealings_of(game.id, round_index))
                if s.step == forgotten]
        if gone:
            _drop(gone)
    last = latest(game, round_index, lock=True)
    open_ = last if last is not None and not last.revealed and last.verdict is None else None
    if (open_ is not None and step is not None and open_.step == step
            and list(open_.choosers) == list(choosers)):
        return
    if open_ is not None:
        _drop([open_])
    if step is not None:
        _open(game, round_index, step, Mode.ATTRIBUTED, choosers)


def latest_of(game: Game, round_index: int, step: str) -> SealedStatus | None:
    """The status of the round's latest sealing of ``step`` (None: there is none)."""
    found = db.session.scalars(sealings_of(game.id, round_index)
                               .where(Sealing.step == step)).all()
    return status(found[-1]) if found else None


def discard(game: Game, round_index: int) -> None:
    """Forget every sealing of a round (it was undone, or someone showed cards early)."""
    found = db.session.execute(select(Sealing.id, Sealing.public_key).where(
        Sealing.game_id == game.id, Sealing.round_index == round_index)).all()
    if not found:
        return
    ids = [sealing_id for sealing_id, _public in found]
    for _sealing_id, public in found:
        _end_key(public)
    # Children first: correct even where foreign keys are not enforced.
    for model in (Slip, Tally):
        db.session.execute(delete(model).where(model.sealing_id.in_(ids))
                           .execution_options(synchronize_session=False))
    db.session.execute(delete(Sealing).where(Sealing.id.in_(ids))
                       .execution_options(synchronize_session=False))
    db.session.expire_all()
    bump(game.table)


# --------------------------------------------------------------------------- after a restart


def void_lost() -> int:
    """Void every open sealing whose private key the store does not hold (the server
    restarted since it opened, or its keys were lost): its slips go, it gets a new key
    pair and is marked ``restarted``, its table's version rises, all in one commit.
    Returns how many; a database without the tables yet (before ``flask db upgrade``)
    has none."""
    try:
        open_ones = db.session.scalars(select(Sealing).where(
            Sealing.revealed.is_(False), Sealing.verdict.is_(None))).all()
        voided = 0
        for sealing in open_ones:
            if lost(sealing):
                void(db.session.get(Game, sealing.game_id), sealing)
                voided += 1
        db.session.commit()
        return voided
    except SQLAlchemyError as error:
        db.session.rollback()
        log.warning("open sealings not checked for lost keys: %s", error)
        return 0


def keys_of(app: Flask) -> SealingKeys:
    """The app's sealing key store: a new one is a new process (the keys before it lost)."""
    return app.extensions[EXTENSION]


def void_lost_at_start() -> int:
    """Before a process's first answer: void the sealings a restart left without their keys
    (:func:`void_lost`), so that every screen, whose event stream comes back to the new
    process, hears of it at once. The front door calls it once per key store
    (:func:`keys_of`). Returns how many were voided."""
    voided = void_lost()
    if voided:
        log.warning("%d open sealing(s) voided: their keys were lost (a restart); their "
                    "choosers are asked again", voided)
    return voided


def scrub() -> None:
    """After a reveal is committed: clear what the database keeps of the slips' history.

    The slips were sealed, so this is a second line: PostgreSQL VACUUMs the
    tables (dead row versions of the sealed slips go), SQLite checkpoints and
    truncates its WAL. Best effort, outside any transaction: a busy database
    is left as it is.
    """
    engine = db.engine
    try:
        if engine.dialect.name == "postgresql":
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.execute(text("VACUUM sealed_slips, sealed_tallies, sealings"))
        elif engine.dialect.name == "sqlite":
            raw = engine.raw_connection()
            try:
                cursor = raw.cursor()
                usual = cursor.execute("PRAGMA busy_timeout").fetchone()[0]
                # A short wait: readers polling the table must not hold up the answer.
                cursor.execute("PRAGMA busy_timeout=200")
                try:
                    cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
                finally:
                    cursor.execute(f"PRAGMA busy_timeout={int(usual)}")
                    cursor.close()
            finally:
                raw.close()
    except (SQLAlchemyError, sqlite3.Error) as error:
        log.warning("sealed-choice scrub skipped: %s", error)


__all__ = ["BLOB_BYTES", "PLAIN_BYTES", "SEALED_FIELD", "SERVERS_LOCK", "KeysNotShared",
           "Mode", "OpenedSlip", "SealError", "SealedStatus", "Sealing", "Slip", "Tally",
           "claim_database", "decode_blob", "discard", "drop", "encode_blob", "install_keys",
           "keys_of", "latest", "latest_of", "lost", "open_sealing", "open_slip", "scrub", "seal",
           "seal_slip", "sealing_keys", "sealings_of", "set_verdict", "settle",
           "slip_plaintext", "status", "statuses", "void", "void_lost", "void_lost_at_start"]
