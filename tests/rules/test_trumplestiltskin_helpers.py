"""Trumplestiltskin's helpers for the screens: the auction so far, the bid stepper, the points
counter, the check on the points entered, the next dealer, the standings and the end's reason."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.games.trumplestiltskin import rules as ts
from companion.rules.cards import BLACK_JOKER, RED_JOKER, Suit, parse_card
from companion.rules.errors import RuleError

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def record(*hands, players=PLAYERS, first_dealer="Ann", **options):
    return {"game": "trumplestiltskin", "players": list(players),
            "first_dealer": first_dealer, "options": options, "rounds": list(hands)}


# --------------------------------------------------------------------------- the auction


def test_the_auction_so_far_is_read_speech_by_speech():
    auction = ts.read_auction([], PLAYERS, "Ann")
    assert (auction.to_speak, auction.minimum_bid, auction.over) == ("Bo", 1, False)
    auction = ts.read_auction([["Bo", 10], ["Cy", "pass"], ["Di", 12]], PLAYERS, "Ann")
    assert (auction.to_speak, auction.top_bidder, auction.minimum_bid) == ("Ann", "Di", 13)


@pytest.mark.parametrize(("bids", "message"), [
    ("Bo 10", "bids must be a list"),
    ([["Cy", 3]], "Cy cannot bid 3 out of turn: it is Bo's turn"),
    ([["Bo", 3], ["Cy", 3]], "Cy's bid of 3 is not higher than Bo's bid of 3"),
    ([["Zed", 3]], "'Zed' is not a player"),
])
def test_the_auction_so_far_refuses_what_the_rules_refuse(bids, message):
    with pytest.raises(RuleError, match=message):
        ts.read_auction(bids, PLAYERS, "Ann")


def test_the_stepper_never_goes_below_the_smallest_bid():
    auction = ts.read_auction([["Bo", 10]], PLAYERS, "Ann")
    assert auction.stepped(None, 1) == 12  # nothing readable typed: from the minimum
    assert auction.stepped(11, 5) == 16
    assert auction.stepped(11, -1) == 11
    assert auction.stepped(3, 1) == 11
    assert auction.stepped(40, -1) == 39


# --------------------------------------------------------------------------- points


def test_the_counter_turns_three_counts_into_points_with_the_working():
    count = ts.count_points(5, 3, 1)
    assert count.points == 10
    assert str(count.working) == "A/K 5 + trumps 3 + jokers 2×1 = 10"
    assert str(ts.Count().working) == "A/K 0 + trumps 0 + jokers 2×0 = 0"
    # A joker played as trump is a joker and a trump card: 3.
    assert ts.count_points(0, 1, 1).points == 3


def test_the_counter_steps_one_row_at_a_time_within_the_deck():
    count = ts.Count().add("honours", 1).add("jokers", 1).add("jokers", 1)
    assert (count.honours, count.trumps, count.jokers, count.points) == (1, 0, 2, 5)
    assert count.add("jokers", -1).jokers == 1
    with pytest.raises(RuleError, match="jokers taken must be at most 2, not 3"):
        count.add("jokers", 1)
    with pytest.raises(RuleError, match="trump cards taken must be at least 0"):
        count.add("trumps", -1)
    with pytest.raises(RuleError, match="not 'queens'"):
        count.add("queens", 1)


def test_the_counter_limits_are_the_decks():
    limits = ts.COUNT_LIMITS
    assert (limits.honours, limits.trumps, limits.jokers) == (16, 13, 2)
    assert ts.count_points(16, 13, 2).points == 33
    with pytest.raises(RuleError, match="aces and kings taken must be at most 16"):
        ts.count_points(17, 0, 0)
    with pytest.raises(RuleError, match="trump cards taken must be at most 13"):
        ts.count_points(0, 14, 0)


def test_points_beyond_what_the_hand_holds_are_refused_naming_the_limit():
    nine = parse_card("9♥")
    assert ts.check_points({"Ann": 32}, 4, nine, Suit.HEARTS) == 32
    assert ts.check_points({}, 3, RED_JOKER, Suit.HEARTS) == 30
    with pytest.raises(RuleError) as refused:
        ts.check_points({"Ann": 20, "Bo": 13}, 4, nine, Suit.HEARTS)
    assert str(refused.value) == ("the points add up to 33 (Ann 20, Bo 13), but a hand with "
                                  "9♥ as the Gnome and ♥ trumps holds at most 32")
    # The black joker is the Gnome: the red one (2) and the 9♠ (1) are the best left.
    assert ts.check_points({"Ann": 30}, 5, BLACK_JOKER, Suit.SPADES) == 30


# --------------------------------------------------------------------------- the deal passes


def test_the_next_dealer_is_left_of_the_last_one_thrown_in_hands_too():
    assert ts.next_dealer(record()) == "Ann"
    thrown = {"bids": [["Bo", "pass"], ["Cy", "pass"], ["Di", "pass"], ["Ann", "pass"]]}
    assert ts.next_dealer(record(thrown)) == "Bo"
    assert ts.next_dealer(record({"bids": [["Ann", "pass"], ["Bo", "pass"], ["Cy", "pass"],
                                           ["Di", "pass"]]}, first_dealer="Di")) == "Ann"


def test_no_one_deals_once_the_game_is_over():
    hand = {"bids": [["Bo", 5], ["Cy", "pass"], ["Di", "pass"], ["Ann", "pass"]],
            "looked": [], "gnome": "9♠", "points": {"Ann": 0, "Bo": 6, "Cy": 0, "Di": 0}}
    assert ts.next_dealer(record(hand, target=10)) is None


# --------------------------------------------------------------------------- the end


def test_standings_put_the_winner_first_and_the_gnome_where_its_total_falls():
    lines = ts.standings({"Ann": 230, "Bo": 201, "Cy": 10, "Di": 10}, 40, ["Bo"])
    assert [(s.place, s.name, s.total, s.shared, s.gnome) for s in lines] == [
        (1, "Bo", 201, False, False), (2, "Ann", 230, False, False),
        (None, "Gnome", 40, False, True),
        (3, "Cy", 10, True, False), (3, "Di", 10, True, False)]


def test_standings_share_first_place_and_keep_the_gnome_below_the_winners():
    lines = ts.standings({"Ann": 200, "Bo": 200, "Cy": 10}, 400, ["Ann", "Bo"])
    assert [(s.place, s.name, s.shared) for s in lines] == [
        (1, "Ann", True), (1, "Bo", True), (None, "Gnome", False), (3, "Cy", False)]
    last = ts.standings({"Ann": 5, "Bo": 3}, Fraction(-1, 2), [])
    assert [(s.place, s.name) for s in last] == [(1, "Ann"), (2, "Bo"), (None, "Gnome")]


def test_the_end_says_the_last_taker_won():
    ending = ts.explain_end({"Ann": 230, "Bo": 201, "Cy": 10}, 40, "Bo", 200, 350)
    assert str(ending.over) == "Ann and Bo reached 200"
    assert str(ending.decided) == "Bo took the last bid and has more than 200"
    assert ending.last_taker_won


def test_the_end_says_the_most_points_won_when_the_taker_is_not_over_the_target():
    ending = ts.explain_end({"Ann": 212, "Bo": Fraction(-7, 2), "Cy": 10}, 40, "Bo", 200, 350)
    assert str(ending.over) == "Ann reached 200"
    assert str(ending.decided) == ("Bo took the last bid but has −3½, not more than 200: "
                              "Ann has the most points (212)")
    assert not ending.last_taker_won


def test_the_end_by_the_gnome_with_a_shared_top():
    ending = ts.explain_end({"Ann": 50, "Bo": 50, "Cy": 10}, 351, "Cy", 200, 350)
    assert str(ending.over) == "the Gnome reached 350"
    assert str(ending.decided) == ("Cy took the last bid but has 10, not more than 200: "
                              "Ann and Bo share the most points (50)")


def test_the_end_without_a_taker_names_the_most_points():
    ending = ts.explain_end({"Ann": 200, "Bo": 3}, 0, None, 200, 350)
    assert (str(ending.over), str(ending.decided)) == ("Ann reached 200",
                                                       "Ann has the most points (200)")
    assert ts.explain_end({"Ann": 1, "Bo": 3}, 0, None, 200, 350).over is None
