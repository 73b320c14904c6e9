"""Tromplemond (``texts/en.md``): four players, 26 cards, a secret vote every round.

Each round every player gets 5 cards (3 secret, 2 public), claims what the
secret ones are, and the table votes one player off. The three survivors
score their own points, half of each other survivor's points, and −20 for
every jack another survivor holds. Optional money: a joining fee (winner and
runner-up share it) and TROMP! betting (a round pot every round, won by
shouting the right call for the jacks in one's hand; what is not won grows
the kitty).

>>> rec = {"game": "tromplemond", "players": ["Rob", "Sam", "Nick", "Emily"],
...        "first_dealer": "Rob", "rounds": [{
...     "hands": {"Rob":  {"public": ["K♥", "10♠"], "secret": ["Q♥", "J♦", "K♠"]},
...               "Sam":  {"public": ["A♣", "2♦"], "secret": ["10♦", "4♠", "K♦"]},
...               "Nick": {"public": ["J♥", "A♦"], "secret": ["J♠", "A♠", "10♥"]}},
...     "voted_off": "Emily"}]}
>>> result = replay(rec)
>>> result["totals"], result["finished"], result["money"], result["kitty"]
({'Rob': 11, 'Sam': -9, 'Nick': 30, 'Emily': 0}, False, {}, 0)
>>> result["rounds"][0]["breakdown"]["players"]["Rob"]["explain"]
"26 own + 13 (half of Sam's 26) + 12 (half of Nick's 24) − 40 (Nick's 2 jacks) = 11"

The record and the result follow ``docs/records.md`` ("Tromplemond"). Result extras:
``kitty`` (the TROMP! kitty now) and, per round, ``tromp``: who took what
from that round's pot, in seat order.

Breakdown (per round, ``rounds[i]["breakdown"]``)
-------------------------------------------------
A JSON-ready dict that says why every number is what it is::

    {"round": 1,                      # 1-based
     "extra_round": false,            # true for the extra round after a tie
     "off": {"player": "Emily", "reason": "voted off"},   # or "showed cards early"
     "dealer_forfeit": false,         # true: the dealer's score is 0 this round
     "players": {                     # seat order
        "Rob": {"off": false, "own_points": 26, "jacks": 1,
                "halves": {"Sam": 13, "Nick": 12},      # half of each other survivor
                "jacks_against": {"Nick": 2},           # other survivors' jacks
                "jack_penalty": -40,
                "points": 11,                           # before any dealer forfeit
                "forfeited": false, "score": 11,
                "explain": "26 own + 13 (half of Sam's 26) + ... = 11",
                "call": "Petit Tromplemond!",           # or null: no jack
                "called": false, "won": 0},             # won: from the round pot
        "Emily": {"off": true, "score": 0}, ...},
     "pot": {"round_pot": 0,          # 4 × tromp_stake
             "kitty_before": 0,       # the kitty before this round
             "extreme": null,         # who takes every round pot (an Extreme winner)
             "extreme_took_kitty": 0, # the kitty an Extreme call took this round
             "to_kitty": 0,           # what of this round pot went to the kitty
             "kitty": 0},             # the kitty after this round
     "end": {...}}                    # only on the round that finished the game

``end`` (last round of a finished game): ``{"how": "rounds played" | "target
reached" | "extra round" | "card cut" | "void" | "banned", "winners": [...],
"runners_up": [...], "joining_fee": {"pot", "paid", "extreme"}, "kitty":
{"at_end", "super", "ultimate", "best_round", "best_round_score"}}``; a void
or banned game has ``{"how", "winners", "returned": true}`` (plus
``"banned": name``).

Readings
--------
Where the rules leave a question open, the companion reads it so
(``texts/en.md`` gives these too, marked as house decisions):

- Every round names the player who goes off: ``voted_off``, or
  ``shown_early`` (then ``voted_off`` is null or the same name). The off
  player scores 0 and their hand counts for nobody; if it is entered it is
  still checked, and its cards count for duplicates and for the jack/ace
  counts.
- Dealer forfeit: only the dealer's round score becomes 0. The others still
  get half the dealer's points and the dealer's jacks still cost them; the
  dealer's TROMP! call still wins. A forfeit by a dealer who went off changes
  nothing (their score is 0 already).
- End: after ``rounds`` rounds, or at the end of the first round in which a
  total reaches ``target``. A shared top total means one extra round, played
  by all four with the stake paid as in any round. If the top is still shared
  after it, the extra round's ``cut_winner`` (one of those sharing the top)
  wins; until it is recorded the game is not finished (``finished`` false,
  ``winners`` []). ``cut_winner`` anywhere else is refused, and so is any
  round after the end.
- Runner-up: the best total among the others (after a cut this includes the
  players it beat). Several runners-up split the runner-up share, each share
  rounded down; the units left over go to the winner.
- Joining-fee pot = 4 × fee. The winner gets ``payout[0]`` % of it rounded
  down plus every unit left over; ``payout`` must be two whole percentages
  adding up to 100.
- TROMP!: all four pay the stake every round (the player who goes off and the
  extra round included): round pot = 4 × stake. A call wins only if the hand
  makes it and the survivor is listed in ``called``; listing a hand with no
  jack, or the player who went off, is refused. A Petit call is allowed and
  wins nothing. Shares of the round pot are rounded down; the rest goes to
  the kitty.
- Extreme (2 back, 2 on show): the winner takes the kitty and this round's
  pot, then every later round pot whole (later calls win nothing from those
  pots), and at the end the whole joining-fee pot whatever the standings. A
  later Extreme takes over from its round on: the last Extreme winner gets
  the later pots and the joining-fee pot. An Extreme winner who is not a
  survivor of a later round still takes that round's pot; per-round ``tromp``
  shows it.
- End of the game kitty: (1) each player who won a Super call takes ¼ of the
  kitty as it stood at the end, rounded down (once per player, however many
  Supers they won: at most four quarters); (2) the Ultimate winner(s) split
  what is left, each share rounded down; (3) anything still left goes to the
  player(s) with the best single-round score (round scores as recorded: a
  forfeited round is 0, and so is the round of the player who went off),
  split with the units left over one each to the earliest of them in seat
  order from round 1's dealer. The ``kitty`` extra is then 0.
- ``void: true``: the game is null and void: finished, no winners, all money
  back (``money`` all 0, ``kitty`` 0). ``banned: name``: the game was
  abandoned after the rounds given: finished, the standings stand (winners =
  the leader(s), or the winner if the game had already ended), all money back
  as for a void game. When both are set, void wins.
- ``money`` is ``{}`` when the joining fee and the stake are both 0;
  otherwise each player's net (received − paid in: fee and stakes).
- Quick hands: ``points`` must be a total that 5 − jacks non-jack cards of
  the deck can really make (so 48 only with no jack, 10 at the least with no
  jack); a missing ``public_jacks`` or ``secret_jacks`` counts as 0. Aces of
  quick hands are unknown, so the four aces are counted only when all four
  hands are entered in full; the four jacks are counted when all four hands
  are entered in any form.
- Unknown round fields are refused (a typo would otherwise be ignored).
- Dealing starts at the dealer's left, one card at a time, dealer last.
- The vote helpers: a 4–0 count (impossible when nobody votes for
  themselves) still votes that player off; a tie-break that disagrees is
  held again between the same pair by the same deciders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from typing import Any

from companion.rules import errors
from companion.rules.cards import Card, Rank, Suit, SuitCard, parse_card
from companion.rules.common import (  # noqa: F401  (its end's standings, common now)
    Checklist,
    Standing,
    clockwise_from,
    distribute_odd_units,
    left_of,
    merge_options,
    read_header,
    require_player,
    standings,
    the_round,
    true_or_false,
    whole_number,
)
from companion.rules.contract import RecordFacts, RecordKind, no_next_dealer, round_scores
from companion.rules.errors import Phrase, RuleError
from companion.rules.ledger import MoneyLine, What, lines_of

errors.add_messages({  # the English of its rule codes (companion.rules.errors)
    "tromplemond.bad_payout": "payout must be two whole percentages (winner, runner-up) adding "
        "up to 100, not {shown!r}",
    "tromplemond.call_without_jack": "{where}: {name} is listed as calling TROMP!, but {name}'s "
        "hand holds no jack",
    "tromplemond.called_not_a_list": "{where}: called must be a list of players",
    "tromplemond.called_twice": "{where}: {name} is listed twice in called",
    "tromplemond.card_twice": "{card} is twice in {owner}'s hand",
    "tromplemond.cut_not_needed": "{where}: no card cut is needed: {top} has the top total alone "
        "after the extra round",
    "tromplemond.cut_winner_not_tied": "{where}: the cut winner {cut_winner} is not one of those "
        "sharing the top total ({top:list})",
    "tromplemond.cut_winner_too_early": "{where}: cut_winner is only for the extra round, when "
        "the top total is still shared after it",
    "tromplemond.game_over_cut": "{where}: the game already ended after the extra {round}; a "
        "card cut settles the tie (record its cut_winner on {round})",
    "tromplemond.hand_incomplete": "{owner}'s hand must give either its public and secret cards, "
        "or its points, public_jacks and secret_jacks",
    "tromplemond.hand_missing": "{where}: {p}'s hand is missing",
    "tromplemond.hand_not_a_card": "{text!r} in {owner}'s hand is not a card",
    "tromplemond.hand_not_an_object": "{owner}'s hand must be a JSON object",
    "tromplemond.hand_not_in_deck": "{card} in {owner}'s hand is not in the Tromplemond deck",
    "tromplemond.hand_too_many_jacks": "{owner}'s hand cannot hold {jacks} jacks: the deck has 4",
    "tromplemond.hands_not_an_object": "{where}: hands must be a JSON object, one entry per player",
    "tromplemond.names_not_distinct": "the four players need four different names",
    "tromplemond.no_tie": "there is no tie to break",
    "tromplemond.nobody_off": "{where}: nobody went off; name the voted-off player (voted_off) "
        "or the player who showed cards early (shown_early)",
    "tromplemond.not_in_deck": "{card} is not in the Tromplemond deck",
    "tromplemond.off_cannot_call": "{where}: {name} went off and cannot win a TROMP! call",
    "tromplemond.player_count": "Tromplemond is for 4 players, not {count}",
    "tromplemond.points_odd": "{owner}'s points must be even (every card is worth an even "
        "number), not {points}",
    "tromplemond.points_unreachable": "{owner}'s hand cannot be worth {points} points with "
        "{jacks} jack{jacks:s} and {others} other cards",
    "tromplemond.card_in_hands": "{card} is in {owners:possessive} hands",
    "tromplemond.hand_count": "there are 4 hands in Tromplemond, not {count}",
    "tromplemond.jacks_too_many": "{jacks} jacks are entered but the deck has only 4 "
        "({holders:holders})",
    "tromplemond.jacks_too_few": "only {jacks} jack{jacks:s} in the four hands "
        "({holders:holders}); all 4 are dealt every round",
    "tromplemond.aces_too_few": "only {aces} ace{aces:s} in the four hands ({holders:holders}); "
        "all 4 are dealt every round",
    "tromplemond.round_not_an_object": "{where} must be a JSON object",
    "tromplemond.round_unknown_field": "{where}: unknown field {unknown!r}",
    "tromplemond.row_not_a_list": "{owner}'s {key} cards must be a list of cards",
    "tromplemond.row_size": "{owner}'s hand must have {size} {what} cards, not {count}",
    "tromplemond.seat_count": "{game} is for 4 players, not {count}",
    "tromplemond.shown_early_goes_off": "{where}: {shown} showed cards early, so {shown} goes "
        "off, not {voted_off}",
    "tromplemond.tie_break_pair": "a tie-break is between two tied players",
    "tromplemond.tie_break_slip_count": "there are 2 tie-break slips, not {count}",
    "tromplemond.tie_break_slip_name": "a tie-break slip must name {pair} or {pair2}, not {name!r}",
    "tromplemond.too_many_jacks": "a hand cannot hold {secret} jacks: the deck has 4",
    "tromplemond.vote_not_counts": "the {what} must be counts per player",
    "tromplemond.vote_total": "the {what} add up to {total}, but there are {slips} slips",
}, tested=True)

GAME = "tromplemond"
PLAYERS: tuple[int, ...] = (4,)
"""Tromplemond is for exactly four players."""

DEFAULTS: dict[str, Any] = {
    "joining_fee": 0,
    "payout": [75, 25],
    "tromp_stake": 0,
    "rounds": 8,
    "target": 200,
}
"""Option defaults, as ``docs/records.md`` gives them."""

CHIP_GAME = False
"""``replay``'s money is not in chips."""

