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

What the database holds while a sealing is open
-----------------------------------------------
One row per choice made (``sealed_slips``): the sealing, the chooser, and
the choice **sealed**: encrypted (AES-GCM) with a key that lives only in the
server's memory (:class:`SealingKey`), padded to one fixed size so that
every blob is as long as every other. A reader of the database, its WAL,
its backups or the logs learns who has chosen (every screen shows that) and
nothing of what. The counts or the shown choices are written once, at the
reveal, in the same transaction that deletes the sealed slips; no partial
count ever exists, in any row version.

The key is made when the app is made (``create_app``): gunicorn's
``--preload`` makes it once before the workers fork, so each worker opens
any slip. Several servers share one key through ``COMPANION_BALLOT_KEY``. A
sealing records the key's fingerprint (``key_id``, which does not reveal the
key): after a restart the new key cannot open the old slips, so the sealing
starts again (``restarted``) and every screen says so; nothing is guessed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from flask import current_app
from sqlalchemy import (
    JSON,
    ForeignKey,
    LargeBinary,
    Select,
    String,
    UniqueConstraint,
    delete,
    insert,
    select,
    text,
)
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from .changes import bump
from .models import NAME_LENGTH, Game

log = logging.getLogger(__name__)

CHOICE_BYTES = 256
"""Every sealed choice is padded to this many bytes (a 40-character name takes at most 160)."""

_NONCE = 12
BLOB_BYTES = _NONCE + CHOICE_BYTES + 16
"""The size of every sealed blob: nonce, padded choice, tag."""

EXTENSION = "companion.sealing_key"


class Mode(StrEnum):
    """How a sealing is revealed."""

    ANONYMOUS = "anonymous"
    """Counts only: never who chose what (a secret ballot)."""
    ATTRIBUTED = "attributed"
    """Each chooser's choice, shown beside their name (a simultaneous reveal)."""


class SealError(ValueError):
    """A choice the sealing cannot take; ``status`` is the HTTP status it deserves."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


# --------------------------------------------------------------------------- the key


class SealingKey:
    """The key that seals choices: 32 bytes, in this process's memory only."""

    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise ValueError("a sealing key is 32 bytes")
        self._aead = AESGCM(key)
        self.id = hmac.new(key, b"companion sealing key id", hashlib.sha256).hexdigest()[:16]
        """A fingerprint of the key, kept with each sealing; it does not reveal the key."""

    @classmethod
    def from_setting(cls, setting: str | None) -> SealingKey:
        """The key given in the environment (URL-safe base64 of 32 bytes), or a new one."""
        if not setting:
            return cls(os.urandom(32))
        try:
            key = base64.urlsafe_b64decode(setting.strip() + "=" * (-len(setting.strip()) % 4))
        except ValueError as error:
            raise ValueError("COMPANION_BALLOT_KEY must be URL-safe base64 of 32 bytes") \
                from error
        return cls(key)

    def seal(self, choice: str, binding: str) -> bytes:
        """``choice`` padded to :data:`CHOICE_BYTES` and encrypted, bound to ``binding``."""
        data = choice.encode("utf-8")
        if len(data) > CHOICE_BYTES - 2:
            raise SealError("That choice is too long.")
        padded = len(data).to_bytes(2, "big") + data + bytes(CHOICE_BYTES - 2 - len(data))
        nonce = os.urandom(_NONCE)
        return nonce + self._aead.encrypt(nonce, padded, binding.encode("utf-8"))

    def open(self, blob: bytes, binding: str) -> str:
        """The choice sealed in ``blob`` (``InvalidTag`` with another key or binding)."""
        padded = self._aead.decrypt(blob[:_NONCE], blob[_NONCE:], binding.encode("utf-8"))
        size = int.from_bytes(padded[:2], "big")
        return padded[2:2 + size].decode("utf-8")


def install_key(app, setting: str | None) -> SealingKey:
    """Make the app's sealing key (before gunicorn forks its workers, with ``--preload``)."""
    key = SealingKey.from_setting(setting)
    app.extensions[EXTENSION] = key
    return key


def sealing_key() -> SealingKey:
    """The running app's sealing key."""
    return current_app.extensions[EXTENSION]


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
    key_id: Mapped[str] = mapped_column(String(16))
    """The fingerprint of the key its slips are sealed with."""
    restarted: Mapped[bool] = mapped_column(default=False)
    """True when a restart lost the key and the choosers were asked again."""
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


def _stale(sealing: Sealing) -> bool:
    return not sealing.revealed and sealing.key_id != sealing_key().id


