"""Clumond's flow: what its screens show at each moment of a round.

A round goes through its phases (:class:`Phase`): going for Clumond, turn by
turn from the dealer's left (``offer``); the declarer names the trump
(``trump``); the 13 tricks are played, then every player enters their tricks
and kept cards and the scorekeeper confirms (``tricks``); once the game has
reached its end, ``end``. Every number comes from ``companion.games.clumond.rules``
(``progress``, ``replay``, ``round_checks``, ``explain`` …) and, for money,
from the evening's ledger (``companion.rules.evening``); this module reads
the store and picks what to show.

The round in progress lives in the generic draft, in the record's form
(``declarer``, ``trump``, ``tricks``, ``kept``, ``declared``) plus one
working fact: ``passed``, who said no to Clumond so far.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from flask import Blueprint, abort
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from companion.rules import RuleError, evening
from companion.rules.common import Standing, standings
from companion.rules.errors import Phrase
from companion.rules.records import Record
from companion.store import PLAYING, Game, Table
from companion.store import rounds as round_store
from companion.web.charts import score_chart
from companion.web.currencies import unit_choices
from companion.web.flow import Checklist, GameFlow, RecordSaid, View, checklist, corrected_from
from companion.web.forms import money_text
from companion.web.words import and_list, say

from .. import rules
from . import forms

bp = Blueprint("clumond", __name__, template_folder="templates")

NAME = "clumond"


class Phase(Enum):
    """The moments of a Clumond round, and of the game."""

    OFFER = "offer"
    """Going for Clumond: each player in turn from the dealer's left says yes or no."""
    TRUMP = "trump"
    """Someone went for Clumond: they name the trump."""
    TRICKS = "tricks"
    """The 13 tricks: then each player's tricks and kept cards, and the confirm."""
    END = "end"
    """The game is over."""


@dataclass(frozen=True)
class Entry:
    """One player's round as entered so far, as the screens show it."""

    player: str
    position: int
    phone: bool
    """True when a phone holds this player's seat."""
    tricks: int | None
    counting: Phrase | None
    """``12 tricks: 2 count`` (None until the tricks are in)."""
    kept: tuple[str, ...]
    declared: int | None
    """The number the tablet entered instead of the kept cards."""
    working: Phrase | None
    """``3♥ 7♠ 4♦: 2 + 1 + 0 = 3`` (None without kept cards)."""
    needed: bool
    """True when this player's declaration counts this round."""
    problems: tuple[Phrase, ...]

    @property
    def entered(self) -> bool:
        """True once anything is entered for this player."""
        return self.tricks is not None or bool(self.kept) or self.declared is not None

    @property
    def declares(self) -> bool:
        """True once the kept cards or a number are in."""
        return bool(self.kept) or self.declared is not None


@dataclass(frozen=True)
class End:
    """The end of the game: how it ended, the pot's share-out, the standings and the money."""

    reason: Phrase | None
    """``after 10 rounds`` or ``Ann reached the target of 150`` (None: closed early)."""
    shared_out: int
    """The chips left in the pot and shared out as part of the last round."""
    share_out: dict[str, int]
    share_order: tuple[str, ...]
    """Who got the odd chips first: clockwise from the last dealer's left."""
    standings: tuple[Standing, ...]
    net_chips: dict[str, int]
    money: dict[str, int]
    """Each player's net money in the table's unit (empty: the chips are not money)."""
    transfers: tuple[tuple[str, str, int], ...]