next_dealer = no_next_dealer
"""The rules do not say who deals next: the flow does."""

JACK_PENALTY = 20
"""What each jack held by another survivor costs."""

PUBLIC_CARDS = 2
SECRET_CARDS = 3
HAND_SIZE = PUBLIC_CARDS + SECRET_CARDS

_FULL_RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.FOUR, Rank.THREE,
               Rank.TWO)
DECK: tuple[SuitCard, ...] = tuple(
    SuitCard(rank, suit) for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
    for rank in _FULL_RANKS
) + (SuitCard(Rank.ACE, Suit.CLUBS), SuitCard(Rank.JACK, Suit.CLUBS))
"""The 26-card Tromplemond deck."""

_IN_DECK = frozenset(DECK)
_DECK_POSITION = {card: k for k, card in enumerate(DECK)}
# The deck's own card objects by id: a lookup that needs no hashing of the card.
_DECK_ID_POSITION = {id(card): k for k, card in enumerate(DECK)}

CARD_POINTS: Mapping[Rank, int] = {
    Rank.ACE: 10, Rank.KING: 8, Rank.QUEEN: 6, Rank.TEN: 4,
    Rank.FOUR: 2, Rank.THREE: 2, Rank.TWO: 2, Rank.JACK: 0,
}
"""Card points by rank (a jack is 0 to its holder and −20 to every other survivor)."""

_POSITION_POINTS = tuple(CARD_POINTS[card.rank] for card in DECK)
_JACK_POSITIONS = frozenset(k for k, card in enumerate(DECK) if card.rank is Rank.JACK)
_ACE_POSITIONS = frozenset(k for k, card in enumerate(DECK) if card.rank is Rank.ACE)


# --------------------------------------------------------------------------- cards


@lru_cache(maxsize=1024)
def _parse_text(text: str) -> Card:
    card = parse_card(text)
    position = _DECK_POSITION.get(card) if isinstance(card, SuitCard) else None
    return card if position is None else DECK[position]


def _as_card(value: object) -> Card:
    """A card from a spelling (cached: the same few spellings come back all game)."""
    if isinstance(value, str):
        return _parse_text(value)
    return parse_card(value)


def card_points(card: Card | str) -> int:
    """The points a card is worth to its holder.

    >>> card_points("A♠"), card_points("kh"), card_points("10♦"), card_points("J♣")
    (10, 8, 4, 0)
    >>> card_points("5♠")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    RuleError: 5♠ is not in the Tromplemond deck
    """
    card = _as_card(card)
    if card not in _IN_DECK:
        raise RuleError("tromplemond.not_in_deck", card=card)
    assert isinstance(card, SuitCard)
    return CARD_POINTS[card.rank]


def hand_points(cards: Iterable[Card | str]) -> int:
    """The points of some cards (a whole hand or part of one).

    >>> hand_points(["K♥", "10♠", "Q♥", "J♦", "K♠"])
    26
    """
    return sum(card_points(c) for c in cards)


def is_jack(card: Card) -> bool:
    """True for a jack."""
    return isinstance(card, SuitCard) and card.rank is Rank.JACK


def is_ace(card: Card) -> bool:
    """True for an ace."""
    return isinstance(card, SuitCard) and card.rank is Rank.ACE


# --------------------------------------------------------------------------- TROMP! calls


class TrompCall(Enum):
    """The TROMP! calls, by the name a player shouts."""

    PETIT = "Petit Tromplemond!"
    MOYENNE = "Moyenne Tromplemond!"
    TROMPLEMOND = "Tromplemond!"
    GRAND = "Grand Tromplemond!"
    SUPER = "Super Tromplemond!"
    ULTIMATE = "Ultimate Tromplemond!"
    KICKSELF = "Kickself Tromplemond!"
    EXTREME = "Extreme Tromplemond!"

    def __str__(self) -> str:
        return self.value

    @property
    def display_name(self) -> str:
        """The name to shout, e.g. ``Grand Tromplemond!``."""
        return self.value

    @property
    def hand(self) -> str:
        """Which jacks make the call."""
        return str(self.hand_phrase)

    @property
    def wins(self) -> str:
        """What the call wins, in words."""
        return str(self.wins_phrase)

    @property
    def hand_phrase(self) -> Phrase:
        """:attr:`hand` as a Phrase."""
        return Phrase(f"tromplemond.call_hand.{self.name.lower()}")

    @property
    def wins_phrase(self) -> Phrase:
        """:attr:`wins` as a Phrase."""
        return Phrase(f"tromplemond.call_wins.{self.name.lower()}")

    @property
    def pot_share(self) -> Fraction:
        """The part of the round pot the call wins.

        >>> TrompCall.MOYENNE.pot_share, TrompCall.GRAND.pot_share
        (Fraction(1, 4), Fraction(1, 1))
        """
        return _CALL_SHARE[self]

    def share_of(self, round_pot: int) -> int:
        """What the call wins from a round pot of ``round_pot`` (rounded down).

        >>> TrompCall.TROMPLEMOND.share_of(10), TrompCall.MOYENNE.share_of(10)
        (5, 2)
        """
        share = self.pot_share
        return round_pot * share.numerator // share.denominator


_CALL_HAND = {
    TrompCall.PETIT: "any other hand holding a jack",
    TrompCall.MOYENNE: "1 jack in the back row, 1 on show",
    TrompCall.TROMPLEMOND: "2 jacks in the back row, none on show",
    TrompCall.GRAND: "2 jacks in the back row, 1 on show",
    TrompCall.SUPER: "3 jacks in the back row, none on show",
    TrompCall.ULTIMATE: "3 jacks in the back row, 1 on show",
    TrompCall.KICKSELF: "2 jacks on show, 0 or 1 in the back row",
    TrompCall.EXTREME: "2 jacks in the back row, 2 on show",
}
_CALL_WINS = {
    TrompCall.PETIT: "nothing",
    TrompCall.MOYENNE: "¼ of the round pot (the stake back)",
    TrompCall.TROMPLEMOND: "½ of the round pot",
    TrompCall.GRAND: "the whole round pot",
    TrompCall.SUPER: "the whole round pot, and ¼ of the kitty at the end",
    TrompCall.ULTIMATE: "the whole round pot, and the kitty at the end",
    TrompCall.KICKSELF: "½ of the round pot",
    TrompCall.EXTREME: ("the kitty and this round pot now, every later round pot, and the "
                        "whole joining-fee pot at the end whatever the standings"),
}
errors.add_messages({f"tromplemond.call_hand.{call.name.lower()}": words
                     for call, words in _CALL_HAND.items()})
