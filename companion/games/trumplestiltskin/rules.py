"""Trumplestiltskin (``texts/en.md``): 3 to 5 players against the Gnome.

A record's rounds are hands::

    {"bids": [["Bo", 10], ["Cy", "pass"], ["Di", 12], ["Ann", "pass"], ["Bo", "pass"]],
     "looked": ["Cy"], "gnome": "9♥", "trump": "♥",
     "points": {"Ann": 3, "Bo": 5, "Cy": 2, "Di": 6}}

``bids`` are spoken in order from the dealer's left; ``trump`` is needed only
when the Gnome is a joker; a hand where everyone passed has only ``bids``.

>>> result = replay({"game": "trumplestiltskin", "players": ["Ann", "Bo", "Cy", "Di"],
...     "first_dealer": "Ann", "rounds": [{
...     "bids": [["Bo", 10], ["Cy", "pass"], ["Di", 12], ["Ann", "pass"], ["Bo", "pass"]],
...     "looked": ["Cy"], "gnome": "9♥", "trump": "♥",
...     "points": {"Ann": 3, "Bo": 5, "Cy": 2, "Di": 6}}]})
>>> result["totals"], result["gnome"]
({'Ann': 0, 'Bo': 5, 'Cy': 0, 'Di': -12}, 11)

The result is the common result plus ``gnome`` (the Gnome's total) and, per
round, ``gnome`` (what the Gnome got that hand). ``totals`` are the players'
totals; ``money`` is ``{}`` (no stakes).

Breakdown
---------
Each round's ``breakdown`` says why every number is what it is::

    {"thrown_in": false,           # true when everyone passed
     "taker": "Di", "bid": 12,     # who took the bid, at what (null when thrown in)
     "gnome_card": "9♥", "trump": "♥",
     "max_points": 32,             # the most points this hand could hold
     "players": {"Ann": {"top_bid": null, "looked": false, "took_bid": false,
                         "points": 3, "case": "never bid",
                         "score": 0, "to_gnome": 3,
                         "why": "never bid: all 3 points go to the Gnome"}, ...},
     "gnome": 11,                  # what the Gnome got this hand
     "gnome_total": 11}            # the Gnome's total after this hand

``case`` is one of ``"never bid"``, ``"bid"`` (did not take the bid),
``"made"``, ``"failed"`` (took the bid) or ``"thrown in"``. Numbers are JSON
numbers; halves are kept exactly (``2.5``); ``why`` writes them as ``2½``.

Readings
--------
Where the rules leave a question open, the companion reads it so
(``texts/en.md`` gives these too, marked as house decisions):

- The 44 cards are dealt afresh every hand, one at a time clockwise from the
  dealer's left, so the first ``44 mod n`` players from there get one more.
- *Most points possible in one hand* (the check on the sum of ``points``): the
  44 dealt cards give 16 (eight aces and eight kings) plus 11 (every card of
  the trump suit is worth one more); of the five Blanket cards left after the
  Gnome, one goes to each player and the rest are set aside unseen, so the
  check counts the best ones: the 9 of trumps 1, other 9s 0, a joker 2, and
  the joker of the trump's colour 3 (it may be played as trump). So 30 to 32.
  No minimum is checked (a joker need not be played as trump).
- "More than 200" in the end rule means more than the table's ``target``
  (200 unless the table agreed another). The Gnome never wins. When the
  player who took the last bid is not over the target, the player(s) with
  the most points win, ties shared.
- A thrown-in hand changes no total, so it never ends the game. It may still
  list who ``looked``; a ``gnome``/``trump`` given for it is checked but not
  used, and its ``points``, if given, must all be 0.
- A player who never bid scores 0 whether or not they looked: all their
  points go to the Gnome. The taker who made the bid and looked scores half of
  all their points (not capped at the bid).
- A bid has no upper limit (the rules set none): a bid no hand can make is
  legal, and simply fails.
- ``trump`` may be given for a 9 as long as it is the 9's suit. ``"pass"`` is
  read whatever its case. A name listed twice in ``looked`` is refused, and so
  are keys a hand does not have (a typo such as ``"look"`` would otherwise
  silently mean that nobody looked).
- "Before bidding or passing, a player may look at the Gnome": a player still
  in the bidding may look at any moment until the bidding is over, on their
  turn or while waiting for it; a player who has passed is out of the bidding
  and no longer looks.
- The end's standings put the winner first, even one the last-taker rule
  picked over a higher total; the others follow by total. The Gnome's line
  stands where its total falls, with no place: it never wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from companion.rules import errors
from companion.rules.cards import (
    BLACK_JOKER,
    RED_JOKER,
    SUITS,
    Card,
    Joker,
    Rank,
    Suit,
    SuitCard,
    parse_card,
    parse_suit,
)
from companion.rules.common import (
    Checklist,
    Number,
    clockwise_from,
    json_scores,
    left_of,
    read_header,
    require_player,
    right_of,
    the_round,
    to_json_number,
    whole_number,
)
from companion.rules.contract import RecordFacts, RecordKind, exact, no_money_lines, round_scores
from companion.rules.errors import Phrase, RuleError

errors.add_messages({  # the English of its rule codes (companion.rules.errors)
    "trumplestiltskin.bid_after_pass": "{player} cannot {said}: {player} passed earlier and is "
        "out of the bidding for this hand",
    "trumplestiltskin.bid_after_taken": "{player} cannot {said}: the bidding was over ({taker} "
        "had taken the bid at {top_bid})",
    "trumplestiltskin.bid_after_throw_in": "{player} cannot {said}: everyone had passed and the "
        "hand was thrown in",
    "trumplestiltskin.bid_malformed": "a bid is written [name, number] or [name, \"pass\"], not "
        "{entry!r}",
    "trumplestiltskin.bid_not_a_number": "{player}'s bid must be a whole number or \"pass\", not "
        "{said!r}",
    "trumplestiltskin.bid_not_higher": "{player}'s bid of {bid} is not higher than "
        "{top_bidder}'s bid of {top_bid}",
    "trumplestiltskin.bid_out_of_turn": "{player} cannot {said} out of turn: it is {to_speak}'s "
        "turn",
    "trumplestiltskin.bid_too_small": "{player}'s bid must be a whole number of at least 1, not "
        "{bid!r}",
    "trumplestiltskin.bidding_unfinished": "the bidding is not finished: it is {to_speak}'s turn "
        "to bid or pass",
    "trumplestiltskin.bids_not_a_list": "bids must be a list of [name, bid] pairs, not {bids!r}",
    "trumplestiltskin.gnome_missing": "which card was the Gnome? (\"gnome\" is missing)",
    "trumplestiltskin.gnome_not_blanket": "the Gnome is a Blanket card (a 9 or a joker), not "
        "{card}",
    "trumplestiltskin.hand_unknown_field": "a hand has no {unknown!r} (it has {fields:list})",
    "trumplestiltskin.in_gnome": "the Gnome: {error}",
    "trumplestiltskin.looked_not_a_list": "looked must be a list of the names who looked at the "
        "Gnome, not {looked!r}",
    "trumplestiltskin.looked_twice": "{name} is listed twice among those who looked at the Gnome",
    "trumplestiltskin.player_count": "{game} is for 3 to 5 players, not {count}",
    "trumplestiltskin.points_missing": "{name}'s points are missing",
    "trumplestiltskin.points_not_an_object": "points must give every player's points, not "
        "{points!r}",
    "trumplestiltskin.points_too_many": "the points add up to {total} ({points:scores}), but a "
        "hand with {gnome} as the Gnome and {trump} trumps holds at most {most}",
    "trumplestiltskin.taker_picks_trump": "the Gnome is the {gnome}, so the taker picks trump: "
        "either {suits:or}",
    "trumplestiltskin.thrown_in_scored": "everyone passed, so the hand was thrown in, yet "
        "{scored} took {points} points",
    "trumplestiltskin.trump_follows_gnome": "the Gnome is {gnome}, so trump is {suit}, not {given}",
    "trumplestiltskin.trump_is_fixed": "the Gnome is the {gnome}, so trump is either {suits:or}, "
        "not {suit}",
    "trumplestiltskin.unknown_count": "count aces and kings, trump cards or jokers, not {what!r}",
}, tested=True)

GAME = "trumplestiltskin"
PLAYERS = range(3, 6)
"""Three to five players."""
DEFAULTS: dict[str, Any] = {"target": 200, "gnome_target": 350}
"""A player's target ends the game at 200, the Gnome's at 350."""

RECORD_FLAGS: tuple[str, ...] = ()
"""No fields of its own beyond every game's."""

