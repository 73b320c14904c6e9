"""Random valid Trumplestiltskin records, made by playing real hands.

Every hand deals the 44 cards and the Blanket for real, holds a legal
auction (with the house rule for the last player), and plays the tricks with
cards following suit, so the points taken are those of real cards. The game
stops early when its own (independent) tally says it has ended.

>>> import random
>>> record = random_record(random.Random(1), rounds=3)
>>> record["game"], len(record["rounds"]) <= 3
('trumplestiltskin', True)
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from companion.rules.cards import BLACK_JOKER, RED_JOKER, SUITS, Joker, Rank, Suit, SuitCard

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed")
_ORDER = {Rank.NINE: 0, Rank.TEN: 1, Rank.JACK: 2, Rank.QUEEN: 3, Rank.KING: 4, Rank.ACE: 5}
DECK_44 = tuple(SuitCard(rank, suit) for suit in SUITS
                for rank in (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN) * 2
                + (Rank.NINE,))
BLANKET = tuple(SuitCard(Rank.NINE, suit) for suit in SUITS) + (RED_JOKER, BLACK_JOKER)


def random_record(rng: random.Random, rounds: int = 12, **options: Any) -> dict:
    """A valid record of up to ``rounds`` hands (fewer if the game ends first).

    ``options`` are the record's options (``target``, ``gnome_target``), plus
    ``players`` (3, 4 or 5; random when left out) for the table size.
    """
    count = options.pop("players", None) or rng.randint(3, 5)
    players = list(NAMES[:count])
    target = options.get("target", 200)
    gnome_target = options.get("gnome_target", 350)
    dealer = rng.choice(players)
    record: dict[str, Any] = {"game": "trumplestiltskin", "players": players,
                              "first_dealer": dealer, "options": dict(options), "rounds": []}
    totals = dict.fromkeys(players, Fraction(0))
    gnome = Fraction(0)
    for _ in range(rounds):
        hand, taker = _random_hand(rng, players, dealer)
        record["rounds"].append(hand)
        gnome += _tally(hand, taker, totals)
        if any(t >= target for t in totals.values()) or gnome >= gnome_target:
            break
        dealer = players[(players.index(dealer) + 1) % count]
    return record


def _clockwise_from_left(players: list[str], dealer: str) -> list[str]:
    i = (players.index(dealer) + 1) % len(players)
    return players[i:] + players[:i]


def _random_hand(rng: random.Random, players: list[str], dealer: str) -> tuple[dict, str | None]:
    order = _clockwise_from_left(players, dealer)
    deck = list(DECK_44)
    rng.shuffle(deck)
    hands: dict[str, list] = {p: [] for p in players}
    for i, card in enumerate(deck):
        hands[order[i % len(order)]].append(card)
    blanket = list(BLANKET)
    rng.shuffle(blanket)
    gnome_card = blanket.pop()
    for p in order:
        hands[p].append(blanket.pop())

    bids, looked, taker, top = _auction(rng, order)
    if taker is None:
        return {"bids": bids}, None
    if isinstance(gnome_card, Joker):
        trump = rng.choice([s for s in SUITS if s.colour == gnome_card.colour])
    else:
        trump = gnome_card.suit
    hand: dict[str, Any] = {"bids": bids, "looked": looked, "gnome": str(gnome_card)}
    if isinstance(gnome_card, Joker) or rng.random() < 0.3:
        hand["trump"] = str(trump)
    hand["points"] = _play(rng, players, hands, taker, trump)
    return hand, taker


def _auction(rng: random.Random, order: list[str]
             ) -> tuple[list, list[str], str | None, int]:
    """A legal auction: returns the bids spoken, who looked, the taker and the top bid."""
    bids: list = []
    looked: list[str] = []
    passed: set[str] = set()
    top, top_bidder = 0, None
    turn = 0
    while True:
        active = [p for p in order if p not in passed]
        if not active:
            return bids, looked, None, 0
        if len(active) == 1 and top_bidder is not None:
            return bids, looked, top_bidder, top
        player = order[turn % len(order)]
        turn += 1
        if player in passed:
            continue
        if player not in looked and rng.random() < 0.2:
            looked.append(player)
        alone = len(active) == 1
        if top >= 30 or rng.random() < (0.3 if alone else 0.45):
            bids.append([player, "pass"])
            passed.add(player)
        else:
            top = top + rng.randint(1, 4 if top else 12)
            top_bidder = player
            bids.append([player, top])
            if alone:
                return bids, looked, player, top


def _effective_suit(card, led: Suit | None, trump: Suit, rng: random.Random) -> Suit:
    """The suit a card is played as; a joker takes the led suit, trump, or one of its colour."""
    if not isinstance(card, Joker):
        return card.suit
    if led is not None and led.colour == card.colour:
        return led
    if trump.colour == card.colour and rng.random() < 0.8:
        return trump
    return rng.choice([s for s in SUITS if s.colour == card.colour])


def _value(card, suit: Suit, trump: Suit) -> int:
    base = 2 if isinstance(card, Joker) else 1 if card.rank in (Rank.ACE, Rank.KING) else 0
    return base + (1 if suit == trump else 0)


def _play(rng: random.Random, players: list[str], hands: dict[str, list], taker: str,
          trump: Suit) -> dict[str, int]:
    points = dict.fromkeys(players, 0)
    leader = taker
    while all(hands[p] for p in players):
        seats = players.index(leader)
        played = []
        led = None
        for p in players[seats:] + players[:seats]:
            cards = hands[p]
            if led is None:
                card = rng.choice(cards)
            else:
                follow = [c for c in cards if (c.colour == led.colour if isinstance(c, Joker)
                                               else c.suit == led)]
                card = rng.choice(follow or cards)
            cards.remove(card)
            suit = _effective_suit(card, led, trump, rng)
            if led is None:
                led = suit
            played.append((p, card, suit))
        leader = max(played, key=lambda t: _strength(t[1], t[2], led, trump))[0]
        points[leader] += sum(_value(c, s, trump) for _, c, s in played)
    # Unequal hands: the last trick's winner takes the few cards nobody could play.
    points[leader] += sum(_value(c, c.suit if not isinstance(c, Joker) else
                                 _effective_suit(c, None, trump, rng), trump)
                          for p in players for c in hands[p])
    return points


def _strength(card, suit: Suit, led: Suit, trump: Suit) -> tuple[int, int]:
    # max() keeps the first of equals: the first played of two identical cards wins.
    rank = 6 if isinstance(card, Joker) else _ORDER[card.rank]
    return (2 if suit == trump else 1 if suit == led else 0, rank)


def _tally(hand: dict, taker: str | None, totals: dict[str, Fraction]) -> Fraction:
    """Add the hand's scores to ``totals``; return what the Gnome got (an independent tally)."""
    if taker is None:
        return Fraction(0)
    top_bids: dict[str, int] = {}
    for name, said in hand["bids"]:
        if said != "pass":
            top_bids[name] = said
    gnome = Fraction(0)
    for name, p in hand["points"].items():
        looked = name in hand["looked"]
        b = top_bids.get(name)
        if name == taker:
            if p >= b:
                score = Fraction(p, 2) if looked else Fraction(2 * p)
                gnome += Fraction(p, 2) if looked else 0
            else:
                score = Fraction(-b)
                gnome += 2 * p if looked else p
        elif b is None:
            score = Fraction(0)
            gnome += p
        else:
            m = min(p, b)
            gnome += p - m
            score = Fraction(m, 2) if looked else Fraction(m)
            gnome += Fraction(m, 2) if looked else 0
        totals[name] += score
    return gnome


def expected(record: dict) -> tuple[dict[str, Fraction], Fraction]:
    """The players' totals and the Gnome's total by this module's own tally (an oracle)."""
    totals = dict.fromkeys(record["players"], Fraction(0))
    gnome = Fraction(0)
    for hand in record["rounds"]:
        taker = _taker_of(hand["bids"], len(record["players"]))
        gnome += _tally(hand, taker, totals)
    return totals, gnome


def _taker_of(bids: list, players: int) -> str | None:
    passes = sum(1 for _, said in bids if said == "pass")
    if passes == players:
        return None
    return next(name for name, said in reversed(bids) if said != "pass")


EVENING_WEIGHT = 1
"""How often a random evening (``gen_evening``) picks a game of this kind, against the
other games' weights."""


def evening_game(rng: random.Random) -> dict[str, Any]:
    """One game of a random evening (``gen_evening``): finished or running, as this
    generator makes it."""
    return random_record(rng, rng.randint(0, 4))
