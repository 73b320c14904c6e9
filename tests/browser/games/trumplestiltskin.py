"""Trumplestiltskin in the browser tests: its long evening (``tests.browser.long_evening``
finds it by its name)."""

from __future__ import annotations

from tests.browser.long_evening import ROUNDS


def long_evening(actions):
    """Trumplestiltskin to 200 at four seats: each hand one player takes a small bid and
    makes it, now and then a look at the Gnome or a hand thrown in; after twenty hands a
    big one ends it."""
    from tests.web import test_trumplestiltskin as game_of

    game = game_of.start(actions)
    number = 0
    while not game_of.replay(game.record())["finished"]:
        number += 1
        order = game.order()
        if number % 7 == 0:
            game.thrown_in()
            continue
        taker = order[number % 4]
        late = number > ROUNDS
        points = {name: (24 if late else 5 + number % 3) if name == taker else 2
                  for name in order}
        game.hand(_in_turn(order, taker, 10 if late else 3), "9" + "♥♠♦♣"[number % 4],
                  points, looked=[taker] if number % 5 == 0 else [])
    return game


def _in_turn(order, taker, bid):
    """The speeches of a hand in which ``taker`` bids ``bid`` and everyone else passes:
    the players before the taker pass, the taker bids, the others pass after."""
    at = order.index(taker)
    return ([(name, "pass") for name in order[:at]] + [(taker, bid)]
            + [(name, "pass") for name in order[at + 1:]])
