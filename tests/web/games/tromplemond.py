"""Tromplemond's tables in each of its phases, for the sweeps (``tests.web.phases``): played
with its own test helpers (``tests/web/test_tromplemond.py``)."""

from __future__ import annotations

from tests.web import test_tromplemond as tromplemond
from tests.web.phases import LARGEST, Phase, imported, nothing, phases


def _tie_break(game) -> None:
    game.open_vote()
    game.vote({"Rob": "Sam", "Sam": "Rob", "Nick": "Sam", "Emily": "Rob"})


def _one_hand_in(game) -> None:
    game.vote_off("Emily")
    assert game.enter("Rob", tromplemond.ROB).status_code == 303


def _every_hand_in(game) -> None:
    game.vote_off("Emily")
    for name, hand in (("Rob", tromplemond.ROB), ("Sam", tromplemond.SAM),
                       ("Nick", tromplemond.NICK)):
        assert game.enter(name, hand).status_code == 303


def _card_cut(game) -> None:
    """One round and an extra one, both with the top total shared: a card cut is due."""
    for _ in range(2):
        game.vote_off("Emily")
        for name in ("Rob", "Sam", "Nick"):
            game.quick(name, 20)
        game.confirm()


PHASES = phases("tromplemond", tromplemond.start, tromplemond.PLAYERS, {
    "dealing": (nothing, "Rob"),
    "vote open": (lambda game: (game.open_vote(), game.vote({"Rob": "Sam"})), "Sam"),
    "tie-break": (_tie_break, "Nick"),
    "hands": (_one_hand_in, "Sam"),
    "scores to confirm": (_every_hand_in, "Rob"),
    "round 1 scored": (lambda game: (_every_hand_in(game), game.confirm()), "Sam"),
    # A game of one round, as the card-cut test plays it.
    "card cut": (_card_cut, "Rob", {"rounds": "1", "joining_fee": "1.00", "tromp_stake": ""}),
})


LARGE_EVENING = {
    "evening": "Large", "unit": "GBP", "paid": [["Cy", "Ann", 2**31 - 1]],
    "games": [
        {"game": "clumond", "players": ["Ann", "Bo", "Cy"], "first_dealer": "Cy",
         "options": {"rounds": 1, "chip_value": LARGEST},
         "rounds": [{"tricks": {"Ann": 3, "Bo": 4, "Cy": 6},
                     "declared": {"Ann": 3, "Bo": 8, "Cy": 1}}]},
        {"game": "tromplemond", "players": list(tromplemond.PLAYERS),
         "options": {"joining_fee": LARGEST, "tromp_stake": LARGEST},
         "rounds": [{"hands": {"Rob": {"public": ["K♥", "10♠"], "secret": ["Q♥", "J♦", "K♠"]},
                               "Sam": {"points": 26, "public_jacks": 0, "secret_jacks": 0},
                               "Nick": {"public": ["J♥", "A♦"],
                                        "secret": ["J♠", "A♠", "10♥"]}},
                     "voted_off": "Emily", "called": ["Nick"]}]}]}
"""An evening of a finished Clumond whose chip is worth the most a record holds, and a
Tromplemond being played with the largest fee and stake, and the largest payment kept."""

IMPORTED = [Phase("tromplemond", "imported evening of the largest numbers",
                  imported(LARGE_EVENING, "Sam"))]
"""A Tromplemond table made by importing :data:`LARGE_EVENING`."""
