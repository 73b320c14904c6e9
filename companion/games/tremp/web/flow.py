"""Tremp's flow: what its screens show at each moment of a hand.

A hand goes through its phases (:class:`Phase`): the bidding, live on the
phones (``bidding``); the hand played, with the optional trick counter on
the tablet, until the bidding team's tricks are known (``play``); the hand's
points waiting for the scorekeeper's confirm (``score``); then, once a team
leads by two matches, the end (``end``). Every number comes from
``companion.games.tremp.rules`` (``progress``, ``bidding_status``, ``replay``,
``points_formula``, ``count_tricks``); this module reads the draft and picks
what to show.

The round's draft holds the record's facts (``bids`` and ``tricks``) and one
working fact, ``trick_taps`` (who won each trick, as the counter was tapped),
which :meth:`TrempFlow.round_to_confirm` leaves out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from flask import Blueprint, abort
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from companion.rules import RuleError
from companion.rules.common import Number, left_of
from companion.rules.errors import Phrase, add_messages
from companion.rules.records import Record
from companion.store import PLAYING, Game, Table
from companion.store import rounds as round_store
from companion.web.charts import score_chart
from companion.web.flow import GameFlow, RecordSaid, View, corrected_from
from companion.web.words import and_list, say

from .. import rules
from . import forms

bp = Blueprint("tremp", __name__, template_folder="templates")

add_messages({"tremp.hand_label": "hand {number}"})
"""What a refusal of the bids in progress names the hand."""


def hand_label(number: int) -> Phrase:
    """``hand 3``, as a refusal of the rules names the hand it is about."""
    return Phrase("tremp.hand_label", {"number": number})

NAME = "tremp"

TRICK_CHOICES: tuple[int, ...] = tuple(range(rules.TRICKS + 1))
"""The buttons of the tricks entry: 0 to 13."""

RECORD_FACTS = ("bids", "tricks")
"""The facts of a hand in the record; the draft's other facts are working facts."""


class Phase(Enum):
    """The moments of a Tremp hand, and of the game."""

    BIDDING = "bidding"
    """Cards are displayed or passes said, in turn from the dealer's left."""
    PLAY = "play"
    """The bidding is over: the hand is played until the bidding team's tricks are known."""
    SCORE = "score"
    """The tricks are in: the hand's points wait for the scorekeeper's confirm."""
    END = "end"
    """The game is over (a two-match lead, or the scorekeeper ended it)."""


@dataclass(frozen=True)
class Place:
    """One player on the bidding board: their displayed cards, in the order displayed."""

    player: str
    position: int
    team: str
    side: int
    """0 for the team of seat 1, 1 for the other (the screens colour the teams by it)."""
    shown: tuple[rules.Display, ...]
    turn: bool
    """True when it is this player's turn to bid."""
    dealer: bool
    has_phone: bool

    @property
    def cards_text(self) -> str:
        """The displayed cards as text, in order (``5♥ K♠``)."""
        return " ".join(str(d.card) for d in self.shown)


@dataclass(frozen=True)
class TeamLine:
    """A team's totals as every screen shows them (from ``replay`` and ``progress``)."""

    team: str
    side: int
    match: Number
    game: Number
    matches: int
    threshold: int
    """The match points this team needs to win the current match."""
    mine: bool


@dataclass(frozen=True)
class HandRow:
    """A confirmed hand in the score table: ``replay``'s round and the rules' formula."""

    number: int
    done: Mapping[str, Any]
    """``replay``'s round: dealer, scores, totals, match, breakdown."""
    formula: rules.PointsFormula

    @property
    def breakdown(self) -> Mapping[str, Any]:
        """The hand's breakdown (bid, made, points, the match won …)."""
        return self.done["breakdown"]

    @property
    def card(self) -> str:
        """The card that won the bid (the last displayed)."""
        return self.breakdown["displayed"][-1]["card"]


def hand_row(number: int, done: Mapping[str, Any]) -> HandRow:
    """A hand of ``replay``'s result, with the powers of two its points are."""
    breakdown = done["breakdown"]
    return HandRow(number, done, rules.points_formula(breakdown["bid"], breakdown["tricks"]))


