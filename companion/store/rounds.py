"""The round being entered, for every game: its facts so far, before the scorekeeper confirms it.

A game's record holds only confirmed rounds. While a round is being played,
its facts so far live in the game's one :class:`RoundDraft`, in the
record's own form (Tromplemond's ``hands`` and ``called``, Clumond's
``tricks``, Tremp's ``bids`` …), with the checklist ticks beside them.
Confirming the round appends its facts to ``Game.rounds`` and clears the
draft for the next round; undoing the last round puts its facts back into
the draft; correcting a past round replaces its facts and remembers the
rounds as they stood before, so the phones can be told what changed.

Every write holds a lock before it reads the draft, so phones writing in the
same moment all land, and a double tap on "confirm" appends the round once: a
game's action has locked its table's row first (``commits.find_to_change``;
SQLite takes the whole database at ``BEGIN IMMEDIATE``) and read the game with
its draft after it in one statement (:func:`latest_game_with_draft`); without
that lock the draft row is locked (``SELECT … FOR UPDATE``) and the game's
rounds read again after it. Each write bumps the table's version; the commit
is the caller's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import JSON, ForeignKey, Select, inspect, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.orm.attributes import set_committed_value

from ..extensions import db
from . import sealed
from .commits import bump, hold, locked_first
from .models import Game, Table
from .queries import last_game_number


class RoundDraft(db.Model):
    """The facts of a game's round in progress (one row per game, reused round after round)."""

    __tablename__ = "round_drafts"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         unique=True)
    round_index: Mapped[int] = mapped_column(default=0)
    """The round this draft is for (0-based): always the number of confirmed rounds."""
    facts: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """The round's facts entered so far, in the record's form."""
    ticks: Mapped[list[str]] = mapped_column(JSON, default=list)
    """The checklist steps ticked: ``deck:3``, ``deal:0`` …"""
    corrected_from: Mapped[list[Any] | None] = mapped_column(JSON, default=None)
    """The confirmed rounds as they stood before the first correction since the last confirm."""

    game: Mapped[Game] = relationship()

    def ticked(self, key: str) -> bool:
        """True when checklist step ``key`` is ticked."""
        return key in self.ticks

    def __repr__(self) -> str:
        return f"<RoundDraft game={self.game_id} round {self.round_index + 1}>"


def draft_of(game_id: int) -> Select[tuple[RoundDraft]]:
    """A game's round draft."""
    return select(RoundDraft).where(RoundDraft.game_id == game_id)


def _clear(draft: RoundDraft, round_index: int) -> None:
    draft.round_index = round_index
    draft.facts = {}
    draft.ticks = []
    draft.corrected_from = None


def _fresh(game: Game) -> RoundDraft:
    draft = RoundDraft(game_id=game.id)
    _clear(draft, len(game.rounds))
    return draft


def _loaded_draft(game_id: int) -> RoundDraft | None:
    """The game's draft as the session holds it already (not expired), if it does: a query
    would give the very same object, unchanged (the session keeps what it has loaded), after
    a round trip."""
    for row in db.session.identity_map.values():
        if isinstance(row, RoundDraft) and inspect(row).dict.get("game_id") == game_id:
            return row
    return None


def current_draft(game: Game) -> RoundDraft:
    """The draft of the game's next round, as it stands (not saved when it is new or stale).

    For reading: a draft left from a round since confirmed or undone reads
    as a fresh one. Writes use :func:`locked_draft`.
    """
    draft = _loaded_draft(game.id)
    if draft is None:
        draft = db.session.scalar(draft_of(game.id))
    if draft is None or draft.round_index != len(game.rounds):
        return _fresh(game)
    return draft


def latest_game_with_draft(table: Table) -> Game | None:
    """The table's latest game (also set as ``table.latest_game``) and, held in the session,
    its draft: one statement, both as last committed, for a transaction that has locked
    the table first (:func:`~companion.store.commits.hold`).
    """
    latest = last_game_number(table.id).scalar_subquery()
    row = db.session.execute(
        select(Game, RoundDraft).outerjoin(RoundDraft, RoundDraft.game_id == Game.id)
        .where(Game.table_id == table.id, Game.number == latest)
        .execution_options(populate_existing=True)).first()
    game, draft = row if row is not None else (None, None)
    set_committed_value(table, "latest_game", game)
    if draft is not None:
        hold(table.id, draft)
    return game


