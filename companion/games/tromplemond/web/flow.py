"""Tromplemond's flow: what its screens show at each moment of a round.

A round goes through its phases (:class:`Phase`): the deal, claims and
interrogation (``deal``), the secret vote (``vote``), the hands revealed and
scored (``hands``); a card cut may be due after the extra round (``cut``);
then the game is over (``end``). Every number comes from
``companion.games.tromplemond.rules`` (``progress``, ``replay``, its helpers); this
module reads the store and picks what to show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import Enum
from typing import Any

from babel import Locale
from babel.lists import format_list
from flask import Blueprint, abort
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from companion.rules import RuleError, ledger, settle_up
from companion.rules.errors import Phrase
from companion.rules.records import Record
from companion.store import PLAYING, Game, Table, sealed
from companion.store import rounds as round_store
from companion.web import filters
from companion.web.charts import score_chart
from companion.web.currencies import unit_choices
from companion.web.device import locale_name
from companion.web.flow import (
    Checklist,
    GameFlow,
    RecordSaid,
    SealedStep,
    View,
    checklist,
    corrected_from,
)
from companion.web.forms import money_text
from companion.web.vote import Slip, slip_for
from companion.web.words import and_list, say

from .. import rules, store
from . import forms

bp = Blueprint("tromplemond", __name__, template_folder="templates")

NAME = "tromplemond"


class Phase(Enum):
    """The moments of a Tromplemond round, and of the game."""

    DEAL = "deal"
    """Dealing, claims and the interrogation."""
    VOTE = "vote"
    """The secret vote (and any tie-break) is open."""
    HANDS = "hands"
    """Who went off is known: the hands are entered and the round is scored."""
    CUT = "cut"
    """Still tied after the extra round: the scorekeeper records a card cut."""
    END = "end"
    """The game is over."""


class OffHow(Enum):
    """How the player who went off went off."""

    VOTE = "was voted off"
    EARLY = "showed cards early"
    CUT = "went off by a card cut"


CARD_POINTS_ROWS: tuple[tuple[str, str], ...] = (
    ("A", str(rules.CARD_POINTS[rules.Rank.ACE])),
    ("K", str(rules.CARD_POINTS[rules.Rank.KING])),
    ("Q", str(rules.CARD_POINTS[rules.Rank.QUEEN])),
    ("10", str(rules.CARD_POINTS[rules.Rank.TEN])),
    ("4 3 2", str(rules.CARD_POINTS[rules.Rank.TWO])),
    ("J", _l("%(holder)s to its holder, \u2212%(penalty)s to every other survivor",
             holder=rules.CARD_POINTS[rules.Rank.JACK], penalty=rules.JACK_PENALTY)),
)
"""The card points table the tablet shows (the numbers are the rules')."""

END_HOW = {"extra round": _l("ahead after an extra round to break a tie"),
           "card cut": _l("won the card cut to break a tie")}
"""How a game was won (the rules' ``end.how``), as the end screen says it after the winner's
name (the two that name the game's options are said by :attr:`RoundView.end_how`)."""

MONEY_KINDS = {
    ledger.What.JOINING_FEE: _l("joining fee"), ledger.What.TROMP_STAKE: _l("TROMP! stake"),
    ledger.What.ROUND_POT_WON: _l("round pot won"), ledger.What.KITTY: _l("kitty"),
    ledger.What.FEE_PAYOUT: _l("fee payout"), ledger.What.MONEY_RETURNED: _l("money returned"),
}
"""The kinds of a player's money (the ledger's words), as the money table's headings say them."""


class _Money:
    """An amount in the table's unit that is written out when it is said, in the language of
    the screen that says it (a checklist is made once for every screen of the table)."""

    def __init__(self, amount: int, unit: str) -> None:
        self.amount, self.unit = amount, unit

    def __str__(self) -> str:
        return money_text(self.amount, self.unit)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


@dataclass(frozen=True)
class HandLine:
    """One player's hand in the round in progress, as the screens show it."""

    player: str
    data: Mapping[str, Any] | None
    """The hand as entered (record form), or None."""
    hand: rules.FullHand | rules.QuickHand | None
    """The hand read by the rules (None: not entered, or it has a problem of its own)."""
    off: bool
    call: rules.TrompCall | None
    called: bool
    conflicts: tuple[RuleError, ...]
    """The conflicts that concern this player (each a refusal of the rules)."""

    @property
    def entered(self) -> bool:
        """True once a hand is entered for this player."""
        return self.data is not None

    @property
    def public(self) -> list[str]:
        """The face-up cards entered (a full hand)."""
        return list((self.data or {}).get("public") or [])

    @property
    def secret(self) -> list[str]:
        """The face-down cards entered (a full hand)."""
        return list((self.data or {}).get("secret") or [])

    @property
    def quick(self) -> bool:
        """True for a hand entered the quick way (points and jacks)."""
        return self.data is not None and "points" in self.data


@dataclass(frozen=True)
class Timer:
    """The interrogation clock as the screens show it (its seconds as of now)."""

    state: store.Clock
    spent_ms: int
    """Milliseconds it ran before its last start."""
    started_at: datetime | None
    """When it was last started or resumed (None unless it runs)."""

    @property
    def seconds(self) -> int:
        """Whole seconds of interrogation left now."""
        return store.seconds_left(self.state, self.spent_ms, self.started_at)

    @property
    def clock(self) -> str:
        """``4:59``."""
        minutes, seconds = divmod(self.seconds, 60)
        return f"{minutes}:{seconds:02d}"

    @property
    def running(self) -> bool:
        """True while it counts down."""
        return self.state is store.Clock.RUNNING

    @property
    def up(self) -> bool:
        """Red "time's up" only while the clock runs out, not once the vote has ended it."""
        return self.seconds == 0 and self.state in (store.Clock.RUNNING, store.Clock.PAUSED)


VOTE_FROM = frozenset({Game.__tablename__, sealed.Sealing.__tablename__,
                       sealed.Slip.__tablename__, sealed.Tally.__tablename__})
"""The database tables a round's vote status is read from."""

TIMER_FROM = frozenset({store.InterrogationTimer.__tablename__})
"""The database table the interrogation clock is read from."""


def _timer(game: Game, round_index: int) -> Timer:
    """The round's interrogation clock as it stands."""
    timer = store.current_timer(game, round_index)
    return Timer(timer.clock, timer.spent_ms, timer.started_at)


@dataclass(frozen=True, kw_only=True)
class RoundView(View):
    """The moment of a Tromplemond game (see :class:`Phase`)."""

    now: rules.Progress | None = None
    options: rules.Options | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)
    vote: store.VoteStatus | None = None
    slip: Slip | None = None
    """The vote slip: this phone's, or (on the tablet) the vote as everyone sees it."""
    off: str | None = None
    off_how: OffHow | None = None
    timer: Timer | None = None
    hands: tuple[HandLine, ...] = ()
    conflicts: tuple[RuleError, ...] = ()
    missing: tuple[str, ...] = ()
    preview: dict[str, Any] | None = None
    preview_problem: RuleError | None = None
    end: Mapping[str, Any] | None = None
    standings: tuple[rules.Standing, ...] = ()
    transfers: tuple[tuple[str, str, int], ...] = ()
    rounds_list: tuple[dict[str, Any], ...] = ()
    chart: str = ""
    money_sources: ledger.Sources | None = None
    """Where each player's money came from (fees, stakes, round pots, the kitty)."""
    card_points: tuple[tuple[str, str], ...] = CARD_POINTS_ROWS

    @property
    def can_confirm(self) -> bool:
        """True when the round can be confirmed: all hands in, no conflict, the rules agree."""
        return self.preview is not None

    @property
    def round_label(self) -> str:
        """``Round 3 of 10``, or ``Extra round``, in this screen's language."""
        if self.now is None or self.options is None:
            return ""
        if self.now.extra_round:
            return _("Extra round")
        return _("Round %(number)s of %(rounds)s", number=self.now.round_number,
                 rounds=self.options.rounds)

    @staticmethod
    def explain(player: str, done: Mapping[str, Any]) -> Phrase:
        """A survivor's score in a round (``done``: the round of a replay) in words."""
        return rules.explain(done["breakdown"], player)

    @property
    def end_how(self) -> str:
        """How the game was won, in this screen's language."""
        how = str((self.end or {}).get("how") or "")
        if how == "rounds played" and self.options is not None:
            return ngettext("the most points after the only round",
                            "the most points after all %(num)s rounds", self.options.rounds)
        if how == "target reached" and self.options is not None:
            return _("the most points once someone reached %(target)s",
                     target=self.options.target)
        return str(END_HOW.get(how, how))

    @staticmethod
    def money_kind(what: ledger.What) -> str:
        """A kind of money (a column of the money table), in this screen's language."""
        return str(MONEY_KINDS.get(what, what.value))

    @staticmethod
    def or_list(names: Any) -> str:
        """``Sam or Nick`` in this screen's language."""
        return _joined(names, " or ", "or")

    @staticmethod
    def and_words(names: Any) -> str:
        """``Rob and Sam and Nick`` (as these screens have always joined the tied) in
        English; a list as this screen's language says it ("Rob, Sam et Nick") otherwise."""
        return _joined(names, " and ", "standard")

    @property
    def preview_round(self) -> dict[str, Any] | None:
        """The round in progress as the rules would score it."""
        return self.preview["rounds"][-1] if self.preview else None

    @property
    def mid_choice(self) -> bool:
        """True while this phone's slip waits for its name."""
        return self.slip is not None and self.me is not None and self.slip.state == "choose"

    @property
    def mine(self) -> HandLine | None:
        """This phone's hand line."""
        return next((h for h in self.hands if h.player == self.me), None)

    @property
    def my_position(self) -> int | None:
        """This phone's seat."""
        return next((s.position for s in self.table.seats if s.name == self.me), None)


    @property
    def money_now(self) -> dict[str, int]:
        """Each player's money so far."""
        return dict(self.result["money"]) if self.result else {}

    @property
    def runners_up(self) -> list[str]:
        """The runner(s)-up of a finished game."""
        return list((self.end or {}).get("runners_up") or [])

    def taken_codes(self, player: str) -> set[str]:
        """The picker codes of cards already entered in the other players' hands."""
        taken: set[str] = set()
        for line in self.hands:
            if line.player != player:
                taken.update(forms.codes_of(line.public + line.secret))
        return taken


