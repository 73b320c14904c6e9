"""What only Tromplemond keeps: the interrogation timer, and the stages of a round's vote.

The round's facts (hands, who went off, calls, the dealer's forfeit) live
in the generic draft (:mod:`companion.store.rounds`); the vote is a run of
anonymous sealed choices (:mod:`companion.store.sealed`), one per stage:

- stage 1 is the vote of all four (a slip names anyone but oneself);
- a 2–2 opens a tie-break: the two with no votes choose between the tied two;
- a tie-break that disagrees opens another; a 1–1–1–1 opens a new vote of all;
- at any tie the scorekeeper may settle it by a card cut instead (the
  revealed tie's ``verdict``; the open stage is dropped unread).

What four (or two) slips decide comes from the rules
(``vote_outcome``, ``tie_break_outcome``). Players and their number come
from the game. The store keeps facts; the pages say them in words.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from sqlalchemy import DateTime, ForeignKey, Select, String, select
from sqlalchemy.orm import Mapped, mapped_column

from companion.extensions import db
from companion.rules.errors import Phrase, add_messages
from companion.store import sealed
from companion.store.commits import bump
from companion.store.models import Game
from companion.store.rounds import RoundDraft

from .rules import VoteKind, VoteOutcome, tie_break_outcome, vote_outcome

add_messages({
    "tromplemond.vote.not_open": "The vote of round {round} is not open yet.",
    "tromplemond.vote.settled": "The vote of round {round} is settled: {off} is off.",
    "tromplemond.vote.earlier_slip": "That slip was for an earlier vote: the vote has moved on. "
        "Look at your screen again.",
    "tromplemond.vote.not_playing": "{voter} is not playing this game.",
    "tromplemond.vote.not_in_tie_break": "{voter} has no slip in this tie-break: only "
        "{deciders:and} decide between {tied:and}.",
    "tromplemond.vote.voted_already": "{voter} has already voted: one slip each.",
    "tromplemond.vote.not_yourself": "You cannot vote for yourself: name one of your opponents.",
    "tromplemond.vote.name_one_of": "Name one of {targets:and} on your slip.",
    "tromplemond.vote.no_tie": "A card cut settles a tie, and there is no tie yet: the vote is "
        "still open.",
    "tromplemond.vote.cut_between": "The card cut is between {choices:and}: pick one.",
})
"""The vote's refusals (a :class:`~companion.store.sealed.SealError`'s phrase): names as
names, lists of names as lists, rounds as 1-based numbers."""

INTERROGATION_SECONDS = 5 * 60
"""The interrogation lasts at most 5 minutes (the rules' step 5)."""


class Clock(StrEnum):
    """The interrogation timer's states."""

    READY = "ready"
    RUNNING = "running"
    PAUSED = "paused"
    ENDED = "ended"


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; they were written in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# --------------------------------------------------------------------------- the timer


class InterrogationTimer(db.Model):
    """A game's interrogation timer (one row per game, reused round after round)."""

    __tablename__ = "tromplemond_timers"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         unique=True)
    round_index: Mapped[int] = mapped_column(default=0)
    state: Mapped[str] = mapped_column(String(10), default=Clock.READY)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    """When the timer was last started or resumed (None unless it runs)."""
    spent_ms: Mapped[int] = mapped_column(default=0)
    """Milliseconds the timer ran before its last start."""

    @property
    def clock(self) -> Clock:
        """The timer's state."""
        return Clock(self.state)

    def seconds_left(self, now: datetime | None = None) -> int:
        """Whole seconds of interrogation left (0 once the time is up or it was ended)."""
        return seconds_left(self.clock, self.spent_ms, self.started_at, now)