def locked_draft(game: Game) -> RoundDraft:
    """The game's draft, locked for this transaction; made (or cleared) for the next round.

    After the table's lock (:func:`~companion.store.commits.locked_first`) the draft this
    transaction read with its game is the one to change; else its row is locked and read.
    """
    draft = _loaded_draft(game.id) if locked_first(game.table_id) else None
    query = draft_of(game.id).with_for_update().execution_options(populate_existing=True)
    if draft is None:
        draft = db.session.scalar(query)
    if draft is None:
        try:
            with db.session.begin_nested():
                draft = _fresh(game)
                db.session.add(draft)
        except IntegrityError:  # another phone made it a moment earlier
            draft = db.session.scalar(query)
            assert draft is not None
    if not locked_first(game.table_id):
        # The game's rounds are read after the lock: a confirm that just finished is seen.
        db.session.refresh(game, ["rounds", "flags", "status"])
    if draft.round_index != len(game.rounds):
        _clear(draft, len(game.rounds))
    return draft


def start_draft(game: Game) -> RoundDraft:
    """Make the draft of a new game's first round (the game was just started)."""
    draft = _fresh(game)
    db.session.add(draft)
    db.session.flush()
    return draft


# --------------------------------------------------------------------------- the round so far


def update_facts(draft: RoundDraft, changes: Mapping[str, Any]) -> None:
    """Set some of the round's facts (a value of ``None`` takes that fact out)."""
    facts = {k: v for k, v in draft.facts.items() if k not in changes}
    facts.update({k: v for k, v in changes.items() if v is not None})
    draft.facts = facts
    bump(draft.game.table)


def play_on(draft: RoundDraft, facts: Mapping[str, Any], *,
            finished: Mapping[str, Any] | None = None,
            sealing: tuple[str | None, Sequence[str]] | None = None,
            forgotten: str | None = None) -> None:
    """A step of play, written at once: the round's facts (all of them, in place of the old
    ones); a ``finished`` round (its facts in the record's form) joins the record and the
    draft moves on; with ``sealing`` (a step and its choosers, or None and nobody) the
    round's sealings are made what the facts call for, and those of step ``forgotten``
    go, unread (:func:`companion.store.sealed.settle`). The table's version is raised once.
    """
    game = draft.game
    draft.facts = dict(facts)
    if finished is not None:
        game.rounds = [*game.rounds, dict(finished)]
        _clear(draft, len(game.rounds))
    if sealing is not None:
        sealed.settle(game, draft.round_index, *sealing, forgotten=forgotten)
    bump(game.table)


def set_tick(draft: RoundDraft, key: str, ticked: bool) -> bool:
    """Tick a checklist step (``ticked``) or untick it; returns True when that changed it
    (a step already as wanted is left alone: nothing changes, nothing is bumped)."""
    if (key in draft.ticks) == ticked:
        return False
    draft.ticks = [*draft.ticks, key] if ticked else [k for k in draft.ticks if k != key]
    bump(draft.game.table)
    return True


def toggle_tick(draft: RoundDraft, key: str) -> bool:
    """Tick a checklist step, or untick it; returns True when it is now ticked."""
    ticked = key not in draft.ticks
    draft.ticks = [*draft.ticks, key] if ticked else [k for k in draft.ticks if k != key]
    bump(draft.game.table)
    return ticked


# --------------------------------------------------------------------------- the record


def confirm_round(draft: RoundDraft, facts: Mapping[str, Any]) -> None:
    """Append the round's facts to the game's record; the draft moves on to the next round."""
    game = draft.game
    game.rounds = [*game.rounds, dict(facts)]
    _clear(draft, len(game.rounds))
    bump(game.table)


def undo_round(draft: RoundDraft) -> dict[str, Any]:
    """Take the last confirmed round off the record and back into the draft; returns it."""
    game = draft.game
    facts = dict(game.rounds[-1])
    game.rounds = list(game.rounds[:-1])
    _clear(draft, len(game.rounds))
    draft.facts = dict(facts)
    bump(game.table)
    return facts


def amend_round(game: Game, index: int, facts: Mapping[str, Any]) -> None:
    """Put ``facts`` in place of round ``index`` (the rules check the record after)."""
    rounds = list(game.rounds)
    rounds[index] = dict(facts)
    game.rounds = rounds
    bump(game.table)


def replace_round(draft: RoundDraft, index: int, facts: Mapping[str, Any]) -> None:
    """Correct round ``index``: as :func:`amend_round`, and the phones are told what changed.

    The rounds as they stood before the first correction since the last
    confirm are kept in the draft, so each phone can be told what changed.
    """
    if draft.corrected_from is None:
        draft.corrected_from = list(draft.game.rounds)
    amend_round(draft.game, index, facts)


def set_flag(game: Game, name: str, value: Any) -> None:
    """Set (or, with ``None``, clear) a record-level flag such as Tromplemond's ``void``."""
    flags = {k: v for k, v in game.flags.items() if k != name}
    if value is not None:
        flags[name] = value
    game.flags = flags
    bump(game.table)


__all__ = ["RoundDraft", "amend_round", "confirm_round", "current_draft", "draft_of",
           "locked_draft", "play_on", "replace_round", "set_flag", "set_tick", "start_draft",
           "toggle_tick", "undo_round", "update_facts"]