def _joined(names: Any, english: str, style: str) -> str:
    """Names joined with ``english`` in English, or as Babel's list ``style`` in the
    screen's language."""
    words = [str(name) for name in names]
    if locale_name() == "en" or len(words) < 2:
        return english.join(words)
    return format_list(words, style=style, locale=Locale.parse(locale_name()))


# --------------------------------------------------------------------------- the vote's slip


class VoteStep(SealedStep):
    """The secret vote: each slip names one opponent; a tie-break names one of the tied two."""

    name = "vote"
    slip_template = "tromplemond/_slip_choices.html"
    phases = (Phase.VOTE,)
    restart_text = ""  # the vote's status says it, on every screen (_vote.html)

    def waiting_text(self, status: sealed.SealedStatus) -> str:
        """ "Nick and Emily are deciding…" while a tie-break is out of this player's hands."""
        return _("%(names)s are deciding\u2026", names=and_list(status.choosers))

    def status(self, view: View) -> sealed.SealedStatus | None:
        """The vote's current stage."""
        vote = getattr(view, "vote", None)
        return vote.sealing if vote is not None and vote.opened else None

    def choices(self, view: View, chooser: str) -> list[str]:
        """Whom ``chooser`` may name (never themself)."""
        vote = getattr(view, "vote", None)
        return list(vote.targets(chooser)) if vote is not None else []

    def drop(self, act: Any, chooser: str, choice: str, stage: int | None,
             blob: bytes | None = None) -> bool:
        """Drop the slip; a tie opens the next stage in the same transaction."""
        return store.cast(act.game, act.draft.round_index, chooser, choice, stage=stage,
                          blob=blob)


