"""Random valid Clumond records, made by actually playing the rounds.

Each round deals the 48-card deck (16 each), asks for Clumond from the
dealer's left, plays 13 legal tricks (follow suit; highest trump, else the
highest card of the suit led, wins) with random cards, and records the tricks
and the 3 cards each player kept (sometimes as ``declared`` numbers instead).
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.clumond import rules as clumond
from companion.rules.cards import STANDARD_RANKS, SUITS, Suit, SuitCard
from companion.rules.common import clockwise_from, left_of

PLAYERS = ("Ann", "Bo", "Cy")
_DECK = sorted(clumond.DECK, key=lambda c: (c.suit.value, STANDARD_RANKS.index(c.rank)))
_POWER = {rank: i for i, rank in enumerate(STANDARD_RANKS)}


def _trick_winner(plays: list[tuple[str, SuitCard]], trump: Suit | None) -> str:
    led = plays[0][1].suit
    trumps = [(p, c) for p, c in plays if c.suit is trump]
    contenders = trumps or [(p, c) for p, c in plays if c.suit is led]
    return max(contenders, key=lambda pc: _POWER[pc[1].rank])[0]


def play_round(rng: random.Random, dealer: str, players: tuple[str, ...] = PLAYERS,
               declare_chance: float = 0.2) -> dict[str, Any]:
    """One round, played out with random legal cards; returns the round's record."""
    deck = list(_DECK)
    rng.shuffle(deck)
    hands = {p: deck[i * clumond.HAND:(i + 1) * clumond.HAND] for i, p in enumerate(players)}
    declarer = None
    trump: Suit | None = None
    for p in clockwise_from(players, left_of(players, dealer)):
        if rng.random() < declare_chance:
            declarer = p
            trump = rng.choice((*SUITS, None))
            break
    leader = left_of(players, declarer or dealer)
    tricks = dict.fromkeys(players, 0)
    for _ in range(clumond.TRICKS):
        plays: list[tuple[str, SuitCard]] = []
        for p in clockwise_from(players, leader):
            hand = hands[p]
            if plays:
                led = plays[0][1].suit
                legal = [c for c in hand if c.suit is led] or hand
            else:
                legal = hand
            card = rng.choice(legal)
            hand.remove(card)
            plays.append((p, card))
        leader = _trick_winner(plays, trump)
        tricks[leader] += 1
    record: dict[str, Any] = {
        "declarer": declarer,
        "trump": None if declarer is None else (clumond.NO_TRUMPS if trump is None else
                                                 trump.value),
        "tricks": tricks,
    }
    style = rng.random()
    kept = {p: [str(c) for c in hands[p]] for p in players}
    if style < 0.6:
        record["kept"] = kept
    elif style < 0.8:
        record["declared"] = {p: clumond.declaration(kept[p]) for p in players}
    else:
        # Mixed, and in a declarer round the opponents may be left out.
        record["kept"] = {p: kept[p] for p in players if rng.random() < 0.5}
        record["declared"] = {p: clumond.declaration(kept[p]) for p in players
                              if p not in record["kept"]
                              and (declarer in (None, p) or rng.random() < 0.5)}
    return record


def random_record(rng: random.Random, rounds: int | None = 10, *, played: int | None = None,
                  **options: Any) -> dict[str, Any]:
    """A valid Clumond record played with real deals.

    ``rounds`` is the game's length (the ``rounds`` option; None to play to
    ``target`` only); further ``options`` (``stack``, ``ante``, ``target``)
    go into the record. ``played`` cuts the record short (a game in
    progress); by default the rounds go on until the game ends (at most 200).
    """
    options = {"rounds": rounds, **options}
    first_dealer = rng.choice(PLAYERS)
    record: dict[str, Any] = {"game": "clumond", "players": list(PLAYERS),
                              "first_dealer": first_dealer, "options": options, "rounds": []}
    table = clumond.Table.start(PLAYERS, first_dealer, clumond.read_options(options))
    limit = 200 if played is None else played
    while not table.finished and len(record["rounds"]) < limit:
        raw = play_round(rng, table.dealer)
        facts = clumond.read_round(raw, PLAYERS, "round")
        _, table = table.play(facts)
        record["rounds"].append(raw)
    return record


EVENING_WEIGHT = 3
"""How often a random evening (``gen_evening``) picks a game of this kind, against the
other games' weights."""


def evening_game(rng: random.Random) -> dict[str, Any]:
    """One game of a random evening (``gen_evening``): finished or running, as this
    generator makes it."""
    played = None if rng.random() < 0.7 else rng.randint(0, 4)
    return random_record(rng, rng.randint(1, 5), played=played, ante=rng.choice([0, 1, 5]))
