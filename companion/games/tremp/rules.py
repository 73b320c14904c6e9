"""Tremp: four players in two partnerships, bidding by displaying cards.

The rules are in ``texts/en.md``.

Partners sit opposite: seats 1 & 3 against seats 2 & 4, named after their
players (``"Rob & Nick"``, ``"Sam & Emily"``). The bid starts at −4 and each
card displayed raises it by 1; the suit of the last displayed card is trump
and the other suit of its colour is *tremp*. The team that won the bid takes
``r`` of the 13 tricks against the bid ``b``; points are powers of two,
``P(x) = 2**x``, into a *match* total or the *game* total.

A hand of the record::

    {"bids": [["Sam", "5♥"], ["Nick", "pass"], ["Emily", "K♠"], ["Rob", "pass"],
              ["Sam", "pass"], ["Nick", "pass"]],
     "tricks": 9}

>>> result = replay({"game": "tremp", "players": ["Rob", "Sam", "Nick", "Emily"],
...     "first_dealer": "Rob", "rounds": [{"bids": [
...         ["Sam", "5♥"], ["Nick", "pass"], ["Emily", "K♠"], ["Rob", "pass"],
...         ["Sam", "pass"], ["Nick", "pass"]], "tricks": 9}]})
>>> hand = result["rounds"][0]
>>> hand["bid"], hand["bidder"], hand["trump"], hand["tremp"]
(-2, 'Emily', '♠', '♣')
>>> hand["match"], hand["scores"]
({'Rob & Nick': 0, 'Sam & Emily': 0.25}, {'Rob & Nick': 0, 'Sam & Emily': 4194304})

Sam & Emily bid −2 and took 9 tricks: P(−2) = ¼ to their match total and
P(2 × (9 − (−2))) = P(22) to their game total.

Who wins a trick: :func:`trick_winner` judges the four cards of a trick in
the order played (A is low, yet an ace beats the king of its suit; tremp
beats trump; any other suit beats tremp), folding :func:`beats` over them.
The record does not hold tricks: the judge is for the table to ask.

For the screens: :func:`progress` says where a game stands between hands
(the dealer, the match, the thresholds), :func:`bidding_status` where a
bidding in progress stands, :func:`points_formula` which powers of two a hand
scores, and :func:`count_tricks` reads the tablet's trick counter (who won
each trick).

Result
------
The common result where ``scores`` and ``totals`` are keyed by team (seat
order: the team of seat 1 first): ``scores`` is each team's game-total change
in the hand (the match total included when a match is won), ``totals`` the
game totals, ``money`` is ``{}``. Extras: ``match`` (the match totals now)
and ``matches`` (matches won per team). Each hand carries ``dealer``,
``scores``, ``totals``, ``bid``, ``bidder``, ``trump``, ``tremp``, ``match``
(after the hand) and ``breakdown``::

    {"displayed": [{"player": "Sam", "card": "5♥", "bid": -3}, ...],  # in order
     "bidder": "Emily", "bidding_team": "Sam & Emily", "bid": -2,
     "trump": "♠", "tremp": "♣",
     "tricks": 9,                     # taken by the bidding team
     "needed": 0,                     # the bid, or 0 for a bid below 0
     "made": true,
     "points_to": "Sam & Emily",      # the bidders if made, else their opponents
     "match_points": 0.25,            # added to points_to's match total
     "game_points": 4194304,          # added to points_to's game total
     "thresholds": {"Rob & Nick": 272, "Sam & Emily": 272},  # to win this match
     "match_totals": {...},           # after this hand's points, before any reset
     "match_won": null | "Sam & Emily",
     "match_total_to_game": 0,        # what the match winner moved to its game total
     "matches": {"Rob & Nick": 0, "Sam & Emily": 0},
     "game_over": false}

Readings
--------
Where the rules leave a question open, the companion reads it this way
(``texts/en.md`` gives these too, marked as house decisions):

- After a match the deal goes to the first player clockwise after the last
  dealer who is on the losing team: the player to the last dealer's left if
  the last dealer was on the winning team, else the last dealer's partner. So
  the losing team always deals first, as the rules intend.
- The match points a team needs in a hand (272 or 136) are set by the
  matches won before that hand.
- A player holds 13 cards, so can display at most 13 in a hand; there is no
  other limit on the bid, though a bid above 13 cannot be made.
- A pass is written ``"pass"`` (any capitals); a displayed card in any
  spelling of a standard card.
- Points that grow too large to be written exactly as a JSON number (only a
  game of absurd bids can get there) are refused with a message rather than
  rounded.
- Fields of a hand that the rules do not know are refused, as in the other games:
  a typo (``"trick"``) must not silently drop a fact.
- A trump played on a tremp card meets two conditions of "Who wins a trick"
  (2, any other suit beats tremp, and 5, trump beats any other suit); the
  trick judge names the first. Either way the trump becomes the winning card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from typing import Any

from companion.rules import errors
from companion.rules.cards import STANDARD_RANKS, Card, Rank, Suit, SuitCard, parse_card, parse_suit
from companion.rules.common import (
    Checklist,
    Number,
    left_of,
    merge_options,
    read_header,
    require_player,
    the_round,
    to_json_number,
    true_or_false,
    whole_number,
)
from companion.rules.contract import RecordFacts, RecordKind, no_money_lines, round_scores
from companion.rules.errors import Phrase, RuleError

errors.add_messages({  # the English of its rule codes (companion.rules.errors)
    "tremp.against_itself": "{played} cannot be played against itself",
    "tremp.bid_after_end": "{label}: the bidding ended with {ended_by}'s pass; {name}'s entry "
        "after it is one too many",
    "tremp.bid_malformed": "{label}: bid {number} must be [player, card] or [player, \"pass\"], "
        "not {entry!r}",
    "tremp.bidding_not_started": "{label}: the bidding has not ended: nobody has bid yet",
    "tremp.bidding_unfinished": "{label}: the bidding has not ended: after {player}'s bid of "
        "{bid} ({card}) three players in a row must pass",
    "tremp.bids_missing": "{label}: the bids are missing",
    "tremp.bids_not_a_list": "{label}: the bids must be a list of [player, card] or [player, "
        "\"pass\"]",
    "tremp.dealer_must_bid": "{label}: {name} is the dealer and must bid after three passes "
        "(house rule)",
    "tremp.displayed_not_a_card": "{label}: {name} displayed {what!r}, which is not a card (or "
        "\"pass\")",
    "tremp.displayed_not_standard": "{label}: {name} displayed {card}, which is not in a "
        "standard deck",
    "tremp.displayed_too_many": "{label}: {name} has displayed {count} cards but holds only "
        "{tricks}",
    "tremp.displayed_twice": "{label}: {card} was already displayed by {shown_by}; {name} cannot "
        "display it again",
    "tremp.hand_not_an_object_raw": "{round}: a hand must be a JSON object, not {raw!r}",
    "tremp.hand_trick_count": "a hand has {tricks} tricks, not {count}",
    "tremp.hand_unknown_field": "{label}: a hand has no field {unknown!r} (only bids, tricks)",
    "tremp.later_card_index": "a later card of a trick is card 2 to {trick_cards}, not card "
        "{index}",
    "tremp.missing": "{what} are missing",
    "tremp.nobody_bid": "somebody must bid: the dealer bids if the other three pass",
    "tremp.not_standard": "{what}: {card} is not a card of a standard 52-card deck",
    "tremp.played_twice": "{card} is played twice in the trick (cards {first} and {second})",
    "tremp.player_count": "tremp is for 4 players, not {count}",
    "tremp.points_too_large": "{label}: the points have grown too large to be written exactly "
        "({value})",
    "tremp.team_tricks": "a team takes 0 to {most} tricks, not {tricks}",
    "tremp.trick_not_a_list": "a trick is a list of {trick_cards} cards in the order played, not "
        "{cards!r}",
    "tremp.trick_not_standard": "a trick is {trick_cards} cards of a standard 52-card deck, not "
        "{cards!r}",
    "tremp.trick_size": "a trick is {trick_cards} cards, one from each player, not {count}",
    "tremp.trick_trump_not_a_suit": "the trump must be a suit, not {trump!r}",
    "tremp.trump_not_a_suit": "the trump must be a suit (♠ ♥ ♦ ♣), not {value!r}",
    "tremp.value_not_a_card": "{what}: {value!r} is not a card",
}, tested=True)

PLAYERS: tuple[int, ...] = (4,)
"""Tremp is for exactly four players."""

DEFAULTS: dict[str, Any] = {"beginners": False}
"""Option defaults (``docs/records.md``)."""

RECORD_FLAGS: tuple[str, ...] = ()
"""No fields of its own beyond every game's."""