VOTE = VoteStep()


# --------------------------------------------------------------------------- the flow


class TromplemondFlow(GameFlow, folder="tromplemond"):
    """Tromplemond at a real table: the vote on the phones, hands entered in parallel."""

    def say_record(self, kind: str, record: Record, unit: str | None,
                   holders: str) -> RecordSaid:
        """Its records: the highest round, and the biggest TROMP! payout (per unit)."""
        if kind == "biggest_tromp_payout" and unit is not None:
            amount = money_text(record.value, unit)
            return RecordSaid(_("Biggest TROMP! payout"), amount, holders,
                              _("Biggest TROMP! payout: %(amount)s, %(names)s",
                                amount=amount, names=holders))
        if kind == "highest_tromplemond_round":
            points = filters.number(record.value)
            return RecordSaid(_("Highest Tromplemond round"), _("%(num)s points", num=points),
                              holders,
                              _("Best Tromplemond round: %(num)s points, %(names)s "
                                "(round %(round)s)", num=points, names=holders,
                                round=record.place.round))
        return super().say_record(kind, record, unit, holders)

    name = NAME
    blueprint = bp
    dealer_ticks = True
    default_unit = "GBP"
    sealed_steps = {VOTE.name: VOTE}

    # -- starting

    def options_values(self, table: Table, form: Mapping[str, str] | None) -> dict[str, Any]:
        """The options form's values, with the money units to pick from."""
        values = forms.option_values(table.unit, form)
        return {"values": values, "units": unit_choices(values.get("unit"), chips=True),
                "example_amounts": forms.example_amounts(values.get("unit", table.unit))}

    def read_options(self, table: Table, form: MultiDict[str, str],
                     ) -> tuple[dict[str, Any], str | None]:
        """The options and the money unit from the start form."""
        unit, options = forms.read_options(form, table.unit)
        return options, unit

    # -- the moment

    def checklists(self, game: Game, draft: round_store.RoundDraft,
                   dealer: str | None) -> tuple[Checklist, ...]:
        """The deck prep (round 1) and this round's dealing steps, amounts in the table's unit.

        Their titles and steps are the rules' Phrases, said by each screen in its own
        language (the checklist macro says them)."""
        unit = game.table.unit

        def money(amount: int) -> Any:
            return _Money(amount, unit)

        lists = []
        if not game.rounds:
            deck = rules.deck_prep_phrases(game.players, game.options, money)
            lists.append(checklist("deck", deck.title, deck.steps, draft))
        if dealer is not None:
            deal = rules.deal_steps_phrases(game.players, dealer, game.options, money)
            lists.append(checklist("deal", deal.title, deal.steps, draft))
        return tuple(lists)

    def table_moment(self, table: Table, game: Game) -> RoundView:
        """The round now, as every screen sees it."""
        record = game.record()
        try:
            now = rules.progress(record, self.replay(record))
            options = rules.read_options(record["options"])
        except RuleError as error:
            return RoundView(table=table, game=game, me=None, phase=Phase.END, result=None,
                             problem=error)
        draft = round_store.current_draft(game)
        facts = draft.facts
        vote = self.per_version(table, ("vote", game.id, draft.round_index),
                                lambda: store.vote_status(game, draft.round_index), VOTE_FROM)
        result = now.result
        off, how = facts.get("shown_early") or facts.get("voted_off"), None
        if facts.get("shown_early"):
            how = OffHow.EARLY
        elif facts.get("voted_off"):
            how = OffHow.VOTE
        elif vote.settled_off:
            off = vote.settled_off
            how = OffHow.CUT if vote.how is store.Stage.CUT else OffHow.VOTE
        if now.finished or game.status != PLAYING:
            phase = Phase.END
        elif now.cut_due:
            phase = Phase.CUT
        elif off is not None:
            phase = Phase.HANDS
        elif vote.opened:
            phase = Phase.VOTE
        else:
            phase = Phase.DEAL
        fields: dict[str, Any] = {
            "table": table, "game": game, "me": None, "phase": phase, "result": result,
            "round_index": draft.round_index, "now": now, "options": options, "facts": facts,
            "vote": vote,
            "rounds_list": self._rounds_list(game, result), "chart": score_chart(result),
            "corrected_from": corrected_from(draft),
        }
        if phase in (Phase.END, Phase.CUT):
            fields.update(self._end(record, result))
        else:
            fields["dealer"] = now.dealer
            fields["checklists"] = self.checklists(game, draft, now.dealer)
            fields["timer"] = self.per_version(table, ("timer", game.id, draft.round_index),
                                               lambda: _timer(game, draft.round_index),
                                               TIMER_FROM)
        if phase is Phase.HANDS:
            fields.update(off=off, off_how=how, **self._hands(record, draft, off))
        return RoundView(**fields)

    def personal(self, view: View, table: Table, game: Game, me: str | None) -> View:
        """The round for one screen, with its vote slip while the vote is open."""
        view = super().personal(view, table, game, me)
        vote = getattr(view, "vote", None)
        if vote is not None and vote.opened:
            view = replace(view, slip=slip_for(view, VOTE, me))
        return view

    def _hands(self, record: dict[str, Any], draft: round_store.RoundDraft,
               off: str) -> dict[str, Any]:
        """The hands, their conflicts, the TROMP! calls and the scores preview."""
        entered = draft.facts.get("hands") or {}
        called = draft.facts.get("called") or []
        conflicts = rules.hand_conflicts(entered)
        lines = []
        for player in record["players"]:
            data = entered.get(player)
            hand = None
            if data is not None:
                try:
                    hand = rules.read_hand(player, data)
                except RuleError:
                    hand = None
            lines.append(HandLine(
                player=player, data=data, hand=hand, off=player == off,
                call=hand.call if hand is not None else None, called=player in called,
                conflicts=tuple(c.problem for c in conflicts if player in c.players)))
        missing = tuple(line.player for line in lines if not line.off and not line.entered)
        preview = problem = None
        if not missing and not conflicts:
            round_facts = store.round_facts(draft, off)
            try:
                preview = self.replay(record | {"rounds": [*record["rounds"], round_facts]})
            except RuleError as error:
                problem = error
        return {"hands": tuple(lines), "conflicts": tuple(c.problem for c in conflicts),
                "missing": missing, "preview": preview, "preview_problem": problem}

    def _end(self, record: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
        """The end screen: standings, the fee payout, the kitty, the money and who pays whom."""
        end = result["rounds"][-1]["breakdown"].get("end") if result["rounds"] else None
        if end is None and (record.get("void") or record.get("banned")):
            # Void or abandoned before any round: the flags say so (replay has no round).
            end = {"how": "void" if record.get("void") else "banned", "winners": [],
                   "returned": True, "banned": record.get("banned")}
        money = result["money"]
        # Settled only at the end: while a card cut is due the money is still in the pots.
        transfers = settle_up(money) if money and result["finished"] else []
        return {"end": end, "standings": tuple(rules.standings(result["totals"])),
                "transfers": tuple(transfers),
                "money_sources": (ledger.sources(rules.money_lines(record), record["players"])
                                  if money else None)}

    @staticmethod
    def _rounds_list(game: Game, result: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """The confirmed rounds for the score table: dealer, who went off, scores, totals."""
        rows = []
        for number, (facts, done) in enumerate(zip(game.rounds, result["rounds"], strict=True),
                                               1):
            off = done["breakdown"]["off"]
            rows.append({"number": number, "dealer": done["dealer"], "off": off["player"],
                         "off_how": off["reason"], "scores": done["scores"],
                         "totals": done["totals"], "forfeit": bool(facts.get("dealer_forfeit")),
                         "extra": done["breakdown"]["extra_round"], "tromp": done["tromp"],
                         "kitty": done["breakdown"]["pot"]["kitty"]})
        return tuple(rows)

    # -- rounds

    def round_to_confirm(self, view: View, draft: round_store.RoundDraft) -> dict[str, Any]:
        """The round's facts, once the vote is settled, every hand is in and the rules agree."""
        assert isinstance(view, RoundView)
        if view.phase is not Phase.HANDS:
            abort(409, _("There is no round to confirm yet: the vote comes first."))
        if view.missing:
            abort(409, _("Waiting for %(names)s's hand.", names=and_list(view.missing)))
        if view.conflicts:
            abort(409, _("The hands do not add up: %(problem)s.", problem=say(view.conflicts[0])))
        if not view.can_confirm:
            abort(409, _("The rules refuse this round: %(problem)s.",
                         problem=say(view.preview_problem)))
        return store.round_facts(draft, view.off)

    def correction_values(self, view: View, facts: Mapping[str, Any]) -> dict[str, Any]:
        """The correction form filled in from a round's facts."""
        return {"fields": forms.round_fields(view.players, facts), "deck_rows": forms.DECK_ROWS}

    def correction_values_from_form(self, view: View, form: MultiDict[str, str],
                                    ) -> dict[str, Any]:
        """The correction form as it was sent."""
        return {"fields": forms.round_fields_from_form(view.players, form),
                "deck_rows": forms.DECK_ROWS}

    def read_correction(self, view: View, form: MultiDict[str, str],
                        old: Mapping[str, Any]) -> dict[str, Any]:
        """A corrected round from the form (FormError)."""
        return forms.read_round(form, view.players, old)


FLOW = TromplemondFlow()
