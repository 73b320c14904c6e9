"""Tremp: four players in two partnerships, bidding by displaying cards (RULES.md section 5).

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
Where RULES.md leaves a question open, the companion reads it this way:

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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from .cards import STANDARD_RANKS, Card, Suit, SuitCard, parse_card
from .common import (
    Checklist,
    Number,
    left_of,
    merge_options,
    read_header,
    require_player,
    round_label,
    to_json_number,
    true_or_false,
    whole_number,
)
from .errors import RuleError

PLAYERS: tuple[int, ...] = (4,)
"""Tremp is for exactly four players."""

DEFAULTS: dict[str, Any] = {"beginners": False}
"""Option defaults (DESIGN.md)."""

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
class HandPoints:
    """What a hand scores: ``made`` says whether the bidders took at least the bid.

    The points go to the bidding team when made, else to their opponents.
    """

    made: bool
    match_points: Number
    game_points: Number


def hand_points(bid: int, tricks: int) -> HandPoints:
    """The points of a hand where the bidding team took ``tricks`` against ``bid``.

    The RULES.md example, bid 8: made with 9 tricks, +256 match points and
    +4 game points; failed with the opponents taking 9 tricks (the bidders 4),
    +128 game points and +64 match points to the opponents.

    >>> hand_points(8, 9)
    HandPoints(made=True, match_points=256, game_points=4)
    >>> hand_points(8, 4)
    HandPoints(made=False, match_points=64, game_points=128)
    >>> hand_points(-2, 0)
    HandPoints(made=True, match_points=Fraction(1, 4), game_points=16)
    """
    if tricks >= bid:
        return HandPoints(True, points(bid), points(2 * (tricks - bid)))
    return HandPoints(False, points(2 * (TRICKS - tricks + bid - 14)), points(bid - 1))


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
            raise RuleError("somebody must bid: the dealer bids if the other three pass")

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


@lru_cache(maxsize=256)
def _card(text: str) -> tuple[Card, bool]:
    card = parse_card(text)
    return card, isinstance(card, SuitCard) and card.rank in _STANDARD


def _displayed_card(what: object, name: str, label: str) -> SuitCard:
    try:
        if not isinstance(what, str):
            raise RuleError("not a card")
        card, standard = _card(what)
    except RuleError:
        raise RuleError(f"{label}: {name} displayed {what!r}, which is not a card "
                        '(or "pass")') from None
    if not standard:
        raise RuleError(f"{label}: {name} displayed {card}, which is not in a standard deck")
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


def bidding_status(entries: object, players: Sequence[str], dealer: str,
                   label: str = "this hand") -> BiddingStatus:
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
        raise RuleError(f"{label}: the bids are missing")
    if not isinstance(entries, list | tuple):
        raise RuleError(f'{label}: the bids must be a list of [player, card] or '
                        f'[player, "pass"]')
    last_to_pass = len(players) - 1
    turn: str | None = left_of(players, dealer)
    passes = 0
    displayed: list[Display] = []
    shown_by: dict[SuitCard, str] = {}
    count = dict.fromkeys(players, 0)
    ended_by: str | None = None
    for k, entry in enumerate(entries):
        if not (isinstance(entry, list | tuple) and len(entry) == 2):
            raise RuleError(f'{label}: bid {k + 1} must be [player, card] or '
                            f'[player, "pass"], not {entry!r}')
        name, what = entry
        require_player(name, players, label)
        if ended_by is not None:
            raise RuleError(f"{label}: the bidding ended with {ended_by}'s pass; "
                            f"{name}'s entry after it is one too many")
        is_pass = isinstance(what, str) and what.strip().lower() == _PASS
        if name != turn:
            did = "passed" if is_pass else "bid"
            raise RuleError(f"{label}: {name} {did} out of turn; it was {turn}'s turn")
        if is_pass:
            if not displayed and passes == last_to_pass:
                raise RuleError(f"{label}: {name} is the dealer and must bid after three "
                                "passes (house rule)")
            passes += 1
            if displayed and passes == last_to_pass:
                ended_by = name
        else:
            card = _displayed_card(what, name, label)
            if card in shown_by:
                raise RuleError(f"{label}: {card} was already displayed by {shown_by[card]}; "
                                f"{name} cannot display it again")
            count[name] += 1
            if count[name] > TRICKS:
                raise RuleError(f"{label}: {name} has displayed {count[name]} cards but "
                                f"holds only {TRICKS}")
            shown_by[card] = name
            displayed.append(Display(name, card, OPENING_BID + len(displayed) + 1))
            passes = 0
        turn = left_of(players, name)
    if ended_by is not None:
        turn = None
    return BiddingStatus(tuple(displayed), turn, passes,
                         dealer_must_bid=not displayed and passes == last_to_pass)


def read_bidding(entries: object, players: Sequence[str], dealer: str, label: str) -> Bidding:
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
            raise RuleError(f"{label}: the bidding has not ended: nobody has bid yet")
        last = status.displayed[-1]
        raise RuleError(f"{label}: the bidding has not ended: after {last.player}'s bid of "
                        f"{last.bid} ({last.card}) three players in a row must pass")
    return Bidding(status.displayed)


@dataclass(frozen=True)
class Hand:
    """One hand, checked: its bidding and the tricks the bidding team took."""

    bidding: Bidding
    tricks: int

    def __post_init__(self) -> None:
        if not 0 <= self.tricks <= TRICKS:
            raise RuleError(f"a team takes 0 to {TRICKS} tricks, not {self.tricks}")


_HAND_FIELDS = frozenset({"bids", "tricks"})


def read_hand(raw: object, players: Sequence[str], dealer: str, label: str) -> Hand:
    """Check one hand of the record, dealt by ``dealer``."""
    if not isinstance(raw, Mapping):
        raise RuleError(f"{label}: a hand must be a JSON object")
    unknown = sorted(set(raw) - _HAND_FIELDS, key=str)
    if unknown:
        raise RuleError(f"{label}: a hand has no field {unknown[0]!r} (only bids, tricks)")
    bidding = read_bidding(raw.get("bids"), players, dealer, label)
    team = team_names(players)[team_of(players, bidding.bidder)]
    what = f"{label}: the tricks taken by {team} (who won the bid)"
    if raw.get("tricks") is None:
        raise RuleError(f"{what} are missing")
    return Hand(bidding, whole_number(raw["tricks"], what, minimum=0, maximum=TRICKS))


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
            raise RuleError(f"{round_label(self.played)}: the game already ended after "
                            f"round {self.played}")
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
    return true_or_false(options["beginners"], "the beginners option")


def _walk(record: object) -> tuple[Game, list[tuple[HandResult, Game]]]:
    if isinstance(record, Mapping) and isinstance(record.get("rounds"), list):
        for i, raw in enumerate(record["rounds"]):
            if not isinstance(raw, Mapping):
                raise RuleError(f"{round_label(i)}: a hand must be a JSON object, not {raw!r}")
    header = read_header(record, "tremp", PLAYERS, DEFAULTS)
    game = Game.start(header.players, header.first_dealer, read_beginners(header.options))
    history = []
    for i, raw in enumerate(header.rounds):
        label = round_label(i)
        if game.finished:
            raise RuleError(f"{label}: the game already ended after round {game.played}")
        hand = read_hand(raw, header.players, game.dealer, label)
        result, game = game.play(hand)
        history.append((result, game))
    return game, history


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """The result of a Tremp record (see the module docstring for its shape)."""
    game, history = _walk(record)
    teams = team_names(game.players)
    rounds = []
    for i, (result, after) in enumerate(history):
        label = round_label(i)
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
    label = round_label(max(game.played - 1, 0))
    return {
        "rounds": rounds,
        "totals": _by_team(teams, game.totals, label),
        "finished": game.finished,
        "winners": game.winners,
        "money": {},
        "match": _by_team(teams, game.match, label),
        "matches": dict(zip(teams, game.matches, strict=True)),
    }


def _number(value: Number, label: str) -> int | float:
    try:
        return to_json_number(value)
    except ArithmeticError:
        raise RuleError(f"{label}: the points have grown too large to be written exactly "
                        f"({value})") from None


def _by_team(teams: tuple[str, str], values: Sequence[Number], label: str,
             ) -> dict[str, int | float]:
    return {team: _number(v, label) for team, v in zip(teams, values, strict=True)}


def _breakdown(teams: tuple[str, str], result: HandResult, after: Game,
               label: str) -> dict[str, Any]:
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
        "needed": max(bidding.bid, 0),
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
        raise RuleError(f"tremp is for 4 players, not {len(names)}")
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
        matches = f"A match is won at {TRAILING_TARGET} match points (beginners)."
    else:
        matches = (f"A match is won at {MATCH_TARGET} match points, or {TRAILING_TARGET} "
                   "for a team that has won fewer matches than the other.")
    return Checklist("Tremp: preparing the deck", (
        "Take a standard 52-card deck without jokers; nothing is taken out.",
        f"Partners sit opposite: {a} against {b} (clockwise: {', '.join(names)}).",
        matches,
        f"The game ends when a team leads by {LEAD_TO_WIN} matches.",
    ))


def deal_steps(players: Sequence[str], dealer: str, options: Mapping[str, Any]) -> Checklist:
    """One hand's steps for the actual dealer: the deal and the bidding.

    >>> steps = deal_steps(["Rob", "Sam", "Nick", "Emily"], "Nick", {}).steps
    >>> steps[0]
    'Nick shuffles and deals all 52 cards one at a time, clockwise, starting with Emily: 13 each.'
    """
    names, _ = _seats(players, options)
    require_player(dealer, names, "deal")
    first, second, third = (left_of(names, dealer, k) for k in (1, 2, 3))
    return Checklist(f"Tremp: {dealer} deals", (
        f"{dealer} shuffles and deals all 52 cards one at a time, clockwise, "
        f"starting with {first}: {TRICKS} each.",
        f"Bidding starts at {OPENING_BID} with {first}, then clockwise. To bid, display a "
        "card face up: the bid goes up by 1 and that card's suit is the nominated trump.",
        "Three passes in a row after a bid end the bidding; the last to bid wins it. "
        f"If {first}, {second} and {third} all pass, {dealer} must bid (house rule).",
        "Trump is the suit of the last displayed card; tremp is the other suit of the same "
        "colour (♠ ↔ ♣, ♥ ↔ ♦). Displayed cards stay on the table until played.",
        "The player left of the bid winner leads the first trick.",
    ))