CHIP_GAME = False
"""``replay``'s money is not in chips."""

money_lines = no_money_lines
"""Played for points: no money moves."""

OPENING_BID = -4
"""The bid before anyone has displayed a card."""

TRICKS = 13
"""Tricks in a hand (and cards in each player's hand)."""

MATCH_TARGET = 272
"""Match points that win a match."""

TRAILING_TARGET = 136
"""Match points that win a match for a team with fewer matches won (or beginners)."""

LEAD_TO_WIN = 2
"""The game ends when a team leads by this many matches."""

MINUS = "\u2212"
"""The minus sign the players read (−, not the hyphen)."""

errors.add_messages({
    # the trick judge: why a card beats the card winning, or does not
    "tremp.rule.led": "led and never beaten",
    "tremp.rule.higher": "a higher card of the same suit beats a lower one",
    "tremp.rule.over_tremp": "any other suit beats tremp",
    "tremp.rule.tremp_over_trump": "tremp beats trump",
    "tremp.rule.ace_over_king": "an ace beats the king of its suit",
    "tremp.rule.trump": "trump beats any other suit",
    "tremp.why_not.lower": "it is lower in the same suit",
    "tremp.why_not.lower_ace": "it is lower in the same suit (A is low)",
    "tremp.why_not.tremp": "tremp beats only trump",
    "tremp.why_not.trump": "from another suit, only tremp beats trump",
    "tremp.why_not.other": "from another suit, only trump beats it",
    "tremp.judge.beats": "{card} beats {against}: {rule}",
    "tremp.judge.beats_ace_low": "{card} beats {against}: {rule} (A is low)",
    "tremp.judge.does_not_beat": "{card} does not beat {against}: {why}",
    "tremp.judge.led": "{card} was led and never beaten",
    # the checklists
    "tremp.deck.title": "Tremp: preparing the deck",
    "tremp.deck.cards": "Take a standard 52-card deck without jokers; nothing is taken out.",
    "tremp.deck.partners": "Partners sit opposite: {a} against {b} (clockwise: {names:list}).",
    "tremp.deck.match_beginners": "A match is won at {trailing} match points (beginners).",
    "tremp.deck.match": "A match is won at {target} match points, or {trailing} for a team "
        "that has won fewer matches than the other.",
    "tremp.deck.game_end": "The game ends when a team leads by {lead} matches.",
    "tremp.deal.title": "Tremp: {dealer} deals",
    "tremp.deal.deal": "{dealer} shuffles and deals all 52 cards one at a time, clockwise, "
        "starting with {first}: {tricks} each.",
    "tremp.deal.bidding": "Bidding starts at {opening} with {first}, then clockwise. To bid, "
        "display a card face up: the bid goes up by 1 and that card's suit is the nominated "
        "trump.",
    "tremp.deal.passes": "Three passes in a row after a bid end the bidding; the last to bid "
        "wins it. If {first}, {second} and {third} all pass, {dealer} must bid (house rule).",
    "tremp.deal.trump": "Trump is the suit of the last displayed card; tremp is the other suit "
        "of the same colour (♠ ↔ ♣, ♥ ↔ ♦). Displayed cards stay on the table until played.",
    "tremp.deal.lead": "The player left of the bid winner leads the first trick.",
})
"""The English of the lines the screens show: the trick judge's sentences, the checklists."""


# ---------------------------------------------------------------------------
# Small pure helpers


def points(x: int) -> Number:
    """``P(x) = 2**x``, exactly: a fraction for a negative ``x``.

    >>> points(8), points(0), points(-2)
    (256, 1, Fraction(1, 4))
    """
    return 2**x if x >= 0 else Fraction(1, 2**-x)


def team_names(players: Sequence[str]) -> tuple[str, str]:
    """The two teams' names: seats 1 & 3, then seats 2 & 4.

    >>> team_names(["Rob", "Sam", "Nick", "Emily"])
    ('Rob & Nick', 'Sam & Emily')
    """
    return f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"


