"""Tromplemond in the browser tests: its long evening (``tests.browser.long_evening``
finds it by its name)."""

from __future__ import annotations

from tests.browser.long_evening import ROUNDS


def long_evening(actions):
    """Tromplemond of 21 rounds for a £2.50 fee and a 50p stake: the phones vote a player
    off each round, the scorekeeper enters the hands the quick way; one Super Tromplemond
    and its TROMP! call."""
    from tests.web import test_tromplemond as game_of

    game = game_of.start(actions, rounds=str(ROUNDS + 1), target="500")
    players = game_of.PLAYERS
    for number in range(1, ROUNDS + 2):
        off = players[number % 4]
        game.vote_off(off)
        for place, name in enumerate(p for p in players if p != off):
            if number == 5 and place == 0:
                game.quick(name, 20, 0, 3)  # Super Tromplemond!
                game.ok("called", {"player": name})
            else:
                game.quick(name, 10 + 2 * ((number * 7 + place * 5) % 6))
        game.confirm()
    return game