errors.add_messages({f"tromplemond.call_wins.{call.name.lower()}": words
                     for call, words in _CALL_WINS.items()})
errors.add_messages({
    # one survivor's score in words
    "tromplemond.explain.own": "{points} own",
    "tromplemond.explain.half": "+ {half} (half of {name}'s {points})",
    "tromplemond.explain.jacks": "− {penalty} ({name}'s {jacks} jack{jacks:s})",
    "tromplemond.explain.line": "{terms:cards} = {points}",
    # the checklists
    "tromplemond.deck.title": "Tromplemond: prepare the deck (once per game)",
    "tromplemond.deck.take": "Take a standard 52-card deck (no jokers).",
    "tromplemond.deck.take_out_middle": "Take out every 5, 6, 7, 8 and 9 (20 cards): 32 cards "
        "left.",
    "tromplemond.deck.take_out_clubs": "Take out the K, Q, 10, 4, 3 and 2 of clubs (6 cards).",
    "tromplemond.deck.remain": "{count} cards remain: {cards}.",
    "tromplemond.deck.points": "Card points: A 10 · K 8 · Q 6 · 10 4 · 4, 3, 2 2 each · J 0 to "
        "its holder and −{penalty} to every other survivor.",
    "tromplemond.deck.joining_fee": "{names:and} each put the joining fee of {fee} in the pot "
        "({all} in all): the winner gets {first}%, the runner-up {second}%.",
    "tromplemond.deck.tromp_betting": "TROMP! betting: before every round each player puts "
        "{stake} in the round pot ({all}).",
    "tromplemond.deck.end": "The game lasts {rounds} round{rounds:s}, or ends at the end of "
        "the first round in which someone's total reaches {target}.",
    "tromplemond.deal.title": "Tromplemond: {dealer} deals",
    "tromplemond.deal.stake": "Everyone puts the TROMP! stake of {stake} in the round pot "
        "({all}).",
    "tromplemond.deal.aside": "{dealer} deals: set the 4 jacks and 4 aces aside.",
    "tromplemond.deal.discard": "{dealer} shuffles the other 18 cards and discards 6 of them "
        "face down, unseen.",
    "tromplemond.deal.back_in": "The 8 set aside go back in: 20 cards. Shuffle.",
    "tromplemond.deal.deal": "Deal one card at a time, clockwise from {dealer}'s left "
        "({order:list}): everyone's first 3 cards face down (the secret cards, back row), then "
        "2 face up (the public cards, front row). All 20 are dealt.",
    "tromplemond.deal.error": "A dealer error after a public card is dealt: {dealer} scores 0 "
        "this round. Before any public card: just deal again.",
    "tromplemond.deal.claims": "Claims, starting with {dealer}: {order:list}. Each says what "
        "their secret cards are (truth or lie).",
    "tromplemond.deal.interrogation": "Interrogation: at most 5 minutes; a player may be asked "
        "to repeat their claim at most twice more.",
    "tromplemond.deal.vote": "Vote: everyone drops one slip naming an opponent. Show no cards "
        "until the vote is settled.",
    "tromplemond.deal.reveal": "Reveal and score.",
    "tromplemond.deal.next": "Next round {left} deals.",
})
_CALL_SHARE = {
    TrompCall.PETIT: Fraction(0),
    TrompCall.MOYENNE: Fraction(1, 4),
    TrompCall.TROMPLEMOND: Fraction(1, 2),
    TrompCall.GRAND: Fraction(1),
    TrompCall.SUPER: Fraction(1),
    TrompCall.ULTIMATE: Fraction(1),
    TrompCall.KICKSELF: Fraction(1, 2),
    TrompCall.EXTREME: Fraction(1),
}
_CALLS = {
    (1, 1): TrompCall.MOYENNE,
    (2, 0): TrompCall.TROMPLEMOND,
    (2, 1): TrompCall.GRAND,
    (3, 0): TrompCall.SUPER,
    (3, 1): TrompCall.ULTIMATE,
    (0, 2): TrompCall.KICKSELF,
    (1, 2): TrompCall.KICKSELF,
    (2, 2): TrompCall.EXTREME,
}


def tromp_call(secret_jacks: int, public_jacks: int) -> TrompCall | None:
    """The call a hand makes from its jacks in the back row and on show (None: no jack).

    >>> tromp_call(2, 1), tromp_call(1, 0), tromp_call(0, 0)
    (<TrompCall.GRAND: 'Grand Tromplemond!'>, <TrompCall.PETIT: 'Petit Tromplemond!'>, None)
    """
    secret = whole_number(secret_jacks, Phrase("field.secret_jacks"),
                          minimum=0, maximum=SECRET_CARDS)
    public = whole_number(public_jacks, Phrase("field.public_jacks"),
                          minimum=0, maximum=PUBLIC_CARDS)
    if secret + public > 4:
        raise RuleError("tromplemond.too_many_jacks", secret=secret + public)
    if secret + public == 0:
        return None
    return _CALLS.get((secret, public), TrompCall.PETIT)


# --------------------------------------------------------------------------- hands


def _reachable_points() -> dict[int, frozenset[int]]:
    """For each number of jacks, every total the other cards of a hand can make."""
    values = [CARD_POINTS[c.rank] for c in DECK if c.rank is not Rank.JACK]
    by_count: list[set[int]] = [{0}] + [set() for _ in range(HAND_SIZE)]
    for value in values:
        for k in range(HAND_SIZE, 0, -1):
            by_count[k] |= {s + value for s in by_count[k - 1]}
    return {jacks: frozenset(by_count[HAND_SIZE - jacks]) for jacks in range(5)}


REACHABLE_POINTS: Mapping[int, frozenset[int]] = _reachable_points()
"""Jacks in a hand (0–4) → the hand totals its other cards can make."""


class _HandProblem(RuleError):
    """A RuleError about one hand; ``card`` names the card at fault, if one is."""

    def __init__(self, code: str, /, **params: Any) -> None:
        super().__init__(code, **params)
        card = self.params.get("card")
        self.card = card if isinstance(card, str) else None


def _deck_positions(owner: str, row: object, size: int,
                    what: str | Phrase) -> tuple[int, ...]:
    """The cards' places in :data:`DECK` (ints hash fast: replay checks thousands of cards)."""
    if not isinstance(row, tuple) or len(row) != size:
        count = len(row) if isinstance(row, tuple | list) else row
        raise _HandProblem("tromplemond.row_size", owner=owner, size=size, what=what, count=count)
    positions = []
    for card in row:
        position = _DECK_ID_POSITION.get(id(card))
        if position is None and isinstance(card, SuitCard):
            position = _DECK_POSITION.get(card)
        if position is None:
            if isinstance(card, Card):
                raise _HandProblem("tromplemond.hand_not_in_deck", card=card, owner=owner)
            raise _HandProblem("tromplemond.hand_not_a_card", text=card, owner=owner)
        positions.append(position)
    return tuple(positions)


class _Jacks:
    """What a hand's jacks decide, whichever way the hand was entered."""

    public_jacks: int
    secret_jacks: int

    @property
    def jacks(self) -> int:
        """Jacks in the hand."""
        return self.public_jacks + self.secret_jacks

    @property
    def call(self) -> TrompCall | None:
        """The TROMP! call this hand makes (None: no jack)."""
        return _CALLS.get((self.secret_jacks, self.public_jacks),
                          TrompCall.PETIT if self.jacks else None)


@dataclass(frozen=True)
class FullHand(_Jacks):
    """A hand entered card by card: 2 public and 3 secret cards."""

    owner: str
    public: tuple[SuitCard, ...]
    secret: tuple[SuitCard, ...]
    points: int = field(init=False)
    public_jacks: int = field(init=False)
    secret_jacks: int = field(init=False)
    positions: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        public = _deck_positions(self.owner, self.public, PUBLIC_CARDS, Phrase("field.public_row"))
        secret = _deck_positions(self.owner, self.secret, SECRET_CARDS, Phrase("field.secret_row"))
        positions = public + secret
        if len(set(positions)) < HAND_SIZE:
            twice = next(c for k, c in enumerate(self.cards) if positions.index(positions[k]) < k)
            raise _HandProblem("tromplemond.card_twice", card=twice, owner=self.owner)
        object.__setattr__(self, "positions", positions)
        object.__setattr__(self, "points", sum(_POSITION_POINTS[k] for k in positions))
        object.__setattr__(self, "public_jacks", sum(k in _JACK_POSITIONS for k in public))
        object.__setattr__(self, "secret_jacks", sum(k in _JACK_POSITIONS for k in secret))

    @property
    def cards(self) -> tuple[SuitCard, ...]:
        """All five cards, public first."""
        return self.public + self.secret

    @property
    def is_full(self) -> bool:
        """True: the cards are known."""
        return True