def team_of(players: Sequence[str], player: str) -> int:
    """0 for the team of seat 1, 1 for the team of seat 2.

    >>> team_of(["Rob", "Sam", "Nick", "Emily"], "Emily")
    1
    """
    return players.index(player) % 2


def partner_of(players: Sequence[str], player: str) -> str:
    """The player sitting opposite.

    >>> partner_of(["Rob", "Sam", "Nick", "Emily"], "Sam")
    'Emily'
    """
    return left_of(players, player, 2)


@dataclass(frozen=True)
class PointsFormula:
    """Which powers of two a hand scores, as the rules write them.

    ``points_to`` takes ``P(match_power)`` match points and ``P(game_power)``
    game points; ``taken`` is the tricks that team took (the bidders' when
    the bid was made, the opponents' ``13 − r`` when it failed).
    """

    made: bool
    taken: int
    match_power: int
    game_power: int


def points_formula(bid: int, tricks: int) -> PointsFormula:
    """The powers of two of a hand where the bidding team took ``tricks`` against ``bid``.

    Made: ``P(b)`` match and ``P(2 × (r − b))`` game points to the bidders.
    Failed: the opponents took ``13 − r`` and score ``P(b − 1)`` game and
    ``P(2 × (13 − r + b − 14))`` match points.

    >>> points_formula(8, 9)
    PointsFormula(made=True, taken=9, match_power=8, game_power=2)
    >>> points_formula(8, 4)
    PointsFormula(made=False, taken=9, match_power=6, game_power=7)
    """
    if tricks >= bid:
        return PointsFormula(True, tricks, bid, 2 * (tricks - bid))
    taken = TRICKS - tricks
    return PointsFormula(False, taken, 2 * (taken + bid - 14), bid - 1)


def tricks_needed(bid: int) -> int:
    """The tricks the bidding team must take to make ``bid`` (0 for a bid below 0).

    >>> tricks_needed(8), tricks_needed(-2)
    (8, 0)
    """
    return max(bid, 0)


@dataclass(frozen=True)
class HandPoints:
    """What a hand scores: ``made`` says whether the bidders took at least the bid.

    The points go to the bidding team when made, else to their opponents.
    """

    made: bool
    match_points: Number
    game_points: Number


def hand_points(bid: int, tricks: int) -> HandPoints:
    """The points of a hand where the bidding team took ``tricks`` against ``bid``.

    The rules' example, bid 8: made with 9 tricks, +256 match points and
    +4 game points; failed with the opponents taking 9 tricks (the bidders 4),
    +128 game points and +64 match points to the opponents.

    >>> hand_points(8, 9)
    HandPoints(made=True, match_points=256, game_points=4)
    >>> hand_points(8, 4)
    HandPoints(made=False, match_points=64, game_points=128)
    >>> hand_points(-2, 0)
    HandPoints(made=True, match_points=Fraction(1, 4), game_points=16)
    """
    formula = points_formula(bid, tricks)
    return HandPoints(formula.made, points(formula.match_power), points(formula.game_power))


# ---------------------------------------------------------------------------
# The bidding


@dataclass(frozen=True)
class Display:
    """A card displayed in the bidding, and the bid it made."""

    player: str
    card: SuitCard
    bid: int


@dataclass(frozen=True)
class Bidding:
    """A finished bidding: the cards displayed, in order (passes left out)."""

    displayed: tuple[Display, ...]

    def __post_init__(self) -> None:
        if not self.displayed:
            raise RuleError("tremp.nobody_bid")

    @property
    def last(self) -> Display:
        """The winning (last) display."""
        return self.displayed[-1]

    @property
    def bidder(self) -> str:
        """Who won the bid: the last player to display a card."""
        return self.last.player

    @property
    def bid(self) -> int:
        """The bid: −4 plus the number of cards displayed."""
        return self.last.bid

    @property
    def trump(self) -> Suit:
        """The suit of the last displayed card."""
        return self.last.card.suit

    @property
    def tremp(self) -> Suit:
        """The other suit of the trump's colour."""
        return self.trump.partner


_STANDARD = frozenset(STANDARD_RANKS)
_PASS = "pass"


def _is_standard(card: Card) -> bool:
    return isinstance(card, SuitCard) and card.rank in _STANDARD


@lru_cache(maxsize=256)
def _card(text: str) -> tuple[Card, bool]:
    card = parse_card(text)
    return card, _is_standard(card)


def _displayed_card(what: object, name: str, label: Phrase) -> SuitCard:
    try:
        if not isinstance(what, str):
            raise RuleError("card.not_a_card_bare")
        card, standard = _card(what)
    except RuleError:
        raise RuleError("tremp.displayed_not_a_card", label=label, name=name, what=what) from None
    if not standard:
        raise RuleError("tremp.displayed_not_standard", label=label, name=name, card=card)
    return card


@dataclass(frozen=True)
class BiddingStatus:
    """Where a bidding stands after the entries so far (for entering bids live).

    ``turn`` is who speaks next (None once the bidding has ended); ``bid``,
    ``bidder`` and ``trump`` describe the last card displayed (the bid is −4
    and the others None before any); ``dealer_must_bid`` is the house rule
    applying right now.
    """

    displayed: tuple[Display, ...]
    turn: str | None
    passes: int
    dealer_must_bid: bool

    @property
    def ended(self) -> bool:
        """True once three passes in a row have followed a bid."""
        return self.turn is None

    @property
    def bid(self) -> int:
        """The bid so far: −4 plus the cards displayed."""
        return OPENING_BID + len(self.displayed)

    @property
    def bidder(self) -> str | None:
        """Who displayed the last card, if anyone has."""
        return self.displayed[-1].player if self.displayed else None

    @property
    def trump(self) -> Suit | None:
        """The suit of the last displayed card, if any."""
        return self.displayed[-1].card.suit if self.displayed else None

    @property
    def tremp(self) -> Suit | None:
        """The other suit of the trump's colour, once a card is displayed."""
        return self.trump.partner if self.trump is not None else None

    @property
    def needed(self) -> int:
        """The tricks the bid asks of the bidding team (0 for a bid below 0)."""
        return tricks_needed(self.bid)

    def shown_by(self, player: str) -> tuple[Display, ...]:
        """The cards ``player`` has displayed, in the order displayed."""
        return tuple(d for d in self.displayed if d.player == player)


