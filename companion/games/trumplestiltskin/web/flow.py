"""Trumplestiltskin's flow: what its screens show at each moment of a hand.

A hand goes through its phases (:class:`Phase`): the bidding, turn by turn
on the phones (``auction``); the taker turns the Gnome over (``gnome``);
the tricks are played and each player enters their points (``points``);
every point is in and the tally is shown (``tally``); or everyone passed
and the hand is thrown in (``thrown-in``). Then the game is over (``end``).

Every number comes from ``companion.games.trumplestiltskin.rules`` (``replay``,
``read_auction``, ``max_points``, ``Count``, ``explain_end`` …); this module
reads the store and picks what to show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from flask import Blueprint, abort
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from companion.rules import RuleError
from companion.rules.cards import Joker, parse_card
from companion.rules.common import left_of
from companion.rules.errors import Phrase, add_messages
from companion.rules.records import Record
from companion.store import PLAYING, Game, Table
from companion.store import rounds as round_store
from companion.web import filters
from companion.web.charts import score_chart
from companion.web.flow import GameFlow, RecordSaid, View, corrected_from
from companion.web.words import and_list, say

from .. import rules
from . import forms

bp = Blueprint("trumplestiltskin", __name__, template_folder="templates")

NAME = "trumplestiltskin"

GNOME_CARDS: tuple[str, ...] = tuple(str(card) for card in rules.BLANKET)
"""The six cards the Gnome can be, in the order the screens offer them."""

WORKING = ("proposal", "counts")
"""The draft's working facts, which the record does not keep: the bid stepper, the counters."""

COUNT_ROWS: tuple[tuple[str, str, str], ...] = (
    ("honours", _l("Aces and kings"), _l("aces and kings")),
    ("trumps", _l("Trump cards"), _l("trump cards")),
    ("jokers", _l("Jokers"), _l("jokers")))
"""The counter's rows: the :class:`~companion.games.trumplestiltskin.rules.Count` field, its label,
and its label inside a sentence ("One more: aces and kings")."""


add_messages({"trumplestiltskin.hand_in_progress": "the hand in progress"})
"""What the screens call the hand a refusal of the draft is about."""


class Phase(Enum):
    """The moments of a Trumplestiltskin hand, and of the game."""

    AUCTION = "auction"
    """The bidding, turn by turn from the dealer's left."""
    GNOME = "gnome"
    """All but one have passed: the taker turns the Gnome over (and picks trump for a joker)."""
    POINTS = "points"
    """Trump is known: the tricks are played and each player enters their points."""
    TALLY = "tally"
    """Every player's points are in: the hand's tally, for the scorekeeper to confirm."""
    THROWN = "thrown-in"
    """Everyone passed: the hand is thrown in and the deal passes."""
    END = "end"
    """The game is over."""