CHIP_GAME = False
"""``replay``'s money is not in chips."""

money_lines = no_money_lines
"""Played for points: no money moves."""

DEALT_CARDS = 44
"""The Pinochle deck (50) less the six cards of the Blanket."""
BLANKET: tuple[Card, ...] = tuple(SuitCard(Rank.NINE, suit) for suit in SUITS) + (
    RED_JOKER, BLACK_JOKER)
"""The six Blanket cards: one 9 of each suit and both jokers."""

JOKER_POINTS = 2
"""A joker taken in tricks is worth 2 (3 played as trump: it is then a trump card too)."""

errors.add_messages({
    # what a speech was, as the take-back button names it
    "trumplestiltskin.speech.passed": "{player} passed",
    "trumplestiltskin.speech.bid": "{player} bid {bid}",
    # the counter's working
    "trumplestiltskin.count.working": "A/K {honours} + trumps {trumps} + jokers "
        "{joker_points}\u00d7{jokers} = {points}",
    # a player's line of a hand's tally (``Share.why``)
    "trumplestiltskin.explain.thrown_in": "everyone passed: the hand was thrown in, no score",
    "trumplestiltskin.explain.never_bid_nothing": "never bid and took no points: scores 0",
    "trumplestiltskin.explain.never_bid": "never bid: scores 0; {gone} to the Gnome",
    "trumplestiltskin.explain.one_point_goes": "the 1 point goes",
    "trumplestiltskin.explain.all_points_go": "all {points} points go",
    "trumplestiltskin.explain.no_points_go": "no points go",
    "trumplestiltskin.explain.bid": "bid {bid}, took {points} points: scores {made}",
    "trumplestiltskin.explain.bid_excess": "bid {bid}, took {points} points: scores {made}; "
        "the excess {excess} goes to the Gnome",
    "trumplestiltskin.explain.bid_looked": "bid {bid}, took {points} points: looked at the "
        "Gnome: scores half of {made}, {half}, and the Gnome gets the other {half}",
    "trumplestiltskin.explain.bid_looked_excess": "bid {bid}, took {points} points: looked at "
        "the Gnome: scores half of {made}, {half}, and the Gnome gets the other {half}; the "
        "excess {excess} goes to the Gnome",
    "trumplestiltskin.explain.made": "took the bid at {bid} and took {points} points: made it "
        "without looking, scores double, {double}",
    "trumplestiltskin.explain.made_looked": "took the bid at {bid} and took {points} points: "
        "made it but looked at the Gnome, scores half, {half}, and the Gnome gets the other "
        "{half}",
    "trumplestiltskin.explain.failed": "took the bid at {bid} and took {points} points: "
        "failed, loses {bid}; {gone} to the Gnome",
    "trumplestiltskin.explain.failed_looked": "took the bid at {bid} and took {points} points: "
        "failed after looking at the Gnome, loses {bid}; the Gnome gets twice the points, "
        "{double}",
    # why the game ended (``Ending.over``) and which rule picked the winner (``.decided``)
    "trumplestiltskin.end.reached": "{names:and} reached {target}",
    "trumplestiltskin.end.gnome_reached": "the Gnome reached {gnome_target}",
    "trumplestiltskin.end.both_reached": "{names:and} reached {target} and the Gnome reached "
        "{gnome_target}",
    "trumplestiltskin.end.last_taker": "{taker} took the last bid and has more than {target}",
    "trumplestiltskin.end.most": "{winner} has the most points ({best})",
    "trumplestiltskin.end.share_most": "{names:and} share the most points ({best})",
    "trumplestiltskin.end.taker_short": "{taker} took the last bid but has {total}, not more "
        "than {target}: {most}",
    # the checklists
    "trumplestiltskin.deck.title": "Trumplestiltskin: preparing the deck",
    "trumplestiltskin.deck.pinochle": "Take a Pinochle deck: two each of A K Q J 10 9 in each "
        "suit (48) plus one red and one black joker: 50 cards.",
    "trumplestiltskin.deck.blanket": "Take out one 9 of each suit (9♠ 9♥ 9♦ 9♣) and both "
        "jokers: these six are the Blanket. 44 cards remain.",
    "trumplestiltskin.deck.columns": "Make a score column for each player and one for the "
        "Gnome.",
    "trumplestiltskin.deck.share_even": "Each hand the 44 are dealt out: with {n} players "
        "everyone gets {each} cards.",
    "trumplestiltskin.deck.share_two_one": "Each hand the 44 are dealt out: with {n} players "
        "two get {more} cards and one gets {each}.",
    "trumplestiltskin.deck.share_four_one": "Each hand the 44 are dealt out: with {n} players "
        "four get {more} cards and one gets {each}.",
    "trumplestiltskin.deal.title": "Trumplestiltskin: {dealer} deals",
    "trumplestiltskin.deal.deal_even": "{dealer} shuffles the 44 cards and deals them one at a "
        "time clockwise, starting with {first}: everyone gets {each} cards.",
    "trumplestiltskin.deal.deal_extra": "{dealer} shuffles the 44 cards and deals them one at a "
        "time clockwise, starting with {first}: {extra:and} get {more} cards, everyone else "
        "gets {each}.",
    "trumplestiltskin.deal.shuffle_blanket": "{dealer} shuffles the Blanket (9♠ 9♥ 9♦ 9♣, red "
        "joker, black joker).",
    "trumplestiltskin.deal.pick_gnome": "{picker} (on the dealer’s right) picks one Blanket "
        "card face down: the Gnome.",
    "trumplestiltskin.deal.deal_blanket": "{dealer} deals one of the other Blanket cards to "
        "each player, who adds it to their hand.",
    "trumplestiltskin.deal.none_aside": "No Blanket card is left over.",
    "trumplestiltskin.deal.one_aside": "The last Blanket card is set aside face down, unseen.",
    "trumplestiltskin.deal.some_aside": "The other {aside} Blanket cards are set aside face "
        "down, unseen.",
    "trumplestiltskin.deal.bidding": "Bidding starts with {first} (left of the dealer) and goes "
        "clockwise. Anyone may look at the Gnome before they bid or pass; the app records who "
        "looked.",
})
"""The English of the lines the screens show: a tally's why, the end, the checklists."""