THIS_HAND = Phrase("phrase.this_hand")
"""The label of a hand's bidding when no round number is known (``this hand``)."""


def bidding_status(entries: object, players: Sequence[str], dealer: str,
                   label: Phrase = THIS_HAND) -> BiddingStatus:
    """Check the bids spoken so far (from the dealer's left) and say where the bidding is.

    Refuses what is already wrong (out of turn, a card shown twice, the
    dealer passing after three passes, an entry after the end) but not a
    bidding that simply has not ended yet.

    >>> s = bidding_status([["Sam", "5♥"], ["Nick", "pass"]],
    ...                    ["Rob", "Sam", "Nick", "Emily"], "Rob")
    >>> s.turn, s.bid, s.bidder, str(s.trump), s.ended
    ('Emily', -3, 'Sam', '♥', False)
    """
    if entries is None:
        raise RuleError("tremp.bids_missing", label=label)
    if not isinstance(entries, list | tuple):
        raise RuleError("tremp.bids_not_a_list", label=label)
    last_to_pass = len(players) - 1
    turn: str | None = left_of(players, dealer)
    passes = 0
    displayed: list[Display] = []
    shown_by: dict[SuitCard, str] = {}
    count = dict.fromkeys(players, 0)
    ended_by: str | None = None
    for k, entry in enumerate(entries):
        if not (isinstance(entry, list | tuple) and len(entry) == 2):
            raise RuleError("tremp.bid_malformed", label=label, number=k + 1, entry=entry)
        name, what = entry
        require_player(name, players, label)
        if ended_by is not None:
            raise RuleError("tremp.bid_after_end", label=label, ended_by=ended_by, name=name)
        is_pass = isinstance(what, str) and what.strip().lower() == _PASS
        if name != turn:
            did = Phrase("phrase.passed_word") if is_pass else Phrase("phrase.bid_word")
            raise RuleError("bid.out_of_turn", label=label, name=name, did=did, turn=turn)
        if is_pass:
            if not displayed and passes == last_to_pass:
                raise RuleError("tremp.dealer_must_bid", label=label, name=name)
            passes += 1
            if displayed and passes == last_to_pass:
                ended_by = name
        else:
            card = _displayed_card(what, name, label)
            if card in shown_by:
                raise RuleError("tremp.displayed_twice", label=label, card=card,
                                shown_by=shown_by[card], name=name)
            count[name] += 1
            if count[name] > TRICKS:
                raise RuleError("tremp.displayed_too_many", label=label, name=name,
                                count=count[name], tricks=TRICKS)
            shown_by[card] = name
            displayed.append(Display(name, card, OPENING_BID + len(displayed) + 1))
            passes = 0
        turn = left_of(players, name)
    if ended_by is not None:
        turn = None
    return BiddingStatus(tuple(displayed), turn, passes,
                         dealer_must_bid=not displayed and passes == last_to_pass)


def read_bidding(entries: object, players: Sequence[str], dealer: str, label: Phrase) -> Bidding:
    """Check a hand's whole bidding, spoken in turn from the dealer's left.

    Three passes in a row after a bid end it, and the record must end exactly
    there; if the first three pass, the dealer must bid (house rule).

    >>> b = read_bidding([["Sam", "5♥"], ["Nick", "pass"], ["Emily", "K♠"],
    ...                   ["Rob", "pass"], ["Sam", "pass"], ["Nick", "pass"]],
    ...                  ["Rob", "Sam", "Nick", "Emily"], "Rob", "round 1")
    >>> b.bidder, b.bid, str(b.trump), str(b.tremp)
    ('Emily', -2, '♠', '♣')
    """
    status = bidding_status(entries, players, dealer, label)
    if not status.ended:
        if not status.displayed:
            raise RuleError("tremp.bidding_not_started", label=label)
        last = status.displayed[-1]
        raise RuleError("tremp.bidding_unfinished", label=label, player=last.player, bid=last.bid,
                        card=last.card)
    return Bidding(status.displayed)


@dataclass(frozen=True)
class Hand:
    """One hand, checked: its bidding and the tricks the bidding team took."""

    bidding: Bidding
    tricks: int

    def __post_init__(self) -> None:
        if not 0 <= self.tricks <= TRICKS:
            raise RuleError("tremp.team_tricks", most=TRICKS, tricks=self.tricks)


_HAND_FIELDS = frozenset({"bids", "tricks"})


def read_hand(raw: object, players: Sequence[str], dealer: str, label: Phrase) -> Hand:
    """Check one hand of the record, dealt by ``dealer``."""
    if not isinstance(raw, Mapping):
        raise RuleError("hand.not_an_object", label=label)
    unknown = sorted(set(raw) - _HAND_FIELDS, key=str)
    if unknown:
        raise RuleError("tremp.hand_unknown_field", label=label, unknown=unknown[0])
    bidding = read_bidding(raw.get("bids"), players, dealer, label)
    team = team_names(players)[team_of(players, bidding.bidder)]
    what = Phrase("field.bidders_tricks", {"label": label, "team": team})
    if raw.get("tricks") is None:
        raise RuleError("tremp.missing", what=what)
    return Hand(bidding, whole_number(raw["tricks"], what, minimum=0, maximum=TRICKS))


# ---------------------------------------------------------------------------
# Who wins a trick


TRICK_CARDS = 4
"""Cards in a trick: one from each player."""

LOW_TO_HIGH: tuple[Rank, ...] = (
    Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT,
    Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING,
)
"""The ranks in play, lowest first: A is low (yet an ace beats the king of its suit)."""

_HEIGHT = {rank: k for k, rank in enumerate(LOW_TO_HIGH)}