@dataclass(frozen=True, kw_only=True)
class HandView(View):
    """The moment of a Tremp game (see :class:`Phase`)."""

    now: rules.Progress | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)
    bids: tuple[tuple[str, str], ...] = ()
    """The bids so far, in the record's form: (player, card or "pass")."""
    bidding: rules.BiddingStatus | None = None
    board: tuple[Place, ...] = ()
    teams: tuple[TeamLine, ...] = ()
    rows: tuple[HandRow, ...] = ()
    tricks: int | None = None
    """The bidding team's tricks, once entered (or counted)."""
    count: rules.TrickCount | None = None
    """The tablet's trick counter (once the bidding is over)."""
    preview: dict[str, Any] | None = None
    """``replay`` of the record with this hand, once its tricks are in."""
    preview_problem: RuleError | None = None
    """The rules' refusal of the hand with its tricks in (said with ``|say``)."""
    chart: str = ""
    trick_choices: tuple[int, ...] = TRICK_CHOICES
    total_tricks: int = rules.TRICKS
    deck_rows: tuple[tuple[Any, ...], ...] = forms.DECK_ROWS

    # -- who is who

    def left_of(self, player: str) -> str:
        """The player to ``player``'s left (who bids first when ``player`` deals)."""
        return left_of(self.players, player)

    # -- the bidding

    @property
    def turn(self) -> str | None:
        """Whose turn it is to bid (None once the bidding is over)."""
        return self.bidding.turn if self.bidding is not None else None

    @property
    def my_turn(self) -> bool:
        """True on the phone of the player whose turn it is to bid."""
        return self.me is not None and self.turn == self.me

    @property
    def mid_choice(self) -> bool:
        """True while this phone picks the card it displays (a page without JavaScript then
        does not reload itself under the player's finger)."""
        return self.my_turn

    @property
    def turn_place(self) -> Place | None:
        """The board's place of the player whose turn it is."""
        return next((p for p in self.board if p.turn), None)

    @property
    def must_bid(self) -> bool:
        """True when the first three passed and the dealer must bid (house rule)."""
        return self.bidding is not None and self.bidding.dealer_must_bid

    @property
    def passed_three(self) -> str:
        """The three who passed before the dealer had to bid: ``Sam, Nick and Emily`` (in the
        device's language)."""
        return and_list(player for player, _said in self.bids)

    @property
    def taken(self) -> frozenset[str]:
        """The picker codes of the cards displayed in this hand (no one displays them again)."""
        shown = self.bidding.displayed if self.bidding is not None else ()
        return frozenset(d.card.ascii for d in shown)

    @property
    def last_bid(self) -> tuple[str, str] | None:
        """The last bid said, for the tablet's undo."""
        return self.bids[-1] if self.bids else None

    @property
    def bidder(self) -> str | None:
        """Who won (or is winning) the bid."""
        return self.bidding.bidder if self.bidding is not None else None

    @property
    def bidding_team(self) -> str | None:
        """The team of the player who won (or is winning) the bid."""
        return self.now.team(self.bidder) if self.now is not None and self.bidder else None

    @property
    def bidders(self) -> tuple[str, ...]:
        """The bid winner and their partner, in seat order: they may enter the tricks."""
        if self.bidder is None:
            return ()
        partner = rules.partner_of(self.players, self.bidder)
        return tuple(p for p in self.players if p in (self.bidder, partner))

    @property
    def either_bidder(self) -> str:
        """The bid winner or their partner, as a sentence says it: ``Rob or Nick``."""
        if len(self.bidders) != 2:
            return " or ".join(self.bidders)
        return _("%(first)s or %(second)s", first=self.bidders[0], second=self.bidders[1])

    @property
    def can_enter_tricks(self) -> bool:
        """True on the tablet and on the phones of the bidding team."""
        return self.keeper or self.me in self.bidders

    # -- the tricks and the points

    @property
    def counted(self) -> int | None:
        """The bidding team's tricks by the counter, once all 13 are counted."""
        if self.count is None or not self.count.complete or self.bidder is None:
            return None
        return self.count.of_team(self.bidder)

    @property
    def hand(self) -> HandRow | None:
        """This hand as the rules would score it (once its tricks are in)."""
        if self.preview is None:
            return None
        return hand_row(self.round_number, self.preview["rounds"][-1])

    @property
    def last(self) -> HandRow | None:
        """The last confirmed hand."""
        return self.rows[-1] if self.rows else None

    @property
    def drawn_for(self) -> int:
        """The moment of the hand: how many bids were said and tricks counted."""
        return len(self.bids) + (self.count.played if self.count is not None else 0)



# --------------------------------------------------------------------------- the flow