_ROUND_KEYS = frozenset({"bids", "looked", "gnome", "trump", "points"})
_HONOURS = 16  # eight aces and eight kings among the 44, one point each
_SUIT_SIZE = 11  # of each suit among the 44: two each of A K Q J 10, one 9


# ---------------------------------------------------------------------------
# Bidding


@dataclass(frozen=True)
class Speech:
    """One player's turn in the bidding: a bid (a whole number) or a pass (``bid`` None)."""

    player: str
    bid: int | None

    def __post_init__(self) -> None:
        if self.bid is not None and (isinstance(self.bid, bool) or not isinstance(self.bid, int)
                                     or self.bid < 1):
            raise RuleError("trumplestiltskin.bid_too_small", player=self.player, bid=self.bid)

    def __str__(self) -> str:
        return str(self.phrase)

    @property
    def phrase(self) -> Phrase:
        """The speech as a player reads it: ``Bo bid 7``, ``Cy passed``."""
        if self.bid is None:
            return Phrase("trumplestiltskin.speech.passed", {"player": self.player})
        return Phrase("trumplestiltskin.speech.bid", {"player": self.player, "bid": self.bid})


@dataclass(frozen=True)
class Auction:
    """The bidding of one hand, as it stands.

    ``order`` is every player clockwise from the dealer's left; ``turn`` is
    the index in ``order`` of who speaks next. Use :meth:`start`, then
    :meth:`speak` (which checks the speech first).

    >>> a = Auction.start(["Ann", "Bo", "Cy"], dealer="Ann")
    >>> a.to_speak, a.minimum_bid
    ('Bo', 1)
    >>> a = a.speak(Speech("Bo", 7)).speak(Speech("Cy", None))
    >>> a.to_speak, a.minimum_bid, a.over
    ('Ann', 8, False)
    >>> a = a.speak(Speech("Ann", None))
    >>> a.over, a.taker, a.top_bid
    (True, 'Bo', 7)
    """

    order: tuple[str, ...]
    turn: int = 0
    passed: frozenset[str] = frozenset()
    top_bid: int = 0
    top_bidder: str | None = None
    top_bids: tuple[tuple[str, int], ...] = ()
    closed: bool = False

    @classmethod
    def start(cls, players: Sequence[str], dealer: str) -> Auction:
        """The bidding before anyone speaks: the dealer's left starts."""
        return cls(order=tuple(clockwise_from(players, left_of(players, dealer))))

    @property
    def in_bidding(self) -> tuple[str, ...]:
        """Players who have not passed, clockwise from the dealer's left."""
        return tuple(p for p in self.order if p not in self.passed)

    @property
    def over(self) -> bool:
        """True once someone has taken the bid or everyone has passed."""
        return self.closed or len(self.passed) == len(self.order)

    @property
    def thrown_in(self) -> bool:
        """True when every player passed: the hand is thrown in."""
        return len(self.passed) == len(self.order)

    @property
    def taker(self) -> str | None:
        """Who took the bid (None while bidding goes on, or if the hand is thrown in)."""
        return self.top_bidder if self.closed else None

    @property
    def to_speak(self) -> str | None:
        """Whose turn it is to bid or pass (None once the bidding is over)."""
        return None if self.over else self.order[self.turn]

    @property
    def minimum_bid(self) -> int:
        """The smallest bid the next speaker may make."""
        return self.top_bid + 1

    def stepped(self, value: int | None, by: int) -> int:
        """The bid a stepper shows after stepping ``by`` from ``value``: never below the minimum.

        ``value`` None (nothing readable typed) starts from the smallest bid.

        >>> a = Auction.start(["Ann", "Bo", "Cy"], dealer="Ann").speak(Speech("Bo", 7))
        >>> a.stepped(8, 5), a.stepped(None, 1), a.stepped(9, -1), a.stepped(8, -1)
        (13, 9, 8, 8)
        """
        return max(self.minimum_bid, (self.minimum_bid if value is None else value) + by)

    def check(self, speech: Speech) -> None:
        """Refuse a speech the rules do not allow now (RuleError naming player and bid)."""
        said = (Phrase("phrase.pass_word") if speech.bid is None
                else Phrase("phrase.bid_n", {"bid": speech.bid}))
        if self.over:
            if self.thrown_in:
                raise RuleError("trumplestiltskin.bid_after_throw_in", player=speech.player,
                                said=said)
            raise RuleError("trumplestiltskin.bid_after_taken", player=speech.player, said=said,
                            taker=self.taker, top_bid=self.top_bid)
        if speech.player in self.passed:
            raise RuleError("trumplestiltskin.bid_after_pass", player=speech.player, said=said)
        if speech.player != self.to_speak:
            raise RuleError("trumplestiltskin.bid_out_of_turn", player=speech.player, said=said,
                            to_speak=self.to_speak)
        if speech.bid is not None and speech.bid <= self.top_bid:
            raise RuleError("trumplestiltskin.bid_not_higher", player=speech.player, bid=speech.bid,
                            top_bidder=self.top_bidder, top_bid=self.top_bid)

    def speak(self, speech: Speech) -> Auction:
        """The auction after ``speech`` (checked first)."""
        self.check(speech)
        passed, top_bid, top_bidder, top_bids = (self.passed, self.top_bid, self.top_bidder,
                                                 self.top_bids)
        if speech.bid is None:
            passed = passed | {speech.player}
        else:
            top_bid, top_bidder = speech.bid, speech.player
            top_bids = tuple(pair for pair in top_bids if pair[0] != speech.player) + (
                (speech.player, speech.bid),)
        remaining = len(self.order) - len(passed)
        # All but one passed after a bid: that one is the top bidder, who takes it.
        closed = remaining == 1 and top_bidder is not None
        turn = self.turn if closed or not remaining else self._next_turn(passed)
        return Auction(self.order, turn, passed, top_bid, top_bidder, top_bids, closed)

    def _next_turn(self, passed: frozenset[str]) -> int:
        n = len(self.order)
        step = 1
        while self.order[(self.turn + step) % n] in passed:
            step += 1
        return (self.turn + step) % n


