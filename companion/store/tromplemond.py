"""The Tromplemond round in progress: its facts before the scorekeeper confirms it.

A game's record holds only confirmed rounds. While a round is being played,
its facts so far live in the game's one :class:`RoundDraft`: the checklist
ticks, the interrogation timer, whether the vote is open, the hands entered
so far (each phone writes its own), who showed cards early, the dealer's
forfeit and who shouted their TROMP! call. Confirming the round appends its
facts to ``Game.rounds`` and clears the draft for the next round; undoing the
last round puts its facts back into the draft.

Who went off by vote is not kept here while the vote runs: the ballot
(``companion.store.ballots``) settles it, and :func:`round_facts` is given it.

Every write locks the draft row first (``SELECT … FOR UPDATE``; SQLite takes
the whole database at ``BEGIN IMMEDIATE``), so four phones entering their
hands in the same moment all land, and a double tap on "confirm" appends the
round once. Each write bumps the table's version; the commit is the caller's.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Select, String, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..extensions import db
from .changes import bump
from .models import NAME_LENGTH, Game

DEAL, VOTE, HANDS = "deal", "vote", "hands"
"""The stored phases of a round: dealing, claims and interrogation; the vote; the reveal."""

READY, RUNNING, PAUSED, ENDED = "ready", "running", "paused", "ended"
"""The interrogation timer's states."""