@dataclass(frozen=True, kw_only=True)
class HandView(View):
    """The moment of a Trumplestiltskin game (see :class:`Phase`)."""

    target: int = rules.DEFAULTS["target"]
    gnome_target: int = rules.DEFAULTS["gnome_target"]
    facts: Mapping[str, Any] = field(default_factory=dict)
    """The hand so far as the draft holds it (the record's form, and the working facts)."""
    auction: rules.Auction = rules.Auction(order=())
    """The bidding so far (at the end: an empty one, over before it began)."""
    speeches: tuple[rules.Speech, ...] = ()
    looked: tuple[str, ...] = ()
    gnome: str | None = None
    """The Gnome card as entered (``9♥``, ``red joker``), once turned over."""
    trump: str | None = None
    points: Mapping[str, int] = field(default_factory=dict)
    counts: Mapping[str, rules.Count] = field(default_factory=dict)
    """Each player's counter (aces and kings, trump cards, jokers) as it stands."""
    max_points: int | None = None
    preview: dict[str, Any] | None = None
    """``replay`` with this hand added, once every point is in (None: not yet, or refused)."""
    preview_problem: RuleError | None = None
    """The rules' refusal of the hand with every point in (said with ``|say``)."""
    proposal: int = 1
    """The bid stepper's value for the player whose turn it is."""
    proposal_taps: int = 0
    """How many times the stepper was tapped this turn (a new field on the screen each time)."""
    holders: frozenset[str] = frozenset()
    """The players whose seat has a phone."""
    positions: Mapping[str, int] = field(default_factory=dict)
    rounds_list: tuple[dict[str, Any], ...] = ()
    chart: str = ""
    standings: tuple[rules.Standing, ...] = ()
    ending: rules.Ending | None = None

    # -- the bidding

    @property
    def hand_label(self) -> str:
        """``Hand 3``."""
        return _("Hand %(number)s", number=self.round_number)

    @property
    def my_turn(self) -> bool:
        """True on the phone of the player whose turn it is."""
        return self.me is not None and self.me == self.auction.to_speak

    @property
    def proposal_key(self) -> str:
        """What names the bid field: a step makes a new one; a live update keeps what is typed."""
        return f"{self.proposal}-{self.proposal_taps}"

    @property
    def last_chance(self) -> bool:
        """The house rule's moment: all but one passed and nobody bid; the last may still bid."""
        auction = self.auction
        return (not auction.over and auction.top_bidder is None
                and len(auction.passed) == len(auction.order) - 1)

    @property
    def last_speech(self) -> rules.Speech | None:
        """The last bid or pass (the one the scorekeeper may take back)."""
        return self.speeches[-1] if self.speeches else None

    @property
    def drawn_for(self) -> int:
        """The moment of the hand: how many bids and passes were said (:attr:`speech_count`)."""
        return self.speech_count

    @property
    def speech_count(self) -> int:
        """How many have spoken this hand."""
        return len(self.speeches)

    def passed(self, player: str | None) -> bool:
        """True when ``player`` has passed this hand."""
        return player in self.auction.passed

    def may_look(self, player: str | None) -> bool:
        """True while ``player`` may still record a look at the Gnome (before passing)."""
        return (self.phase is Phase.AUCTION and player is not None
                and player in self.players and not self.passed(player))

    def has_phone(self, player: str) -> bool:
        """True when ``player``'s seat is held by a phone."""
        return player in self.holders

    # -- the Gnome and trump

    @property
    def gnome_is_joker(self) -> bool:
        """True when the Gnome turned over is a joker (the taker picks trump)."""
        return self.gnome is not None and isinstance(parse_card(self.gnome), Joker)

    @property
    def trump_choices(self) -> tuple[str, ...]:
        """The two suits of the joker's colour the taker picks trump from."""
        if not self.gnome_is_joker:
            return ()
        joker = parse_card(self.gnome)
        assert isinstance(joker, Joker)
        return tuple(str(suit) for suit in rules.SUITS if suit.colour == joker.colour)

    @property
    def gnome_cards(self) -> tuple[str, ...]:
        """The six cards the Gnome can be."""
        return GNOME_CARDS

    # -- points and the tally

    @property
    def missing(self) -> tuple[str, ...]:
        """The players whose points are not in yet."""
        return tuple(p for p in self.players if p not in self.points)

    @property
    def entered(self) -> int:
        """How many players' points are in."""
        return len(self.points)

    @property
    def count_rows(self) -> tuple[tuple[str, str, str], ...]:
        """The counter's rows."""
        return COUNT_ROWS

    @property
    def count_limits(self) -> rules.Count:
        """The most of each a player can take (the counter's + stops there)."""
        return rules.COUNT_LIMITS

    def count_of(self, player: str | None) -> rules.Count:
        """``player``'s counter as it stands (all nought before the first tap)."""
        return self.counts.get(player or "", rules.Count())

    @property
    def tally(self) -> dict[str, Any] | None:
        """The hand's breakdown as the rules tally it (None until every point is in)."""
        return self.preview["rounds"][-1] if self.preview else None

    @property
    def can_confirm(self) -> bool:
        """True when the scorekeeper may confirm: thrown in, or every point in and accepted."""
        return self.phase is Phase.THROWN or (self.phase is Phase.TALLY
                                              and self.preview is not None)

    @property
    def next_dealer(self) -> str | None:
        """Who deals after this hand (None when this hand ends the game)."""
        if self.preview is not None and self.preview["finished"]:
            return None
        return left_of(self.players, self.dealer) if self.dealer else None

    @property
    def hand_facts(self) -> dict[str, Any]:
        """The hand in the record's form, as it would be confirmed now."""
        return record_hand(self.facts, self.players, self.phase is Phase.THROWN)

    # -- the screens

    @property
    def mid_choice(self) -> bool:
        """True while this phone has a bid or its points to type (no reload without JS)."""
        return self.my_turn or (self.phase is Phase.POINTS and self.me is not None
                                and self.me not in self.points)

    @property
    def my_position(self) -> int | None:
        """This phone's seat."""
        return self.positions.get(self.me or "")

    def why(self, breakdown: Mapping[str, Any], player: str) -> Phrase:
        """``player``'s line of a hand's tally (``replay``'s breakdown), to be said."""
        return rules.explain_line(breakdown, player)

    def corrected(self, number: int, facts: Mapping[str, Any]) -> dict[str, Any] | None:
        """The game's result with hand ``number`` corrected to ``facts`` (None: refused)."""
        record = self.game.record()
        record["rounds"][number - 1] = dict(facts)
        try:
            return rules.replay(record)
        except RuleError:
            return None



