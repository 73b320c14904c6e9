"""The secret ballot of a Tromplemond round: slips, tie-breaks, revotes and card cuts.

A round's vote is a run of **ballots** (stages): stage 1 is the vote of all
four; a 2–2 tie opens a tie-break for the two players with no votes between
the two tied; a tie-break that disagrees opens another; a 1–1–1–1 opens a
new vote of all four. At any tie the scorekeeper may settle it with a card
cut instead. What four (or two) slips decide comes from the rules:
``companion.rules.tromplemond.vote_outcome`` and ``tie_break_outcome``.

What the database holds
-----------------------
- ``ballots``: one row per stage: game, round index, stage number, kind
  ("vote" or "tie-break"), who may vote, the candidates, whether it is
  revealed, and the card cut that settled it (if one did).
- ``ballot_voted``: that a player has dropped their slip in a ballot. The
  row is (ballot, player), its composite primary key, and nothing else: no
  id, no time, no order. The key makes a second slip from the same player
  impossible. On SQLite the table is ``WITHOUT ROWID``, so rows are stored
  in key order, not in the order they were written.
- ``ballot_counts``: one row per (ballot, candidate) with the number of
  slips naming them, made with 0 when the ballot opens.

A slip is written in ONE transaction: the ``ballot_voted`` row, and one more
count for its candidate. The count is added by rewriting EVERY count row of
the ballot (``votes = votes + CASE WHEN candidate = :name THEN 1 ELSE 0
END``), so every row of the ballot gets a new version in every vote and
none stands out (PostgreSQL's ``xmin`` and ``ctid``, SQLite's page
changes). Nothing links a player to the candidate they named: once all
slips of a ballot are in, the same slips dropped by other hands (Rob→Emily,
Sam→Nick or Rob→Nick, Sam→Emily) leave the same rows, byte for byte, in
the same order (``tests/store/test_ballots.py`` reads the whole database to
show it). Counts of a ballot are read only once all its slips are in; a
ballot given up for a card cut is deleted unread.

What remains visible to a database superuser (honestly)
--------------------------------------------------------
The live rows tell nobody who voted for whom. But a database keeps history
that its owner can dig into:

- **While a ballot is open**, the rows are what they are: after the first
  slip there is one ``ballot_voted`` row and one count of 1, and whoever
  reads the database at that moment knows that player's vote (after two
  slips, one of two, and so on). The design accepts this: it protects the
  result, not a database being watched live during the vote.
- **PostgreSQL: dead row versions.** Every vote leaves the previous versions
  of the count rows as dead tuples, stamped with the transaction ids that
  made and replaced them; the ``ballot_voted`` row carries its own
  transaction's id (``xmin``). Until VACUUM removes them, a superuser with
  ``pageinspect`` (or a raw read of the table files) can line up "the
  transaction that added Rob's row" with "the count versions it replaced",
  and so read each vote. :func:`scrub` runs VACUUM on the two tables after a
  ballot is revealed, which makes the dead versions unreachable; their bytes
  may still sit in free space in the data files until overwritten.
- **PostgreSQL: the WAL.** Each vote's transaction is written to the
  write-ahead log with its new rows (who has voted, and the new counts).
  Anyone who can read WAL segments (``pg_waldump``, a replica, a WAL
  archive or a backup taken during the vote) can read every vote. Segments
  are recycled after checkpoints; with archiving or replication they live
  as long as the archive.
- **Statement logs.** With ``log_statement = 'all'`` (or ``mod``),
  auto_explain or a logging proxy, the server logs each statement with its
  parameters, and one transaction names both the player and the candidate.
  Keep statement logging off on a server that runs votes.
- **SQLite: the WAL file** holds a copy of each changed page per commit
  until a checkpoint; a copy of the file taken during a vote, or the WAL's
  old frames, show the counts after each slip next to who had voted.
  :func:`scrub` checkpoints and truncates the WAL after a reveal; the
  filesystem (and any backup) may still hold the old blocks.
- Transaction timing: which seats have voted, and when, is visible anyway
  (the screens show "2 of 4 slips in"); it says nothing about the names on
  the slips.

Every write here leaves the commit to the caller (one request, one
transaction) and bumps the table's version, so every screen sees the change
on its next poll, all at once.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import (
    JSON,
    ForeignKey,
    Select,
    String,
    UniqueConstraint,
    case,
    delete,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Mapped, mapped_column

from ..extensions import db
from ..rules.common import and_list
from ..rules.tromplemond import (
    VoteKind,
    VoteOutcome,
    tie_break_outcome,
    vote_outcome,
)
from .changes import bump
from .models import NAME_LENGTH, Game

VOTE, TIE_BREAK, CUT = "vote", "tie-break", "cut"
"""The kinds of ballot, and how a round's vote can be settled (``VoteStatus.how``)."""