@dataclass(frozen=True)
class QuickHand(_Jacks):
    """A hand entered the quick way: its points and where its jacks are."""

    owner: str
    points: int
    public_jacks: int = 0
    secret_jacks: int = 0

    def __post_init__(self) -> None:
        owner = self.owner
        points = whole_number(self.points, Phrase("field.points_of", {"owner": owner}),
                              minimum=0, maximum=48)
        public = whole_number(self.public_jacks, Phrase("field.public_jacks_of", {"owner": owner}),
                              minimum=0, maximum=PUBLIC_CARDS)
        secret = whole_number(self.secret_jacks, Phrase("field.secret_jacks_of", {"owner": owner}),
                              minimum=0, maximum=SECRET_CARDS)
        if points % 2:
            raise RuleError("tromplemond.points_odd", owner=owner, points=points)
        jacks = public + secret
        if jacks > 4:
            raise RuleError("tromplemond.hand_too_many_jacks", owner=owner, jacks=jacks)
        if points not in REACHABLE_POINTS[jacks]:
            raise RuleError("tromplemond.points_unreachable", owner=owner, points=points,
                            jacks=jacks, others=HAND_SIZE - jacks)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "public_jacks", public)
        object.__setattr__(self, "secret_jacks", secret)

    @property
    def cards(self) -> tuple[SuitCard, ...]:
        """No cards are known for a quick hand."""
        return ()

    @property
    def positions(self) -> tuple[int, ...]:
        """No cards are known for a quick hand."""
        return ()

    @property
    def is_full(self) -> bool:
        """False: only points and jacks are known."""
        return False



Hand = FullHand | QuickHand

_FULL_KEYS = frozenset({"public", "secret"})
_QUICK_KEYS = frozenset({"points", "public_jacks", "secret_jacks"})


def _read_row(owner: str, data: Mapping[str, Any], key: str) -> tuple[SuitCard, ...]:
    row = data[key]
    if not isinstance(row, list | tuple):
        raise _HandProblem("tromplemond.row_not_a_list", owner=owner, key=key)
    cards = []
    for text in row:
        try:
            cards.append(_as_card(text))
        except RuleError:
            shown = text.strip() if isinstance(text, str) else text
            raise _HandProblem("tromplemond.hand_not_a_card", text=shown, owner=owner) from None
    return tuple(cards)  # type: ignore[arg-type]  # FullHand checks they are deck cards


def read_hand(owner: str, data: object) -> Hand:
    """A hand from its record form (full: public + secret cards; quick: points and jacks).

    >>> read_hand("Rob", {"public": ["K♥", "10♠"], "secret": ["Q♥", "J♦", "K♠"]}).points
    26
    >>> read_hand("Sam", {"points": 26, "public_jacks": 0, "secret_jacks": 1}).call
    <TrompCall.PETIT: 'Petit Tromplemond!'>
    """
    if isinstance(data, FullHand | QuickHand):
        return data
    if not isinstance(data, Mapping):
        raise RuleError("tromplemond.hand_not_an_object", owner=owner)
    keys = set(data)
    if keys == _FULL_KEYS:
        return FullHand(owner, _read_row(owner, data, "public"), _read_row(owner, data, "secret"))
    if "points" in keys and keys <= _QUICK_KEYS:
        return QuickHand(owner, data["points"], data.get("public_jacks", 0),
                         data.get("secret_jacks", 0))
    raise RuleError("tromplemond.hand_incomplete", owner=owner)


@dataclass(frozen=True)
class Conflict:
    """A problem with entered hands: the players concerned, the card (if one), the problem."""

    players: tuple[str, ...]
    card: str | None
    problem: RuleError

    @property
    def message(self) -> str:
        """The problem in English (``10♦ is in both Sam's and Nick's hands``)."""
        return str(self.problem)


def _holders(hands: Iterable[Hand], quick_count: Any,
             kind: frozenset[int]) -> tuple[tuple[str, str | int], ...]:
    """Who holds the jacks (or aces), and which or how many: ``(("Rob", "J♦"), ("Sam", 2))``."""
    parts: list[tuple[str, str | int]] = []
    for hand in hands:
        if hand.is_full:
            held = [str(DECK[k]) for k in hand.positions if k in kind]
            if held:
                parts.append((hand.owner, " ".join(held)))
        elif quick_count(hand):
            parts.append((hand.owner, quick_count(hand)))
    return tuple(parts)


def hand_conflicts(hands: Mapping[str, object]) -> list[Conflict]:
    """Every problem with the hands entered so far (some or all four).

    Each hand on its own (card count, cards in the deck, no card twice, quick
    points that can be made), then cards in two hands, then the jacks and aces:
    at most 4 of each, and exactly 4 once all four hands are in (aces only
    when all four are in full). Counting problems are only reported when
    everything else is right, so a slip is reported once.

    >>> [c.message for c in hand_conflicts({
    ...     "Sam": {"public": ["A♣", "2♦"], "secret": ["10♦", "4♠", "K♦"]},
    ...     "Nick": {"public": ["J♥", "A♦"], "secret": ["J♠", "A♠", "10♦"]}})]
    ["10♦ is in both Sam's and Nick's hands"]
    """
    return _examine(hands)[1]


def _examine(hands: Mapping[str, object]) -> tuple[dict[str, Hand], list[Conflict]]:
    conflicts: list[Conflict] = []
    read: dict[str, Hand] = {}
    for owner, data in hands.items():
        try:
            read[owner] = read_hand(owner, data)
        except RuleError as problem:
            conflicts.append(Conflict((owner,), getattr(problem, "card", None), problem))
    owners: dict[int, list[str]] = {}
    for hand in read.values():
        for position in hand.positions:
            owners.setdefault(position, []).append(hand.owner)
    for position, names in owners.items():
        if len(names) > 1:
            card = DECK[position]
            conflicts.append(Conflict(tuple(names), str(card), RuleError(
                "tromplemond.card_in_hands", card=card, owners=tuple(names))))
    if len(hands) > 4:
        conflicts.append(Conflict(tuple(hands), None,
                                  RuleError("tromplemond.hand_count", count=len(hands))))
    if conflicts:
        return read, conflicts
    complete = len(hands) == 4
    jacks = sum(h.jacks for h in read.values())
    if jacks > 4 or (complete and jacks < 4):
        holders = tuple(h.owner for h in read.values() if h.jacks)
        listing = _holders(read.values(), lambda h: h.jacks, _JACK_POSITIONS)
        code = "tromplemond.jacks_too_many" if jacks > 4 else "tromplemond.jacks_too_few"
        conflicts.append(Conflict(holders, None, RuleError(code, jacks=jacks, holders=listing)))
    full = [h for h in read.values() if h.is_full]
    if complete and len(full) == 4:
        aces = sum(k in _ACE_POSITIONS for h in full for k in h.positions)
        if aces != 4:
            listing = _holders(full, lambda h: 0, _ACE_POSITIONS)
            conflicts.append(Conflict(
                tuple(h.owner for h in full if _ACE_POSITIONS.intersection(h.positions)), None,
                RuleError("tromplemond.aces_too_few", aces=aces, holders=listing)))
    return read, conflicts


def check_hands(hands: Mapping[str, object], where: str | Phrase = "") -> dict[str, Hand]:
    """The hands read and checked; the first problem raises RuleError (prefixed ``where: ``).

    >>> check_hands({"Rob": {"points": 26, "public_jacks": 0, "secret_jacks": 1}})["Rob"].jacks
    1
    """
    read, conflicts = _examine(hands)
    if conflicts:
        problem = conflicts[0].problem
        raise RuleError("rule.within", where=where, error=problem) if where else problem
    return read


# --------------------------------------------------------------------------- the vote


class VoteKind(Enum):
    """What four slips decide."""

    VOTED_OFF = "voted off"
    TIE_BREAK = "tie-break"
    REVOTE = "vote again"


@dataclass(frozen=True)
class VoteOutcome:
    """The outcome of a vote: who is off, or the tie-break, or a revote."""

    kind: VoteKind
    voted_off: str | None = None
    tied: tuple[str, ...] = ()
    deciders: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.kind, VoteKind):
            raise TypeError("kind must be a VoteKind")
        if (self.voted_off is not None) != (self.kind is VoteKind.VOTED_OFF):
            raise ValueError("only a VOTED_OFF outcome names who is voted off")
        if self.kind is VoteKind.TIE_BREAK and len(self.tied) != 2:
            raise ValueError("a tie-break is between two tied players")
        if self.kind is not VoteKind.TIE_BREAK and (self.tied or self.deciders):
            raise ValueError("only a tie-break has tied players and deciders")


def _read_counts(counts: Mapping[str, int], players: Sequence[str], slips: int,
                 what: str | Phrase) -> dict[str, int]:
    if not isinstance(counts, Mapping):
        raise RuleError("tromplemond.vote_not_counts", what=what)
    read = {}
    for name, n in counts.items():
        require_player(name, players, Phrase("field.the", {"what": what}))
        read[name] = whole_number(n, Phrase("field.whose", {"owner": name, "thing": what}),
                                  minimum=0)
    total = sum(read.values())
    if total != slips:
        raise RuleError("tromplemond.vote_total", what=what, total=total, slips=slips)
    return {p: read.get(p, 0) for p in players}


