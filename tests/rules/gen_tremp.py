"""Random valid Tremp records, made from real deals and legal bidding.

Each hand deals the 52 cards (13 each, from the dealer's left); players bid
in turn by displaying a card from their own hand (more eagerly while the bid
is low; the dealer must bid if the other three pass) until three passes in a
row follow a bid. The bidding team's tricks are drawn around the bid.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.tremp import rules as tremp
from companion.rules.cards import standard_deck
from companion.rules.common import clockwise_from, left_of

PLAYERS = ("Rob", "Sam", "Nick", "Emily")
_DECK = standard_deck()


def bid_hand(rng: random.Random, dealer: str, players: tuple[str, ...] = PLAYERS,
             ) -> list[list[str]]:
    """Deal a hand and bid it out; returns the ``bids`` of the record."""
    deck = list(_DECK)
    rng.shuffle(deck)
    order = clockwise_from(players, left_of(players, dealer))
    hands = {p: deck[i * tremp.TRICKS:(i + 1) * tremp.TRICKS] for i, p in enumerate(order)}
    entries: list[list[str]] = []
    turn = order[0]
    passes = shown = 0
    while True:
        bid = tremp.OPENING_BID + shown
        chance = 0.6 if bid < 0 else max(0.04, 0.45 - 0.05 * bid)
        must = shown == 0 and passes == len(players) - 1
        if hands[turn] and (must or rng.random() < chance):
            card = hands[turn].pop(rng.randrange(len(hands[turn])))
            entries.append([turn, str(card) if rng.random() < 0.8 else card.ascii])
            shown += 1
            passes = 0
        else:
            entries.append([turn, "pass" if rng.random() < 0.9 else "Pass"])
            passes += 1
            if shown and passes == len(players) - 1:
                return entries
        turn = left_of(players, turn)


def _tricks_choices(rng: random.Random, bid: int) -> list[int]:
    if rng.random() < 0.2:
        first = rng.randint(0, tremp.TRICKS)
    else:
        first = min(tremp.TRICKS, max(0, round(rng.gauss(max(bid, 0) + 0.5, 2.5))))
    others = [r for r in range(tremp.TRICKS + 1) if r != first]
    rng.shuffle(others)
    return [first, *others]


def random_record(rng: random.Random, rounds: int = 12, *, avoid_end: bool = False,
                  **options: Any) -> dict[str, Any]:
    """A valid Tremp record of at most ``rounds`` hands (fewer if the game ends).

    ``avoid_end`` picks, where any exists, a number of tricks that does not
    end the game, so a long game (the 50-hand benchmark) really lasts.
    ``options`` (``beginners``) go into the record.
    """
    first_dealer = rng.choice(PLAYERS)
    record: dict[str, Any] = {"game": "tremp", "players": list(PLAYERS),
                              "first_dealer": first_dealer, "options": dict(options),
                              "rounds": []}
    game = tremp.Game.start(PLAYERS, first_dealer,
                            tremp.read_beginners(dict(tremp.DEFAULTS) | options))
    while not game.finished and len(record["rounds"]) < rounds:
        bids = bid_hand(rng, game.dealer)
        bidding = tremp.read_bidding(bids, PLAYERS, game.dealer, "hand")
        for tricks in _tricks_choices(rng, bidding.bid):
            _, after = game.play(tremp.Hand(bidding, tricks))
            if not (avoid_end and after.finished):
                break
        record["rounds"].append({"bids": bids, "tricks": tricks})
        game = after
    return record


EVENING_WEIGHT = 1
"""How often a random evening (``gen_evening``) picks a game of this kind, against the
other games' weights."""


def evening_game(rng: random.Random) -> dict[str, Any]:
    """One game of a random evening (``gen_evening``): finished or running, as this
    generator makes it."""
    return random_record(rng, rng.randint(0, 6))