class Reason(Enum):
    """What made a card the winning card of a trick.

    ``LED`` is the card led and never beaten; the others are the five
    conditions of "Who wins a trick", declared in their written order.
    """

    LED = "led"
    HIGHER = "higher"
    OVER_TREMP = "over_tremp"
    TREMP_OVER_TRUMP = "tremp_over_trump"
    ACE_OVER_KING = "ace_over_king"
    TRUMP = "trump"

    @property
    def condition(self) -> int | None:
        """The condition's number in the rules, 1 to 5; None for ``LED``.

        >>> Reason.ACE_OVER_KING.condition, Reason.LED.condition
        (4, None)
        """
        return _CONDITION[self]

    @property
    def rule(self) -> str:
        """The condition in words, as a player reads it (in English).

        >>> Reason.TREMP_OVER_TRUMP.rule
        'tremp beats trump'
        """
        return str(self.phrase)

    @property
    def phrase(self) -> Phrase:
        """The condition as a phrase, to be said in a screen's language (see :attr:`rule`)."""
        return Phrase(f"tremp.rule.{self.value}")


# The members are declared in the written order, LED (no condition) first.
_CONDITION = {reason: k or None for k, reason in enumerate(Reason)}


def _trick_card(value: object, what: str | Phrase) -> SuitCard:
    try:
        card = parse_card(value)
    except RuleError:
        raise RuleError("tremp.value_not_a_card", what=what, value=value) from None
    if not _is_standard(card):
        raise RuleError("tremp.not_standard", what=what, card=card)
    return card


def _trump(value: object) -> Suit:
    try:
        return parse_suit(value)
    except RuleError:
        raise RuleError("tremp.trump_not_a_suit", value=value) from None


def beats(card: object, winning: object, trump: object) -> Reason | None:
    """Whether ``card``, played on ``winning`` (the card winning at that moment), beats it.

    The answer is the first of the five conditions of "Who wins a trick" that
    holds, or None when none does and ``winning`` stays the winning card.
    Cards are card objects or any spelling :func:`~companion.rules.cards.parse_card`
    reads, of a standard deck; ``trump`` is a suit in any spelling. Tremp is the
    other suit of trump's colour. Only a trump played on tremp meets two
    conditions (2 and 5); the first, "any other suit beats tremp", is named.

    >>> beats("A♥", "K♥", "♠")
    <Reason.ACE_OVER_KING: 'ace_over_king'>
    >>> beats("K♥", "A♥", "♠")  # A is low
    <Reason.HIGHER: 'higher'>
    >>> beats("2D", "AS", "hearts") is None  # tremp beats only trump
    True
    """
    played = _trick_card(card, Phrase("field.card_played"))
    held = _trick_card(winning, Phrase("field.winning_card"))
    trumps = _trump(trump)
    if played == held:
        raise RuleError("tremp.against_itself", played=played)
    tremp = trumps.partner
    if played.suit is held.suit and _HEIGHT[played.rank] > _HEIGHT[held.rank]:
        return Reason.HIGHER
    if played.suit is not tremp and held.suit is tremp:
        return Reason.OVER_TREMP
    if played.suit is tremp and held.suit is trumps:
        return Reason.TREMP_OVER_TRUMP
    if played.rank is Rank.ACE and held == SuitCard(Rank.KING, played.suit):
        return Reason.ACE_OVER_KING
    if played.suit is trumps and held.suit is not trumps:
        return Reason.TRUMP
    return None


def _why_not(card: SuitCard, winning: SuitCard, trump: Suit) -> Phrase:
    """Why ``card`` does not beat ``winning`` (no condition of :func:`beats` holds)."""
    if card.suit is winning.suit:
        return Phrase("tremp.why_not.lower_ace" if card.rank is Rank.ACE
                      else "tremp.why_not.lower")
    if card.suit is trump.partner:
        return Phrase("tremp.why_not.tremp")
    if winning.suit is trump:
        return Phrase("tremp.why_not.trump")
    return Phrase("tremp.why_not.other")


@dataclass(frozen=True)
class Step:
    """A later card of a trick held against the card winning when it was played.

    ``index`` is the card's place in the trick (1 to 3; the card led is 0);
    ``reason`` is the condition by which it beat ``against``, or None when it
    did not and ``against`` stayed the winning card.

    >>> step = Step(1, parse_card("2♦"), parse_card("A♠"), Suit.HEARTS)
    >>> step.reason is None, step.sentence
    (True, '2♦ does not beat A♠: tremp beats only trump')
    """

    index: int
    card: SuitCard
    against: SuitCard
    trump: Suit
    reason: Reason | None = field(init=False)

    def __post_init__(self) -> None:
        if not 1 <= self.index < TRICK_CARDS:
            raise RuleError("tremp.later_card_index", trick_cards=TRICK_CARDS, index=self.index + 1)
        object.__setattr__(self, "reason", beats(self.card, self.against, self.trump))

    @property
    def sentence(self) -> str:
        """What happened, for a player: ``A♠ beats K♠: an ace beats the king of its suit``."""
        return str(self.phrase)

    @property
    def phrase(self) -> Phrase:
        """:attr:`sentence` as a phrase, to be said in a screen's language."""
        facts = {"card": self.card, "against": self.against}
        if self.reason is None:
            why = _why_not(self.card, self.against, self.trump)
            return Phrase("tremp.judge.does_not_beat", facts | {"why": why})
        low = self.reason is Reason.HIGHER and self.against.rank is Rank.ACE
        return Phrase("tremp.judge.beats_ace_low" if low else "tremp.judge.beats",
                      facts | {"rule": self.reason.phrase})