class TrempFlow(GameFlow, folder="tremp", stylesheet=True):
    """Tremp at a real table: bidding on the phones, a trick judge, match and game totals."""

    def say_record(self, kind: str, record: Record, unit: str | None,
                   holders: str) -> RecordSaid:
        """Its record: the longest game, in hands (held by its four players)."""
        if kind == "longest_tremp_game":
            return RecordSaid(_("Longest Tremp game"), _("%(num)s hands", num=record.value),
                              holders, _("Longest Tremp game: %(num)s hands", num=record.value))
        return super().say_record(kind, record, unit, holders)

    name = NAME
    round_word = "hand"
    blueprint = bp
    dealer_ticks = True

    # -- starting

    def options_values(self, table: Table, form: Mapping[str, str] | None) -> dict[str, Any]:
        """The options form's values: beginners is off unless ticked."""
        return {"beginners": bool(form) and form.get("beginners") == "on"}

    def read_options(self, table: Table, form: MultiDict[str, str],
                     ) -> tuple[dict[str, Any], str | None]:
        """The options from the start form; Tremp keeps no money."""
        return forms.read_options(form), None

    # -- the moment

    def table_moment(self, table: Table, game: Game) -> HandView:
        """The hand now, as every screen sees it."""
        record = game.record()
        try:
            now = rules.progress(record)
        except RuleError as error:
            return HandView(table=table, game=game, me=None, phase=Phase.END, result=None,
                            problem=error)
        draft = round_store.current_draft(game)
        result = now.result
        fields: dict[str, Any] = {
            "table": table, "game": game, "me": None, "result": result, "now": now,
            "round_index": now.hand_index, "facts": draft.facts,
            "teams": self._teams(now, None),
            "rows": tuple(hand_row(n, done) for n, done in enumerate(result["rounds"], 1)),
            "chart": score_chart(result),
            "corrected_from": corrected_from(draft),
        }
        if now.finished or game.status != PLAYING:
            return HandView(phase=Phase.END, **fields)
        bids = tuple((str(p), str(w)) for p, w in draft.facts.get("bids") or ())
        try:
            bidding = rules.bidding_status([list(b) for b in bids], now.players, now.dealer,
                                           hand_label(now.hand_number))
        except RuleError as error:  # only a draft written by hand can get here
            return HandView(phase=Phase.END, problem=error, **fields)
        fields |= {"dealer": now.dealer, "bids": bids, "bidding": bidding,
                   "checklists": self.checklists(game, draft, now.dealer),
                   "board": self._board(table, now, bidding)}
        if not bidding.ended:
            return HandView(phase=Phase.BIDDING, **fields)
        try:
            count = rules.count_tricks(now.players, draft.facts.get("trick_taps") or (),
                                       bidding.bidder)
        except RuleError:
            count = rules.count_tricks(now.players, (), bidding.bidder)
        tricks = draft.facts.get("tricks")
        fields |= {"count": count, "tricks": tricks}
        if tricks is None:
            return HandView(phase=Phase.PLAY, **fields)
        preview = problem = None
        try:
            preview = rules.replay(record | {"rounds": [*record["rounds"],
                                                        self._facts(bids, tricks)]})
        except RuleError as error:
            problem = error
        return HandView(phase=Phase.SCORE, preview=preview, preview_problem=problem, **fields)

    def personal(self, view: View, table: Table, game: Game, me: str | None) -> View:
        """The hand for one screen: the phone's own team marked."""
        view = super().personal(view, table, game, me)
        now = getattr(view, "now", None)
        if me is not None and now is not None:
            view = replace(view, teams=self._teams(now, me))
        return view

    @staticmethod
    def _facts(bids: tuple[tuple[str, str], ...], tricks: Any) -> dict[str, Any]:
        """A hand in the record's form."""
        return {"bids": [list(b) for b in bids], "tricks": tricks}

    @staticmethod
    def _teams(now: rules.Progress, me: str | None) -> tuple[TeamLine, ...]:
        result = now.result
        mine = now.team(me) if me is not None else None
        return tuple(TeamLine(team=team, side=side, match=result["match"][team],
                              game=result["totals"][team], matches=result["matches"][team],
                              threshold=now.thresholds[team], mine=team == mine)
                     for side, team in enumerate(now.teams))

    @staticmethod
    def _board(table: Table, now: rules.Progress, bidding: rules.BiddingStatus,
               ) -> tuple[Place, ...]:
        places = []
        for position, player in enumerate(now.players, 1):
            seat = table.seat_at(position)
            places.append(Place(
                player=player, position=position, team=now.team(player),
                side=rules.team_of(now.players, player), shown=bidding.shown_by(player),
                turn=bidding.turn == player, dealer=now.dealer == player,
                has_phone=seat is not None and seat.held))
        return tuple(places)

    def total_of(self, result: Mapping[str, Any], me: str, game: Game) -> Any:
        """``me``'s team's game total."""
        players = list(game.players)
        if me not in players:
            return None
        return result["totals"].get(rules.team_names(players)[rules.team_of(players, me)])

    # -- rounds

    def round_to_confirm(self, view: View, draft: round_store.RoundDraft) -> dict[str, Any]:
        """The hand's bids and tricks, once the rules score it (the counter's taps left out)."""
        assert isinstance(view, HandView)
        if view.phase is Phase.END:
            abort(409, _("The game is over: there is no hand to confirm."))
        if view.phase is Phase.BIDDING:
            abort(409, _("The bidding is not over yet: it is %(name)s's turn.", name=view.turn))
        if view.phase is Phase.PLAY:
            abort(409, _("Enter the tricks taken by %(team)s first.", team=view.bidding_team))
        if view.preview is None:
            abort(409, _("The rules refuse this hand: %(problem)s.",
                         problem=say(view.preview_problem)))
        return {k: draft.facts[k] for k in RECORD_FACTS}

    def correction_values(self, view: View, facts: Mapping[str, Any]) -> dict[str, Any]:
        """The correction form filled in from a hand's facts."""
        return {"fields": forms.hand_fields(facts)}

    def correction_values_from_form(self, view: View, form: MultiDict[str, str],
                                    ) -> dict[str, Any]:
        """The correction form as it was sent."""
        return {"fields": forms.hand_fields_from_form(form)}

    def read_correction(self, view: View, form: MultiDict[str, str],
                        old: Mapping[str, Any]) -> dict[str, Any]:
        """A corrected hand from the form (FormError); the rules check it on replay."""
        return forms.read_hand(form, view.players, old)


FLOW = TrempFlow()