INTERROGATION_SECONDS = 5 * 60
"""The interrogation lasts at most 5 minutes (RULES.md §1)."""


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; they were written in UTC.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class RoundDraft(db.Model):
    """The facts of a game's round in progress (one row per game, reused round after round)."""

    __tablename__ = "round_drafts"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         unique=True)
    round_index: Mapped[int] = mapped_column(default=0)
    """The round this draft is for (0-based): always the number of confirmed rounds."""
    phase: Mapped[str] = mapped_column(String(10), default=DEAL)
    hands: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """The hands entered so far, in the record's form, by player."""
    voted_off: Mapped[str | None] = mapped_column(String(NAME_LENGTH), default=None)
    """Who went off, once known outside the ballot (an undone or corrected round)."""
    shown_early: Mapped[str | None] = mapped_column(String(NAME_LENGTH), default=None)
    dealer_forfeit: Mapped[bool] = mapped_column(default=False)
    called: Mapped[list[str]] = mapped_column(JSON, default=list)
    ticks: Mapped[list[str]] = mapped_column(JSON, default=list)
    """The checklist steps ticked: ``deck:3``, ``deal:0`` …"""
    timer: Mapped[str] = mapped_column(String(10), default=READY)
    timer_started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                              default=None)
    """When the timer was last started or resumed (None unless it runs)."""
    timer_spent_ms: Mapped[int] = mapped_column(default=0)
    """Milliseconds the timer ran before its last start."""

    game: Mapped[Game] = relationship()

    def seconds_left(self, now: datetime | None = None) -> int:
        """Whole seconds of interrogation left (0 once the time is up or it was ended)."""
        if self.timer == ENDED:
            return 0
        spent = self.timer_spent_ms
        if self.timer == RUNNING and self.timer_started_at is not None:
            ran = (now or _now()) - _aware(self.timer_started_at)
            spent += int(ran.total_seconds() * 1000)
        left_ms = INTERROGATION_SECONDS * 1000 - spent
        return max(0, -(-left_ms // 1000))

    def ticked(self, key: str) -> bool:
        """True when checklist step ``key`` is ticked."""
        return key in self.ticks

    def __repr__(self) -> str:
        return f"<RoundDraft game={self.game_id} round {self.round_index + 1} {self.phase}>"


def draft_of(game_id: int) -> Select[tuple[RoundDraft]]:
    """A game's round draft."""
    return select(RoundDraft).where(RoundDraft.game_id == game_id)


def _clear(draft: RoundDraft, round_index: int) -> None:
    draft.round_index = round_index
    draft.phase = DEAL
    draft.hands = {}
    draft.voted_off = None
    draft.shown_early = None
    draft.dealer_forfeit = False
    draft.called = []
    draft.ticks = []
    draft.timer = READY
    draft.timer_started_at = None
    draft.timer_spent_ms = 0


def current_draft(game: Game) -> RoundDraft:
    """The draft of the game's next round, as it stands (not saved when it is new or stale).

    For reading: a draft left from a round since confirmed or undone reads
    as a fresh one. Writes use :func:`locked_draft`.
    """
    draft = db.session.scalar(draft_of(game.id))
    fresh = RoundDraft(game_id=game.id)
    _clear(fresh, len(game.rounds))
    if draft is None or draft.round_index != len(game.rounds):
        return fresh
    return draft


def locked_draft(game: Game) -> RoundDraft:
    """The game's draft, locked for this transaction; made (or cleared) for the next round."""
    query = draft_of(game.id).with_for_update().execution_options(populate_existing=True)
    draft = db.session.scalar(query)
    if draft is None:
        try:
            with db.session.begin_nested():
                draft = RoundDraft(game_id=game.id)
                _clear(draft, len(game.rounds))
                db.session.add(draft)
        except IntegrityError:  # another phone made it a moment earlier
            draft = db.session.scalar(query)
            assert draft is not None
    # The game's rounds are read after the lock: a confirm that just finished is seen.
    db.session.refresh(game, ["rounds"])
    if draft.round_index != len(game.rounds):
        _clear(draft, len(game.rounds))
    return draft


def start_draft(game: Game) -> RoundDraft:
    """Make the draft of a new game's first round (the game was just started)."""
    draft = RoundDraft(game_id=game.id)
    _clear(draft, len(game.rounds))
    db.session.add(draft)
    db.session.flush()
    return draft


# --------------------------------------------------------------------------- the round so far


def toggle_tick(draft: RoundDraft, key: str) -> bool:
    """Tick a checklist step, or untick it; returns True when it is now ticked."""
    ticked = key not in draft.ticks
    draft.ticks = [*draft.ticks, key] if ticked else [k for k in draft.ticks if k != key]
    bump(draft.game.table)
    return ticked


def start_timer(draft: RoundDraft, now: datetime | None = None) -> None:
    """Start the interrogation timer, or let it run on after a pause."""
    if draft.timer in (READY, PAUSED):
        draft.timer = RUNNING
        draft.timer_started_at = now or _now()
        bump(draft.game.table)


def pause_timer(draft: RoundDraft, now: datetime | None = None) -> None:
    """Pause the running timer (the time spent so far is kept)."""
    if draft.timer == RUNNING and draft.timer_started_at is not None:
        ran = (now or _now()) - _aware(draft.timer_started_at)
        draft.timer_spent_ms += int(ran.total_seconds() * 1000)
        draft.timer = PAUSED
        draft.timer_started_at = None
        bump(draft.game.table)


def end_timer(draft: RoundDraft) -> None:
    """End the interrogation now (early, or when the vote opens)."""
    if draft.timer != ENDED:
        draft.timer = ENDED
        draft.timer_started_at = None
        bump(draft.game.table)


def to_vote(draft: RoundDraft) -> None:
    """The interrogation is over: the round goes to the vote."""
    end_timer(draft)
    draft.phase = VOTE
    bump(draft.game.table)


def set_shown_early(draft: RoundDraft, player: str | None) -> None:
    """``player`` showed cards before the vote was settled: they go off, no vote is held.

    ``None`` takes it back (a slip of the finger): the round returns to dealing.
    """
    draft.shown_early = player
    draft.voted_off = None
    draft.phase = HANDS if player is not None else DEAL
    if player is not None:
        draft.called = [p for p in draft.called if p != player]
    end_timer(draft)
    bump(draft.game.table)


def set_hand(draft: RoundDraft, player: str, hand: dict[str, Any] | None) -> None:
    """Enter (or replace) ``player``'s hand in the record's form; ``None`` clears it."""
    hands = {p: h for p, h in draft.hands.items() if p != player}
    if hand is not None:
        hands[player] = hand
    # In seat order, as the record lists them.
    order = list(draft.game.players)
    draft.hands = {p: hands[p] for p in order if p in hands}
    if hand is None:
        draft.called = [p for p in draft.called if p != player]
    bump(draft.game.table)


def toggle_forfeit(draft: RoundDraft) -> bool:
    """The dealer erred after the public cards were dealt (or not, after all)."""
    draft.dealer_forfeit = not draft.dealer_forfeit
    bump(draft.game.table)
    return draft.dealer_forfeit


def toggle_called(draft: RoundDraft, player: str) -> bool:
    """``player`` shouted their TROMP! call correctly (or the tick is taken back)."""
    called = player not in draft.called
    names = set(draft.called) ^ {player}
    draft.called = [p for p in draft.game.players if p in names]
    bump(draft.game.table)
    return called


def round_facts(draft: RoundDraft, voted_off: str | None) -> dict[str, Any]:
    """The round as the record writes it, from the draft and who the vote sent off."""
    shown = draft.shown_early
    return {
        "hands": dict(draft.hands),
        "voted_off": None if shown is not None else draft.voted_off or voted_off,
        "shown_early": shown,
        "dealer_forfeit": draft.dealer_forfeit,
        "called": list(draft.called),
    }


# --------------------------------------------------------------------------- the record


def confirm_round(draft: RoundDraft, facts: dict[str, Any]) -> None:
    """Append the round's facts to the game's record; the draft moves on to the next round."""
    game = draft.game
    game.rounds = [*game.rounds, facts]
    _clear(draft, len(game.rounds))
    bump(game.table)


def undo_round(draft: RoundDraft) -> dict[str, Any]:
    """Take the last confirmed round off the record and back into the draft; returns it."""
    game = draft.game
    facts = dict(game.rounds[-1])
    game.rounds = list(game.rounds[:-1])
    _clear(draft, len(game.rounds))
    draft.phase = HANDS
    draft.hands = dict(facts.get("hands") or {})
    draft.shown_early = facts.get("shown_early")
    draft.voted_off = None if draft.shown_early else facts.get("voted_off")
    draft.dealer_forfeit = bool(facts.get("dealer_forfeit"))
    draft.called = list(facts.get("called") or [])
    draft.timer = ENDED
    bump(game.table)
    return facts


def replace_round(game: Game, index: int, facts: dict[str, Any]) -> None:
    """Put corrected facts in place of round ``index`` (the rules check the record after)."""
    rounds = list(game.rounds)
    rounds[index] = facts
    game.rounds = rounds
    bump(game.table)


def set_flag(game: Game, name: str, value: Any) -> None:
    """Set (or, with ``None``, clear) a record-level flag: ``void`` or ``banned``."""
    flags = {k: v for k, v in game.flags.items() if k != name}
    if value is not None:
        flags[name] = value
    game.flags = flags
    bump(game.table)
