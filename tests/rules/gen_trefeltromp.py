"""Random valid Trefeltromp records, made by actually playing the hands.

Each hand deals 3 tarot cards to every seated player from a shuffled
78-card deck, plays the betting rounds with random legal actions (bounded
bets and raises, now and then a buy to cover a call, the Fool's privilege
used when offered), lets each player still in swap one card after
fyrsturkalla, and shows cards really held. Players now and then buy chips
or leave; sometimes everyone leaves after the last hand, sometimes the last
hand is cut off in the middle (a hand in progress).
"""

from __future__ import annotations

import random
from typing import Any

from companion.games.trefeltromp import rules as tt
from companion.rules.cards import tarot_deck
from companion.rules.common import right_of

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
_DECK = tarot_deck()
_BUYS = (20, 50, 100, 200)


def _choose(rng: random.Random, hand: tt.Hand, raises: int) -> tt.Action:
    """A random legal action for the player to act."""
    p = hand.to_act
    assert p is not None
    verbs = tt.legal_actions(hand)
    owe = tt.to_call(hand)
    weights = {tt.Verb.CHECK: 6, tt.Verb.CALL: 6, tt.Verb.BET: 2,
               tt.Verb.RAISE: 1 if raises < 3 else 0, tt.Verb.STAY: 4,
               tt.Verb.FOLD: 1 if owe else 0.1}
    verb = rng.choices(verbs, [weights[v] for v in verbs])[0]
    if verb in (tt.Verb.BET, tt.Verb.RAISE):
        return tt.Action(p, verb, rng.randint(1, min(tt.max_amount(hand), 30)))
    return tt.Action(p, verb)


def _play(rng: random.Random, hand: tt.Hand, buys: dict[str, int],
          ) -> tuple[tt.Hand, list[tuple[str, int, Any]]]:
    """Play a hand out; the events are ("act", betting round, entry) and ("show", r, cards)."""
    events: list[tuple[str, int, Any]] = []
    deck = list(_DECK)
    rng.shuffle(deck)
    held = {p: [deck.pop(), deck.pop(), deck.pop()] for p in hand.seats}
    for k, stage in enumerate(tt.BETTING_ROUNDS):
        raises = 0
        while hand.stage is stage:
            p = hand.to_act
            owe = tt.to_call(hand)
            if owe and owe > hand.stack(p) and rng.random() < 0.6:
                chips = max(rng.choice(_BUYS), owe)
                hand = hand.buy(p, chips)
                buys[p] = buys.get(p, 0) + chips
            action = _choose(rng, hand, raises)
            raises += action.verb is tt.Verb.RAISE
            hand = hand.act(action)
            events.append(("act", k, action.as_entry()))
        if hand.over:
            return hand, events
        if stage is tt.Stage.FYRSTURKALLA:
            for p in hand.in_hand:
                if deck and rng.random() < 0.5:
                    held[p].remove(rng.choice(held[p]))
                    held[p].append(deck.pop())
            continue
        shown = {}
        for p in hand.in_hand:
            card = rng.choice(held[p])
            held[p].remove(card)
            shown[p] = str(card)
        hand = hand.show(shown)
        events.append(("show", k - 1, shown))
    return hand, events


def _entries(events: list[tuple[str, int, Any]], pad: bool) -> tuple[list[Any], list[Any]]:
    calls: list[list[Any]] = []
    shows: list[dict[str, str]] = []
    for kind, k, what in events:
        if kind == "act":
            while len(calls) <= k:
                calls.append([])
            calls[k].append(what)
        else:
            shows.append(what)
    if pad:  # a hand won by folding, written with empty later entries
        calls += [[] for _ in range(4 - len(calls))]
    return calls, shows


def random_record(rng: random.Random, rounds: int = 8, *, players: int | None = None,
                  finish: float = 0.4, cut: float = 0.2, leave_chance: float = 0.03,
                  **options: Any) -> dict[str, Any]:
    """A valid record of ``rounds`` hands (fewer if the table empties early).

    ``players``: how many (default 2 to 6 at random); ``finish``: the chance
    that everyone leaves after the last hand; ``cut``: the chance that the
    last hand is a hand in progress; ``leave_chance``: each player's chance
    to leave after a hand (at least 2 stay until the last hand);
    ``options``: the game options (ante, stack, limit).
    """
    names = list(NAMES[:players if players is not None else rng.randint(2, 6)])
    ante, stack, limit = tt._read_options(tt.DEFAULTS | options)
    first_dealer = rng.choice(names)
    stacks = dict.fromkeys(names, stack)
    pot = 0
    gone: set[str] = set()
    dealer: str | None = None
    hands: list[dict[str, Any]] = []
    for h in range(rounds):
        last = h == rounds - 1
        seated = [p for p in names if p not in gone]
        if dealer is None:
            dealer = first_dealer
        else:
            dealer = right_of(names, dealer)
            while dealer in gone:
                dealer = right_of(names, dealer)
        buys: dict[str, int] = {}
        for p in seated:
            if stacks[p] < ante + 20 or rng.random() < 0.03:
                buys[p] = max(rng.choice(_BUYS), ante + 20 - stacks[p])
                stacks[p] += buys[p]
        hand = tt.start_hand(seated, dealer, stacks, pot=pot, ante=ante, limit=limit)
        hand, events = _play(rng, hand, buys)
        stacks.update(hand.stacks_by_player())
        pot = hand.pot
        entry: dict[str, Any] = {}
        if buys or rng.random() < 0.5:
            entry["buys"] = [[p, c] for p, c in buys.items()]
        if last and rng.random() < cut:
            calls, shows = _entries(events[:rng.randrange(len(events))], pad=False)
            entry |= {"calls": calls, "shows": shows}
            hands.append(entry)
            break
        calls, shows = _entries(events, pad=hand.won_by_fold is not None and rng.random() < 0.2)
        entry |= {"calls": calls, "shows": shows}
        if last and rng.random() < finish:
            leave = list(seated)
        else:
            leave = [p for p in seated if rng.random() < leave_chance]
            leave = leave[:max(len(seated) - 2, 0)]
        if leave or rng.random() < 0.5:
            entry["leave"] = leave
        gone.update(leave)
        hands.append(entry)
    return {"game": "trefeltromp", "players": names, "first_dealer": first_dealer,
            "options": dict(options), "rounds": hands}


EVENING_WEIGHT = 3
"""How often a random evening (``gen_evening``) picks a game of this kind, against the
other games' weights."""


def evening_game(rng: random.Random) -> dict[str, Any]:
    """One game of a random evening (``gen_evening``): finished or running, as this
    generator makes it."""
    return random_record(rng, rng.randint(1, 5), finish=0.7, cut=0.1,
                         players=rng.randint(2, 5))
