"""Random valid Tromplemond records, made by actually dealing the rounds.

Each round follows RULES.md §1: the 4 jacks and 4 aces are set aside, 6 of
the other 18 cards are discarded unseen, the 20 cards are shuffled and dealt
5 each (3 secret, then 2 public) from the dealer's left. Someone goes off
(voted off, sometimes for showing cards early), survivors with jacks
sometimes shout their TROMP! call, and the game stops where the rules end it
(after the extra round and the card cut on a tie).

The scores are worked out here again, independently of the rules module,
so the tests can compare the two (:func:`random_game`).
"""

from __future__ import annotations

import random
from typing import Any

PLAYERS = ("Rob", "Sam", "Nick", "Emily")
_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_RANKS = ("A", "K", "Q", "J", "10", "4", "3", "2")
DECK = tuple(r + s for s in "♠♥♦" for r in _RANKS) + ("A♣", "J♣")
_POINTS = {"A": 10, "K": 8, "Q": 6, "10": 4, "4": 2, "3": 2, "2": 2, "J": 0}
# (back-row jacks, jacks on show) of the hands that win something, for rigged deals.
_CALL_PATTERNS = ((1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (0, 2), (1, 2), (2, 2))


def _rank(card: str) -> str:
    return card[:-1]


def _left_of(players: tuple[str, ...], player: str, steps: int = 1) -> str:
    return players[(players.index(player) + steps) % len(players)]


def _spell(rng: random.Random, card: str) -> str:
    """The card as a player might type it: symbol, ASCII, T for ten, lower case."""
    roll = rng.random()
    if roll < 0.75:
        return card
    rank, suit = _rank(card), _SUITS[card[-1]]
    if roll < 0.85:
        return rank + suit
    if roll < 0.95:
        return ("T" if rank == "10" else rank).lower() + suit.lower()
    return f" {rank} {card[-1]} "


def deal(rng: random.Random, players: tuple[str, ...], dealer: str,
         rigged: bool = False) -> dict[str, tuple[list[str], list[str]]]:
    """One real deal: ``{player: (public, secret)}``.

    ``rigged`` stacks the jacks of one player into a pattern that makes a
    paying TROMP! call (a lucky but possible deal).
    """
    jacks_aces = [c for c in DECK if _rank(c) in ("J", "A")]
    others = [c for c in DECK if _rank(c) not in ("J", "A")]
    rng.shuffle(others)
    cards = others[6:] + jacks_aces
    rng.shuffle(cards)
    order = [_left_of(players, dealer, k + 1) for k in range(len(players))]
    if rigged:
        lucky = rng.choice(players)
        secret_j, public_j = rng.choice(_CALL_PATTERNS)
        jacks = [c for c in cards if _rank(c) == "J"]
        rest = [c for c in cards if _rank(c) != "J"]
        rng.shuffle(jacks)
        rng.shuffle(rest)
        secret = jacks[:secret_j] + rest[:3 - secret_j]
        public = jacks[secret_j:secret_j + public_j] + rest[3 - secret_j:5 - secret_j - public_j]
        cards = [c for c in cards if c not in secret and c not in public]
        hands = {p: ([], []) for p in players}
        hands[lucky] = (public, secret)
        for p in order:
            if p != lucky:
                hand, cards = cards[:5], cards[5:]
                hands[p] = (hand[3:], hand[:3])
        return hands
    hands = {p: ([], []) for p in players}
    for k in range(5):
        for p in order:
            card = cards.pop()
            (hands[p][1] if k < 3 else hands[p][0]).append(card)
    return hands


def _jacks(cards: list[str]) -> int:
    return sum(1 for c in cards if _rank(c) == "J")


def _has_call(secret_j: int, public_j: int) -> bool:
    return secret_j + public_j > 0


def play_round(rng: random.Random, players: tuple[str, ...], dealer: str, *,
               rigged: bool = False) -> tuple[dict[str, Any], dict[str, int]]:
    """One round's record and its scores (worked out here, seat order)."""
    hands = deal(rng, players, dealer, rigged)
    off = rng.choice(players)
    rnd: dict[str, Any] = {}
    if rng.random() < 0.05:
        rnd["shown_early"] = off
        rnd["voted_off"] = rng.choice([None, off])
    else:
        rnd["voted_off"] = off
        if rng.random() < 0.5:
            rnd["shown_early"] = None
    entered: dict[str, Any] = {}
    for p in players:
        public, secret = hands[p]
        if p == off and rng.random() < 0.5:
            continue
        if rng.random() < 0.7:
            entered[p] = {"public": [_spell(rng, c) for c in public],
                          "secret": [_spell(rng, c) for c in secret]}
        else:
            entered[p] = {"points": sum(_POINTS[_rank(c)] for c in public + secret),
                          "public_jacks": _jacks(public), "secret_jacks": _jacks(secret)}
    rnd["hands"] = entered
    rnd["dealer_forfeit"] = rng.random() < 0.05
    survivors = [p for p in players if p != off]
    rnd["called"] = [p for p in survivors
                     if _has_call(_jacks(hands[p][1]), _jacks(hands[p][0]))
                     and rng.random() < 0.7]
    own = {p: sum(_POINTS[_rank(c)] for c in hands[p][0] + hands[p][1]) for p in players}
    jacks = {p: _jacks(hands[p][0] + hands[p][1]) for p in players}
    scores = {}
    for p in players:
        if p == off or (rnd["dealer_forfeit"] and p == dealer):
            scores[p] = 0
            continue
        others = [q for q in survivors if q != p]
        scores[p] = own[p] + sum(own[q] // 2 for q in others) - 20 * sum(jacks[q] for q in others)
    return rnd, scores


def random_game(rng: random.Random, rounds: int = 8, *, played: int | None = None,
                flags: bool = False, rigged: float = 0.1,
                **options: Any) -> tuple[dict[str, Any], dict[str, int]]:
    """A valid record and the totals worked out while dealing it.

    ``rounds`` is the game's ``rounds`` option; ``played`` stops after that many
    rounds (a game in progress), else play goes on until the game ends.
    Options not given are drawn at random. ``flags`` sometimes marks the game
    void or banned; ``rigged`` is the chance of a deal with a paying call.
    """
    opts = {
        "joining_fee": rng.choice([0, 0, 10, 25, 100]),
        "payout": rng.choice([[75, 25], [60, 40], [100, 0], [50, 50], [67, 33]]),
        "tromp_stake": rng.choice([0, 1, 5, 10]),
        "target": rng.choice([200, 120, 80, 10**9]),
    } | options | {"rounds": rounds}
    players = PLAYERS
    first = rng.choice(players)
    record: dict[str, Any] = {"game": "tromplemond", "players": list(players),
                              "first_dealer": first, "options": opts, "rounds": []}
    totals = dict.fromkeys(players, 0)
    phase = "playing"
    i = 0
    while phase not in ("done", "cut") and (played is None or i < played):
        dealer = _left_of(players, first, i)
        rnd, scores = play_round(rng, players, dealer, rigged=rng.random() < rigged)
        for p in players:
            totals[p] += scores[p]
        top = [p for p in players if totals[p] == max(totals.values())]
        if phase == "playing":
            if i + 1 >= opts["rounds"] or max(totals.values()) >= opts["target"]:
                phase = "extra" if len(top) > 1 else "done"
        elif len(top) == 1:
            phase = "done"
        elif rng.random() < 0.8:
            rnd["cut_winner"] = rng.choice(top)
            phase = "done"
        else:
            phase = "cut"
        record["rounds"].append(rnd)
        i += 1
    if flags:
        roll = rng.random()
        if roll < 0.1:
            record["void"] = True
        elif roll < 0.2:
            record["banned"] = rng.choice(players)
    return record, totals


def random_record(rng: random.Random, rounds: int = 8, **options: Any) -> dict[str, Any]:
    """A valid Tromplemond record (see :func:`random_game` for the keywords).

    For a 50-round game: ``random_record(rng, rounds=50, target=10**9)``.
    """
    return random_game(rng, rounds, **options)[0]


EVENING_WEIGHT = 3
"""How often a random evening (``gen_evening``) picks a game of this kind, against the
other games' weights."""


def evening_game(rng: random.Random) -> dict[str, Any]:
    """One game of a random evening (``gen_evening``): finished or running, as this
    generator makes it."""
    played = None if rng.random() < 0.7 else rng.randint(0, 4)
    return random_game(rng, rng.randint(1, 5), played=played, flags=True, rigged=0.3,
                       target=10**9)[0]