# --------------------------------------------------------------------------- the flow


class TrumplestiltskinFlow(GameFlow, folder="trumplestiltskin", stylesheet=True):
    """Trumplestiltskin at a real table: the auction on the phones, points counted for you."""

    def say_record(self, kind: str, record: Record, unit: str | None,
                   holders: str) -> RecordSaid:
        """Its record: the most Gnome points in a game (held by the Gnome)."""
        if kind == "most_gnome_points":
            return RecordSaid(_("Most Gnome points in a game"),
                              _("%(num)s points", num=filters.number(record.value)), _("the Gnome"),
                              _("The Gnome scored %(num)s points in a game",
                                num=filters.number(record.value)))
        return super().say_record(kind, record, unit, holders)

    name = NAME
    round_word = "hand"
    blueprint = bp

    # -- starting

    def options_values(self, table: Table, form: Mapping[str, str] | None) -> dict[str, Any]:
        """The options form: the targets as sent, or the rules' defaults."""
        return {"values": forms.option_values(form)}

    def read_options(self, table: Table, form: MultiDict[str, str],
                     ) -> tuple[dict[str, Any], str | None]:
        """The two targets from the start form (no money: the unit stays as it is)."""
        return forms.read_options(form), None

    # -- the moment

    def table_moment(self, table: Table, game: Game) -> HandView:
        """The hand now, as every screen sees it."""
        record = game.record()
        try:
            result = rules.replay(record)
        except RuleError as error:
            return HandView(table=table, game=game, me=None, phase=Phase.END, result=None,
                            problem=error)
        draft = round_store.current_draft(game)
        options = record["options"]
        common: dict[str, Any] = {
            "table": table, "game": game, "me": None, "result": result,
            "round_index": draft.round_index,
            "target": options.get("target", rules.DEFAULTS["target"]),
            "gnome_target": options.get("gnome_target", rules.DEFAULTS["gnome_target"]),
            "holders": frozenset(s.name for s in table.seats if s.held and s.name),
            "positions": {s.name: s.position for s in table.seats if s.name},
            "rounds_list": rounds_list(result), "chart": chart(result),
            "corrected_from": corrected_from(draft),
        }
        if result["finished"] or game.status != PLAYING:
            return HandView(phase=Phase.END, **common, **self._end(result, common))
        dealer = rules.next_dealer(record)
        assert dealer is not None
        try:
            hand = self._hand(record, draft.facts, dealer)
        except RuleError as error:  # a draft the rules no longer take: say so, change nothing
            within = RuleError("rule.within", where=Phrase("trumplestiltskin.hand_in_progress"),
                               error=error)
            return HandView(phase=Phase.END, problem=within, **common)
        lists = self.checklists(game, draft, dealer) if hand["phase"] is Phase.AUCTION else ()
        return HandView(dealer=dealer, checklists=lists, **common, **hand)

    def _hand(self, record: dict[str, Any], facts: Mapping[str, Any],
              dealer: str) -> dict[str, Any]:
        """The hand in progress from the draft: its phase, the bidding, the Gnome, the points."""
        players = record["players"]
        auction = rules.read_auction(facts.get("bids") or [], players, dealer)
        speeches = tuple(rules.read_speech(entry) for entry in facts.get("bids") or [])
        gnome, trump = facts.get("gnome"), facts.get("trump")
        points = dict(facts.get("points") or {})
        counts = {name: rules.count_points(**c) for name, c in (facts.get("counts") or {}
                                                                 ).items()}
        proposal = facts.get("proposal") or {}
        if proposal.get("speech") != len(speeches) or proposal.get("bid", 0) < auction.minimum_bid:
            proposal = {}
        fields: dict[str, Any] = {
            "facts": facts, "auction": auction, "speeches": speeches,
            "looked": tuple(facts.get("looked") or ()),
            "gnome": gnome, "trump": trump, "points": points, "counts": counts,
            "proposal": proposal.get("bid", auction.minimum_bid),
            "proposal_taps": proposal.get("taps", 0),
        }
        if auction.thrown_in:
            phase = Phase.THROWN
        elif not auction.over:
            phase = Phase.AUCTION
        elif gnome is None or trump is None:
            phase = Phase.GNOME
        else:
            card = parse_card(gnome)
            fields["max_points"] = rules.max_points(len(players), card,
                                                    rules.trump_for(card, trump))
            phase = Phase.TALLY if all(p in points for p in players) else Phase.POINTS
        fields["phase"] = phase
        if phase is Phase.TALLY:
            hand = record_hand(facts, players, thrown_in=False)
            try:
                fields["preview"] = rules.replay(record | {"rounds": [*record["rounds"], hand]})
            except RuleError as error:
                fields["preview_problem"] = error
        return fields

    def _end(self, result: dict[str, Any], common: Mapping[str, Any]) -> dict[str, Any]:
        """The end screen: why the game ended, which rule picked the winner, the standings."""
        ending = None
        if result["finished"]:
            last = result["rounds"][-1]["breakdown"]
            ending = rules.explain_end(result["totals"], result["gnome"], last["taker"],
                                       common["target"], common["gnome_target"])
        return {"ending": ending,
                "standings": tuple(rules.standings(result["totals"], result["gnome"],
                                                   result["winners"]))}

    # -- rounds

    def round_to_confirm(self, view: View, draft: round_store.RoundDraft) -> dict[str, Any]:
        """The hand's facts: thrown in (its bids only), or every point in and the rules agree."""
        assert isinstance(view, HandView)
        if view.phase is Phase.AUCTION:
            abort(409, _("The bidding is not over: it is %(name)s's turn.",
                         name=view.auction.to_speak))
        if view.phase is Phase.GNOME:
            abort(409, _("%(name)s took the bid: the Gnome card comes first.",
                         name=view.auction.taker))
        if view.phase is Phase.POINTS:
            abort(409, _("Waiting for %(names)s's points.", names=and_list(view.missing)))
        if view.phase is Phase.TALLY and view.preview is None:
            abort(409, _("The rules refuse this hand: %(problem)s.",
                         problem=say(view.preview_problem)))
        if view.phase not in (Phase.TALLY, Phase.THROWN):
            abort(409, _("There is no hand to confirm: the game is over."))
        return view.hand_facts

    def correction_values(self, view: View, facts: Mapping[str, Any]) -> dict[str, Any]:
        """The correction form filled in from a hand's facts."""
        return {"fields": forms.hand_fields(view.players, facts), "facts": facts,
                "gnome_cards": GNOME_CARDS, "suits": forms.SUIT_CHOICES}

    def correction_values_from_form(self, view: View, form: MultiDict[str, str],
                                    ) -> dict[str, Any]:
        """The correction form as it was sent."""
        return {"fields": forms.hand_fields_from_form(view.players, form),
                "gnome_cards": GNOME_CARDS, "suits": forms.SUIT_CHOICES}

    def read_correction(self, view: View, form: MultiDict[str, str],
                        old: Mapping[str, Any]) -> dict[str, Any]:
        """A corrected hand from the form (FormError, RuleError)."""
        return forms.read_hand(form, view.players)