@dataclass(frozen=True)
class TrickResult:
    """A trick of four cards, in the order played, judged under ``trump``.

    The card led is winning; each later card is held against the card winning
    at that moment, and only that card (:class:`Step`, :func:`beats`).
    ``index`` (0 to 3) is the winning card's place, ``reason`` what made it
    the winning card. It judges only what was played: following suit is not
    checked. Refuses anything but four different cards of a standard deck.
    """

    cards: tuple[SuitCard, ...]
    trump: Suit
    index: int = field(init=False)
    reason: Reason = field(init=False)
    steps: tuple[Step, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.cards, tuple) and len(self.cards) == TRICK_CARDS
                and all(_is_standard(c) for c in self.cards)):
            raise RuleError("tremp.trick_not_standard", trick_cards=TRICK_CARDS, cards=self.cards)
        if not isinstance(self.trump, Suit):
            raise RuleError("tremp.trick_trump_not_a_suit", trump=self.trump)
        for k, card in enumerate(self.cards):
            if card in self.cards[:k]:
                raise RuleError("tremp.played_twice", card=card, first=self.cards.index(card) + 1,
                                second=k + 1)
        index, reason, steps = 0, Reason.LED, []
        for k in range(1, TRICK_CARDS):
            step = Step(k, self.cards[k], self.cards[index], self.trump)
            steps.append(step)
            if step.reason is not None:
                index, reason = k, step.reason
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "steps", tuple(steps))

    @property
    def card(self) -> SuitCard:
        """The winning card."""
        return self.cards[self.index]

    @property
    def tremp(self) -> Suit:
        """The other suit of trump's colour."""
        return self.trump.partner

    @property
    def beaten(self) -> SuitCard | None:
        """The card the winning card beat when it was played; None when it was led."""
        return self.steps[self.index - 1].against if self.index else None

    @property
    def sentence(self) -> str:
        """Why the winning card won, for a player (see :func:`trick_winner`)."""
        return str(self.phrase)

    @property
    def phrase(self) -> Phrase:
        """:attr:`sentence` as a phrase, to be said in a screen's language."""
        if not self.index:
            return Phrase("tremp.judge.led", {"card": self.card})
        return self.steps[self.index - 1].phrase

    @property
    def explanation(self) -> tuple[str, ...]:
        """One sentence per later card, against the card winning at that moment."""
        return tuple(step.sentence for step in self.steps)

    @property
    def explained(self) -> tuple[Phrase, ...]:
        """:attr:`explanation` as phrases, to be said in a screen's language."""
        return tuple(step.phrase for step in self.steps)


def trick_winner(cards: Sequence[object], trump: object) -> TrickResult:
    """Judge a trick: its four cards in the order played, and the trump suit.

    Cards are card objects or any spelling the card parser reads (``"K♠"``,
    ``"ks"``, ``"10D"``); ``trump`` any spelling of a suit (``"♥"``, ``"H"``,
    ``"hearts"``). Refuses a trick that is not four different cards of a
    standard 52-card deck. The first worked line of the rules, trump ♥:

    >>> result = trick_winner(["K♠", "A♠", "2♦", "3♥"], "♥")
    >>> result.index, result.card, result.reason
    (3, SuitCard('3♥'), <Reason.TRUMP: 'trump'>)
    >>> result.sentence
    '3♥ beats A♠: trump beats any other suit'
    >>> for line in result.explanation: print(line)
    A♠ beats K♠: an ace beats the king of its suit
    2♦ does not beat A♠: tremp beats only trump
    3♥ beats A♠: trump beats any other suit
    >>> trick_winner(["5S", "2C", "9H", "4H"], "spades").sentence
    '9♥ beats 2♣: any other suit beats tremp'
    >>> trick_winner(["Q♣", "J♣", "3♣", "A♣"], "♠").sentence
    'Q♣ was led and never beaten'
    """
    if not isinstance(cards, list | tuple):
        raise RuleError("tremp.trick_not_a_list", trick_cards=TRICK_CARDS, cards=cards)
    if len(cards) != TRICK_CARDS:
        raise RuleError("tremp.trick_size", trick_cards=TRICK_CARDS, count=len(cards))
    played = tuple(_trick_card(c, Phrase("field.card_of_trick", {"k": k + 1}))
                   for k, c in enumerate(cards))
    return TrickResult(played, _trump(trump))


# ---------------------------------------------------------------------------
# The game, hand by hand


@dataclass(frozen=True)
class HandResult:
    """How one hand changed the totals; pairs are (team of seat 1, team of seat 2)."""

    dealer: str
    hand: Hand
    points: HandPoints
    points_to: int
    thresholds: tuple[int, int]
    match_totals: tuple[Number, Number]
    match_won: int | None
    scores: tuple[Number, Number]

    @property
    def match_total_to_game(self) -> Number:
        """What the match winner moved into its game total (0 when no match was won)."""
        return 0 if self.match_won is None else self.match_totals[self.match_won]


@dataclass(frozen=True)
class Game:
    """The game between hands: totals, matches won, whose deal."""

    players: tuple[str, ...]
    beginners: bool
    totals: tuple[Number, Number]
    match: tuple[Number, Number]
    matches: tuple[int, int]
    played: int
    dealer: str

    @classmethod
    def start(cls, players: Sequence[str], first_dealer: str, beginners: bool) -> Game:
        """A new game: every total at 0."""
        return cls(tuple(players), beginners, (0, 0), (0, 0), (0, 0), 0, first_dealer)

    @property
    def finished(self) -> bool:
        """True once a team leads by two matches."""
        return abs(self.matches[0] - self.matches[1]) >= LEAD_TO_WIN

    @property
    def winners(self) -> list[str]:
        """Both partners of the team that won the game (seat order); [] until then."""
        if not self.finished:
            return []
        team = 0 if self.matches[0] > self.matches[1] else 1
        return [self.players[team], self.players[team + 2]]

    def thresholds(self) -> tuple[int, int]:
        """The match points each team needs to win the current match.

        >>> g = Game.start(["Rob", "Sam", "Nick", "Emily"], "Rob", beginners=False)
        >>> g.thresholds()
        (272, 272)
        """
        a, b = self.matches
        if self.beginners:
            return TRAILING_TARGET, TRAILING_TARGET
        return (TRAILING_TARGET if a < b else MATCH_TARGET,
                TRAILING_TARGET if b < a else MATCH_TARGET)

    def play(self, hand: Hand) -> tuple[HandResult, Game]:
        """Score the next hand; refuses a hand after the game has ended."""
        if self.finished:
            raise RuleError("round.game_over", label=the_round(self.played), played=self.played)
        bidders = team_of(self.players, hand.bidding.bidder)
        got = hand_points(hand.bidding.bid, hand.tricks)
        to = bidders if got.made else 1 - bidders
        match = list(self.match)
        totals = list(self.totals)
        scores: list[Number] = [0, 0]
        match[to] += got.match_points
        totals[to] += got.game_points
        scores[to] += got.game_points
        thresholds = self.thresholds()
        match_totals = (match[0], match[1])
        won = to if match[to] >= thresholds[to] else None
        matches = list(self.matches)
        dealer = left_of(self.players, self.dealer)
        if won is not None:
            totals[won] += match[won]
            scores[won] += match[won]
            matches[won] += 1
            match = [0, 0]
            if team_of(self.players, dealer) == won:
                # the losing team deals first in the next match
                dealer = left_of(self.players, dealer)
        result = HandResult(self.dealer, hand, got, to, thresholds, match_totals, won,
                            (scores[0], scores[1]))
        nxt = Game(self.players, self.beginners, (totals[0], totals[1]), (match[0], match[1]),
                   (matches[0], matches[1]), self.played + 1, dealer)
        return result, nxt