def vote_outcome(counts: Mapping[str, int], players: Sequence[str]) -> VoteOutcome:
    """What the four slips decide, from the votes each player got.

    3–1, 2–1–1 (or 4–0): the most votes is off; 2–2: the two players with
    no votes decide between the tied pair; 1–1–1–1: vote again.

    >>> vote_outcome({"Emily": 2, "Nick": 1, "Sam": 1}, ["Rob", "Sam", "Nick", "Emily"]).voted_off
    'Emily'
    >>> o = vote_outcome({"Sam": 2, "Emily": 2}, ["Rob", "Sam", "Nick", "Emily"])
    >>> o.kind.name, o.tied, o.deciders
    ('TIE_BREAK', ('Sam', 'Emily'), ('Rob', 'Nick'))
    """
    players = tuple(players)
    if len(players) != 4:
        raise RuleError("tromplemond.player_count", count=len(players))
    votes = _read_counts(counts, players, 4, Phrase("field.votes"))
    top = max(votes.values())
    most = tuple(p for p in players if votes[p] == top)
    if len(most) == 1:
        return VoteOutcome(VoteKind.VOTED_OFF, voted_off=most[0])
    if top == 2:
        return VoteOutcome(VoteKind.TIE_BREAK, tied=most,
                           deciders=tuple(p for p in players if votes[p] == 0))
    return VoteOutcome(VoteKind.REVOTE)


def tie_break_outcome(slips: Mapping[str, int] | Sequence[str],
                      tied: VoteOutcome | Sequence[str]) -> VoteOutcome:
    """What the two tie-break slips decide: agreed, that player is off; else slips again.

    ``slips`` are the two names written, or the counts per tied player;
    ``tied`` is the tie-break outcome (or the tied pair).

    >>> tie_break_outcome(["Sam", "Sam"], ["Sam", "Emily"]).voted_off
    'Sam'
    >>> tie_break_outcome({"Sam": 1, "Emily": 1}, ["Sam", "Emily"]).kind.name
    'TIE_BREAK'
    """
    deciders: tuple[str, ...] = ()
    if isinstance(tied, VoteOutcome):
        if tied.kind is not VoteKind.TIE_BREAK:
            raise RuleError("tromplemond.no_tie")
        deciders, tied = tied.deciders, tied.tied
    pair = tuple(tied)
    if len(pair) != 2 or pair[0] == pair[1]:
        raise RuleError("tromplemond.tie_break_pair")
    if isinstance(slips, Mapping):
        counts = _read_counts(slips, pair, 2, Phrase("field.tie_break_slips"))
    else:
        names = list(slips)
        if len(names) != 2:
            raise RuleError("tromplemond.tie_break_slip_count", count=len(names))
        for name in names:
            if name not in pair:
                raise RuleError("tromplemond.tie_break_slip_name", pair=pair[0], pair2=pair[1],
                                name=name)
        counts = {p: names.count(p) for p in pair}
    for name in pair:
        if counts[name] == 2:
            return VoteOutcome(VoteKind.VOTED_OFF, voted_off=name)
    return VoteOutcome(VoteKind.TIE_BREAK, tied=pair, deciders=deciders)


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Options:
    """A game's options, checked."""

    joining_fee: int = 0
    payout: tuple[int, int] = (75, 25)
    tromp_stake: int = 0
    rounds: int = 8
    target: int = 200

    def __post_init__(self) -> None:
        whole_number(self.joining_fee, Phrase("field.joining_fee"), minimum=0)
        whole_number(self.tromp_stake, Phrase("field.tromp_stake"), minimum=0)
        whole_number(self.rounds, Phrase("field.rounds"), minimum=1)
        whole_number(self.target, Phrase("field.target"), minimum=1)
        payout = self.payout
        if (not isinstance(payout, tuple) or len(payout) != 2
                or any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in payout)
                or sum(payout) != 100):
            shown = list(payout) if isinstance(payout, tuple) else payout
            raise RuleError("tromplemond.bad_payout", shown=shown)

    @property
    def has_stakes(self) -> bool:
        """True when money changes hands (a joining fee or a TROMP! stake)."""
        return self.joining_fee > 0 or self.tromp_stake > 0


def read_options(options: Mapping[str, Any]) -> Options:
    """Options from a record's ``options`` (defaults filled in; unknown names refused).

    >>> read_options({"joining_fee": 50}).payout
    (75, 25)
    """
    merged = merge_options(options, DEFAULTS, GAME)
    payout = merged["payout"]
    if isinstance(payout, list):
        payout = tuple(payout)
    fee = whole_number(merged["joining_fee"], Phrase("field.joining_fee"), minimum=0)
    stake = whole_number(merged["tromp_stake"], Phrase("field.tromp_stake"), minimum=0)
    rounds = whole_number(merged["rounds"], Phrase("field.rounds"), minimum=1)
    target = whole_number(merged["target"], Phrase("field.target"), minimum=1)
    if isinstance(payout, tuple) and all(isinstance(p, float) and p.is_integer()
                                         for p in payout):
        payout = tuple(int(p) for p in payout)
    return Options(fee, payout, stake, rounds, target)


def _check_players(players: Sequence[str]) -> tuple[str, ...]:
    names = tuple(players)
    if len(names) != 4:
        raise RuleError("tromplemond.seat_count", game=GAME, count=len(names))
    if any(not isinstance(n, str) or not n for n in names) or len(set(names)) != 4:
        raise RuleError("tromplemond.names_not_distinct")
    return names


# --------------------------------------------------------------------------- scoring