def seconds_left(clock: Clock, spent_ms: int, started_at: datetime | None,
                 now: datetime | None = None) -> int:
    """Whole seconds of interrogation left at ``now`` (0 once the time is up or it was ended),
    for a timer in state ``clock`` that ran ``spent_ms`` before it was last started."""
    if clock is Clock.ENDED:
        return 0
    spent = spent_ms
    if clock is Clock.RUNNING and started_at is not None:
        spent += int(((now or _now()) - _aware(started_at)).total_seconds() * 1000)
    left_ms = INTERROGATION_SECONDS * 1000 - spent
    return max(0, -(-left_ms // 1000))


def timer_of(game_id: int) -> Select[tuple[InterrogationTimer]]:
    """A game's interrogation timer."""
    return select(InterrogationTimer).where(InterrogationTimer.game_id == game_id)


def _reset(timer: InterrogationTimer, round_index: int) -> None:
    timer.round_index = round_index
    timer.state = Clock.READY
    timer.started_at = None
    timer.spent_ms = 0


def current_timer(game: Game, round_index: int) -> InterrogationTimer:
    """The timer of round ``round_index`` as it stands (a fresh one for a new round)."""
    timer = db.session.scalar(timer_of(game.id))
    if timer is None or timer.round_index != round_index:
        timer = InterrogationTimer(game_id=game.id)
        _reset(timer, round_index)
    return timer


def _timer_for_change(draft: RoundDraft) -> InterrogationTimer:
    """The round's timer, for a write (the caller holds the draft's lock)."""
    timer = db.session.scalar(timer_of(draft.game_id))
    if timer is None:
        timer = InterrogationTimer(game_id=draft.game_id)
        _reset(timer, draft.round_index)
        db.session.add(timer)
    elif timer.round_index != draft.round_index:
        _reset(timer, draft.round_index)
    return timer


def start_timer(draft: RoundDraft, now: datetime | None = None) -> None:
    """Start the interrogation timer, or let it run on after a pause."""
    timer = _timer_for_change(draft)
    if timer.clock in (Clock.READY, Clock.PAUSED):
        timer.state = Clock.RUNNING
        timer.started_at = now or _now()
        bump(draft.game.table)


def pause_timer(draft: RoundDraft, now: datetime | None = None) -> None:
    """Pause the running timer (the time spent so far is kept)."""
    timer = _timer_for_change(draft)
    if timer.clock is Clock.RUNNING and timer.started_at is not None:
        ran = (now or _now()) - _aware(timer.started_at)
        timer.spent_ms += int(ran.total_seconds() * 1000)
        timer.state = Clock.PAUSED
        timer.started_at = None
        bump(draft.game.table)


def end_timer(draft: RoundDraft) -> None:
    """End the interrogation now (early, when the vote opens, or when cards were shown)."""
    timer = _timer_for_change(draft)
    if timer.clock is not Clock.ENDED:
        timer.state = Clock.ENDED
        timer.started_at = None
        bump(draft.game.table)


# --------------------------------------------------------------------------- the vote


class Stage(StrEnum):
    """The kinds of a vote's stage (the sealing's ``step``), and a card cut."""

    VOTE = "vote"
    TIE_BREAK = "tie-break"
    CUT = "cut"


@dataclass(frozen=True)
class Revealed:
    """One revealed stage of a round's vote: what its slips said and decided."""

    stage: Stage
    ordinal: int
    """1 for the round's first vote (or tie-break), 2 for the second …"""
    counts: dict[str, int]
    outcome: VoteOutcome
    deciders: tuple[str, ...]

    @property
    def pattern(self) -> str:
        """ "3–1", "2–1–1", "2–2", "1–1–1–1": the votes as players say them."""
        return "–".join(str(n) for n in sorted((n for n in self.counts.values() if n),
                                               reverse=True))


@dataclass(frozen=True)
class VoteStatus:
    """Where a round's vote stands, as every screen may see it.

    The current stage (the round's latest sealing) gives ``stage``, ``kind``,
    ``eligible``, ``candidates`` and who has voted. ``counts`` and
    ``outcome`` are those of the last *revealed* stage (``None`` until a
    stage has all its slips in): an open stage never shows a count.
    """

    round_index: int
    stage: int = 0
    """0: no vote opened yet for this round."""
    kind: Stage | None = None
    eligible: tuple[str, ...] = ()
    candidates: tuple[str, ...] = ()
    voted: frozenset[str] = frozenset()
    counts: dict[str, int] | None = None
    revealed_kind: Stage | None = None
    outcome: VoteOutcome | None = None
    settled_off: str | None = None
    how: Stage | None = None
    """How the round's off player was settled: by vote, tie-break or cut (None: not yet)."""
    history: tuple[Revealed, ...] = ()
    """The revealed stages, oldest first."""
    cut: str | None = None
    """Whom a card cut sent off."""
    cut_choices: tuple[str, ...] = ()
    """Whom a card cut may send off now (empty unless there is a tie to settle)."""
    restarted: bool = False
    """The server restarted during this stage: everyone votes again."""
    sealing: sealed.SealedStatus | None = None
    """The current stage's sealed choice."""

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
    def slips_in(self) -> int:
        """How many slips of the current stage are in."""
        return len(self.voted)

    @property
    def slips_expected(self) -> int:
        """How many slips the current stage waits for."""
        return len(self.eligible)

    def may_vote(self, name: str | None) -> bool:
        """True when ``name`` has a slip to drop in the current stage."""
        return self.voting and name in self.eligible and name not in self.voted

    def targets(self, name: str | None) -> tuple[str, ...]:
        """Whom ``name`` may name on their slip (never themself)."""
        return tuple(c for c in self.candidates if c != name)


def _outcome(game: Game, state: sealed.SealedStatus) -> VoteOutcome:
    assert state.counts is not None and state.choices is not None
    if state.step == Stage.VOTE:
        return vote_outcome(state.counts, game.players)
    tied = VoteOutcome(VoteKind.TIE_BREAK, tied=state.choices, deciders=state.choosers)
    return tie_break_outcome(state.counts, tied)


def vote_status(game: Game, round_index: int) -> VoteStatus:
    """Where round ``round_index``'s vote stands (see :class:`VoteStatus`)."""
    states = sealed.statuses(game, round_index)
    if not states:
        return VoteStatus(round_index=round_index)
    latest = states[-1]
    history: list[Revealed] = []
    ordinals = {Stage.VOTE: 0, Stage.TIE_BREAK: 0}
    cut = None
    for state in states:
        kind = Stage(state.step)
        ordinals[kind] += 1
        if state.revealed:
            history.append(Revealed(kind, ordinals[kind], dict(state.counts or {}),
                                    _outcome(game, state), state.choosers))
        cut = state.verdict or cut
    last = history[-1] if history else None
    settled_off = how = None
    if cut is not None:
        settled_off, how = cut, Stage.CUT
    elif latest.revealed and last is not None and last.outcome.kind is VoteKind.VOTED_OFF:
        settled_off, how = last.outcome.voted_off, last.stage
    # A tie awaits when the open stage follows a revealed one (a tie-break or a revote).
    tie = settled_off is None and latest.open and latest.stage > 1
    return VoteStatus(
        round_index=round_index, stage=latest.stage, kind=Stage(latest.step),
        eligible=latest.choosers, candidates=latest.choices or (), voted=latest.chosen,
        counts=last.counts if last else None, revealed_kind=last.stage if last else None,
        outcome=last.outcome if last else None, settled_off=settled_off, how=how,
        history=tuple(history), cut=cut, cut_choices=latest.choices or () if tie else (),
        restarted=latest.restarted and latest.open, sealing=latest)


def open_vote(game: Game, round_index: int) -> sealed.Sealing:
    """Open round ``round_index``'s vote (stage 1, everyone), or return its current stage.

    Idempotent: a vote already opened (or settled) is returned as it is.
    """
    current = sealed.latest(game, round_index)
    if current is not None:
        return current
    try:
        return sealed.open_sealing(game, round_index, Stage.VOTE, sealed.Mode.ANONYMOUS,
                                   game.players, game.players)
    except sealed.SealError:  # another screen opened it a moment earlier
        current = sealed.latest(game, round_index)
        assert current is not None
        return current


def check_slip(status: VoteStatus, voter: str, target: str, stage: int | None) -> None:
    """Raise the :class:`~companion.store.sealed.SealError` a slip deserves, or nothing."""
    if not status.opened:
        raise _refused("not_open", 409, round=status.round_index + 1)
    if status.settled:
        raise _refused("settled", 409, round=status.round_index + 1, off=status.settled_off)
    if stage is not None and stage != status.stage:
        raise _refused("earlier_slip", 409)
    if voter not in status.eligible:
        if status.kind is Stage.VOTE:
            raise _refused("not_playing", 403, voter=voter)
        raise _refused("not_in_tie_break", 403, voter=voter, deciders=list(status.eligible),
                       tied=list(status.candidates))
    if voter in status.voted:
        raise _refused("voted_already", 409, voter=voter)
    if target == voter:
        raise _refused("not_yourself")
    if target not in status.candidates:
        raise _refused("name_one_of", targets=list(status.targets(voter)))


def _refused(what: str, status: int = 400, **facts: object) -> sealed.SealError:
    """The vote's refusal ``tromplemond.vote.<what>`` with its facts."""
    return sealed.SealError(Phrase(f"tromplemond.vote.{what}", facts), status)


def cast(game: Game, round_index: int, voter: str, target: str, *,
         stage: int | None = None, blob: bytes | None = None) -> bool:
    """Drop ``voter``'s slip naming ``target`` in the round's current stage.

    ``stage``, when given, is the stage the slip was shown for: a slip for
    an earlier stage is refused. ``blob``: the slip as the phone sealed it
    (:func:`companion.store.sealed.seal`). The last slip of a stage reveals it and, on
    a tie, opens the next stage in the same transaction. Returns True when
    this slip was the last one (the stage is revealed).
    """
    current = sealed.latest(game, round_index, lock=True)
    check_slip(vote_status(game, round_index), voter, target, stage)
    assert current is not None
    revealed = sealed.seal(game, current, voter, target, blob)
    if revealed:
        _after_reveal(game, round_index)
    return revealed


def _after_reveal(game: Game, round_index: int) -> None:
    """A stage is revealed: on a tie, open the next stage at once."""
    outcome = vote_status(game, round_index).outcome
    assert outcome is not None
    if outcome.kind is VoteKind.TIE_BREAK:
        sealed.open_sealing(game, round_index, Stage.TIE_BREAK, sealed.Mode.ANONYMOUS,
                            outcome.deciders, outcome.tied)
    elif outcome.kind is not VoteKind.VOTED_OFF:
        sealed.open_sealing(game, round_index, Stage.VOTE, sealed.Mode.ANONYMOUS,
                            game.players, game.players)


def record_cut(game: Game, round_index: int, name: str) -> None:
    """Settle the round's tie by a card cut: ``name`` goes off.

    Only at a tie: between the tied two of a tie-break, or any of the four
    after a 1–1–1–1. The stage that was open for it is dropped unread, with
    any slips already in; the cut is kept on the revealed tie.
    """
    status = vote_status(game, round_index)
    if not status.voting:
        if not status.opened:
            raise _refused("not_open", 409, round=round_index + 1)
        raise _refused("settled", 409, round=round_index + 1, off=status.settled_off)
    if not status.cut_choices:
        raise _refused("no_tie", 409)
    if name not in status.cut_choices:
        raise _refused("cut_between", choices=list(status.cut_choices))
    states = db.session.scalars(sealed.sealings_of(game.id, round_index)).all()
    open_stage, tie = states[-1], states[-2]
    sealed.drop(game, open_stage)
    sealed.set_verdict(game, db.session.get(sealed.Sealing, tie.id), name)


def discard_vote(game: Game, round_index: int) -> None:
    """Forget round ``round_index``'s vote (the round was undone, or someone showed cards)."""
    sealed.discard(game, round_index)


# --------------------------------------------------------------------------- the round's facts


def round_facts(draft: RoundDraft, voted_off: str | None) -> dict:
    """The round as the record writes it, from the draft and who the vote sent off."""
    facts = draft.facts
    shown = facts.get("shown_early")
    return {
        "hands": dict(facts.get("hands") or {}),
        "voted_off": None if shown is not None else facts.get("voted_off") or voted_off,
        "shown_early": shown,
        "dealer_forfeit": bool(facts.get("dealer_forfeit")),
        "called": list(facts.get("called") or []),
    }


__all__ = ["INTERROGATION_SECONDS", "Clock", "InterrogationTimer", "Revealed", "Stage",
           "VoteStatus", "cast", "check_slip", "current_timer", "discard_vote", "end_timer",
           "open_vote", "pause_timer", "record_cut", "round_facts", "seconds_left", "start_timer",
           "timer_of", "vote_status"]
