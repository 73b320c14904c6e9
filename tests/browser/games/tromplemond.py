"""Tromplemond in the browser tests: its hands entered the quick way, a one-round game, and
its long evening (``tests.browser.long_evening`` finds it here by its name)."""

from __future__ import annotations

from tests.browser.long_evening import ROUNDS
from tests.browser.screens import LIVE_MS, end_game

try:
    from playwright.sync_api import expect
except ImportError:  # reported by the ``browser`` fixture in conftest.py
    expect = None

QUICK = {"Rob": "20", "Sam": "12", "Nick": "10"}
"""A Tromplemond round's points entered quickly on the tablet (Emily voted off)."""


def enter_quick_hands(table) -> None:
    """The tablet enters the survivors' hands the quick way (:data:`QUICK`, no jacks) on a
    ``TromplemondTable`` whose vote has put Emily off; each hand's line shows it entered."""
    for position, (name, points) in enumerate(QUICK.items(), 1):
        enter_quick_hand(table, position, name, points)


def enter_quick_hand(table, position: int, name: str, points: str) -> None:
    """The tablet enters one hand the quick way (``points``, no jacks) for the player at
    ``position`` on a ``TromplemondTable``; the hand's line shows it entered."""
    tablet = table.tablet
    tablet.get_by_test_id(f"edit-hand-{position}").click()
    tablet.get_by_test_id("quick-points").fill(points)
    tablet.get_by_test_id("quick-public-jacks").fill("0")
    tablet.get_by_test_id("quick-secret-jacks").fill("0")
    tablet.get_by_test_id("save-quick").click()
    expect(table.hand_row(name)).to_have_attribute("data-entered", "yes", timeout=LIVE_MS)


def one_round_tromplemond(table) -> None:
    """A one-round Tromplemond for £2.00 on ``table`` (a ``TromplemondTable``): Emily goes
    off, the tablet enters the hands (:data:`QUICK`), Rob wins; the game is then ended."""
    table.start(joining_fee="2.00", rounds=1)
    table.open_vote()
    table.vote({"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Rob"})
    table.wait_phase("hands")
    enter_quick_hands(table)
    table.confirm_round()
    table.wait_phase("end")
    end_game(table.tablet)



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