# ---------------------------------------------------------------------------
# Replay


def read_beginners(options: Mapping[str, Any]) -> bool:
    """The ``beginners`` option (defaults merged in), checked to be true or false."""
    return true_or_false(options["beginners"], Phrase("field.beginners_option"))


def _walk(record: object) -> tuple[Game, list[tuple[HandResult, Game]]]:
    if isinstance(record, Mapping) and isinstance(record.get("rounds"), list):
        for i, raw in enumerate(record["rounds"]):
            if not isinstance(raw, Mapping):
                raise RuleError("tremp.hand_not_an_object_raw", round=the_round(i), raw=raw)
    header = read_header(record, "tremp", PLAYERS, DEFAULTS)
    game = Game.start(header.players, header.first_dealer, read_beginners(header.options))
    history = []
    for i, raw in enumerate(header.rounds):
        label = the_round(i)
        if game.finished:
            raise RuleError("round.game_over", label=label, played=game.played)
        hand = read_hand(raw, header.players, game.dealer, label)
        result, game = game.play(hand)
        history.append((result, game))
    return game, history


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """The result of a Tremp record (see the module docstring for its shape)."""
    return _result(*_walk(record))


def _result(game: Game, history: Sequence[tuple[HandResult, Game]]) -> dict[str, Any]:
    teams = team_names(game.players)
    rounds = []
    for i, (result, after) in enumerate(history):
        label = the_round(i)
        bidding = result.hand.bidding
        rounds.append({
            "dealer": result.dealer,
            "scores": _by_team(teams, result.scores, label),
            "totals": _by_team(teams, after.totals, label),
            "bid": bidding.bid,
            "bidder": bidding.bidder,
            "trump": str(bidding.trump),
            "tremp": str(bidding.tremp),
            "match": _by_team(teams, after.match, label),
            "breakdown": _breakdown(teams, result, after, label),
        })
    label = the_round(max(game.played - 1, 0))
    return {
        "rounds": rounds,
        "totals": _by_team(teams, game.totals, label),
        "finished": game.finished,
        "winners": game.winners,
        "money": {},
        "match": _by_team(teams, game.match, label),
        "matches": dict(zip(teams, game.matches, strict=True)),
    }


def _number(value: Number, label: Phrase) -> int | float:
    try:
        return to_json_number(value)
    except ArithmeticError:
        raise RuleError("tremp.points_too_large", label=label, value=value) from None


def _by_team(teams: tuple[str, str], values: Sequence[Number], label: Phrase,
             ) -> dict[str, int | float]:
    return {team: _number(v, label) for team, v in zip(teams, values, strict=True)}


def _breakdown(teams: tuple[str, str], result: HandResult, after: Game,
               label: Phrase) -> dict[str, Any]:
    bidding = result.hand.bidding
    bidders = team_of(after.players, bidding.bidder)
    return {
        "displayed": [{"player": d.player, "card": str(d.card), "bid": d.bid}
                      for d in bidding.displayed],
        "bidder": bidding.bidder,
        "bidding_team": teams[bidders],
        "bid": bidding.bid,
        "trump": str(bidding.trump),
        "tremp": str(bidding.tremp),
        "tricks": result.hand.tricks,
        "needed": tricks_needed(bidding.bid),
        "made": result.points.made,
        "points_to": teams[result.points_to],
        "match_points": _number(result.points.match_points, label),
        "game_points": _number(result.points.game_points, label),
        "thresholds": dict(zip(teams, result.thresholds, strict=True)),
        "match_totals": _by_team(teams, result.match_totals, label),
        "match_won": None if result.match_won is None else teams[result.match_won],
        "match_total_to_game": _number(result.match_total_to_game, label),
        "matches": dict(zip(teams, after.matches, strict=True)),
        "game_over": after.finished,
    }


@dataclass(frozen=True)
class Progress:
    """Where a game stands between hands: everything the screens need to know of "what now".

    Read from the record by the rules, so no page counts matches or compares
    totals itself. ``dealer`` is None once the game is over.
    """

    result: dict[str, Any]
    """``replay(record)``."""
    players: tuple[str, ...]
    teams: tuple[str, str]
    """The teams' names: the team of seat 1 first."""
    hand_index: int
    """The next hand, 0-based (the number of hands in the record)."""
    dealer: str | None
    match_number: int
    """The match being played, 1 for the first."""
    thresholds: dict[str, int]
    """The match points each team needs to win the current match (272 or 136)."""
    beginners: bool
    winning_team: str | None
    """The team that won the game (None until then)."""

    @property
    def finished(self) -> bool:
        """True once a team leads by two matches."""
        return self.winning_team is not None

    @property
    def hand_number(self) -> int:
        """The next hand as players count it (1 for the first)."""
        return self.hand_index + 1

    @property
    def first_bidder(self) -> str | None:
        """Who speaks first in the next hand's bidding: the dealer's left."""
        return left_of(self.players, self.dealer) if self.dealer is not None else None

    def team(self, player: str) -> str:
        """The name of ``player``'s team.

        >>> progress({"game": "tremp", "players": ["Rob", "Sam", "Nick", "Emily"],
        ...           "first_dealer": "Rob", "rounds": []}).team("Emily")
        'Sam & Emily'
        """
        return self.teams[team_of(self.players, player)]


def progress(record: Mapping[str, Any]) -> Progress:
    """Where the game of ``record`` stands (RuleError when the record is refused).

    >>> now = progress({"game": "tremp", "players": ["Rob", "Sam", "Nick", "Emily"],
    ...                 "first_dealer": "Nick", "rounds": []})
    >>> now.hand_number, now.dealer, now.first_bidder, now.match_number, now.thresholds
    (1, 'Nick', 'Emily', 1, {'Rob & Nick': 272, 'Sam & Emily': 272})
    """
    game, history = _walk(record)
    teams = team_names(game.players)
    winners = game.winners
    return Progress(
        result=_result(game, history), players=game.players, teams=teams,
        hand_index=game.played, dealer=None if game.finished else game.dealer,
        match_number=sum(game.matches) + 1,
        thresholds=dict(zip(teams, game.thresholds(), strict=True)), beginners=game.beginners,
        winning_team=teams[team_of(game.players, winners[0])] if winners else None)