def round_points(hands: Mapping[str, Hand], off: str, players: Sequence[str],
                 ) -> dict[str, int]:
    """Each player's points for a round, before any dealer forfeit (seat order).

    ``hands`` must hold every survivor's hand; the ``off`` player scores 0.

    >>> hands = {"Rob": QuickHand("Rob", 26, 0, 1), "Sam": QuickHand("Sam", 26),
    ...          "Nick": QuickHand("Nick", 24, 1, 1)}
    >>> round_points(hands, "Emily", ["Rob", "Sam", "Nick", "Emily"])
    {'Rob': 11, 'Sam': -9, 'Nick': 30, 'Emily': 0}
    """
    survivors = [p for p in players if p != off]
    total_half = sum(hands[p].points // 2 for p in survivors)
    total_jacks = sum(hands[p].jacks for p in survivors)
    points = {}
    for p in players:
        if p == off:
            points[p] = 0
            continue
        hand = hands[p]
        halves = total_half - hand.points // 2
        points[p] = hand.points + halves - JACK_PENALTY * (total_jacks - hand.jacks)
    return points


def _survivor_line(player: str, hands: Mapping[str, Hand], survivors: Sequence[str],
                   points: int) -> dict[str, Any]:
    hand = hands[player]
    others = [q for q in survivors if q != player]
    halves = {q: hands[q].points // 2 for q in others}
    against = {q: hands[q].jacks for q in others if hands[q].jacks}
    penalty = -JACK_PENALTY * sum(against.values())
    line = {
        "off": False, "own_points": hand.points, "jacks": hand.jacks,
        "halves": halves, "jacks_against": against, "jack_penalty": penalty,
        "points": points, "forfeited": False, "score": points,
        "call": hand.call.value if hand.call else None, "called": False, "won": 0,
    }
    # The English written out here (replay is on every page's path); :func:`explain` says
    # the same line as a Phrase (tests/rules/test_tromplemond.py keeps the two the same).
    terms = [f"{hand.points} own"]
    terms += [f"+ {halves[q]} (half of {q}'s {hands[q].points})" for q in others]
    terms += [f"\u2212 {JACK_PENALTY * n} ({q}'s {n} jack{'' if n == 1 else 's'})"
              for q, n in against.items()]
    line["explain"] = " ".join(terms) + f" = {points}".replace("-", "\u2212")
    return line


def _explain(line: Mapping[str, Any], own: Mapping[str, int]) -> Phrase:
    """A survivor's score in words, from their line of the breakdown and the other
    survivors' own points: ``26 own + 9 (half of Sam's 18) − 20 (Nick's 1 jack) = 15``."""
    terms = [Phrase("tromplemond.explain.own", {"points": line["own_points"]})]
    terms += [Phrase("tromplemond.explain.half", {"half": half, "name": q, "points": own[q]})
              for q, half in line["halves"].items()]
    terms += [Phrase("tromplemond.explain.jacks", {"penalty": JACK_PENALTY * n, "name": q,
                                                   "jacks": n})
              for q, n in line["jacks_against"].items()]
    return Phrase("tromplemond.explain.line", {
        "terms": tuple(terms), "points": str(line["points"]).replace("-", "\u2212")})


def explain(breakdown: Mapping[str, Any], player: str) -> Phrase:
    """A survivor's score in a round's ``breakdown`` in words, as a Phrase (its English is
    the line's ``explain``)."""
    lines = breakdown["players"]
    line = lines[player]
    return _explain(line, {q: lines[q]["own_points"] for q in line["halves"]})


@dataclass(frozen=True)
class Round:
    """One round's facts, checked."""

    dealer: str
    hands: Mapping[str, Hand]
    off: str
    shown_early: bool
    dealer_forfeit: bool
    called: tuple[str, ...]
    cut_winner: str | None


_ROUND_KEYS = frozenset({"hands", "voted_off", "shown_early", "dealer_forfeit", "called",
                         "cut_winner"})


def _optional_player(data: Mapping[str, Any], key: str, players: Sequence[str],
                     where: str | Phrase) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    return require_player(value, players, Phrase("field.in_round", {"where": where, "key": key}))


def read_round(data: object, index: int, players: Sequence[str], dealer: str) -> Round:
    """One round of the record, checked (messages start ``round N:``)."""
    where = the_round(index)
    if not isinstance(data, Mapping):
        raise RuleError("tromplemond.round_not_an_object", where=where)
    unknown = sorted(set(data) - _ROUND_KEYS, key=str)
    if unknown:
        raise RuleError("tromplemond.round_unknown_field", where=where, unknown=unknown[0])
    voted_off = _optional_player(data, "voted_off", players, where)
    shown = _optional_player(data, "shown_early", players, where)
    if shown is not None and voted_off not in (None, shown):
        raise RuleError("tromplemond.shown_early_goes_off", where=where, shown=shown,
                        voted_off=voted_off)
    off = shown or voted_off
    if off is None:
        raise RuleError("tromplemond.nobody_off", where=where)
    forfeit = true_or_false(data.get("dealer_forfeit"),
                            Phrase("field.dealer_forfeit", {"where": where}))
    given = data.get("hands")
    if given is None:
        given = {}
    if not isinstance(given, Mapping):
        raise RuleError("tromplemond.hands_not_an_object", where=where)
    for name in given:
        require_player(name, players, Phrase("field.hands", {"where": where}))
    for p in players:
        if p != off and p not in given:
            raise RuleError("tromplemond.hand_missing", where=where, p=p)
    hands = check_hands({p: given[p] for p in players if p in given}, where)
    called_raw = data.get("called")
    if called_raw is None:
        called_raw = []
    if not isinstance(called_raw, list):
        raise RuleError("tromplemond.called_not_a_list", where=where)
    called: list[str] = []
    for name in called_raw:
        require_player(name, players, Phrase("field.called", {"where": where}))
        if name in called:
            raise RuleError("tromplemond.called_twice", where=where, name=name)
        if name == off:
            raise RuleError("tromplemond.off_cannot_call", where=where, name=name)
        if hands[name].call is None:
            raise RuleError("tromplemond.call_without_jack", where=where, name=name)
        called.append(name)
    cut = _optional_player(data, "cut_winner", players, where)
    return Round(dealer, hands, off, shown is not None, forfeit,
                 tuple(p for p in players if p in called), cut)


def leaders(totals: Mapping[str, int]) -> list[str]:
    """The player(s) with the top total, in the mapping's order.

    >>> leaders({"Rob": 30, "Sam": 42, "Nick": 42, "Emily": 0})
    ['Sam', 'Nick']
    """
    top = max(totals.values())
    return [p for p, t in totals.items() if t == top]


def share_joining_pot(pot: int, payout: Sequence[int], winner: str,
                      runners_up: Sequence[str]) -> dict[str, int]:
    """The joining-fee pot: the runner-up share split (rounded down), the rest to the winner.

    >>> share_joining_pot(100, (75, 25), "Rob", ["Sam", "Nick"])
    {'Rob': 76, 'Sam': 12, 'Nick': 12}
    """
    paid = dict.fromkeys([winner, *runners_up], 0)
    if runners_up:
        each = pot * payout[1] // 100 // len(runners_up)
        for p in runners_up:
            paid[p] = each
    paid[winner] = pot - sum(paid[p] for p in runners_up)
    return paid


def share_kitty(kitty: int, supers: Sequence[str], ultimates: Sequence[str],
                best_round: Sequence[str]) -> dict[str, dict[str, int]]:
    """The end-of-game kitty: Supers ¼ each, Ultimates the rest, then the best round.

    ``best_round`` is in seat order from round 1's dealer (the leftover units
    go to the earliest). Returns what each step pays.

    >>> share_kitty(41, ["Sam"], ["Nick"], ["Rob"])
    {'super': {'Sam': 10}, 'ultimate': {'Nick': 31}, 'best_round': {}}
    >>> share_kitty(41, ["Sam"], [], ["Rob", "Nick"])
    {'super': {'Sam': 10}, 'ultimate': {}, 'best_round': {'Rob': 16, 'Nick': 15}}
    """
    left = kitty
    super_paid = {p: kitty // 4 for p in supers}
    left -= sum(super_paid.values())
    ultimate_paid: dict[str, int] = {}
    if ultimates and left:
        ultimate_paid = dict.fromkeys(ultimates, left // len(ultimates))
        left -= sum(ultimate_paid.values())
    best_paid: dict[str, int] = {}
    if left and best_round:
        best_paid = distribute_odd_units(left, best_round)
    return {"super": super_paid, "ultimate": ultimate_paid, "best_round": best_paid}


@dataclass(frozen=True)
class PotShare:
    """What happens to one round pot: who wins what, the kitty, the Extreme winner."""

    won: dict[str, int]
    """Taken from the round pot, by player (only amounts above 0)."""
    took_kitty: int
    """The kitty an Extreme call took this round."""
    to_kitty: int
    """What of the round pot went to the kitty."""
    kitty: int
    """The kitty after the round."""
    extreme: str | None
    """Who takes every round pot from now on (the last Extreme winner), if anyone."""


def share_round_pot(round_pot: int, calls: Mapping[str, TrompCall], kitty: int = 0,
                    extreme: str | None = None) -> PotShare:
    """Share a round pot among the correct ``calls`` (survivors, in seat order).

    Each call wins its share rounded down and the rest goes to the kitty; an
    Extreme call takes the kitty and the pot, and ``extreme`` (the Extreme
    winner of an earlier round) takes the whole pot.

    >>> share_round_pot(20, {"Rob": TrompCall.MOYENNE, "Sam": TrompCall.TROMPLEMOND}, 7)
    PotShare(won={'Rob': 5, 'Sam': 10}, took_kitty=0, to_kitty=5, kitty=12, extreme=None)
    >>> share_round_pot(20, {"Rob": TrompCall.EXTREME}, 7)
    PotShare(won={'Rob': 20}, took_kitty=7, to_kitty=0, kitty=0, extreme='Rob')
    >>> share_round_pot(20, {"Sam": TrompCall.GRAND}, 0, "Rob").won
    {'Rob': 20}
    """
    took = 0
    for player, call in calls.items():
        if call is TrompCall.EXTREME:
            extreme, took = player, kitty
    if extreme is not None:
        won = {extreme: round_pot} if round_pot else {}
    else:
        shares = {p: call.share_of(round_pot) for p, call in calls.items()}
        won = {p: share for p, share in shares.items() if share}
    to_kitty = round_pot - sum(won.values())
    return PotShare(won, took, to_kitty, kitty - took + to_kitty, extreme)


class _Phase(Enum):
    PLAYING = "playing"
    EXTRA = "extra round due"
    CUT = "card cut due"
    DONE = "done"


def _next_phase(phase: _Phase, index: int, totals: Mapping[str, int], opts: Options,
                cut_winner: str | None) -> tuple[_Phase, tuple[str, str] | None]:
    """Where the game stands after round ``index``; ``(winner, how)`` once it is settled."""
    where = the_round(index)
    top = leaders(totals)
    if phase is _Phase.PLAYING:
        if cut_winner is not None:
            raise RuleError("tromplemond.cut_winner_too_early", where=where)
        if index + 1 < opts.rounds and max(totals.values()) < opts.target:
            return phase, None
        if len(top) > 1:
            return _Phase.EXTRA, None
        return _Phase.DONE, (top[0], "rounds played" if index + 1 >= opts.rounds
                             else "target reached")
    if len(top) == 1:
        if cut_winner is not None:
            raise RuleError("tromplemond.cut_not_needed", where=where, top=top[0])
        return _Phase.DONE, (top[0], "extra round")
    if cut_winner is None:
        return _Phase.CUT, None
    if cut_winner not in top:
        raise RuleError("tromplemond.cut_winner_not_tied", where=where, cut_winner=cut_winner,
                        top=tuple(top))
    return _Phase.DONE, (cut_winner, "card cut")


RECORD_FLAGS: tuple[str, ...] = ("void", "banned")
"""The record-level fields a Tromplemond record may carry besides the common ones."""


def _read_flags(record: Mapping[str, Any], players: Sequence[str]) -> tuple[bool, str | None]:
    void = true_or_false(record.get("void"), Phrase("field.void"))
    banned = record.get("banned")
    if banned is not None:
        require_player(banned, players, Phrase("field.banned"))
    return void, banned


def replay(record: Mapping[str, Any]) -> dict[str, Any]:
    """The result of a Tromplemond record (``docs/records.md``); RuleError on a bad record."""
    header = read_header(record, GAME, PLAYERS, DEFAULTS)
    players = header.players
    opts = read_options(header.options)
    void, banned = _read_flags(record, players)
    first = header.first_dealer
    round_pot = 4 * opts.tromp_stake

    totals = dict.fromkeys(players, 0)
    paid_in = dict.fromkeys(players, opts.joining_fee)
    received = dict.fromkeys(players, 0)
    kitty = 0
    extreme: str | None = None
    supers: set[str] = set()
    ultimates: set[str] = set()
    best_score: int | None = None
    best_players: set[str] = set()
    phase = _Phase.PLAYING
    how = ""
    winner: str | None = None
    out_rounds: list[dict[str, Any]] = []

    for i, data in enumerate(header.rounds):
        where = the_round(i)
        if phase is _Phase.DONE:
            raise RuleError("round.game_over", label=where, played=i)
        if phase is _Phase.CUT:
            raise RuleError("tromplemond.game_over_cut", where=where, round=the_round(i - 1))
        dealer = left_of(players, first, i)
        rnd = read_round(data, i, players, dealer)
        extra_round = phase is _Phase.EXTRA

        # Scores.
        points = round_points(rnd.hands, rnd.off, players)
        survivors = [p for p in players if p != rnd.off]
        lines: dict[str, dict[str, Any]] = {}
        for p in players:
            lines[p] = ({"off": True, "score": 0} if p == rnd.off
                        else _survivor_line(p, rnd.hands, survivors, points[p]))
        scores = dict(points)
        if rnd.dealer_forfeit and dealer != rnd.off:
            scores[dealer] = 0
            lines[dealer]["forfeited"] = True
            lines[dealer]["score"] = 0
        for p in players:
            totals[p] += scores[p]
        round_best = max(scores.values())
        if best_score is None or round_best > best_score:
            best_score, best_players = round_best, set()
        if round_best == best_score:
            best_players |= {p for p in players if scores[p] == round_best}

        # TROMP! money.
        for p in players:
            paid_in[p] += opts.tromp_stake
        calls = {p: rnd.hands[p].call for p in rnd.called}
        pot = share_round_pot(round_pot, calls, kitty, extreme)
        for p, call in calls.items():
            lines[p]["called"] = True
            # A call wins its own share, unless an Extreme winner holds the pots.
            if pot.extreme is None or call is TrompCall.EXTREME:
                lines[p]["won"] = pot.won.get(p, 0)
            if call is TrompCall.SUPER:
                supers.add(p)
            elif call is TrompCall.ULTIMATE:
                ultimates.add(p)
        for p, amount in pot.won.items():
            received[p] += amount
        if pot.extreme is not None:
            received[pot.extreme] += pot.took_kitty
        kitty_before, kitty, extreme = kitty, pot.kitty, pot.extreme

        # The end of the game.
        phase, settled = _next_phase(phase, i, totals, opts, rnd.cut_winner)
        if settled is not None:
            winner, how = settled

        breakdown = {
            "round": i + 1,
            "extra_round": extra_round,
            "off": {"player": rnd.off,
                    "reason": "showed cards early" if rnd.shown_early else "voted off"},
            "dealer_forfeit": rnd.dealer_forfeit,
            "players": lines,
            "pot": {"round_pot": round_pot, "kitty_before": kitty_before,
                    "extreme": extreme, "extreme_took_kitty": pot.took_kitty,
                    "to_kitty": pot.to_kitty, "kitty": kitty},
        }
        out_rounds.append({
            "dealer": dealer,
            "scores": scores,
            "totals": dict(totals),
            "tromp": pot.won,
            "breakdown": breakdown,
        })

    finished = phase is _Phase.DONE or void or banned is not None
    winners: list[str] = []
    end: dict[str, Any] | None = None
    if void or banned is not None:
        received, paid_in, kitty = dict.fromkeys(players, 0), dict.fromkeys(players, 0), 0
        if not void:
            winners = [winner] if winner is not None else leaders(totals)
        end = {"how": "void" if void else "banned", "winners": winners, "returned": True}
        if not void:
            end["banned"] = banned
    elif phase is _Phase.DONE:
        assert winner is not None
        winners = [winner]
        others = {p: t for p, t in totals.items() if p != winner}
        runners_up = leaders(others)
        fee_pot = 4 * opts.joining_fee
        if extreme is not None:
            fee_paid = {extreme: fee_pot}
        else:
            fee_paid = share_joining_pot(fee_pot, opts.payout, winner, runners_up)
        seat_from_first = clockwise_from(players, first)
        kitty_paid = share_kitty(
            kitty,
            [p for p in players if p in supers],
            [p for p in players if p in ultimates],
            [p for p in seat_from_first if p in best_players],
        )
        for paid in (fee_paid, *kitty_paid.values()):
            for p, amount in paid.items():
                received[p] += amount
        end = {
            "how": how, "winners": winners, "runners_up": runners_up,
            "joining_fee": {"pot": fee_pot, "paid": fee_paid, "extreme": extreme},
            "kitty": {"at_end": kitty, **kitty_paid, "best_round_score": best_score},
        }
        kitty = 0
    if end is not None and out_rounds:
        out_rounds[-1]["breakdown"]["end"] = end

    money = ({p: received[p] - paid_in[p] for p in players} if opts.has_stakes else {})
    return {
        "rounds": out_rounds,
        "totals": dict(totals),
        "finished": finished,
        "winners": winners,
        "money": money,
        "kitty": kitty,
    }


def money_lines(record: Mapping[str, Any]) -> list[MoneyLine]:
    """Every movement of money in the game (none when it has no stakes).

    The joining fees (for the whole game), then round by round the TROMP!
    stakes, what was won from the round pot and any kitty an Extreme call
    took, then at the end the fee payout and the kitty's shares. A void or
    abandoned game has the fees and stakes and one ``money returned`` line
    each instead of any winnings (nothing is paid). The lines add up,
    player by player, to ``replay(record)["money"]``.

    >>> rec = {"game": "tromplemond", "players": ["Rob", "Sam", "Nick", "Emily"],
    ...        "options": {"joining_fee": 100}, "void": True, "rounds": []}
    >>> [(line.player, line.amount, line.what.value) for line in money_lines(rec)][:2]
    [('Rob', -100, 'joining fee'), ('Sam', -100, 'joining fee')]
    >>> money_lines(rec)[-1]
    MoneyLine(round=None, player='Emily', amount=100, what=<What.MONEY_RETURNED: 'money returned'>)
    """
    result = replay(record)
    if not result["money"]:
        return []
    header = read_header(record, GAME, PLAYERS, DEFAULTS)
    players, opts = header.players, read_options(header.options)
    void, banned = _read_flags(record, players)
    returned = void or banned is not None
    lines = lines_of(None, What.JOINING_FEE, dict.fromkeys(players, opts.joining_fee))
    for number, rnd in enumerate(result["rounds"], 1):
        lines += lines_of(number, What.TROMP_STAKE, dict.fromkeys(players, opts.tromp_stake))
        pot = rnd["breakdown"]["pot"]
        if not returned:
            lines += lines_of(number, What.ROUND_POT_WON, rnd["tromp"])
            if pot["extreme_took_kitty"]:
                lines += lines_of(number, What.KITTY,
                                  {pot["extreme"]: pot["extreme_took_kitty"]})
    if returned:
        paid_in = opts.joining_fee + opts.tromp_stake * len(result["rounds"])
        return lines + lines_of(None, What.MONEY_RETURNED, dict.fromkeys(players, paid_in))
    end = result["rounds"][-1]["breakdown"]["end"] if result["finished"] else None
    if end is not None:
        lines += lines_of(None, What.FEE_PAYOUT, end["joining_fee"]["paid"])
        kitty = dict.fromkeys(players, 0)
        for step in ("super", "ultimate", "best_round"):
            for p, amount in end["kitty"][step].items():
                kitty[p] += amount
        lines += lines_of(None, What.KITTY, kitty)
    return lines


# --------------------------------------------------------------------------- checklists


def deck_prep(players: Sequence[str], options: Mapping[str, Any],
              money: Callable[[int], str] = str) -> Checklist:
    """Once per game: make the 26-card deck (and collect the joining fee).

    ``money`` writes an amount (default: the bare number of units).

    >>> steps = deck_prep(["Rob", "Sam", "Nick", "Emily"], {}).steps
    >>> steps[1]
    'Take out every 5, 6, 7, 8 and 9 (20 cards): 32 cards left.'
    >>> deck_prep(["Rob", "Sam", "Nick", "Emily"], {"joining_fee": 150},
    ...           lambda n: f"£{n / 100:.2f}").steps[5][:60]
    'Rob, Sam, Nick and Emily each put the joining fee of £1.50 i'

    Its English; :func:`deck_prep_phrases` gives the same steps as Phrases.
    """
    return in_english(deck_prep_phrases(players, options, money))


def in_english(checklist: Checklist) -> Checklist:
    """A checklist of Phrases with its title and steps in English (the rules' own text)."""
    return Checklist(str(checklist.title), tuple(str(step) for step in checklist.steps))


def deck_prep_phrases(players: Sequence[str], options: Mapping[str, Any],
                      money: Callable[[int], str] = str) -> Checklist:
    """:func:`deck_prep` with its title and steps as Phrases (``str()`` of each is the same)."""
    names = _check_players(players)
    opts = read_options(options)
    by_suit = "; ".join(
        " ".join(str(c) for c in DECK if c.suit is suit)
        for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    )
    steps = [
        Phrase("tromplemond.deck.take"),
        Phrase("tromplemond.deck.take_out_middle"),
        Phrase("tromplemond.deck.take_out_clubs"),
        Phrase("tromplemond.deck.remain", {"count": len(DECK), "cards": by_suit}),
        Phrase("tromplemond.deck.points", {"penalty": JACK_PENALTY}),
    ]
    if opts.joining_fee:
        steps.append(Phrase("tromplemond.deck.joining_fee", {
            "names": names, "fee": money(opts.joining_fee), "all": money(4 * opts.joining_fee),
            "first": opts.payout[0], "second": opts.payout[1]}))
    if opts.tromp_stake:
        steps.append(Phrase("tromplemond.deck.tromp_betting", {
            "stake": money(opts.tromp_stake), "all": money(4 * opts.tromp_stake)}))
    steps.append(Phrase("tromplemond.deck.end", {"rounds": opts.rounds, "target": opts.target}))
    return Checklist(Phrase("tromplemond.deck.title"), tuple(steps))  # type: ignore[arg-type]


def deal_steps(players: Sequence[str], dealer: str, options: Mapping[str, Any],
               money: Callable[[int], str] = str) -> Checklist:
    """One round's dealing and play, naming the dealer and the order of play.

    ``money`` writes an amount (default: the bare number of units).

    >>> steps = deal_steps(["Rob", "Sam", "Nick", "Emily"], "Sam", {}).steps
    >>> steps[0]
    'Sam deals: set the 4 jacks and 4 aces aside.'
    >>> steps[-1]
    'Next round Nick deals.'

    Its English; :func:`deal_steps_phrases` gives the same steps as Phrases.
    """
    return in_english(deal_steps_phrases(players, dealer, options, money))


def deal_steps_phrases(players: Sequence[str], dealer: str, options: Mapping[str, Any],
                       money: Callable[[int], str] = str) -> Checklist:
    """:func:`deal_steps` with its title and steps as Phrases (``str()`` of each is the same)."""
    names = _check_players(players)
    require_player(dealer, names, Phrase("field.dealer"))
    opts = read_options(options)
    left = left_of(names, dealer)
    deal_order = tuple(clockwise_from(names, left))
    claim_order = tuple(clockwise_from(names, dealer))
    steps = [
        Phrase("tromplemond.deal.aside", {"dealer": dealer}),
        Phrase("tromplemond.deal.discard", {"dealer": dealer}),
        Phrase("tromplemond.deal.back_in"),
        Phrase("tromplemond.deal.deal", {"dealer": dealer, "order": deal_order}),
        Phrase("tromplemond.deal.error", {"dealer": dealer}),
        Phrase("tromplemond.deal.claims", {"dealer": dealer, "order": claim_order}),
        Phrase("tromplemond.deal.interrogation"),
        Phrase("tromplemond.deal.vote"),
        Phrase("tromplemond.deal.reveal"),
    ]
    if opts.tromp_stake:
        steps.insert(0, Phrase("tromplemond.deal.stake", {
            "stake": money(opts.tromp_stake), "all": money(4 * opts.tromp_stake)}))
    steps.append(Phrase("tromplemond.deal.next", {"left": left}))
    return Checklist(Phrase("tromplemond.deal.title", {"dealer": dealer}),  # type: ignore[arg-type]
                     tuple(steps))


# --------------------------------------------------------------------------- where a game stands


@dataclass(frozen=True)
class Progress:
    """Where a game stands: the next round to play, the tie a card cut must settle, or the end.

    Everything the round pages need to know about "what now", read from the
    record by the rules (so no page counts rounds or compares totals itself).
    """

    result: dict[str, Any]
    """``replay(record)``."""
    round_index: int
    """The next round, 0-based (the number of rounds in the record)."""
    dealer: str
    """Who deals the next round."""
    claim_order: tuple[str, ...]
    """The order of claims in the next round: the dealer first, then clockwise."""
    extra_round: bool
    """True when the next round is the extra round, played because the top total is shared."""
    tied: tuple[str, ...]
    """Those sharing the top total, when an extra round or a card cut is due (seat order)."""
    cut_due: bool
    """True when the extra round left the top shared: the scorekeeper records a card cut."""
    finished: bool
    """True when the game is over (won, void or abandoned): no more rounds."""

    @property
    def playing(self) -> bool:
        """True when another round is to be played."""
        return not self.finished and not self.cut_due

    @property
    def round_number(self) -> int:
        """The next round as players count it (1 for the first)."""
        return self.round_index + 1


def progress(record: Mapping[str, Any], result: Mapping[str, Any] | None = None) -> Progress:
    """Where the game of ``record`` stands (RuleError when the record is refused).

    ``result``, when given, is ``replay(record)`` already made (it is not made again).

    >>> rec = {"game": "tromplemond", "players": ["Rob", "Sam", "Nick", "Emily"],
    ...        "first_dealer": "Sam", "options": {"rounds": 1}, "rounds": []}
    >>> now = progress(rec)
    >>> now.round_number, now.dealer, now.claim_order, now.playing
    (1, 'Sam', ('Sam', 'Nick', 'Emily', 'Rob'), True)
    >>> rec["rounds"].append({"hands": {p: {"points": 20} for p in ("Rob", "Sam", "Nick")},
    ...                       "voted_off": "Emily"})
    >>> now = progress(rec)
    >>> now.extra_round, now.tied, now.dealer
    (True, ('Rob', 'Sam', 'Nick'), 'Nick')
    """
    result = dict(result) if result is not None else replay(record)
    header = read_header(record, GAME, PLAYERS, DEFAULTS)
    players, opts = header.players, read_options(header.options)
    played = len(header.rounds)
    totals = result["totals"]
    finished = bool(result["finished"])
    extra = cut = False
    if not finished:
        last_was_extra = bool(played) and result["rounds"][-1]["breakdown"]["extra_round"]
        # Not finished, yet the last round was the extra one (or the end came): a shared top.
        cut = last_was_extra
        extra = not last_was_extra and (played >= opts.rounds
                                        or max(totals.values()) >= opts.target)
    dealer = left_of(players, header.first_dealer, played)
    return Progress(
        result=result, round_index=played, dealer=dealer,
        claim_order=tuple(clockwise_from(players, dealer)), extra_round=extra,
        tied=tuple(leaders(totals)) if extra or cut else (), cut_due=cut, finished=finished)


# --------------------------------------------------------------------------- the record book

RECORDS = (RecordKind("highest_tromplemond_round", rank=1),
           RecordKind("biggest_tromp_payout", per_unit=True, rank=2))
"""Its table records (``companion.rules.records``' readings): the highest round, and the
biggest TROMP! payout in the table's unit."""

_KITTY_STEPS = ("super", "ultimate", "best_round")
"""The shares of the kitty at the end of a game, each a take of its own."""


def record_facts(record: Mapping[str, Any], game: Any, unit: str) -> RecordFacts:
    """What the record book reads of a game (``companion.rules.records``).

    Its rounds: the round score (0 for the player who went off or forfeited the deal);
    a void game's rounds count for nothing (the game is null and void), and a void game
    has no winner; an abandoned (banned) one's standings stand. Its runner-up: by total
    (the game's own runner-up, after a card cut too). Its money: a void game played for
    money is a part, 0, all money back. Its takes, in the table's ``unit``: a call's
    share of a round pot, the kitty an Extreme call took in its round, a share of the
    joining-fee pot, or one share of the kitty at the end (a Super's quarter, an
    Ultimate's part, the best round's part: three takes when one player gets all three);
    a void or abandoned game's do not count (all money went back). Its records: the
    highest round (any player's round score, void games left out; held by whoever scored
    it in that round) and the biggest TROMP! payout (one take of TROMP! money: a call's
    share of a round pot, the kitty an Extreme call took, or one share of the kitty at
    the end, never two shares added; per unit; held by who took it).

    >>> from companion.rules.records import record_book
    >>> def game(*seats):
    ...     hand = {"points": 20, "public_jacks": 0, "secret_jacks": 0}
    ...     return {"game": "tromplemond", "players": list(seats), "options": {"rounds": 1},
    ...             "rounds": [{"hands": {seats[0]: hand | {"points": 30}, seats[1]: hand,
    ...                                   seats[2]: hand}, "voted_off": seats[3]}]}
    >>> book = record_book([
    ...     {"unit": "GBP", "games": [game("Ana", "Ben", "Cleo", "Dev")]},
    ...     {"unit": "GBP", "games": [game("Anna", "Ben", "Cleo", "Dev")],
    ...      "player_ids": {"Anna": "Ana"}}])
    >>> ana = book.player("Ana")
    >>> ana.name, ana.names
    ('Anna', ('Ana', 'Anna'))
    >>> figures = ana.games["tromplemond"]
    >>> figures.played.value, figures.won.value, figures.best_round.value
    (2, 2, 50)
    >>> figures.best_round.sources
    (Source(place=Place(evening=1, game=1, round=1), part=50),)
    >>> book.records.highest_tromplemond_round
    Record(value=50, place=Place(evening=1, game=1, round=1), players=('Ana',))
    """
    void = record.get("void") is True
    rounds = [] if void else round_scores(game.result)
    found = [("highest_tromplemond_round", top, number,
              tuple(p for p, s in scores.items() if s == top))
             for number, scores in rounds for top in [max(scores.values())]]
    takes = _takes(game.result)
    found += [("biggest_tromp_payout", amount, number, (player,))
              for number, player, amount, tromp in takes if tromp]
    return RecordFacts(tuple(rounds), dict(game.result["totals"]), unit, records=tuple(found),
                       takes=tuple((number, player, amount)
                                   for number, player, amount, _t in takes))


def _takes(result: Mapping[str, Any]) -> list[tuple[int | None, str, int, bool]]:
    """Each take of a game: (round, player, amount, whether it is TROMP! money).

    Round by round a call's share of the round pot and the kitty an Extreme call
    took; at the end the fee payout and each share of the kitty (a Super's quarter,
    an Ultimate's part, the best round's part: one take each, even for one player).
    A void or abandoned game has none: all money went back.
    """
    rounds = result["rounds"]
    end = rounds[-1]["breakdown"].get("end") if rounds else None
    if end is not None and end.get("returned"):
        return []
    takes: list[tuple[int | None, str, int, bool]] = []
    for number, rnd in enumerate(rounds, 1):
        takes += [(number, p, amount, True) for p, amount in rnd["tromp"].items() if amount]
        pot = rnd["breakdown"]["pot"]
        if pot["extreme_took_kitty"]:
            takes.append((number, pot["extreme"], pot["extreme_took_kitty"], True))
    if end is not None:
        takes += [(None, p, amount, False)
                  for p, amount in end["joining_fee"]["paid"].items() if amount]
        takes += [(None, p, amount, True)
                  for step in _KITTY_STEPS for p, amount in end["kitty"][step].items() if amount]
    return takes