def read_speech(entry: object) -> Speech:
    """Read one ``bids`` entry: ``[name, n]`` or ``[name, "pass"]`` (not yet checked in turn).

    >>> read_speech(["Bo", 10]), read_speech(["Cy", "Pass"])
    (Speech(player='Bo', bid=10), Speech(player='Cy', bid=None))
    """
    if not isinstance(entry, list | tuple) or len(entry) != 2 or not isinstance(entry[0], str):
        raise RuleError("trumplestiltskin.bid_malformed", entry=entry)
    player, said = entry
    if isinstance(said, str) and said.strip().lower() == "pass":
        return Speech(player, None)
    if isinstance(said, float) and said.is_integer():
        said = int(said)
    if isinstance(said, bool) or not isinstance(said, int):
        raise RuleError("trumplestiltskin.bid_not_a_number", player=player, said=said)
    return Speech(player, said)


# ---------------------------------------------------------------------------
# The Gnome, trump and points


def is_blanket(card: Card) -> bool:
    """True for the six Blanket cards (a 9 or a joker).

    >>> [is_blanket(parse_card(text)) for text in ("9♦", "red joker", "K♦")]
    [True, True, False]
    """
    return card in BLANKET


def trump_for(gnome: Card, trump: object = None) -> Suit:
    """The trump suit for this Gnome: its suit, or the taker's pick for a joker.

    >>> trump_for(parse_card("9♣")), trump_for(RED_JOKER, "hearts")
    (<Suit.CLUBS: '♣'>, <Suit.HEARTS: '♥'>)
    """
    if isinstance(gnome, Joker):
        allowed = [s for s in SUITS if s.colour == gnome.colour]
        if trump is None:
            raise RuleError("trumplestiltskin.taker_picks_trump", gnome=gnome,
                            suits=tuple(map(str, allowed)))
        suit = parse_suit(trump)
        if suit not in allowed:
            raise RuleError("trumplestiltskin.trump_is_fixed", gnome=gnome,
                            suits=tuple(map(str, allowed)), suit=suit)
        return suit
    assert isinstance(gnome, SuitCard)
    if trump is not None and parse_suit(trump) != gnome.suit:
        raise RuleError("trumplestiltskin.trump_follows_gnome", gnome=gnome, suit=gnome.suit,
                        given=parse_suit(trump))
    return gnome.suit


def blanket_value(card: Card, trump: Suit) -> int:
    """Points a Blanket card is worth in a hand with ``trump`` (at best).

    A 9 is 0, or 1 in trumps; a joker 2, or 3 if it can be played as trump.

    >>> blanket_value(parse_card("9♥"), Suit.HEARTS), blanket_value(RED_JOKER, Suit.HEARTS)
    (1, 3)
    >>> blanket_value(BLACK_JOKER, Suit.HEARTS), blanket_value(parse_card("9♠"), Suit.HEARTS)
    (2, 0)
    """
    if isinstance(card, Joker):
        return 3 if card.colour == trump.colour else 2
    return 1 if card.suit == trump else 0


def max_points(players: int, gnome: Card, trump: Suit) -> int:
    """The most points the players can take between them in one hand.

    The 44 dealt cards hold 16 + 11 (trumps one more); of the five Blanket
    cards other than the Gnome, ``players`` are dealt and the rest set aside
    unseen, so the best ``players`` of them count.

    >>> max_points(4, parse_card("9♥"), Suit.HEARTS)
    32
    >>> max_points(3, RED_JOKER, Suit.HEARTS)
    30
    """
    others = [card for card in BLANKET if card != gnome]
    best = sorted((blanket_value(card, trump) for card in others), reverse=True)
    return _HONOURS + _SUIT_SIZE + sum(best[:players])


def check_points(points: Mapping[str, int], players: int, gnome: Card, trump: Suit) -> int:
    """Refuse points that add up to more than the hand holds (naming the limit); the limit.

    >>> check_points({"Ann": 20, "Bo": 12}, 4, parse_card("9♥"), Suit.HEARTS)
    32
    >>> check_points({"Ann": 20, "Bo": 13}, 4, parse_card("9♥"), Suit.HEARTS)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.rules.errors.RuleError: the points add up to 33 (Ann 20, Bo 13), ... at most 32
    """
    most = max_points(players, gnome, trump)
    total = sum(points.values())
    if total > most:
        raise RuleError("trumplestiltskin.points_too_many", total=total,
                        points=tuple(points.items()), gnome=gnome, trump=trump, most=most)
    return most