@dataclass(frozen=True, kw_only=True)
class RoundView(View):
    """The moment of a Clumond game (see :class:`Phase`)."""

    now: rules.Progress | None = None
    options: rules.Options | None = None
    offers: rules.Offers | None = None
    trump: str | None = None
    """The declarer's trump as the record writes it (None: not named yet, or nobody)."""
    leader: str | None = None
    entries: tuple[Entry, ...] = ()
    checks: rules.Checks | None = None
    preview: dict[str, Any] | None = None
    """``replay`` of the record with the round in progress, once it is complete."""
    preview_problem: RuleError | None = None
    next_dealer: str | None = None
    """Who deals after the round in progress, once it is complete."""
    drawn: bool = False
    """True when the first dealer was drawn at random (False: chosen)."""
    phones: frozenset[str] = frozenset()
    """The players whose seat a phone holds."""
    end: End | None = None

    # -- this screen

    @property
    def mine(self) -> Entry | None:
        """This phone's own entry."""
        return next((e for e in self.entries if e.player == self.me), None)

    def position_of(self, player: str) -> int:
        """``player``'s seat."""
        return next(s.position for s in self.table.seats if s.name == player)

    # -- the round

    @property
    def declarer(self) -> str | None:
        """Who went for Clumond this round."""
        return self.offers.declarer if self.offers is not None else None

    @property
    def trump_choices(self) -> tuple[str, ...]:
        """What the declarer may name: the suits, then no trumps."""
        return rules.TRUMP_CHOICES

    @property
    def answered(self) -> bool:
        """True when the last answer (or the trump) can be taken back."""
        return self.offers is not None and (bool(self.offers.passed) or
                                            self.offers.declarer is not None)

    @property
    def can_confirm(self) -> bool:
        """True when the round can be confirmed: everything is in and the rules agree."""
        return self.preview is not None

    @property
    def preview_round(self) -> dict[str, Any] | None:
        """The round in progress as the rules settle it."""
        return self.preview["rounds"][-1] if self.preview else None

    def explain(self, player: str, done: Mapping[str, Any] | None = None) -> Phrase:
        """``player``'s round in words: the round in progress, or a confirmed one (``done``)."""
        rnd = done if done is not None else self.preview_round
        assert rnd is not None
        return rules.explain_phrase(rnd["breakdown"], player)

    def ended(self, rnd: Mapping[str, Any], played: int) -> Phrase | None:
        """Why the game ends with round ``rnd`` (the ``played``-th), in words (None: it goes
        on): the rules' ``game_over``, checked on the stacks before the pot is shared out."""
        if rnd["breakdown"]["game_over"] is None or self.options is None:
            return None
        lines = rnd["breakdown"]["players"]
        return rules.end_reason(self.options, {p: total - lines[p]["share_out"]
                                               for p, total in rnd["totals"].items()}, played)

    # -- the game

    @property
    def stacks(self) -> dict[str, int]:
        """Every stack now."""
        return dict(self.result["totals"]) if self.result else {}

    @property
    def last_round(self) -> dict[str, Any] | None:
        """The last confirmed round (its scores, stacks and breakdown)."""
        return self.result["rounds"][-1] if self.result and self.result["rounds"] else None

    @property
    def chip_value(self) -> str | None:
        """``£0.10``: what one chip is worth (None: the chips are not money)."""
        if self.options is None or self.options.chip_value is None:
            return None
        return self.money(self.options.chip_value)


# --------------------------------------------------------------------------- the flow