@dataclass(frozen=True)
class TrickCount:
    """The tricks of a hand counted as they are played: who won each trick, in order.

    The first trick is led by the player left of the bid winner; each later
    trick by the winner of the one before.
    """

    players: tuple[str, ...]
    winners: tuple[str, ...]
    leader: str
    """Who leads the next trick (once all are played: who led the last)."""

    @property
    def played(self) -> int:
        """Tricks counted so far."""
        return len(self.winners)

    @property
    def complete(self) -> bool:
        """True once all 13 tricks are counted."""
        return self.played == TRICKS

    @property
    def next_number(self) -> int:
        """The next trick as players count it (1 for the first)."""
        return self.played + 1

    @property
    def by_team(self) -> tuple[int, int]:
        """Tricks taken by each team so far: the team of seat 1 first."""
        team_0 = sum(team_of(self.players, w) == 0 for w in self.winners)
        return team_0, self.played - team_0

    def of_team(self, player: str) -> int:
        """Tricks taken so far by ``player``'s team."""
        return self.by_team[team_of(self.players, player)]


def count_tricks(players: Sequence[str], winners: Sequence[str], bidder: str) -> TrickCount:
    """Check who won each trick so far (at most 13) and say who leads the next.

    >>> count = count_tricks(["Rob", "Sam", "Nick", "Emily"], ["Nick", "Sam", "Rob"], "Emily")
    >>> count.played, count.by_team, count.of_team("Emily"), count.leader
    (3, (2, 1), 1, 'Rob')
    >>> count_tricks(["Rob", "Sam", "Nick", "Emily"], [], "Emily").leader
    'Rob'
    """
    names = tuple(players)
    require_player(bidder, names, Phrase("field.trick_count"))
    for winner in winners:
        require_player(winner, names, Phrase("field.trick_count"))
    if len(winners) > TRICKS:
        raise RuleError("tremp.hand_trick_count", tricks=TRICKS, count=len(winners))
    leader = winners[-1] if winners else left_of(names, bidder)
    return TrickCount(names, tuple(winners), leader)


def next_dealer(record: Mapping[str, Any]) -> str | None:
    """Who deals the next hand of ``record``; None once the game is over.

    >>> next_dealer({"game": "tremp", "players": ["Rob", "Sam", "Nick", "Emily"],
    ...              "first_dealer": "Nick", "rounds": []})
    'Nick'
    """
    game, _ = _walk(record)
    return None if game.finished else game.dealer


# ---------------------------------------------------------------------------
# Checklists


def _seats(players: Sequence[str], options: Mapping[str, Any]) -> tuple[tuple[str, ...], bool]:
    names = tuple(players)
    if len(names) not in PLAYERS:
        raise RuleError("tremp.player_count", count=len(names))
    return names, read_beginners(merge_options(options, DEFAULTS, "tremp"))


def deck_prep(players: Sequence[str], options: Mapping[str, Any]) -> Checklist:
    """The once-per-game checklist: a full deck, partners opposite, what wins.

    >>> for step in deck_prep(["Rob", "Sam", "Nick", "Emily"], {}).steps[:2]: print(step)
    Take a standard 52-card deck without jokers; nothing is taken out.
    Partners sit opposite: Rob & Nick against Sam & Emily (clockwise: Rob, Sam, Nick, Emily).
    """
    names, beginners = _seats(players, options)
    a, b = team_names(names)
    if beginners:
        matches = Phrase("tremp.deck.match_beginners", {"trailing": TRAILING_TARGET})
    else:
        matches = Phrase("tremp.deck.match", {"target": MATCH_TARGET,
                                              "trailing": TRAILING_TARGET})
    return Checklist(Phrase("tremp.deck.title"), (
        Phrase("tremp.deck.cards"),
        Phrase("tremp.deck.partners", {"a": a, "b": b, "names": names}),
        matches,
        Phrase("tremp.deck.game_end", {"lead": LEAD_TO_WIN}),
    ))


def deal_steps(players: Sequence[str], dealer: str, options: Mapping[str, Any]) -> Checklist:
    """One hand's steps for the actual dealer: the deal and the bidding.

    >>> steps = deal_steps(["Rob", "Sam", "Nick", "Emily"], "Nick", {}).steps
    >>> print(steps[0])
    Nick shuffles and deals all 52 cards one at a time, clockwise, starting with Emily: 13 each.
    """
    names, _ = _seats(players, options)
    require_player(dealer, names, Phrase("field.deal"))
    first, second, third = (left_of(names, dealer, k) for k in (1, 2, 3))
    return Checklist(Phrase("tremp.deal.title", {"dealer": dealer}), (
        Phrase("tremp.deal.deal", {"dealer": dealer, "first": first, "tricks": TRICKS}),
        Phrase("tremp.deal.bidding", {"opening": f"{MINUS}{-OPENING_BID}", "first": first}),
        Phrase("tremp.deal.passes", {"first": first, "second": second, "third": third,
                                     "dealer": dealer}),
        Phrase("tremp.deal.trump"),
        Phrase("tremp.deal.lead"),
    ))


# --------------------------------------------------------------------------- the record book

RUNNER_UP = False
"""Two sides: no runner-up in the record book."""

RECORDS = (RecordKind("longest_tremp_game", rank=4),)
"""Its table record: the most hands in one game (held by its four players)."""


def record_facts(record: Mapping[str, Any], game: Any, unit: str) -> RecordFacts:
    """What the record book reads of a game (``companion.rules.records``): its rounds (a
    hand is a round), the player's team's game points in the hand (a match total moved
    in included); a win counts for both partners; two sides, so no runner-up; no pots;
    its record, the longest game (the most hands in one game; held by its four
    players)."""
    players = game.players
    teams = team_names(players)
    rounds = [(number, {p: scores[teams[team_of(players, p)]] for p in players})
              for number, scores in round_scores(game.result)]
    found = [("longest_tremp_game", len(rounds), None, players)] if rounds else []
    return RecordFacts(tuple(rounds), None, records=tuple(found))