@dataclass(frozen=True)
class Count:
    """The cards a player took, counted: aces and kings, trump cards, jokers.

    A trump ace or king counts in both ``honours`` and ``trumps``; a joker
    played as trump in both ``jokers`` and ``trumps``, as the card points say.

    >>> print(Count(honours=5, trumps=3, jokers=1).working)
    A/K 5 + trumps 3 + jokers 2×1 = 10
    """

    honours: int = 0
    trumps: int = 0
    jokers: int = 0

    @property
    def points(self) -> int:
        """The points these cards are worth."""
        return self.honours + self.trumps + JOKER_POINTS * self.jokers

    def add(self, what: str, by: int) -> Count:
        """These counts with ``by`` more of ``what`` (``honours``, ``trumps``, ``jokers``), checked.

        >>> print(Count(5, 3, 1).add("trumps", 1).working)
        A/K 5 + trumps 4 + jokers 2×1 = 11
        """
        counts = {"honours": self.honours, "trumps": self.trumps, "jokers": self.jokers}
        if what not in counts:
            raise RuleError("trumplestiltskin.unknown_count", what=what)
        counts[what] += by
        return count_points(**counts)

    @property
    def working(self) -> Phrase:
        """The sum with its working, as a player checks it (``str()`` is its English)."""
        return Phrase("trumplestiltskin.count.working", {
            "honours": self.honours, "trumps": self.trumps, "joker_points": JOKER_POINTS,
            "jokers": self.jokers, "points": self.points})


COUNT_LIMITS = Count(honours=_HONOURS, trumps=_SUIT_SIZE + 2, jokers=2)
"""The most of each a player can take: 16 aces and kings; 13 trump cards (the 11 of the
trump suit dealt, its Blanket 9 and the joker of its colour); 2 jokers."""


def count_points(honours: int, trumps: int, jokers: int) -> Count:
    """The points of a player's tricks from three counts (refused beyond what the deck holds).

    >>> count_points(5, 3, 1).points
    10
    >>> count_points(17, 0, 0)
    Traceback (most recent call last):
    ...
    companion.rules.errors.RuleError: aces and kings taken must be at most 16, not 17
    """
    return Count(
        whole_number(honours, Phrase("field.aces_and_kings_taken"), minimum=0,
                     maximum=COUNT_LIMITS.honours),
        whole_number(trumps, Phrase("field.trump_cards_taken"),
                     minimum=0, maximum=COUNT_LIMITS.trumps),
        whole_number(jokers, Phrase("field.jokers_taken"), minimum=0, maximum=COUNT_LIMITS.jokers))


# ---------------------------------------------------------------------------
# Tallying


@dataclass(frozen=True)
class Share:
    """What one player's points come to in a hand: their score and the Gnome's part."""

    case: str
    score: Number
    to_gnome: Number
    why: Phrase
    """The tally of the line as a player reads it (``str()`` is its English)."""


def _all_points(points: int) -> Phrase:
    """``all 3 points go``, ``the 1 point goes``, ``no points go``.

    >>> print(_all_points(3)); print(_all_points(1)); print(_all_points(0))
    all 3 points go
    the 1 point goes
    no points go
    """
    if points == 1:
        return Phrase("trumplestiltskin.explain.one_point_goes")
    if points:
        return Phrase("trumplestiltskin.explain.all_points_go", {"points": points})
    return Phrase("trumplestiltskin.explain.no_points_go")


def tally_player(points: int, top_bid: int | None, looked: bool, took_bid: bool) -> Share:
    """Tally one player's hand exactly as the rules' "Tallying a hand".

    >>> print(tally_player(7, 5, looked=False, took_bid=False).why)
    bid 5, took 7 points: scores 5; the excess 2 goes to the Gnome
    >>> s = tally_player(5, 4, looked=True, took_bid=False)
    >>> s.score, s.to_gnome
    (2, 3)
    >>> tally_player(9, 8, looked=False, took_bid=True).score
    18
    """
    if took_bid:
        assert top_bid is not None
        return _tally_taker(points, top_bid, looked)
    if top_bid is None:
        if not points:
            return Share("never bid", 0, 0, Phrase("trumplestiltskin.explain.never_bid_nothing"))
        return Share("never bid", 0, points, Phrase("trumplestiltskin.explain.never_bid",
                                                    {"gone": _all_points(points)}))
    made = min(points, top_bid)
    excess = points - made
    facts: dict[str, Any] = {"bid": top_bid, "points": points, "made": made}
    if looked:
        half = _half(made)
        facts["half"] = _show(half)
        score, to_gnome = half, half + excess
    else:
        score, to_gnome = made, excess
    if excess:
        facts["excess"] = excess
    code = "trumplestiltskin.explain.bid" + ("_looked" if looked else "") + (
        "_excess" if excess else "")
    return Share("bid", score, to_gnome, Phrase(code, facts))


def _tally_taker(points: int, bid: int, looked: bool) -> Share:
    facts: dict[str, Any] = {"bid": bid, "points": points}
    if points >= bid and not looked:
        return Share("made", 2 * points, 0,
                     Phrase("trumplestiltskin.explain.made", facts | {"double": 2 * points}))
    if points >= bid:
        half = _half(points)
        return Share("made", half, half, Phrase("trumplestiltskin.explain.made_looked",
                                                facts | {"half": _show(half)}))
    if not looked:
        return Share("failed", -bid, points, Phrase("trumplestiltskin.explain.failed",
                                                    facts | {"gone": _all_points(points)}))
    return Share("failed", -bid, 2 * points, Phrase("trumplestiltskin.explain.failed_looked",
                                                    facts | {"double": 2 * points}))


def explain_line(breakdown: Mapping[str, Any], player: str) -> Phrase:
    """``player``'s line of a hand's tally, from ``replay``'s breakdown of the hand (whose
    ``why`` is the same line's English), to be said in the screen's language.

    >>> hand = {"thrown_in": False, "players": {"Ann": {
    ...     "points": 7, "top_bid": 5, "looked": False, "took_bid": False}}}
    >>> print(explain_line(hand, "Ann"))
    bid 5, took 7 points: scores 5; the excess 2 goes to the Gnome
    """
    if breakdown["thrown_in"]:
        return Phrase("trumplestiltskin.explain.thrown_in")
    line = breakdown["players"][player]
    return tally_player(line["points"], line["top_bid"], line["looked"], line["took_bid"]).why