def record_hand(facts: Mapping[str, Any], players: list[str], thrown_in: bool,
                ) -> dict[str, Any]:
    """The hand in the record's form from the draft's facts (the working facts left out).

    A hand everyone passed keeps its ``bids`` and, if anyone looked at the Gnome, who
    ``looked`` (the rules score nothing of it); the others keep who looked, the Gnome,
    trump and the points in seat order.
    """
    bids = list(facts.get("bids") or [])
    if thrown_in:
        looked = list(facts.get("looked") or [])
        return {"bids": bids, "looked": looked} if looked else {"bids": bids}
    points = facts.get("points") or {}
    return {"bids": bids, "looked": list(facts.get("looked") or []), "gnome": facts.get("gnome"),
            "trump": facts.get("trump"), "points": {p: points[p] for p in players
                                                    if p in points}}


def gnome_label(players: list[str]) -> str:
    """The Gnome's name in a chart's legend (``the Gnome`` if a player is called Gnome)."""
    return _("the Gnome") if _("Gnome") in players else _("Gnome")


def rounds_list(result: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    """The confirmed hands for the score sheet: dealer, taker and bid, scores, the Gnome."""
    rows = []
    for number, done in enumerate(result["rounds"], 1):
        breakdown = done["breakdown"]
        rows.append({"number": number, "dealer": done["dealer"], "taker": breakdown["taker"],
                     "bid": breakdown["bid"], "thrown_in": breakdown["thrown_in"],
                     "gnome_card": breakdown["gnome_card"], "trump": breakdown["trump"],
                     "scores": done["scores"], "totals": done["totals"], "gnome": done["gnome"],
                     "gnome_total": breakdown["gnome_total"]})
    return tuple(rows)


def chart(result: Mapping[str, Any]) -> str:
    """The score chart: every player's running total, and the Gnome's line."""
    players = list(result["totals"])
    label = gnome_label(players)
    return score_chart({"rounds": [
        {"totals": {**done["totals"], label: done["breakdown"]["gnome_total"]}}
        for done in result["rounds"]]})


FLOW = TrumplestiltskinFlow()
