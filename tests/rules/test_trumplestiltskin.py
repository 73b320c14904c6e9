"""Trumplestiltskin (RULES.md section 3): the rules, the house decisions, the checks."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import rules
from companion.games.trumplestiltskin import rules as ts
from companion.rules.cards import BLACK_JOKER, RED_JOKER, Suit, parse_card, parse_suit
from companion.rules.errors import RuleError

from .gen_trumplestiltskin import expected, random_record

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def record(*hands, players=PLAYERS, first_dealer="Ann", **options):
    return {"game": "trumplestiltskin", "players": list(players),
            "first_dealer": first_dealer, "options": options, "rounds": list(hands)}


def take(dealer, taker, bid, players=PLAYERS):
    """Bids where everyone but ``taker`` passes and ``taker`` bids ``bid``."""
    i = players.index(dealer) + 1
    order = players[i:] + players[:i]
    return [[p, bid] if p == taker else [p, "pass"] for p in order]


def all_pass(dealer, players=PLAYERS):
    i = players.index(dealer) + 1
    return [[p, "pass"] for p in players[i:] + players[:i]]


def hand(bids, points, gnome="9♥", looked=(), fill=True, **extra):
    """A hand; players left out of ``points`` took 0 (unless ``fill`` is False)."""
    if fill:
        points = {p: points.get(p, 0) for p in PLAYERS} | points
    return {"bids": bids, "looked": list(looked), "gnome": gnome, "points": points, **extra}


def refused(rec) -> str:
    with pytest.raises(RuleError) as info:
        ts.replay(rec)
    return str(info.value)


def design_example():
    """The record of DESIGN.md ("Trumplestiltskin"), dealt by Ann."""
    return record({
        "bids": [["Bo", 10], ["Cy", "pass"], ["Di", 12], ["Ann", "pass"], ["Bo", "pass"]],
        "looked": ["Cy"], "gnome": "9♥", "trump": "♥",
        "points": {"Ann": 3, "Bo": 5, "Cy": 2, "Di": 6}})


# ---------------------------------------------------------------------------
# The worked example


def test_design_example_scores_every_case():
    result = ts.replay(design_example())
    first = result["rounds"][0]
    assert first["dealer"] == "Ann"
    # Ann never bid: 0, her 3 to the Gnome. Bo bid 10, took 5: scores 5. Cy passed (looked):
    # never bid, 2 to the Gnome. Di took the bid at 12 with 6: failed, loses 12, 6 to the Gnome.
    assert first["scores"] == {"Ann": 0, "Bo": 5, "Cy": 0, "Di": -12}
    assert first["gnome"] == 11
    assert result["totals"] == {"Ann": 0, "Bo": 5, "Cy": 0, "Di": -12}
    assert result["gnome"] == 11
    assert result["finished"] is False and result["winners"] == [] and result["money"] == {}
    breakdown = first["breakdown"]
    assert breakdown["taker"] == "Di" and breakdown["bid"] == 12
    assert breakdown["gnome_card"] == "9♥" and breakdown["trump"] == "♥"
    assert breakdown["max_points"] == 32
    assert [breakdown["players"][p]["case"] for p in PLAYERS] == [
        "never bid", "bid", "never bid", "failed"]
    assert breakdown["players"]["Bo"]["top_bid"] == 10
    assert breakdown["players"]["Cy"]["looked"] is True
    assert breakdown["players"]["Di"]["to_gnome"] == 6
    assert "loses 12" in breakdown["players"]["Di"]["why"]
    assert breakdown["gnome"] == 11 and breakdown["gnome_total"] == 11


def test_result_keys_and_seat_order():
    result = ts.replay(design_example())
    assert list(result) == ["rounds", "totals", "finished", "winners", "money", "gnome"]
    assert list(result["rounds"][0]) == ["dealer", "scores", "totals", "gnome", "breakdown"]
    assert list(result["totals"]) == PLAYERS
    assert list(result["rounds"][0]["scores"]) == PLAYERS
    assert list(result["rounds"][0]["breakdown"]["players"]) == PLAYERS


def test_dispatch_through_the_rules_package():
    assert rules.replay(design_example()) == ts.replay(design_example())


def test_empty_game():
    result = ts.replay(record())
    assert result == {"rounds": [], "totals": dict.fromkeys(PLAYERS, 0), "finished": False,
                      "winners": [], "money": {}, "gnome": 0}


# ---------------------------------------------------------------------------
# Tallying a hand: one test per case


def bo_bids(top, looked=False, points=0):
    """Bo bids ``top``, Di takes the bid at ``top + 1`` with 0 points (failing)."""
    bids = [["Bo", top], ["Cy", "pass"], ["Di", top + 1], ["Ann", "pass"], ["Bo", "pass"]]
    return hand(bids, {"Bo": points}, looked=["Bo"] if looked else [])


def bo_player(h):
    return ts.replay(record(h))["rounds"][0]["breakdown"]["players"]["Bo"]


def test_never_bid_scores_nothing_and_the_gnome_gets_all():
    h = hand(take("Ann", "Di", 5), {"Ann": 4, "Di": 5})
    r = ts.replay(record(h))["rounds"][0]
    assert r["scores"]["Ann"] == 0
    assert r["breakdown"]["players"]["Ann"]["to_gnome"] == 4
    assert r["gnome"] == 4


def test_never_bid_but_looked_still_gives_all_to_the_gnome():
    h = hand(take("Ann", "Di", 5), {"Ann": 7, "Di": 5}, looked=["Ann"])
    r = ts.replay(record(h))["rounds"][0]
    assert r["scores"]["Ann"] == 0 and r["gnome"] == 7


def test_non_taker_within_the_bid_scores_the_points():
    bo = bo_player(bo_bids(9, points=6))
    assert (bo["score"], bo["to_gnome"], bo["case"]) == (6, 0, "bid")


def test_non_taker_excess_over_the_bid_goes_to_the_gnome():
    bo = bo_player(bo_bids(4, points=9))
    assert (bo["score"], bo["to_gnome"]) == (4, 5)
    assert "excess 5" in bo["why"]


def test_non_taker_who_looked_scores_half_exactly():
    bo = bo_player(bo_bids(9, looked=True, points=5))
    assert (bo["score"], bo["to_gnome"]) == (2.5, 2.5)
    assert "2½" in bo["why"]


def test_non_taker_who_looked_halves_only_the_capped_points():
    bo = bo_player(bo_bids(3, looked=True, points=8))
    assert (bo["score"], bo["to_gnome"]) == (1.5, 6.5)  # half of 3, plus the excess 5


def test_taker_made_without_looking_scores_double():
    r = ts.replay(record(hand(take("Ann", "Cy", 8), {"Cy": 11})))["rounds"][0]
    assert r["scores"]["Cy"] == 22 and r["gnome"] == 0
    assert r["breakdown"]["players"]["Cy"]["case"] == "made"


def test_taker_made_exactly_the_bid_counts_as_made():
    r = ts.replay(record(hand(take("Ann", "Cy", 8), {"Cy": 8})))["rounds"][0]
    assert r["scores"]["Cy"] == 16


def test_taker_is_not_capped_at_the_bid():
    r = ts.replay(record(hand(take("Ann", "Cy", 2), {"Cy": 20})))["rounds"][0]
    assert r["scores"]["Cy"] == 40 and r["gnome"] == 0


def test_taker_made_after_looking_scores_half_the_gnome_the_other_half():
    r = ts.replay(record(hand(take("Ann", "Cy", 8), {"Cy": 11}, looked=["Cy"])))["rounds"][0]
    assert r["scores"]["Cy"] == 5.5 and r["gnome"] == 5.5


def test_taker_failed_without_looking_loses_the_bid_gnome_gets_the_points():
    r = ts.replay(record(hand(take("Ann", "Cy", 12), {"Cy": 7})))["rounds"][0]
    assert r["scores"]["Cy"] == -12 and r["gnome"] == 7
    assert r["breakdown"]["players"]["Cy"]["case"] == "failed"


def test_taker_failed_after_looking_gnome_gets_twice_the_points():
    r = ts.replay(record(hand(take("Ann", "Cy", 12), {"Cy": 7}, looked=["Cy"])))["rounds"][0]
    assert r["scores"]["Cy"] == -12 and r["gnome"] == 14


def test_top_bid_is_the_highest_bid_the_player_made():
    bids = [["Bo", 3], ["Cy", 4], ["Di", "pass"], ["Ann", "pass"], ["Bo", 7], ["Cy", 9],
            ["Bo", "pass"]]
    r = ts.replay(record(hand(bids, {"Bo": 10, "Cy": 9})))["rounds"][0]
    assert r["breakdown"]["players"]["Bo"]["top_bid"] == 7
    assert r["scores"] == {"Ann": 0, "Bo": 7, "Cy": 18, "Di": 0}
    assert r["gnome"] == 3


def test_halves_add_up_exactly_over_hands():
    looked = hand(take("Ann", "Bo", 1), {"Bo": 3}, looked=["Bo"])  # Bo 1.5, Gnome 1.5
    again = hand(take("Bo", "Bo", 1), {"Bo": 5}, looked=["Bo"])  # Bo 2.5, Gnome 2.5
    result = ts.replay(record(looked, again))
    assert result["totals"]["Bo"] == 4 and isinstance(result["totals"]["Bo"], int)
    assert result["gnome"] == 4
    assert [r["totals"]["Bo"] for r in result["rounds"]] == [1.5, 4]


def test_tally_player_directly():
    assert str(ts.tally_player(0, None, looked=False, took_bid=False).why).startswith("never bid")
    share = ts.tally_player(7, 7, looked=True, took_bid=True)
    assert (share.score, share.to_gnome) == (Fraction(7, 2), Fraction(7, 2))


# ---------------------------------------------------------------------------
# Bidding


def test_bidding_starts_left_of_the_dealer():
    bids = [["Ann", 5], ["Bo", "pass"], ["Cy", "pass"], ["Di", "pass"]]
    message = refused(record(hand(bids, {"Ann": 5})))
    assert message == "round 1: Ann cannot bid 5 out of turn: it is Bo's turn"


def test_a_bid_must_be_higher_than_any_so_far():
    bids = [["Bo", 10], ["Cy", 10], ["Di", "pass"], ["Ann", "pass"], ["Bo", "pass"]]
    message = refused(record(hand(bids, {"Cy": 10})))
    assert message == "round 1: Cy's bid of 10 is not higher than Bo's bid of 10"


def test_the_turn_skips_those_who_passed():
    bids = [["Bo", 3], ["Cy", "pass"], ["Di", 4], ["Ann", "pass"], ["Bo", 5], ["Di", 6],
            ["Bo", "pass"]]
    assert ts.replay(record(hand(bids, {"Di": 6})))["rounds"][0]["breakdown"]["taker"] == "Di"


def test_a_player_who_passed_cannot_bid_again():
    bids = [["Bo", 3], ["Cy", "pass"], ["Di", 4], ["Ann", "pass"], ["Cy", 5]]
    message = refused(record(hand(bids, {"Cy": 5})))
    assert message == ("round 1: Cy cannot bid 5: Cy passed earlier and is out of the "
                       "bidding for this hand")


@pytest.mark.parametrize(("said", "words"), [
    (0, "Bo's bid must be a whole number of at least 1, not 0"),
    (-3, "Bo's bid must be a whole number of at least 1, not -3"),
    ("ten", "Bo's bid must be a whole number or \"pass\", not 'ten'"),
    (True, "Bo's bid must be a whole number or \"pass\", not True"),
    (2.5, "Bo's bid must be a whole number or \"pass\", not 2.5"),
])
def test_a_bid_is_a_whole_number_at_least_one(said, words):
    bids = [["Bo", said], ["Cy", "pass"], ["Di", "pass"], ["Ann", "pass"]]
    assert refused(record(hand(bids, {"Bo": 1}))) == f"round 1: {words}"


def test_a_bid_has_no_upper_limit():
    r = ts.replay(record(hand(take("Ann", "Bo", 40), {"Bo": 32})))["rounds"][0]
    assert r["scores"]["Bo"] == -40 and r["gnome"] == 32


def test_a_whole_float_bid_and_any_case_of_pass_are_read():
    bids = [["Bo", 6.0], ["Cy", "PASS"], ["Di", " Pass "], ["Ann", "pass"]]
    r = ts.replay(record(hand(bids, {"Bo": 6})))["rounds"][0]
    assert r["breakdown"]["bid"] == 6 and r["scores"]["Bo"] == 12


@pytest.mark.parametrize("entry", [["Bo"], "Bo 5", ["Bo", 5, 6], [5, "Bo"]])
def test_a_malformed_bid_is_refused(entry):
    message = refused(record(hand([entry], {})))
    assert message.startswith("round 1: a bid is written [name, number] or [name, \"pass\"]")


def test_bids_must_be_a_list():
    assert refused(record({"bids": "Bo 5"})).startswith("round 1: bids must be a list")
    assert refused(record({})).startswith("round 1: bids must be a list")


def test_a_bidder_who_is_not_at_the_table():
    bids = [["Zed", 5]]
    assert refused(record(hand(bids, {}))) == (
        "round 1: in the bids: 'Zed' is not a player at this table")


def test_bids_after_the_bidding_ended_are_refused():
    bids = take("Ann", "Bo", 5) + [["Cy", 6]]
    assert refused(record(hand(bids, {"Bo": 5}))) == (
        "round 1: Cy cannot bid 6: the bidding was over (Bo had taken the bid at 5)")


def test_unfinished_bidding_is_refused():
    bids = [["Bo", 5], ["Cy", "pass"]]
    assert refused(record(hand(bids, {"Bo": 5}))) == (
        "round 1: the bidding is not finished: it is Di's turn to bid or pass")


def test_the_last_bidder_takes_it_when_all_others_pass():
    bids = [["Bo", "pass"], ["Cy", 4], ["Di", "pass"], ["Ann", "pass"]]
    r = ts.replay(record(hand(bids, {"Cy": 4})))["rounds"][0]
    assert r["breakdown"]["taker"] == "Cy" and r["breakdown"]["bid"] == 4


def test_house_last_player_may_still_bid_when_all_passed_before_any_bid():
    bids = [["Bo", "pass"], ["Cy", "pass"], ["Di", "pass"], ["Ann", 3]]
    r = ts.replay(record(hand(bids, {"Ann": 3})))["rounds"][0]
    assert r["breakdown"]["taker"] == "Ann" and r["scores"]["Ann"] == 6


def test_house_last_player_must_speak_before_the_hand_is_thrown_in():
    bids = [["Bo", "pass"], ["Cy", "pass"], ["Di", "pass"]]
    assert refused(record({"bids": bids})) == (
        "round 1: the bidding is not finished: it is Ann's turn to bid or pass")


def test_house_everyone_passes_the_hand_is_thrown_in():
    result = ts.replay(record({"bids": all_pass("Ann")}, {"bids": all_pass("Bo")}))
    first = result["rounds"][0]
    assert first["scores"] == dict.fromkeys(PLAYERS, 0) and first["gnome"] == 0
    assert first["breakdown"]["thrown_in"] is True
    assert first["breakdown"]["taker"] is None and first["breakdown"]["bid"] is None
    assert {p["case"] for p in first["breakdown"]["players"].values()} == {"thrown in"}
    assert [r["dealer"] for r in result["rounds"]] == ["Ann", "Bo"]  # the deal passes


def test_thrown_in_hand_may_list_who_looked_and_zero_points():
    h = {"bids": all_pass("Ann"), "looked": ["Cy"], "gnome": "red joker", "trump": "♦",
         "points": dict.fromkeys(PLAYERS, 0)}
    r = ts.replay(record(h))["rounds"][0]
    assert r["scores"] == dict.fromkeys(PLAYERS, 0)
    assert r["breakdown"]["players"]["Cy"]["looked"] is True
    assert r["breakdown"]["gnome_card"] is None  # never turned over


def test_thrown_in_hand_with_empty_points_is_fine():
    h = {"bids": all_pass("Ann"), "points": {}, "gnome": None, "trump": None}
    assert ts.replay(record(h))["rounds"][0]["breakdown"]["thrown_in"] is True


def test_thrown_in_hand_with_points_is_refused():
    h = {"bids": all_pass("Ann"), "points": {"Ann": 0, "Bo": 4, "Cy": 0, "Di": 0}}
    assert refused(record(h)) == ("round 1: everyone passed, so the hand was thrown in, "
                                  "yet Bo took 4 points")


def test_thrown_in_hand_checks_a_given_gnome_and_trump():
    h = {"bids": all_pass("Ann"), "gnome": "K♥"}
    assert "not K♥" in refused(record(h))
    h = {"bids": all_pass("Ann"), "trump": "purple"}
    assert refused(record(h)) == "round 1: 'purple' is not a suit"


def test_bidding_after_a_thrown_in_hand_is_refused():
    bids = all_pass("Ann") + [["Bo", 3]]
    assert refused(record({"bids": bids})) == (
        "round 1: Bo cannot bid 3: everyone had passed and the hand was thrown in")


def test_auction_step_by_step():
    auction = ts.Auction.start(PLAYERS, "Di")
    assert auction.to_speak == "Ann" and auction.minimum_bid == 1
    auction = auction.speak(ts.Speech("Ann", 4))
    assert auction.minimum_bid == 5 and auction.to_speak == "Bo"
    assert auction.in_bidding == ("Ann", "Bo", "Cy", "Di")
    with pytest.raises(RuleError, match="Cy cannot bid 9 out of turn: it is Bo's turn"):
        auction.speak(ts.Speech("Cy", 9))
    for p in ("Bo", "Cy", "Di"):
        auction = auction.speak(ts.Speech(p, None))
    assert auction.over and auction.taker == "Ann" and auction.to_speak is None


def test_speech_refuses_a_bad_bid_at_construction():
    with pytest.raises(RuleError, match="Bo's bid must be a whole number of at least 1, not 0"):
        ts.Speech("Bo", 0)
    assert str(ts.Speech("Bo", None)) == "Bo passed" and str(ts.Speech("Bo", 4)) == "Bo bid 4"


# ---------------------------------------------------------------------------
# The Gnome and trump


@pytest.mark.parametrize("card", ["9♠", "9H", "9d", "9♣", "red joker", "black joker"])
def test_every_blanket_card_can_be_the_gnome(card):
    trump = {"red joker": "♥", "black joker": "♠"}.get(card)
    h = hand(take("Ann", "Bo", 2), {"Bo": 2}, gnome=card)
    if trump:
        h["trump"] = trump
    assert ts.replay(record(h))["totals"]["Bo"] == 4


def test_the_gnome_must_be_a_blanket_card():
    h = hand(take("Ann", "Bo", 2), {"Bo": 2}, gnome="K♥")
    assert refused(record(h)) == (
        "round 1: the Gnome is a Blanket card (a 9 or a joker), not K♥")


def test_the_gnome_must_be_a_card():
    h = hand(take("Ann", "Bo", 2), {"Bo": 2}, gnome="gnome")
    assert refused(record(h)) == "round 1: the Gnome: 'gnome' is not a card"


def test_the_gnome_is_required_when_someone_took_the_bid():
    h = hand(take("Ann", "Bo", 2), {"Bo": 2})
    del h["gnome"]
    assert refused(record(h)) == "round 1: which card was the Gnome? (\"gnome\" is missing)"


def test_trump_is_the_gnomes_suit():
    h = hand(take("Ann", "Bo", 2), {"Bo": 2}, gnome="9♣")
    breakdown = ts.replay(record(h))["rounds"][0]["breakdown"]
    assert breakdown["trump"] == "♣"


def test_a_trump_matching_a_nine_is_accepted_a_different_one_refused():
    h = hand(take("Ann", "Bo", 2), {"Bo": 2}, gnome="9♣", trump="clubs")
    assert ts.replay(record(h))["rounds"][0]["breakdown"]["trump"] == "♣"
    h["trump"] = "♠"
    assert refused(record(h)) == "round 1: the Gnome is 9♣, so trump is ♣, not ♠"


@pytest.mark.parametrize(("gnome", "trump"), [("red joker", "♥"), ("red joker", "D"),
                                              ("black joker", "spades"), ("black joker", "♣")])
def test_the_taker_picks_trump_of_the_jokers_colour(gnome, trump):
    h = hand(take("Ann", "Bo", 2), {"Bo": 2}, gnome=gnome, trump=trump)
    picked = ts.replay(record(h))["rounds"][0]["breakdown"]["trump"]
    assert picked == str(parse_suit(trump))


def test_a_joker_gnome_needs_a_trump():
    h = hand(take("Ann", "Bo", 2), {"Bo": 2}, gnome="red joker")
    assert refused(record(h)) == ("round 1: the Gnome is the red joker, so the taker picks "
                                  "trump: either ♥ or ♦")


def test_a_joker_gnome_trump_must_match_its_colour():
    h = hand(take("Ann", "Bo", 2), {"Bo": 2}, gnome="black joker", trump="♥")
    assert refused(record(h)) == ("round 1: the Gnome is the black joker, so trump is "
                                  "either ♠ or ♣, not ♥")


# ---------------------------------------------------------------------------
# Points and the most a hand can hold


@pytest.mark.parametrize(("players", "gnome", "trump", "most"), [
    (4, "9♥", Suit.HEARTS, 32),  # red joker as trump 3 + black joker 2
    (3, "9♥", Suit.HEARTS, 32),
    (5, "9♥", Suit.HEARTS, 32),
    (3, "red joker", Suit.HEARTS, 30),  # black joker 2 + the 9♥ 1
    (3, "red joker", Suit.DIAMONDS, 30),
    (4, "black joker", Suit.CLUBS, 30),
    (3, "9♠", Suit.SPADES, 32),  # black joker as trump 3, red joker 2
    (3, "black joker", Suit.SPADES, 30),
])
def test_max_points(players, gnome, trump, most):
    assert ts.max_points(players, parse_card(gnome), trump) == most


def test_blanket_values():
    assert ts.blanket_value(RED_JOKER, Suit.DIAMONDS) == 3
    assert ts.blanket_value(BLACK_JOKER, Suit.DIAMONDS) == 2
    assert ts.blanket_value(parse_card("9♦"), Suit.DIAMONDS) == 1
    assert ts.blanket_value(parse_card("9♣"), Suit.DIAMONDS) == 0


def test_points_up_to_the_maximum_are_accepted():
    h = hand(take("Ann", "Bo", 10), {"Ann": 8, "Bo": 12, "Cy": 5, "Di": 5}, gnome="red joker",
             trump="♥")
    assert ts.replay(record(h))["rounds"][0]["breakdown"]["max_points"] == 30


def test_points_over_the_maximum_are_refused():
    h = hand(take("Ann", "Bo", 10), {"Ann": 8, "Bo": 12, "Cy": 5, "Di": 6}, gnome="red joker",
             trump="♥")
    assert refused(record(h)) == (
        "round 1: the points add up to 31 (Ann 8, Bo 12, Cy 5, Di 6), but a hand with "
        "red joker as the Gnome and ♥ trumps holds at most 30")


def test_points_for_every_player_are_required():
    h = hand(take("Ann", "Bo", 2), {"Ann": 0, "Bo": 2, "Cy": 0}, fill=False)
    assert refused(record(h)) == "round 1: Di's points are missing"


def test_points_for_a_stranger_are_refused():
    h = hand(take("Ann", "Bo", 2), {"Ann": 0, "Bo": 2, "Cy": 0, "Di": 0, "Zed": 1})
    assert refused(record(h)) == "round 1: in the points: 'Zed' is not a player at this table"


@pytest.mark.parametrize(("value", "words"), [
    (-1, "Cy's points must be at least 0, not -1"),
    ("3", "Cy's points must be a whole number, not '3'"),
    (1.5, "Cy's points must be a whole number, not 1.5"),
    (None, "Cy's points must be a whole number, not None"),
])
def test_points_are_whole_numbers_at_least_zero(value, words):
    h = hand(take("Ann", "Bo", 2), {"Ann": 0, "Bo": 2, "Cy": value, "Di": 0})
    assert refused(record(h)) == f"round 1: {words}"


def test_points_must_be_an_object():
    h = hand(take("Ann", "Bo", 2), {})
    h["points"] = [2, 0]
    assert refused(record(h)).startswith("round 1: points must give every player's points")
    del h["points"]
    assert refused(record(h)).startswith("round 1: points must give every player's points")


# ---------------------------------------------------------------------------
# Who looked


def test_looked_names_must_be_players():
    h = hand(take("Ann", "Bo", 2), {"Bo": 2}, looked=["Zed"])
    assert refused(record(h)) == (
        "round 1: among those who looked at the Gnome: 'Zed' is not a player at this table")


def test_looked_twice_is_refused():
    h = hand(take("Ann", "Bo", 2), {"Bo": 2}, looked=["Bo", "Bo"])
    assert refused(record(h)) == "round 1: Bo is listed twice among those who looked at the Gnome"


def test_looked_must_be_a_list_and_may_be_left_out():
    h = hand(take("Ann", "Bo", 2), {"Bo": 2})
    h["looked"] = "Bo"
    assert refused(record(h)).startswith("round 1: looked must be a list")
    del h["looked"]
    assert ts.replay(record(h))["totals"]["Bo"] == 4


# ---------------------------------------------------------------------------
# The record


def test_unknown_hand_keys_are_refused():
    h = hand(take("Ann", "Bo", 2), {"Bo": 2}, look=["Bo"])
    assert refused(record(h)).startswith("round 1: a hand has no 'look'")


def test_a_round_that_is_not_an_object_is_refused():
    rec = record()
    rec["rounds"] = [["Bo", 5]]
    assert refused(rec) == ("round 1 is not a JSON object (rounds must be a list of JSON "
                            "objects): ['Bo', 5]")


def test_the_round_is_named_in_messages():
    first = hand(take("Ann", "Bo", 2), {"Bo": 2})
    second = hand(take("Bo", "Bo", 2), {"Bo": 2})
    bad = hand(take("Cy", "Bo", 2), {"Bo": 2}, gnome="A♠")
    assert refused(record(first, second, bad)) == (
        "round 3: the Gnome is a Blanket card (a 9 or a joker), not A♠")


@pytest.mark.parametrize("count", [2, 6])
def test_three_to_five_players(count):
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"][:count]
    assert refused(record(players=names)) == (
        f"trumplestiltskin is for 3 to 5 players, not {count}")


def test_options_are_checked():
    assert refused(record(stakes=5)) == "trumplestiltskin has no option 'stakes'"
    assert refused(record(target=0)) == "the target must be at least 1, not 0"
    assert refused(record(gnome_target="lots")) == (
        "the Gnome's target must be a whole number, not 'lots'")


def test_defaults_are_as_designed():
    assert ts.DEFAULTS == {"target": 200, "gnome_target": 350}
    assert list(ts.PLAYERS) == [3, 4, 5]


def test_the_deal_passes_to_the_left_each_hand():
    hands = [{"bids": all_pass(d, ["Ann", "Bo", "Cy"])} for d in ("Bo", "Cy", "Ann", "Bo")]
    result = ts.replay(record(*hands, players=["Ann", "Bo", "Cy"], first_dealer="Bo"))
    assert [r["dealer"] for r in result["rounds"]] == ["Bo", "Cy", "Ann", "Bo"]


# ---------------------------------------------------------------------------
# The end of the game


def ann_takes(dealer, points, bid=None):
    return hand(take(dealer, "Ann", bid or points), {"Ann": points})


def test_the_game_ends_when_a_player_reaches_200():
    hands = [ann_takes(d, 25) for d in ("Ann", "Bo", "Cy")]
    result = ts.replay(record(*hands))
    assert result["totals"]["Ann"] == 150 and result["finished"] is False
    result = ts.replay(record(*hands, ann_takes("Di", 25)))
    assert result["totals"]["Ann"] == 200  # 200 or more ends it
    assert result["finished"] is True and result["winners"] == ["Ann"]


def test_rounds_after_the_end_are_refused():
    hands = [ann_takes(d, 25) for d in ("Ann", "Bo", "Cy", "Di", "Ann")]
    assert refused(record(*hands)) == "round 5: the game already ended after round 4"


def test_the_game_ends_when_the_gnome_reaches_its_target():
    # Bo fails at 10 with 3 points; Ann never bid and her 5 go to the Gnome: 8.
    h = hand(take("Ann", "Bo", 10), {"Ann": 5, "Bo": 3})
    result = ts.replay(record(h, gnome_target=8))
    assert result["gnome"] == 8 and result["finished"] is True
    # The most points wins, ties shared; the Gnome is never a winner.
    assert result["winners"] == ["Ann", "Cy", "Di"]
    assert ts.replay(record(h, gnome_target=9))["finished"] is False


def two_hands_to_twenty(cy_bid, cy_points):
    """Bo reaches 18, then 23 as a non-taker while Cy takes the last bid."""
    first = hand(take("Ann", "Bo", 9), {"Bo": 9})
    bids = [["Cy", 4], ["Di", "pass"], ["Ann", "pass"], ["Bo", 5], ["Cy", cy_bid],
            ["Bo", "pass"]]
    return record(first, hand(bids, {"Bo": 5, "Cy": cy_points}), target=20)


def test_the_last_taker_over_the_target_wins_even_when_not_the_most():
    result = ts.replay(two_hands_to_twenty(11, 11))
    assert result["totals"]["Bo"] == 23 and result["totals"]["Cy"] == 22
    assert result["finished"] is True and result["winners"] == ["Cy"]


def test_the_last_taker_exactly_at_the_target_is_not_more_than_it():
    result = ts.replay(two_hands_to_twenty(10, 10))
    assert result["totals"]["Bo"] == 23 and result["totals"]["Cy"] == 20
    assert result["winners"] == ["Bo"]


def test_find_winners_ties_and_no_taker():
    assert ts.find_winners({"Ann": 210, "Bo": 210, "Cy": 3}, None, 200) == ["Ann", "Bo"]
    assert ts.find_winners({"Ann": 210, "Bo": 150, "Cy": 3}, "Bo", 200) == ["Ann"]


def test_a_game_in_progress():
    result = ts.replay(record(ann_takes("Ann", 10)))
    assert result["finished"] is False and result["winners"] == []
    assert result["totals"]["Ann"] == 20


# ---------------------------------------------------------------------------
# Checklists


def test_deck_prep_names_the_blanket_and_the_share_of_44():
    for names, words in [
        (["Ann", "Bo", "Cy"], "with 3 players two get 15 cards and one gets 14"),
        (PLAYERS, "with 4 players everyone gets 11 cards"),
        (["Ann", "Bo", "Cy", "Di", "Ed"], "with 5 players four get 9 cards and one gets 8"),
    ]:
        steps = [str(step) for step in ts.deck_prep(names, {}).steps]
        assert any("50 cards" in s for s in steps)
        assert any("Blanket" in s and "44 cards remain" in s for s in steps)
        assert words in steps[-1]
    assert str(rules.deck_prep("trumplestiltskin", PLAYERS).title).startswith("Trumplestiltskin")


def test_deal_steps_name_the_dealer_the_gnome_picker_and_first_bidder():
    steps = ts.deal_steps(PLAYERS, "Bo", {}).steps
    text = "\n".join(map(str, steps))
    assert "Bo shuffles the 44 cards" in text and "starting with Cy: everyone gets 11" in text
    assert "Ann (on the dealer’s right) picks one Blanket card face down: the Gnome" in text
    assert "The last Blanket card is set aside face down, unseen." in text
    assert "Bidding starts with Cy (left of the dealer)" in text


def test_deal_steps_three_and_five_players():
    three = "\n".join(map(str, ts.deal_steps(["Ann", "Bo", "Cy"], "Cy", {}).steps))
    assert "Ann and Bo get 15 cards, everyone else gets 14" in three
    assert "The other 2 Blanket cards are set aside" in three
    five = "\n".join(map(str, ts.deal_steps(["Ann", "Bo", "Cy", "Di", "Ed"], "Ed", {}).steps))
    assert "Ann, Bo, Cy and Di get 9 cards, everyone else gets 8" in five
    assert "No Blanket card is left over." in five
    assert "Di (on the dealer’s right)" in five


def test_checklists_refuse_a_bad_table():
    with pytest.raises(RuleError, match="not 2"):
        ts.deck_prep(["Ann", "Bo"], {})
    with pytest.raises(RuleError, match="'Zed' is not a player"):
        ts.deal_steps(PLAYERS, "Zed", {})
    title = ts.deal_steps(PLAYERS, "Ann", {}).as_dict()["title"]
    assert str(title) == "Trumplestiltskin: Ann deals"


# ---------------------------------------------------------------------------
# Properties over generated games (real deals, legal bidding, real tricks)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
quick = settings(max_examples=120, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


def exact(value):
    return int(value) if value.denominator == 1 else float(value)


@quick
@given(seeds)
def test_totals_are_the_sums_of_the_round_scores(seed):
    rec = random_record(random.Random(seed), rounds=30)
    result = ts.replay(rec)
    running = dict.fromkeys(rec["players"], Fraction(0))
    gnome = Fraction(0)
    for r in result["rounds"]:
        for p in rec["players"]:
            running[p] += Fraction(r["scores"][p])
            assert Fraction(r["totals"][p]) == running[p]
        gnome += Fraction(r["gnome"])
        assert Fraction(r["breakdown"]["gnome_total"]) == gnome
        shares = r["breakdown"]["players"].values()
        assert sum(Fraction(s["to_gnome"]) for s in shares) == Fraction(r["gnome"])
    assert {p: Fraction(t) for p, t in result["totals"].items()} == running
    assert Fraction(result["gnome"]) == gnome
    assert result["money"] == {}


@quick
@given(seeds)
def test_the_tally_agrees_with_an_independent_one(seed):
    rec = random_record(random.Random(seed), rounds=30)
    totals, gnome = expected(rec)
    result = ts.replay(rec)
    assert result["totals"] == {p: exact(t) for p, t in totals.items()}
    assert result["gnome"] == exact(gnome)


@quick
@given(seeds)
def test_finished_games_have_winners_and_refuse_more_hands(seed):
    rec = random_record(random.Random(seed), rounds=60)
    result = ts.replay(rec)
    assert result["finished"] == (bool(result["winners"]))
    if result["finished"]:
        totals = result["totals"]
        last = result["rounds"][-1]["breakdown"]["taker"]
        assert (max(totals.values()) >= 200) or result["gnome"] >= 350
        if last is None or totals[last] <= 200:
            assert all(totals[w] == max(totals.values()) for w in result["winners"])
        else:
            assert result["winners"] == [last]
        n = len(rec["rounds"])
        rec["rounds"].append(rec["rounds"][-1])
        message = refused(rec)
        assert message == f"round {n + 1}: the game already ended after round {n}"


@quick
@given(seeds, st.integers(min_value=0, max_value=30))
def test_a_prefix_of_the_hands_gives_a_prefix_of_the_results(seed, cut):
    rec = random_record(random.Random(seed), rounds=30)
    full = ts.replay(rec)
    prefix = dict(rec, rounds=rec["rounds"][:cut])
    part = ts.replay(prefix)
    assert part["rounds"] == full["rounds"][:cut]
    if cut < len(rec["rounds"]):
        assert part["finished"] is False and part["winners"] == []


@quick
@given(seeds)
def test_json_round_trips(seed):
    rec = random_record(random.Random(seed), rounds=20)
    result = ts.replay(rec)
    assert ts.replay(json.loads(json.dumps(rec))) == result
    assert json.loads(json.dumps(result)) == result


@quick
@given(seeds)
def test_dealers_rotate_left_and_points_stay_within_a_hand(seed):
    rec = random_record(random.Random(seed), rounds=20)
    result = ts.replay(rec)
    players = rec["players"]
    start = players.index(rec["first_dealer"])
    for i, r in enumerate(result["rounds"]):
        assert r["dealer"] == players[(start + i) % len(players)]
        b = r["breakdown"]
        if not b["thrown_in"]:
            assert sum(p["points"] for p in b["players"].values()) <= b["max_points"]


def test_a_long_game_replays():
    rec = random_record(random.Random(7), rounds=50, target=10**9, gnome_target=10**9)
    result = ts.replay(rec)
    assert len(result["rounds"]) == 50 and result["finished"] is False


def test_the_generator_obeys_table_size_and_options():
    rec = random_record(random.Random(3), rounds=5, players=5, target=77)
    assert len(rec["players"]) == 5 and rec["options"] == {"target": 77}
    assert re.fullmatch(r"\w+", rec["first_dealer"])



def _scoring(result: dict) -> tuple:
    """What a result scores: totals, the Gnome, winners, the end, each hand's scores."""
    return (result["totals"], result["gnome"], result["winners"], result["finished"],
            [(r["scores"], r["gnome"], r["dealer"]) for r in result["rounds"]])


def test_looks_in_thrown_in_hands_are_kept_and_never_scored():
    """A thrown-in hand with who ``looked`` (a hand of bids and looks, as the web layer now
    records it) replays to the same scores as with its bids only, and says who looked."""
    tried = 0
    for seed in range(300):
        rng = random.Random(seed)
        plain = random_record(rng, rounds=12)
        result = ts.replay(plain)
        thrown = [i for i, r in enumerate(result["rounds"]) if r["breakdown"]["thrown_in"]]
        if not thrown:
            continue
        tried += 1
        looked = json.loads(json.dumps(plain))
        for i in thrown:
            assert set(looked["rounds"][i]) == {"bids"}  # an old record's thrown-in hand
            looked["rounds"][i]["looked"] = rng.sample(plain["players"], 2)
        again = ts.replay(looked)
        assert _scoring(again) == _scoring(result)
        for i in thrown:
            lines = again["rounds"][i]["breakdown"]["players"]
            assert {p for p, line in lines.items() if line["looked"]} == set(
                looked["rounds"][i]["looked"])
    assert tried >= 10