def _half(n: int) -> Number:
    """Half of ``n``, exactly: an int when even, else a Fraction.

    >>> _half(4), _half(5)
    (2, Fraction(5, 2))
    """
    return n // 2 if n % 2 == 0 else Fraction(n, 2)


def _show(value: Number) -> str:
    """A number as players write it: ``2½`` for 5/2.

    >>> _show(Fraction(5, 2)), _show(Fraction(1, 2)), _show(Fraction(-7, 2)), _show(-4)
    ('2½', '½', '−3½', '−4')
    """
    value = Fraction(value)
    sign = "\u2212" if value < 0 else ""
    if value.denominator == 1:
        return f"{sign}{abs(value.numerator)}"
    whole = abs(value.numerator) // 2
    return f"{sign}{whole or ''}½"


# ---------------------------------------------------------------------------
# A hand


@dataclass(frozen=True)
class Hand:
    """One hand's facts, checked: the bidding, who looked, the Gnome, the points."""

    dealer: str
    auction: Auction
    looked: frozenset[str]
    gnome: Card | None = None
    trump: Suit | None = None
    points: Mapping[str, int] = field(default_factory=dict)
    max_points: int | None = None

    @property
    def taker(self) -> str | None:
        """Who took the bid (None when the hand was thrown in)."""
        return self.auction.taker


def read_hand(raw: Mapping[str, Any], players: Sequence[str], dealer: str) -> Hand:
    """Check one hand of the record (messages without the round; the caller adds it)."""
    unknown = sorted(set(raw) - _ROUND_KEYS)
    if unknown:
        raise RuleError("trumplestiltskin.hand_unknown_field", unknown=unknown[0],
                        fields=tuple(sorted(_ROUND_KEYS)))
    auction = _read_bids(raw.get("bids"), players, dealer)
    looked = _read_looked(raw.get("looked"), players)
    gnome = _read_gnome(raw.get("gnome"), required=not auction.thrown_in)
    trump = None
    if gnome is not None:
        trump = trump_for(gnome, raw.get("trump"))
    elif raw.get("trump") is not None:
        parse_suit(raw.get("trump"))
    if auction.thrown_in:
        points = _read_points(raw.get("points"), players, required=False)
        scored = [p for p, n in points.items() if n]
        if scored:
            raise RuleError("trumplestiltskin.thrown_in_scored", scored=scored[0],
                            points=points[scored[0]])
        return Hand(dealer, auction, looked, gnome, trump)
    assert gnome is not None and trump is not None
    points = _read_points(raw.get("points"), players, required=True)
    most = check_points(points, len(players), gnome, trump)
    return Hand(dealer, auction, looked, gnome, trump, points, most)


def read_auction(bids: object, players: Sequence[str], dealer: str) -> Auction:
    """The bidding so far from a hand's ``bids``, each speech checked in turn.

    >>> a = read_auction([["Bo", 10], ["Cy", "pass"]], ["Ann", "Bo", "Cy", "Di"], "Ann")
    >>> a.to_speak, a.top_bidder, a.minimum_bid, a.over
    ('Di', 'Bo', 11, False)
    """
    if not isinstance(bids, list):
        raise RuleError("trumplestiltskin.bids_not_a_list", bids=bids)
    auction = Auction.start(players, dealer)
    for entry in bids:
        speech = read_speech(entry)
        require_player(speech.player, players, Phrase("field.in_bids"))
        auction = auction.speak(speech)
    return auction


def _read_bids(bids: object, players: Sequence[str], dealer: str) -> Auction:
    auction = read_auction(bids, players, dealer)
    if not auction.over:
        raise RuleError("trumplestiltskin.bidding_unfinished", to_speak=auction.to_speak)
    return auction


def _read_looked(looked: object, players: Sequence[str]) -> frozenset[str]:
    if looked is None:
        return frozenset()
    if not isinstance(looked, list):
        raise RuleError("trumplestiltskin.looked_not_a_list", looked=looked)
    seen: set[str] = set()
    for name in looked:
        require_player(name, players, Phrase("field.among_lookers"))
        if name in seen:
            raise RuleError("trumplestiltskin.looked_twice", name=name)
        seen.add(name)
    return frozenset(seen)


def _read_gnome(text: object, required: bool) -> Card | None:
    if text is None:
        if required:
            raise RuleError("trumplestiltskin.gnome_missing")
        return None
    try:
        card = parse_card(text)
    except RuleError as error:
        raise RuleError("trumplestiltskin.in_gnome", error=error) from None
    if not is_blanket(card):
        raise RuleError("trumplestiltskin.gnome_not_blanket", card=card)
    return card


def _read_points(points: object, players: Sequence[str], required: bool) -> dict[str, int]:
    if points is None and not required:
        return {}
    if not isinstance(points, Mapping):
        raise RuleError("trumplestiltskin.points_not_an_object", points=points)
    for name in points:
        require_player(name, players, Phrase("field.in_points"))
    if points or required:
        for name in players:
            if name not in points:
                raise RuleError("trumplestiltskin.points_missing", name=name)
    return {name: whole_number(points[name], Phrase("field.points_of", {"owner": name}), minimum=0)
            for name in players if name in points}