PLAYERS = 4
"""A Tromplemond vote is for four players."""

log = logging.getLogger(__name__)


class Ballot(db.Model):
    """One stage of a round's vote: the vote of all four, or a tie-break of two."""

    __tablename__ = "ballots"
    __table_args__ = (UniqueConstraint("game_id", "round_index", "stage"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    round_index: Mapped[int]
    """0 for the game's first round."""
    stage: Mapped[int]
    """1 for the round's vote, then each revote or tie-break in order."""
    kind: Mapped[str] = mapped_column(String(10))
    voters: Mapped[list[str]] = mapped_column(JSON)
    """Who drops a slip: all four for a vote, the two deciders for a tie-break."""
    candidates: Mapped[list[str]] = mapped_column(JSON)
    """Who may be named: all four for a vote (never oneself), the tied two for a tie-break."""
    revealed: Mapped[bool] = mapped_column(default=False)
    """True once every slip is in: then, and only then, its counts are shown."""
    cut: Mapped[str | None] = mapped_column(String(NAME_LENGTH), default=None)
    """The player a card cut sent off, settling this ballot's tie."""

    def __repr__(self) -> str:
        return f"<Ballot round {self.round_index + 1} stage {self.stage} {self.kind}>"


class Voted(db.Model):
    """That ``player`` has dropped a slip in a ballot: nothing about what it says."""

    __tablename__ = "ballot_voted"
    # Stored in key order, so the file does not keep the order the slips came in.
    __table_args__ = {"sqlite_with_rowid": False}

    ballot_id: Mapped[int] = mapped_column(
        ForeignKey("ballots.id", ondelete="CASCADE"), primary_key=True)
    player: Mapped[str] = mapped_column(String(NAME_LENGTH), primary_key=True)


class Count(db.Model):
    """How many slips of a ballot name ``candidate`` (made with 0 when the ballot opens)."""

    __tablename__ = "ballot_counts"
    __table_args__ = {"sqlite_with_rowid": False}

    ballot_id: Mapped[int] = mapped_column(
        ForeignKey("ballots.id", ondelete="CASCADE"), primary_key=True)
    candidate: Mapped[str] = mapped_column(String(NAME_LENGTH), primary_key=True)
    votes: Mapped[int] = mapped_column(default=0)


class BallotError(ValueError):
    """A slip or a cut the ballot refuses, with a message a player can act on.

    ``status`` is the HTTP status the web layer answers with: 400 for a bad
    choice, 403 for a player who has no slip in this ballot, 409 for a slip
    that comes too late (already voted, ballot settled, an earlier stage).
    """

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class VoteStatus:
    """Where a round's vote stands, as every screen may see it.

    The current ballot (the last stage) gives ``stage``, ``kind``,
    ``eligible``, ``candidates``, ``voted`` and the slip counts. ``counts``
    and ``outcome`` are those of the last *revealed* ballot of the round
    (``revealed_stage``): ``None`` until a ballot has all its slips in. A
    ballot that is still open never shows a count.
    """

    round_index: int
    stage: int = 0
    """0: no vote opened yet for this round."""
    kind: str | None = None
    eligible: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()
    voted: frozenset[str] = frozenset()
    slips_in: int = 0
    slips_expected: int = 0
    counts: dict[str, int] | None = None
    revealed_stage: int | None = None
    revealed_kind: str | None = None
    outcome: VoteOutcome | None = None
    settled_off: str | None = None
    how: str | None = None
    """How the round's off player was settled: "vote", "tie-break" or "cut" (None: not yet)."""
    history: tuple[str, ...] = ()
    """One line per revealed ballot (and the cut), oldest first, for the tablet."""
    cut_choices: tuple[str, ...] = field(default=())
    """Whom a card cut may send off now (empty unless there is a tie to settle)."""

    @property
    def opened(self) -> bool:
        """True once the round's vote has been opened."""
        return self.stage > 0

    @property
    def settled(self) -> bool:
        """True when the round's off player is known."""
        return self.settled_off is not None

    @property
    def voting(self) -> bool:
        """True while slips are being dropped (opened, not settled)."""
        return self.opened and not self.settled

    @property
    def tie_break(self) -> bool:
        """True while a tie-break is being decided."""
        return self.voting and self.kind == TIE_BREAK

    def may_vote(self, name: str | None) -> bool:
        """True when ``name`` has a slip to drop in the current ballot."""
        return self.voting and name in self.eligible and name not in self.voted

    def targets(self, name: str | None) -> tuple[str, ...]:
        """Whom ``name`` may name on their slip (never themself)."""
        return tuple(c for c in self.candidates if c != name)


# --------------------------------------------------------------------------- reads


def ballots_of(game_id: int, round_index: int) -> Select[tuple[Ballot]]:
    """The ballots of one round, stage by stage."""
    return (select(Ballot)
            .where(Ballot.game_id == game_id, Ballot.round_index == round_index)
            .order_by(Ballot.stage))


def _latest(game: Game, round_index: int, *, lock: bool = False) -> Ballot | None:
    query = ballots_of(game.id, round_index).order_by(None).order_by(Ballot.stage.desc()).limit(1)
    if lock:
        # Slips of one ballot take turns: the one that completes it sees every other.
        query = query.with_for_update().execution_options(populate_existing=True)
    return db.session.scalar(query)


def _voted(ballot: Ballot) -> frozenset[str]:
    return frozenset(db.session.scalars(select(Voted.player)
                                        .where(Voted.ballot_id == ballot.id)))


def _counts(ballot: Ballot) -> dict[str, int]:
    """A revealed ballot's counts, in candidate order."""
    if not ballot.revealed:
        raise RuntimeError("the counts of an open ballot are never read")
    rows = dict(db.session.execute(select(Count.candidate, Count.votes)
                                   .where(Count.ballot_id == ballot.id)).all())
    return {name: rows.get(name, 0) for name in ballot.candidates}


def _outcome(game: Game, ballot: Ballot, counts: dict[str, int]) -> VoteOutcome:
    if ballot.kind == VOTE:
        return vote_outcome(counts, game.players)
    tied = VoteOutcome(VoteKind.TIE_BREAK, tied=tuple(ballot.candidates),
                       deciders=tuple(ballot.voters))
    return tie_break_outcome(counts, tied)


def _pattern(counts: dict[str, int]) -> str:
    """ "3–1", "2–1–1", "2–2", "1–1–1–1": the votes as players say them."""
    return "–".join(str(n) for n in sorted((n for n in counts.values() if n), reverse=True))




def _line(round_index: int, ordinal: int, ballot: Ballot, counts: dict[str, int],
          outcome: VoteOutcome) -> str:
    where = f"Round {round_index + 1}, {ballot.kind} {ordinal}"
    if ballot.kind == VOTE:
        if outcome.kind is VoteKind.VOTED_OFF:
            return f"{where}: {_pattern(counts)}, {outcome.voted_off} is voted off"
        if outcome.kind is VoteKind.TIE_BREAK:
            return (f"{where}: {_pattern(counts)} between {and_list(outcome.tied)}; "
                    f"{and_list(outcome.deciders)} decide")
        return f"{where}: {_pattern(counts)}, everyone votes again"
    if outcome.kind is VoteKind.VOTED_OFF:
        return f"{where}: agreed on {outcome.voted_off}"
    return f"{where}: {and_list(ballot.voters)} disagreed, new slips"


def vote_status(game: Game, round_index: int) -> VoteStatus:
    """Where round ``round_index``'s vote stands (see :class:`VoteStatus`)."""
    ballots = db.session.scalars(ballots_of(game.id, round_index)).all()
    if not ballots:
        return VoteStatus(round_index=round_index)
    latest = ballots[-1]
    voted = _voted(latest)
    history: list[str] = []
    ordinals = {VOTE: 0, TIE_BREAK: 0}
    counts = outcome = revealed = None
    for ballot in ballots:
        ordinals[ballot.kind] += 1
        if not ballot.revealed:
            continue
        revealed, counts = ballot, _counts(ballot)
        outcome = _outcome(game, ballot, counts)
        history.append(_line(round_index, ordinals[ballot.kind], ballot, counts, outcome))
    settled_off = how = None
    if latest.cut is not None:
        settled_off, how = latest.cut, CUT
        history.append(f"Round {round_index + 1}, card cut: {latest.cut} goes off")
    elif latest.revealed and outcome is not None and outcome.kind is VoteKind.VOTED_OFF:
        settled_off, how = outcome.voted_off, latest.kind
    # A tie awaits when the open ballot follows a revealed one (a tie-break or a revote).
    tie = settled_off is None and not latest.revealed and latest.stage > 1
    return VoteStatus(
        round_index=round_index, stage=latest.stage, kind=latest.kind,
        eligible=tuple(latest.voters), candidates=tuple(latest.candidates),
        voted=voted, slips_in=len(voted), slips_expected=len(latest.voters),
        counts=counts, revealed_stage=revealed.stage if revealed else None,
        revealed_kind=revealed.kind if revealed else None, outcome=outcome,
        settled_off=settled_off, how=how, history=tuple(history),
        cut_choices=tuple(latest.candidates) if tie else (),
    )


# --------------------------------------------------------------------------- writes


def _check_game(game: Game, round_index: int) -> None:
    if game.game != "tromplemond" or len(game.players) != PLAYERS:
        raise BallotError("A secret vote is held only in Tromplemond, with four players.")
    if isinstance(round_index, bool) or not isinstance(round_index, int) or round_index < 0:
        raise BallotError("There is no such round.")


def _open(game: Game, round_index: int, stage: int, kind: str, voters: Sequence[str],
          candidates: Sequence[str]) -> Ballot:
    ballot = Ballot(game_id=game.id, round_index=round_index, stage=stage, kind=kind,
                    voters=list(voters), candidates=list(candidates), revealed=False)
    db.session.add(ballot)
    db.session.flush()
    db.session.execute(insert(Count), [{"ballot_id": ballot.id, "candidate": name, "votes": 0}
                                       for name in candidates])
    return ballot


def open_vote(game: Game, round_index: int) -> Ballot:
    """Open round ``round_index``'s vote (stage 1, all four), or return its current ballot.

    Idempotent: a vote already opened (or settled) is returned as it is.
    """
    _check_game(game, round_index)
    latest = _latest(game, round_index)
    if latest is not None:
        return latest
    try:
        with db.session.begin_nested():
            ballot = _open(game, round_index, 1, VOTE, game.players, game.players)
    except IntegrityError:  # another screen opened it a moment earlier
        latest = _latest(game, round_index)
        assert latest is not None
        return latest
    bump(game.table)
    return ballot


def _settled(game: Game, ballot: Ballot) -> str | None:
    """The off player when ``ballot`` (a round's latest) settled the round, else None."""
    if ballot.cut is not None:
        return ballot.cut
    if not ballot.revealed:
        return None
    outcome = _outcome(game, ballot, _counts(ballot))
    return outcome.voted_off


def _open_ballot(game: Game, round_index: int, *, lock: bool) -> Ballot:
    ballot = _latest(game, round_index, lock=lock)
    if ballot is None:
        raise BallotError(f"The vote of round {round_index + 1} is not open yet.", 409)
    off = _settled(game, ballot)
    if off is not None:
        raise BallotError(f"The vote of round {round_index + 1} is settled: {off} is off.", 409)
    return ballot


def _check(game: Game, ballot: Ballot, voter: str, target: str, stage: int | None) -> None:
    if stage is not None and stage != ballot.stage:
        raise BallotError("That slip was for an earlier vote: the vote has moved on. "
                          "Look at your screen again.", 409)
    if voter not in game.players:
        raise BallotError(f"{voter} is not playing this game.", 403)
    if voter not in ballot.voters:
        raise BallotError(f"{voter} has no slip in this tie-break: only {and_list(ballot.voters)} "
                          f"decide between {and_list(ballot.candidates)}.", 403)
    if voter in _voted(ballot):
        raise BallotError(f"{voter} has already voted: one slip each.", 409)
    if target == voter:
        raise BallotError("You cannot vote for yourself: name one of your opponents.")
    if target not in ballot.candidates:
        raise BallotError(f"Name one of {and_list([c for c in ballot.candidates if c != voter])} "
                          "on your slip.")


def check_slip(game: Game, round_index: int, voter: str, target: str, *,
               stage: int | None = None) -> None:
    """Raise the :class:`BallotError` that :func:`cast` would, writing nothing.

    For the first tap of a slip: the confirm step is shown only for a slip
    the ballot will take.
    """
    _check_game(game, round_index)
    _check(game, _open_ballot(game, round_index, lock=False), voter, target, stage)


def cast(game: Game, round_index: int, voter: str, target: str, *,
         stage: int | None = None) -> bool:
    """Drop ``voter``'s slip naming ``target`` in the round's current ballot.

    ``stage``, when given, is the ballot the slip was shown for: a slip for
    an earlier stage (the vote moved on to a tie-break meanwhile) is
    refused. The last slip of a ballot reveals it and, on a tie, opens the
    next stage in the same transaction. Returns True when this slip was the
    last one (the ballot is revealed).
    """
    _check_game(game, round_index)
    ballot = _open_ballot(game, round_index, lock=True)
    _check(game, ballot, voter, target, stage)
    try:
        with db.session.begin_nested():
            db.session.execute(insert(Voted).values(ballot_id=ballot.id, player=voter))
    except IntegrityError:
        raise BallotError(f"{voter} has already voted: one slip each.", 409) from None
    # Every count row of the ballot is rewritten, the named one +1: no row stands out.
    db.session.execute(
        update(Count).where(Count.ballot_id == ballot.id)
        .values(votes=Count.votes + case((Count.candidate == target, 1), else_=0))
        .execution_options(synchronize_session=False))
    slips = db.session.scalar(select(func.count()).select_from(Voted)
                              .where(Voted.ballot_id == ballot.id))
    revealed = slips == len(ballot.voters)
    if revealed:
        _reveal(game, ballot)
    bump(game.table)
    return revealed


def _reveal(game: Game, ballot: Ballot) -> None:
    """All slips are in: show the ballot; on a tie, open the next stage at once."""
    ballot.revealed = True
    db.session.flush()
    outcome = _outcome(game, ballot, _counts(ballot))
    if outcome.kind is VoteKind.VOTED_OFF:
        return
    if outcome.kind is VoteKind.TIE_BREAK:
        voters, candidates = (outcome.deciders or tuple(ballot.voters)), outcome.tied
        _open(game, ballot.round_index, ballot.stage + 1, TIE_BREAK, voters, candidates)
    else:
        _open(game, ballot.round_index, ballot.stage + 1, VOTE, game.players, game.players)


def _drop(ballot_ids: Sequence[int]) -> None:
    if not ballot_ids:
        return
    # Children first: correct even where foreign keys are not enforced.
    for model in (Voted, Count):
        db.session.execute(delete(model).where(model.ballot_id.in_(ballot_ids))
                           .execution_options(synchronize_session=False))
    db.session.execute(delete(Ballot).where(Ballot.id.in_(ballot_ids))
                       .execution_options(synchronize_session=False))


def record_cut(game: Game, round_index: int, name: str) -> None:
    """Settle the round's tie by a card cut: ``name`` goes off.

    Only at a tie: between the tied two of a tie-break, or any of the four
    after a 1–1–1–1. The ballot that was open for it is dropped unread, with
    any slips already in.
    """
    _check_game(game, round_index)
    ballot = _open_ballot(game, round_index, lock=True)
    if ballot.stage == 1:
        raise BallotError("A card cut settles a tie, and there is no tie yet: the vote is "
                          "still open.", 409)
    if name not in ballot.candidates:
        raise BallotError(f"The card cut is between {and_list(ballot.candidates)}: pick one.")
    tie = db.session.scalar(
        select(Ballot).where(Ballot.game_id == game.id, Ballot.round_index == round_index,
                             Ballot.stage == ballot.stage - 1))
    assert tie is not None and tie.revealed
    _drop([ballot.id])
    tie.cut = name
    db.session.expire(ballot)
    bump(game.table)


def discard(game: Game, round_index: int) -> None:
    """Forget round ``round_index``'s vote (the round was undone, or someone showed cards)."""
    ids = list(db.session.scalars(select(Ballot.id).where(
        Ballot.game_id == game.id, Ballot.round_index == round_index)))
    if ids:
        _drop(ids)
        db.session.expire_all()
        bump(game.table)


def scrub() -> None:
    """After a reveal is committed: clear what the database keeps of the slips' history.

    PostgreSQL: VACUUM the ballot tables, so dead row versions (which pair a
    vote's transaction with the counts it replaced) are removed. SQLite:
    checkpoint and truncate the WAL, which holds a page copy per slip. Best
    effort, outside any transaction: a busy database is left as it is.
    """
    engine = db.engine
    try:
        if engine.dialect.name == "postgresql":
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.execute(text("VACUUM ballot_voted, ballot_counts"))
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
    except SQLAlchemyError as error:
        log.warning("ballot scrub skipped: %s", error)
    except sqlite3.Error as error:
        log.warning("ballot scrub skipped: %s", error)


__all__ = [
    "CUT", "TIE_BREAK", "VOTE", "Ballot", "BallotError", "Count", "VoteStatus", "Voted",
    "ballots_of", "cast", "check_slip", "discard", "open_vote", "record_cut", "scrub",
    "vote_status",
]