class ClumondFlow(GameFlow, folder="clumond", stylesheet=True):
    """Clumond at a real table: the offers on the phones, tricks and kept cards in parallel."""

    def say_record(self, kind: str, record: Record, unit: str | None,
                   holders: str) -> RecordSaid:
        """Its record: the biggest pot, in chips (maybe nobody took a payout from it)."""
        if kind == "biggest_clumond_pot":
            amount = money_text(record.value, "chips")
            return RecordSaid(_("Biggest Clumond pot"), amount,
                              holders or _("nobody took a payout"),
                              _("Biggest Clumond pot: %(amount)s", amount=amount))
        return super().say_record(kind, record, unit, holders)

    name = NAME
    blueprint = bp

    # -- starting

    def options_values(self, table: Table, form: Mapping[str, str] | None) -> dict[str, Any]:
        """The options form's values, with the money a chip may be worth."""
        values = forms.option_values(table.unit, form)
        return {"values": values, "units": unit_choices(values.get("unit"), chips=False),
                "example_chip_value": forms.example_chip_value(values.get("unit", table.unit))}

    def read_options(self, table: Table, form: MultiDict[str, str],
                     ) -> tuple[dict[str, Any], str | None]:
        """The options, and the money unit when a chip is worth money."""
        return forms.read_options(form, table.unit)

    # -- the moment

    def table_moment(self, table: Table, game: Game) -> RoundView:
        """The round now, as every screen sees it."""
        record = game.record()
        try:
            now = rules.progress(record)
        except RuleError as error:
            return RoundView(table=table, game=game, me=None, phase=Phase.END, result=None,
                             problem=error)
        draft = round_store.current_draft(game)
        result = now.result
        fields: dict[str, Any] = {
            "table": table, "game": game, "me": None, "result": result, "now": now,
            "options": now.options, "round_index": draft.round_index,
            "drawn": table.dealer_drawn,
            "phones": frozenset(s.name for s in table.seats if s.held and s.name),
            "corrected_from": corrected_from(draft),
        }
        if now.finished or game.status != PLAYING:
            return RoundView(phase=Phase.END, end=self._end(table, record, result, now.options),
                             **fields)
        assert now.dealer is not None
        offers = _offers(game.players, now.dealer, draft.facts)
        trump = draft.facts.get("trump")
        if offers.turn is not None:
            phase = Phase.OFFER
        elif offers.declarer is not None and trump is None:
            phase = Phase.TRUMP
        else:
            phase = Phase.TRICKS
        fields.update(phase=phase, offers=offers, trump=trump, dealer=now.dealer,
                      leader=rules.leader(game.players, now.dealer, offers.declarer),
                      checklists=self.checklists(game, draft, now.dealer))
        if phase is Phase.TRICKS:
            fields.update(self._tricks(table, record, draft.facts, offers.declarer))
        return RoundView(**fields)

    def _tricks(self, table: Table, record: dict[str, Any], facts: Mapping[str, Any],
                declarer: str | None) -> dict[str, Any]:
        """The entries so far, their checks and, once complete, the round as the rules settle it."""
        players = record["players"]
        tricks, kept, declared = (dict(facts.get(key) or {})
                                  for key in ("tricks", "kept", "declared"))
        checks = rules.round_checks(players, declarer, tricks, kept, declared)
        seats = {s.name: s for s in table.seats}
        entries = []
        for player in players:
            given = tricks.get(player)
            entries.append(Entry(
                player=player, position=seats[player].position, phone=seats[player].held,
                tricks=given, counting=None if given is None else rules.counting_phrase(given),
                kept=tuple(kept.get(player) or ()), declared=declared.get(player),
                working=_working(kept.get(player)),
                needed=declarer is None or declarer == player,
                problems=checks.concerning_said(player)))
        preview = problem = next_dealer = None
        if checks.ready:
            facts = rules.round_record(players, declarer, facts.get("trump"), tricks, kept,
                                       declared)
            with_round = record | {"rounds": [*record["rounds"], facts]}
            try:
                preview = rules.replay(with_round)
                next_dealer = rules.next_dealer(with_round)
            except RuleError as error:
                problem = error
        return {"entries": tuple(entries), "checks": checks, "preview": preview,
                "preview_problem": problem, "next_dealer": next_dealer}

    def _end(self, table: Table, record: dict[str, Any], result: dict[str, Any],
             options: rules.Options) -> End:
        """The end screen: the share-out, the standings, net chips, money and who pays whom."""
        last = result["rounds"][-1] if result["rounds"] else None
        breakdown = last["breakdown"] if last else None
        share = {p: line["share_out"] for p, line in breakdown["players"].items()} \
            if breakdown else {}
        money: dict[str, int] = {}
        transfers: tuple[tuple[str, str, int], ...] = ()
        if result["finished"] and record["options"].get("chip_value") is not None:
            ledger = evening({"unit": table.unit, "games": [record]})
            money = ledger["games"][0]["money"]
            transfers = tuple((payer, payee, amount) for payer, payee, amount in ledger["owing"])
        return End(
            reason=rules.end_reason(options, {p: total - breakdown["players"][p]["share_out"]
                                              for p, total in last["totals"].items()},
                                    len(result["rounds"]))
            if breakdown and result["finished"] else None,
            shared_out=breakdown["left_in_pot"] if breakdown and result["finished"] else 0,
            share_out=share,
            share_order=tuple(rules.from_dealers_left(record["players"], last["dealer"]))
            if last else (),
            standings=tuple(standings(result["totals"])), net_chips=dict(result["money"]),
            money=money, transfers=transfers)

    @staticmethod
    def chart(result: Mapping[str, Any], options: rules.Options) -> str:
        """The stack chart: every line starts from the starting stack."""
        return score_chart(result, title=_("Stacks after each round"),
                           start=dict.fromkeys(result["totals"], options.stack))

    # -- the scoreboard

    def scoreboard(self, table: Table, game: Game | None, *, me: str | None = None,
                   keeper: bool = False, view: View | None = None) -> dict[str, Any]:
        """The rounds, every stack (owing below zero), the pot and the stack chart."""
        context = super().scoreboard(table, game, me=me, keeper=keeper, view=view)
        if game is not None and context["result"] is not None:
            options = rules.read_options(game.options)
            context.update(chart=self.chart(context["result"], options), options=options,
                           chip_value=None if options.chip_value is None
                           else money_text(options.chip_value, table.unit))
        return context

    # -- the checklists

    def checklists(self, game: Game, draft: round_store.RoundDraft,
                   dealer: str | None) -> tuple[Checklist, ...]:
        """The deck prep (round 1) and this round's dealing steps, their titles and steps the
        rules' Phrases, said by the checklist macro in the screen's language."""
        lists = []
        if not game.rounds:
            deck = rules.deck_prep_phrases(game.players, game.options)
            lists.append(checklist("deck", deck.title, deck.steps, draft))
        if dealer is not None:
            deal = rules.deal_steps_phrases(game.players, dealer, game.options)
            lists.append(checklist("deal", deal.title, deal.steps, draft))
        return tuple(lists)

    # -- rounds

    def round_to_confirm(self, view: View, draft: round_store.RoundDraft) -> dict[str, Any]:
        """The round's facts, once every entry is in, nothing is wrong and the rules agree."""
        assert isinstance(view, RoundView)
        if view.phase is Phase.END:
            abort(409, _("The game is over: there is no round to confirm."))
        if view.phase is not Phase.TRICKS:
            abort(409, _("There is no round to confirm yet: going for Clumond comes first."))
        assert view.checks is not None and view.offers is not None
        if view.checks.problems:
            abort(409, _("This round can't be confirmed yet: %(problem)s.",
                         problem=say(view.checks.problems[0].said)))
        if view.checks.missing:
            abort(409, _("Waiting for %(names)s.",
                         names=and_list([say(lack) for lack in view.checks.lacking])))
        if view.preview is None:
            abort(409, _("The rules refuse this round: %(problem)s.",
                         problem=say(view.preview_problem)))
        return rules.round_record(view.players, view.offers.declarer, view.trump,
                                  *(dict(draft.facts.get(key) or {})
                                    for key in ("tricks", "kept", "declared")))

    def correction_values(self, view: View, facts: Mapping[str, Any]) -> dict[str, Any]:
        """The correction form filled in from a round's facts."""
        return {"fields": forms.round_fields(view.players, facts), **forms.pads()}

    def correction_values_from_form(self, view: View, form: MultiDict[str, str],
                                    ) -> dict[str, Any]:
        """The correction form as it was sent."""
        return {"fields": forms.round_fields_from_form(view.players, form), **forms.pads()}

    def read_correction(self, view: View, form: MultiDict[str, str],
                        old: Mapping[str, Any]) -> dict[str, Any]:
        """A corrected round from the form (FormError; the rules check the record after)."""
        return forms.read_round(form, view.players)


def _working(cards: Any) -> Phrase | None:
    """The working of kept cards as entered (a problem with them is shown on its own)."""
    try:
        return rules.working_phrase(cards or ())
    except RuleError:
        return None


def _offers(players: list[str], dealer: str, facts: Mapping[str, Any]) -> rules.Offers:
    """Going for Clumond as far as the draft has it.

    With a declarer, everyone asked before them said no. A round brought back
    by an undo holds ``"declarer": null`` (nobody went for it); otherwise the
    working fact ``passed`` lists who said no so far.
    """
    declarer = facts.get("declarer")
    order = rules.from_dealers_left(players, dealer)
    if declarer is not None:
        passed = order[:order.index(declarer)]
    elif "declarer" in facts:
        passed = order
    else:
        passed = list(facts.get("passed") or ())
    return rules.Offers(tuple(order), tuple(passed), declarer)


FLOW = ClumondFlow()