# ---------------------------------------------------------------------------
# Replay


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """The result of a Trumplestiltskin record (see the module docstring)."""
    header = read_header(record, GAME, PLAYERS, DEFAULTS)
    players = header.players
    target = whole_number(header.options["target"], Phrase("field.target"), minimum=1)
    gnome_target = whole_number(header.options["gnome_target"], Phrase("field.gnome_target"),
                                minimum=1)
    totals: dict[str, Number] = dict.fromkeys(players, 0)
    gnome_total: Number = 0
    dealer = header.first_dealer
    rounds: list[dict[str, Any]] = []
    finished = False
    winners: list[str] = []
    for i, raw in enumerate(header.rounds):
        label = the_round(i)
        if finished:
            raise RuleError("round.game_over", label=label, played=i)
        try:
            hand = read_hand(raw, players, dealer)
        except RuleError as error:
            raise RuleError("rule.within", where=label, error=error) from None
        shares = tally_hand(hand, players)
        for name in players:
            totals[name] += shares[name].score
        to_gnome = sum(s.to_gnome for s in shares.values())
        gnome_total += to_gnome
        rounds.append({
            "dealer": dealer,
            "scores": json_scores({p: shares[p].score for p in players}),
            "totals": json_scores(totals),
            "gnome": to_json_number(to_gnome),
            "breakdown": _breakdown(hand, players, shares, to_gnome, gnome_total),
        })
        if game_over(totals, gnome_total, target, gnome_target):
            finished = True
            winners = find_winners(totals, hand.taker, target)
        dealer = left_of(players, dealer)
    return {
        "rounds": rounds,
        "totals": json_scores(totals),
        "finished": finished,
        "winners": winners,
        "money": {},
        "gnome": to_json_number(gnome_total),
    }


def tally_hand(hand: Hand, players: Sequence[str]) -> dict[str, Share]:
    """Every player's :class:`Share` of the hand, in seat order."""
    if hand.auction.thrown_in:
        why = Phrase("trumplestiltskin.explain.thrown_in")
        return {p: Share("thrown in", 0, 0, why) for p in players}
    top_bids = dict(hand.auction.top_bids)
    return {p: tally_player(hand.points[p], top_bids.get(p), p in hand.looked, p == hand.taker)
            for p in players}


def game_over(totals: Mapping[str, Number], gnome: Number, target: int,
              gnome_target: int) -> bool:
    """True when a player has reached ``target`` or the Gnome ``gnome_target``.

    >>> game_over({"Ann": 199, "Bo": 3}, 349, 200, 350), game_over({"Ann": 200}, 0, 200, 350)
    (False, True)
    """
    return any(t >= target for t in totals.values()) or gnome >= gnome_target


def find_winners(totals: Mapping[str, Number], taker: str | None, target: int) -> list[str]:
    """Who wins once the game is over: the last taker if over ``target``, else the most points.

    >>> find_winners({"Ann": 230, "Bo": 201, "Cy": 10}, "Bo", 200)
    ['Bo']
    >>> find_winners({"Ann": 200, "Bo": 200, "Cy": 10}, "Bo", 200)
    ['Ann', 'Bo']
    """
    if taker is not None and totals[taker] > target:
        return [taker]
    best = max(totals.values())
    return [p for p, t in totals.items() if t == best]


def next_dealer(record: Mapping[str, Any]) -> str | None:
    """Who deals the next hand of ``record`` (the deal passes left); None once the game is over.

    >>> next_dealer({"game": "trumplestiltskin", "players": ["Ann", "Bo", "Cy"],
    ...              "first_dealer": "Bo", "rounds": [{"bids": [["Cy", "pass"],
    ...              ["Ann", "pass"], ["Bo", "pass"]]}]})
    'Cy'
    """
    result = replay(record)
    if result["finished"]:
        return None
    header = read_header(record, GAME, PLAYERS, DEFAULTS)
    return left_of(header.players, header.first_dealer, len(header.rounds))


@dataclass(frozen=True)
class Standing:
    """One line of the final standings: a player (or the Gnome, who has no place)."""

    name: str
    total: Number
    place: int | None
    """1 for the winner(s); None for the Gnome, who never wins."""
    shared: bool = False
    """True when another player has the same place."""

    @property
    def gnome(self) -> bool:
        """True for the Gnome's line."""
        return self.place is None


def standings(totals: Mapping[str, Number], gnome: Number,
              winners: Sequence[str]) -> list[Standing]:
    """The players in their places, the Gnome's line where its total falls.

    The winners come first (the last-taker rule may put a lower total first);
    the others follow by total, seat order within a tie.

    >>> [(s.place, s.name, s.shared) for s in standings(
    ...     {"Ann": 230, "Bo": 201, "Cy": 10}, 215, ["Bo"])]
    [(1, 'Bo', False), (2, 'Ann', False), (None, 'Gnome', False), (3, 'Cy', False)]
    """
    rest = sorted((p for p in totals if p not in winners), key=lambda p: -totals[p])
    lines = [Standing(p, totals[p], 1, len(winners) > 1) for p in winners]
    for player in rest:
        place = 1 + len(winners) + sum(1 for q in rest if totals[q] > totals[player])
        shared = sum(1 for q in rest if totals[q] == totals[player]) > 1
        lines.append(Standing(player, totals[player], place, shared))
    at = next((i for i, line in enumerate(lines) if line.place is not None
               and line.place > len(winners) and line.total < gnome), len(lines))
    return lines[:at] + [Standing("Gnome", gnome, None)] + lines[at:]


@dataclass(frozen=True)
class Ending:
    """Why the game ended and which rule decided the winner, as the end screen says it
    (``str()`` of each is its English)."""

    over: Phrase | None
    """``Bo reached 200`` / ``the Gnome reached 350`` (None: neither reached its target)."""
    decided: Phrase
    """``Bo took the last bid and has more than 200`` / ``Ann has the most points (212)``."""
    last_taker_won: bool


def explain_end(totals: Mapping[str, Number], gnome: Number, taker: str | None,
                target: int, gnome_target: int) -> Ending:
    """Say why the game is over and which rule of the end picked the winner.

    >>> e = explain_end({"Ann": 230, "Bo": 201, "Cy": 10}, 40, "Bo", 200, 350)
    >>> print(e.over); print(e.decided)
    Ann and Bo reached 200
    Bo took the last bid and has more than 200
    >>> e = explain_end({"Ann": 200, "Bo": Fraction(301, 2), "Cy": 10}, 360, "Bo", 200, 350)
    >>> print(e.over); print(e.decided)
    Ann reached 200 and the Gnome reached 350
    Bo took the last bid but has 150½, not more than 200: Ann has the most points (200)
    """
    reached = [p for p, total in totals.items() if total >= target]
    over: Phrase | None = None
    if reached and gnome >= gnome_target:
        over = Phrase("trumplestiltskin.end.both_reached", {
            "names": tuple(reached), "target": target, "gnome_target": gnome_target})
    elif reached:
        over = Phrase("trumplestiltskin.end.reached", {"names": tuple(reached), "target": target})
    elif gnome >= gnome_target:
        over = Phrase("trumplestiltskin.end.gnome_reached", {"gnome_target": gnome_target})
    winners = find_winners(totals, taker, target)
    if taker is not None and winners == [taker] and totals[taker] > target:
        return Ending(over, Phrase("trumplestiltskin.end.last_taker",
                                   {"taker": taker, "target": target}), True)
    best = _show(totals[winners[0]])
    most = (Phrase("trumplestiltskin.end.most", {"winner": winners[0], "best": best})
            if len(winners) == 1
            else Phrase("trumplestiltskin.end.share_most", {"names": tuple(winners), "best": best}))
    if taker is not None:
        most = Phrase("trumplestiltskin.end.taker_short", {
            "taker": taker, "total": _show(totals[taker]), "target": target, "most": most})
    return Ending(over, most, False)


