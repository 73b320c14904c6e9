"""Tremp's helpers for the screens: where a game stands, the points formula, the trick count.

Each is held against the rules text (RULES.md section 5) and against ``replay``,
so a page that shows them shows the rules' own figures.
"""

from __future__ import annotations

import doctest
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.tremp import rules as tremp
from companion.games.tremp.rules import (
    TRICKS,
    bidding_status,
    count_tricks,
    hand_points,
    points,
    points_formula,
    progress,
    replay,
    tricks_needed,
)
from companion.rules import RuleError
from companion.rules.cards import Suit
from companion.rules.common import left_of

from .test_tremp import EXAMPLE, PLAYERS, A, B, hand, record

# --- the points formula ----------------------------------------------------------------


def test_the_formula_of_the_rules_example_bid_eight():
    assert points_formula(8, 9) == tremp.PointsFormula(made=True, taken=9, match_power=8,
                                                       game_power=2)
    # Failed with 4: the opponents took 9: P(8 − 1) game, P(2 × (13 − 4 + 8 − 14)) match.
    assert points_formula(8, 4) == tremp.PointsFormula(made=False, taken=9, match_power=6,
                                                       game_power=7)


def test_the_formula_is_the_points_for_every_bid_and_every_trick_count():
    for bid, tricks in itertools.product(range(-4, 14), range(TRICKS + 1)):
        formula = points_formula(bid, tricks)
        got = hand_points(bid, tricks)
        assert formula.made is got.made is (tricks >= bid)
        assert points(formula.match_power) == got.match_points
        assert points(formula.game_power) == got.game_points
        assert formula.taken == (tricks if got.made else TRICKS - tricks)


def test_the_formula_follows_the_written_exponents():
    for bid, tricks in itertools.product(range(-4, 14), range(TRICKS + 1)):
        formula = points_formula(bid, tricks)
        if tricks >= bid:
            assert (formula.match_power, formula.game_power) == (bid, 2 * (tricks - bid))
        else:
            assert formula.game_power == bid - 1
            assert formula.match_power == 2 * (13 - tricks + bid - 14)


def test_tricks_needed_is_the_bid_or_nothing():
    assert [tricks_needed(b) for b in (-4, -1, 0, 1, 8, 13)] == [0, 0, 0, 1, 8, 13]
    rec = record(EXAMPLE)
    assert replay(rec)["rounds"][0]["breakdown"]["needed"] == tricks_needed(-2)


# --- the bidding in progress ------------------------------------------------------------


def test_the_bidding_status_names_tremp_and_each_players_cards():
    s = bidding_status([], PLAYERS, "Rob")
    assert s.tremp is None and s.needed == 0 and s.shown_by("Sam") == ()
    s = bidding_status([["Sam", "5♥"], ["Nick", "pass"], ["Emily", "K♠"], ["Rob", "pass"],
                        ["Sam", "7♦"]], PLAYERS, "Rob")
    assert (s.trump, s.tremp, s.bid, s.needed) == (Suit.DIAMONDS, Suit.HEARTS, -1, 0)
    assert [str(d.card) for d in s.shown_by("Sam")] == ["5♥", "7♦"]
    assert [d.bid for d in s.shown_by("Sam")] == [-3, -1]
    assert s.shown_by("Rob") == ()


# --- where the game stands --------------------------------------------------------------


def test_progress_of_a_new_game():
    now = progress(record(first_dealer="Sam"))
    assert (now.hand_index, now.hand_number, now.dealer, now.first_bidder) == (0, 1, "Sam",
                                                                                "Nick")
    assert now.teams == (A, B) and now.players == tuple(PLAYERS)
    assert now.match_number == 1 and now.thresholds == {A: 272, B: 272}
    assert not now.finished and now.winning_team is None and not now.beginners
    assert now.result == replay(record(first_dealer="Sam"))
    assert now.team("Nick") == A and now.team("Sam") == B


def test_progress_follows_the_matches_and_the_thresholds():
    # Sam & Emily make 8 twice: 512 ≥ 272, match 1 is theirs; Rob & Nick now need 136.
    rec = record(hand("Rob", 8, "Sam", 8))
    rec["rounds"].append(hand("Sam", 8, "Sam", 8))
    now = progress(rec)
    assert now.result["matches"] == {A: 0, B: 1}
    assert now.match_number == 2 and now.thresholds == {A: 136, B: 272}
    # Sam dealt the match's last hand; the losing team deals first: Nick, on Rob & Nick.
    assert replay(rec)["rounds"][-1]["dealer"] == "Sam"
    assert now.dealer == tremp.next_dealer(rec) == "Nick" and now.first_bidder == "Emily"
    beginners = progress(record(beginners=True))
    assert beginners.beginners and beginners.thresholds == {A: 136, B: 136}


def test_progress_at_the_end_of_the_game():
    rec = record()
    while not replay(rec)["finished"]:
        dealer = tremp.next_dealer(rec)
        rec["rounds"].append(hand(dealer, 9, left_of(PLAYERS, dealer), 13))
    now = progress(rec)
    assert now.finished and now.dealer is None and now.first_bidder is None
    winners = now.result["winners"]
    assert now.winning_team == f"{winners[0]} & {winners[1]}"


def test_progress_refuses_a_bad_record():
    with pytest.raises(RuleError, match="round 1"):
        progress(record({"bids": [], "tricks": 3}))


# --- the trick counter ------------------------------------------------------------------


def test_the_count_says_who_leads_and_what_each_team_took():
    count = count_tricks(PLAYERS, [], "Sam")
    assert (count.played, count.next_number, count.by_team, count.leader) == (0, 1, (0, 0),
                                                                              "Nick")
    assert not count.complete
    winners = ["Rob", "Rob", "Sam", "Emily", "Nick", "Nick", "Nick", "Sam", "Rob", "Emily",
               "Rob", "Sam", "Nick"]
    count = count_tricks(PLAYERS, winners, "Sam")
    assert count.complete and count.played == 13 and count.by_team == (8, 5)
    assert count.of_team("Sam") == count.of_team("Emily") == 5 and count.of_team("Rob") == 8
    assert count.leader == "Nick"


@given(st.lists(st.sampled_from(PLAYERS), max_size=TRICKS), st.sampled_from(PLAYERS))
def test_the_teams_share_every_trick_counted(winners, bidder):
    count = count_tricks(PLAYERS, winners, bidder)
    assert sum(count.by_team) == count.played == len(winners)
    assert count.leader == (winners[-1] if winners else left_of(PLAYERS, bidder))


@pytest.mark.parametrize(("winners", "bidder", "message"), [
    (["Rob"] * 14, "Sam", "13 tricks, not 14"),
    (["Bob"], "Sam", "'Bob' is not a player"),
    ([], "Bob", "'Bob' is not a player"),
])
def test_a_count_that_cannot_be_is_refused(winners, bidder, message):
    with pytest.raises(RuleError, match=message):
        count_tricks(PLAYERS, winners, bidder)


@pytest.mark.parametrize("obj", [tremp.points_formula, tremp.tricks_needed, tremp.progress,
                                 tremp.Progress.team, tremp.count_tricks])
def test_the_docstring_examples_hold(obj):
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner()
    for test in finder.find(obj, globs=vars(tremp)):
        runner.run(test)
    assert runner.failures == 0
