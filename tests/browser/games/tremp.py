"""Tremp in the browser tests: its long evening (``tests.browser.long_evening``
finds it by its name)."""

from __future__ import annotations

ROWS_A_ROUND = 2
"""The rows a hand takes in its score table: a Tremp hand has its points line under it."""


def long_evening(actions):
    """Tremp played to a two-match lead over at least twenty hands: bids made and failed
    by both teams, until a team leads by two matches."""
    from tests.web import test_tremp as game_of

    game = game_of.start(actions)
    number = 0
    while game.phase() != "end":  # 22 hands: Sam & Emily win the matches at hands 11 and 22
        displayed = (9, 8, 10, 9, 11, 9, 12)[number % 7]
        tricks = (5, 7, 9, 6, 8)[number % 5]
        number += 1
        game.play(game_of.displays(displayed, number % 30), tricks)
    return game