def _breakdown(hand: Hand, players: Sequence[str], shares: Mapping[str, Share],
               to_gnome: Number, gnome_total: Number) -> dict[str, Any]:
    top_bids = dict(hand.auction.top_bids)
    return {
        "thrown_in": hand.auction.thrown_in,
        "taker": hand.taker,
        "bid": hand.auction.top_bid if hand.taker else None,
        "gnome_card": None if hand.gnome is None or hand.taker is None else str(hand.gnome),
        "trump": None if hand.trump is None or hand.taker is None else str(hand.trump),
        "max_points": hand.max_points,
        "players": {p: {
            "top_bid": top_bids.get(p),
            "looked": p in hand.looked,
            "took_bid": p == hand.taker,
            "points": hand.points.get(p, 0),
            "case": shares[p].case,
            "score": to_json_number(shares[p].score),
            "to_gnome": to_json_number(shares[p].to_gnome),
            "why": str(shares[p].why),
        } for p in players},
        "gnome": to_json_number(to_gnome),
        "gnome_total": to_json_number(gnome_total),
    }


# ---------------------------------------------------------------------------
# Checklists


def deck_prep(players: Sequence[str], options: Mapping[str, Any]) -> Checklist:
    """Once per game: the Pinochle deck, the Blanket, and how the 44 are shared.

    >>> print(deck_prep(["Ann", "Bo", "Cy"], {}).steps[-1])
    Each hand the 44 are dealt out: with 3 players two get 15 cards and one gets 14.
    """
    _check_table(players)
    return Checklist(Phrase("trumplestiltskin.deck.title"), (
        Phrase("trumplestiltskin.deck.pinochle"),
        Phrase("trumplestiltskin.deck.blanket"),
        Phrase("trumplestiltskin.deck.columns"),
        _share_of_44(len(players)),
    ))


def deal_steps(players: Sequence[str], dealer: str, options: Mapping[str, Any]) -> Checklist:
    """One hand's dealing, naming the dealer, who picks the Gnome and who bids first.

    >>> steps = deal_steps(["Ann", "Bo", "Cy", "Di"], "Ann", {}).steps
    >>> print(steps[2])
    Di (on the dealer’s right) picks one Blanket card face down: the Gnome.
    """
    _check_table(players)
    require_player(dealer, players, Phrase("field.dealer"))
    n = len(players)
    first = left_of(players, dealer)
    extra = clockwise_from(players, first)[:DEALT_CARDS % n]
    each = DEALT_CARDS // n
    if extra:
        deal = Phrase("trumplestiltskin.deal.deal_extra", {
            "dealer": dealer, "first": first, "extra": tuple(extra), "more": each + 1,
            "each": each})
    else:
        deal = Phrase("trumplestiltskin.deal.deal_even",
                      {"dealer": dealer, "first": first, "each": each})
    aside = len(BLANKET) - 1 - n
    set_aside = {0: Phrase("trumplestiltskin.deal.none_aside"),
                 1: Phrase("trumplestiltskin.deal.one_aside")}.get(
        aside, Phrase("trumplestiltskin.deal.some_aside", {"aside": aside}))
    return Checklist(Phrase("trumplestiltskin.deal.title", {"dealer": dealer}), (
        deal,
        Phrase("trumplestiltskin.deal.shuffle_blanket", {"dealer": dealer}),
        Phrase("trumplestiltskin.deal.pick_gnome", {"picker": right_of(players, dealer)}),
        Phrase("trumplestiltskin.deal.deal_blanket", {"dealer": dealer}),
        set_aside,
        Phrase("trumplestiltskin.deal.bidding", {"first": first}),
    ))


def _check_table(players: Sequence[str]) -> None:
    if len(players) not in PLAYERS:
        raise RuleError("trumplestiltskin.player_count", game=GAME, count=len(players))


_SHARES = {(0, 0): "trumplestiltskin.deck.share_even",
           (2, 1): "trumplestiltskin.deck.share_two_one",
           (4, 1): "trumplestiltskin.deck.share_four_one"}
"""How the 44 are shared for each table (3 to 5 players): (how many get one more card, how
many get one fewer) to the line that says it."""


def _share_of_44(n: int) -> Phrase:
    each, extra = divmod(DEALT_CARDS, n)
    if not extra:
        return Phrase(_SHARES[0, 0], {"n": n, "each": each})
    return Phrase(_SHARES[extra, n - extra], {"n": n, "more": each + 1, "each": each})


# --------------------------------------------------------------------------- the record book

RECORDS = (RecordKind("most_gnome_points", rank=3),)
"""Its table record: the Gnome's total in one game (held by nobody: it is the Gnome's)."""


def record_facts(record: Mapping[str, Any], game: Any, unit: str) -> RecordFacts:
    """What the record book reads of a game (``companion.rules.records``): its rounds, the
    hand's score, leaving out hands thrown in (nobody played them); its runner-up by
    total (the Gnome is not a player); no pots; its record, the most Gnome points in a
    game (the Gnome's total, with at least one hand played; held by nobody, it is the
    Gnome's)."""
    hands = game.result["rounds"]
    rounds = [(number, scores)
              for (number, scores), hand in zip(round_scores(game.result), hands, strict=True)
              if not hand["breakdown"]["thrown_in"]]
    found = [("most_gnome_points", exact(game.result["gnome"]), None, ())] if hands else []
    return RecordFacts(tuple(rounds), {p: exact(t) for p, t in game.result["totals"].items()},
                       records=tuple(found))