def status(sealing: Sealing) -> SealedStatus:
    """The status of ``sealing``: counts or shown choices only once it is revealed."""
    stale = _stale(sealing)
    if sealing.revealed:
        chosen = frozenset(sealing.choosers)
    else:
        chosen = frozenset() if stale else frozenset(db.session.scalars(
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
        verdict=sealing.verdict, restarted=stale or sealing.restarted)


def statuses(game: Game, round_index: int) -> list[SealedStatus]:
    """The statuses of a round's sealings, stage by stage."""
    return [status(s) for s in db.session.scalars(sealings_of(game.id, round_index))]


# --------------------------------------------------------------------------- writes


def open_sealing(game: Game, round_index: int, step: str, mode: Mode,
                 choosers: Sequence[str], choices: Sequence[str] | None = None) -> Sealing:
    """Open the round's next sealing (the stage after its latest)."""
    if not choosers:
        raise SealError("Nobody is there to choose.", 409)
    before = latest(game, round_index)
    sealing = Sealing(game_id=game.id, round_index=round_index,
                      stage=before.stage + 1 if before else 1, step=step, mode=str(mode),
                      choosers=list(choosers),
                      choices=list(choices) if choices is not None else None,
                      key_id=sealing_key().id, revealed=False)
    try:
        with db.session.begin_nested():
            db.session.add(sealing)
    except IntegrityError:  # another screen opened this stage a moment earlier
        raise SealError("That was opened a moment ago. Look again.", 409) from None
    bump(game.table)
    return sealing


def _binding(sealing: Sealing, chooser: str) -> str:
    return f"{sealing.id}/{chooser}"


def seal(game: Game, sealing: Sealing, chooser: str, choice: str) -> bool:
    """Seal ``chooser``'s ``choice``; the last choice reveals the sealing. Returns True then.

    The caller has locked the round (or the sealing): choices of one
    sealing take turns, so the one that completes it sees every other.
    """
    if sealing.revealed or sealing.verdict is not None:
        raise SealError("This was settled a moment ago. Look at your screen again.", 409)
    if chooser not in sealing.choosers:
        raise SealError(f"{chooser} has no choice to make here.", 403)
    if sealing.choices is not None and choice not in sealing.choices:
        raise SealError("That is not one of the choices.")
    if sealing.mode == Mode.ANONYMOUS and len(choice) > NAME_LENGTH:
        raise SealError("That choice is too long.")
    key = sealing_key()
    if _stale(sealing):
        # The server restarted: the slips sealed with the lost key cannot be opened.
        db.session.execute(delete(Slip).where(Slip.sealing_id == sealing.id))
        sealing.key_id = key.id
        sealing.restarted = True
    try:
        with db.session.begin_nested():
            db.session.execute(insert(Slip).values(
                sealing_id=sealing.id, chooser=chooser,
                blob=key.seal(choice, _binding(sealing, chooser))))
    except IntegrityError:
        raise SealError(f"{chooser} has chosen already: one choice each.", 409) from None
    made = set(db.session.scalars(select(Slip.chooser).where(Slip.sealing_id == sealing.id)))
    complete = made >= set(sealing.choosers)
    if complete:
        _reveal(sealing)
    bump(game.table)
    return complete


def _reveal(sealing: Sealing) -> None:
    """Every choice is in: open them, write the result, delete the sealed slips."""
    key = sealing_key()
    slips = db.session.execute(select(Slip.chooser, Slip.blob)
                               .where(Slip.sealing_id == sealing.id)).all()
    try:
        opened = {chooser: key.open(blob, _binding(sealing, chooser)) for chooser, blob in slips}
    except InvalidTag:  # pragma: no cover - the key is checked before any slip is sealed
        raise SealError("The sealed choices could not be opened: choose again.", 409) from None
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
    sealing.revealed = True
    db.session.flush()


def set_verdict(game: Game, sealing: Sealing, verdict: str) -> None:
    """Record a choice made instead of the slips (a card cut); the slips go unread."""
    db.session.execute(delete(Slip).where(Slip.sealing_id == sealing.id))
    sealing.verdict = verdict
    bump(game.table)


def drop(game: Game, sealing: Sealing) -> None:
    """Forget an open sealing, with any slips in it, unread."""
    for model in (Slip, Tally):
        db.session.execute(delete(model).where(model.sealing_id == sealing.id)
                           .execution_options(synchronize_session=False))
    db.session.execute(delete(Sealing).where(Sealing.id == sealing.id)
                       .execution_options(synchronize_session=False))
    db.session.expire_all()
    bump(game.table)


def discard(game: Game, round_index: int) -> None:
    """Forget every sealing of a round (it was undone, or someone showed cards early)."""
    ids = list(db.session.scalars(select(Sealing.id).where(
        Sealing.game_id == game.id, Sealing.round_index == round_index)))
    if not ids:
        return
    # Children first: correct even where foreign keys are not enforced.
    for model in (Slip, Tally):
        db.session.execute(delete(model).where(model.sealing_id.in_(ids))
                           .execution_options(synchronize_session=False))
    db.session.execute(delete(Sealing).where(Sealing.id.in_(ids))
                       .execution_options(synchronize_session=False))
    db.session.expire_all()
    bump(game.table)


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


__all__ = ["BLOB_BYTES", "CHOICE_BYTES", "Mode", "SealError", "SealedStatus", "Sealing",
           "SealingKey", "Slip", "Tally", "discard", "drop", "install_key", "latest",
           "open_sealing", "scrub", "seal", "sealing_key", "sealings_of", "set_verdict",
           "status", "statuses"]
