"""Tremp (RULES.md section 5): the rules, the house decisions, the checks."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.tremp import rules as tremp
from companion.games.tremp.rules import (
    Bidding,
    Game,
    Hand,
    bidding_status,
    deal_steps,
    deck_prep,
    hand_points,
    next_dealer,
    partner_of,
    points,
    read_bidding,
    read_hand,
    replay,
    team_names,
)
from companion.rules import RuleError
from companion.rules import replay as replay_any
from companion.rules.cards import Suit, standard_deck
from companion.rules.common import left_of

from . import gen_tremp as gen

PLAYERS = ["Rob", "Sam", "Nick", "Emily"]
A, B = "Rob & Nick", "Sam & Emily"
CARDS = [str(c) for c in standard_deck()]


def record(*hands, first_dealer="Rob", **options):
    return {"game": "tremp", "players": PLAYERS, "first_dealer": first_dealer,
            "options": options, "rounds": list(hands)}


def auction(dealer, bid, bidder, cards=None):
    """Bids where displays run in turn up to ``bid``, the last by ``bidder``, then 3 passes."""
    n = bid - tremp.OPENING_BID
    cards = cards or CARDS[:n]
    start = left_of(PLAYERS, bidder, -(n - 1))
    entries = []
    turn = left_of(PLAYERS, dealer)
    while turn != start:
        entries.append([turn, "pass"])
        turn = left_of(PLAYERS, turn)
    for card in cards:
        entries.append([turn, card])
        turn = left_of(PLAYERS, turn)
    for _ in range(3):
        entries.append([turn, "pass"])
        turn = left_of(PLAYERS, turn)
    return entries


def hand(dealer, bid, bidder, tricks):
    return {"bids": auction(dealer, bid, bidder), "tricks": tricks}


def error(rec) -> str:
    with pytest.raises(RuleError) as info:
        replay(rec)
    return str(info.value)


EXAMPLE = {"bids": [["Sam", "5♥"], ["Nick", "pass"], ["Emily", "K♠"], ["Rob", "pass"],
                    ["Sam", "pass"], ["Nick", "pass"]], "tricks": 9}


# --- helpers and the RULES.md example ------------------------------------------------


def test_points_are_exact_powers_of_two():
    assert points(8) == 256
    assert points(0) == 1
    assert points(-2) == Fraction(1, 4)
    assert isinstance(points(3), int)


def test_rules_example_bid_eight():
    made = hand_points(8, 9)
    assert (made.made, made.match_points, made.game_points) == (True, 256, 4)
    failed = hand_points(8, 13 - 9)
    assert (failed.made, failed.game_points, failed.match_points) == (False, 128, 64)


def test_rules_example_bid_eight_in_a_record():
    res = replay(record(hand("Rob", 8, "Sam", 9)))
    assert res["rounds"][0]["bid"] == 8
    assert res["match"] == {A: 0, B: 256}
    assert res["totals"] == {A: 0, B: 4}
    res = replay(record(hand("Rob", 8, "Sam", 4)))
    assert res["match"] == {A: 64, B: 0}
    assert res["totals"] == {A: 128, B: 0}
    bd = res["rounds"][0]["breakdown"]
    assert (bd["made"], bd["points_to"], bd["tricks"], bd["needed"]) == (False, A, 4, 8)


def test_made_exactly_gives_p_zero_game_points():
    assert hand_points(5, 5).game_points == 1


def test_a_negative_bid_gives_fractional_match_points_written_exactly():
    res = replay(record(EXAMPLE))
    assert res["match"] == {A: 0, B: 0.25}
    assert res["totals"] == {A: 0, B: 2**22}
    assert json.loads(json.dumps(res)) == res


def test_team_names_and_partners():
    assert team_names(PLAYERS) == (A, B)
    assert partner_of(PLAYERS, "Rob") == "Nick" and partner_of(PLAYERS, "Emily") == "Sam"


def test_result_shape():
    res = replay(record(EXAMPLE))
    assert list(res) == ["rounds", "totals", "finished", "winners", "money", "match", "matches"]
    assert list(res["rounds"][0]) == ["dealer", "scores", "totals", "bid", "bidder", "trump",
                                      "tremp", "match", "breakdown"]
    assert res["money"] == {}
    assert res["matches"] == {A: 0, B: 0}
    assert res["rounds"][0]["dealer"] == "Rob"


def test_empty_record():
    assert replay_any(record()) == {"rounds": [], "totals": {A: 0, B: 0}, "finished": False,
                                    "winners": [], "money": {}, "match": {A: 0, B: 0},
                                    "matches": {A: 0, B: 0}}


# --- bidding ------------------------------------------------------------------------------


def test_bid_is_minus_four_plus_cards_displayed_and_trump_is_the_last_suit():
    res = replay(record(EXAMPLE))
    rnd = res["rounds"][0]
    assert (rnd["bid"], rnd["bidder"], rnd["trump"], rnd["tremp"]) == (-2, "Emily", "♠", "♣")
    assert rnd["breakdown"]["displayed"] == [
        {"player": "Sam", "card": "5♥", "bid": -3}, {"player": "Emily", "card": "K♠", "bid": -2}]


@pytest.mark.parametrize(("card", "trump", "tremp_suit"), [
    ("2♠", "♠", "♣"), ("2♣", "♣", "♠"), ("2♥", "♥", "♦"), ("2♦", "♦", "♥")])
def test_tremp_is_the_other_suit_of_the_same_colour(card, trump, tremp_suit):
    rnd = replay(record({"bids": [["Sam", card], ["Nick", "pass"], ["Emily", "pass"],
                                  ["Rob", "pass"]], "tricks": 0}))["rounds"][0]
    assert (rnd["trump"], rnd["tremp"]) == (trump, tremp_suit)


def test_a_player_who_passed_may_bid_again_later():
    bids = [["Sam", "pass"], ["Nick", "2♥"], ["Emily", "pass"], ["Rob", "pass"],
            ["Sam", "AS"], ["Nick", "pass"], ["Emily", "pass"], ["Rob", "pass"]]
    rnd = replay(record({"bids": bids, "tricks": 2}))["rounds"][0]
    assert (rnd["bidder"], rnd["bid"], rnd["trump"]) == ("Sam", -2, "♠")


def test_house_rule_the_dealer_must_bid_after_three_passes():
    bids = [["Sam", "pass"], ["Nick", "pass"], ["Emily", "pass"], ["Rob", "7♦"],
            ["Sam", "pass"], ["Nick", "pass"], ["Emily", "pass"]]
    rnd = replay(record({"bids": bids, "tricks": 0}))["rounds"][0]
    assert (rnd["bidder"], rnd["bid"]) == ("Rob", -3)
    bids[3] = ["Rob", "pass"]
    assert error(record({"bids": bids, "tricks": 0})) == (
        "round 1: Rob is the dealer and must bid after three passes (house rule)")


def test_bidding_starts_left_of_the_dealer_and_goes_clockwise():
    msg = error(record({"bids": [["Rob", "5♥"]], "tricks": 3}))
    assert msg == "round 1: Rob bid out of turn; it was Sam's turn"
    ok = record(hand("Rob", -3, "Sam", 0), {"bids": [["Emily", "pass"]], "tricks": 3})
    assert error(ok) == "round 2: Emily passed out of turn; it was Nick's turn"


def test_wrong_turn_later_in_the_bidding_names_the_player_whose_turn_it_was():
    # the third hand is Nick's deal: Emily, Rob, then Sam speak first
    bids = [["Emily", "pass"], ["Rob", "pass"], ["Nick", "K♠"]]
    rec = record(hand("Rob", 0, "Nick", 4), hand("Sam", 0, "Rob", 4), {"bids": bids,
                                                                        "tricks": 3})
    assert error(rec) == "round 3: Nick bid out of turn; it was Sam's turn"


def test_the_record_must_end_exactly_where_the_bidding_ends():
    extra = EXAMPLE["bids"] + [["Emily", "pass"]]
    assert error(record({"bids": extra, "tricks": 3})) == (
        "round 1: the bidding ended with Nick's pass; Emily's entry after it is one too many")
    short = EXAMPLE["bids"][:-1]
    assert error(record({"bids": short, "tricks": 3})) == (
        "round 1: the bidding has not ended: after Emily's bid of -2 (K♠) three players "
        "in a row must pass")
    assert error(record({"bids": [["Sam", "pass"]], "tricks": 3})) == (
        "round 1: the bidding has not ended: nobody has bid yet")
    assert error(record({"bids": [], "tricks": 3})) == (
        "round 1: the bidding has not ended: nobody has bid yet")


def test_a_card_cannot_be_displayed_twice():
    bids = [["Sam", "5♥"], ["Nick", "5H"], ["Emily", "pass"]]
    assert error(record({"bids": bids, "tricks": 3})) == (
        "round 1: 5♥ was already displayed by Sam; Nick cannot display it again")


def test_a_player_cannot_display_more_than_thirteen_cards():
    bids = auction("Rob", 48, "Rob")
    assert len([b for b in bids if b[1] != "pass"]) == 52
    assert replay(record({"bids": bids, "tricks": 0}))["rounds"][0]["bid"] == 48
    # Sam and Rob take turns displaying: Rob's 13 cards run out first, Sam shows a 14th.
    cards = iter(CARDS)
    bids = []
    for _ in range(13):
        bids += [["Sam", next(cards)], ["Nick", "pass"], ["Emily", "pass"], ["Rob", next(cards)]]
    bids.append(["Sam", next(cards)])
    assert error(record({"bids": bids, "tricks": 0})) == (
        "round 1: Sam has displayed 14 cards but holds only 13")


@pytest.mark.parametrize(("what", "message"), [
    ("1S", "round 1: Sam displayed '1S', which is not a card (or \"pass\")"),
    (5, "round 1: Sam displayed 5, which is not a card (or \"pass\")"),
    (None, "round 1: Sam displayed None, which is not a card"),
    ("Fool", "round 1: Sam displayed Fool, which is not in a standard deck"),
    ("P♠", "round 1: Sam displayed P♠, which is not in a standard deck"),
    ("red joker", "round 1: Sam displayed red joker, which is not in a standard deck"),
])
def test_only_standard_cards_can_be_displayed(what, message):
    assert message in error(record({"bids": [["Sam", what]], "tricks": 3}))


@pytest.mark.parametrize(("rnd", "message"), [
    ({"tricks": 3}, "round 1: the bids are missing"),
    ({"bids": "Sam 5♥", "tricks": 3}, "round 1: the bids must be a list"),
    ({"bids": [["Sam"]], "tricks": 3}, "round 1: bid 1 must be [player, card] or"),
    ({"bids": ["Sam 5♥"], "tricks": 3}, "round 1: bid 1 must be [player, card]"),
    ({"bids": [["Dan", "5♥"]], "tricks": 3}, "round 1: 'Dan' is not a player at this table"),
    ({"bids": EXAMPLE["bids"]}, "round 1: the tricks taken by Sam & Emily (who won the bid) "
                                "are missing"),
    ({"bids": EXAMPLE["bids"], "tricks": 14},
     "round 1: the tricks taken by Sam & Emily (who won the bid) must be at most 13, not 14"),
    ({"bids": EXAMPLE["bids"], "tricks": -1}, "must be at least 0, not -1"),
    ({"bids": EXAMPLE["bids"], "tricks": "9"}, "must be a whole number, not '9'"),
    ({"bids": EXAMPLE["bids"], "tricks": True}, "must be a whole number, not True"),
])
def test_bad_hands_are_refused_with_a_message_naming_the_fault(rnd, message):
    assert message in error(record(rnd))


def test_a_hand_must_be_an_object_and_the_message_names_it():
    assert error(record(EXAMPLE, ["Sam", "5♥"])) == (
        "round 2: a hand must be a JSON object, not ['Sam', '5♥']")
    with pytest.raises(RuleError, match="^round 4: a hand must be a JSON object"):
        read_hand("x", PLAYERS, "Rob", "round 4")


def test_unknown_fields_of_a_hand_are_refused():
    message = r"^round 1: a hand has no field 'trick' \(only bids, tricks\)$"
    with pytest.raises(RuleError, match=message):
        replay(record(dict(EXAMPLE, trick=9)))


def test_bidding_and_hand_values_check_themselves():
    with pytest.raises(RuleError, match="somebody must bid"):
        Bidding(())
    bidding = read_bidding(EXAMPLE["bids"], PLAYERS, "Rob", "round 1")
    assert (bidding.trump, bidding.tremp) == (Suit.SPADES, Suit.CLUBS)
    with pytest.raises(RuleError, match="0 to 13 tricks, not 14"):
        Hand(bidding, 14)


def test_bidding_status_follows_a_bidding_in_progress():
    s = bidding_status([], PLAYERS, "Rob")
    assert (s.turn, s.bid, s.bidder, s.trump, s.ended) == ("Sam", -4, None, None, False)
    s = bidding_status([["Sam", "pass"], ["Nick", "pass"], ["Emily", "pass"]], PLAYERS, "Rob")
    assert s.turn == "Rob" and s.dealer_must_bid
    s = bidding_status(EXAMPLE["bids"][:4], PLAYERS, "Rob")
    assert (s.turn, s.bid, s.bidder, s.trump, s.passes) == ("Sam", -2, "Emily", Suit.SPADES, 1)
    assert not s.dealer_must_bid
    s = bidding_status(EXAMPLE["bids"], PLAYERS, "Rob")
    assert s.ended and s.turn is None and s.bidder == "Emily"
    with pytest.raises(RuleError, match="^this hand: Rob bid out of turn; it was Sam's turn"):
        bidding_status([["Rob", "2♣"]], PLAYERS, "Rob")


# --- matches and the game ------------------------------------------------------------


def test_a_match_is_won_at_272_and_the_match_total_joins_the_game_total():
    # Sam & Emily: bid 8 made twice (256 + 256 = 512 >= 272).
    rec = record(hand("Rob", 8, "Sam", 8), hand("Sam", 8, "Sam", 8))
    res = replay(rec)
    first, second = res["rounds"]
    assert first["match"] == {A: 0, B: 256} and first["breakdown"]["match_won"] is None
    assert first["breakdown"]["thresholds"] == {A: 272, B: 272}
    assert second["breakdown"]["match_won"] == B
    assert second["breakdown"]["match_totals"] == {A: 0, B: 512}
    assert second["breakdown"]["match_total_to_game"] == 512
    # game points: P(0) each hand; the match total is added when the match is won
    assert second["scores"] == {A: 0, B: 1 + 512}
    assert res["totals"] == {A: 0, B: 1 + 1 + 512}
    assert res["match"] == {A: 0, B: 0} == second["match"]
    assert res["matches"] == {A: 0, B: 1}
    assert res["finished"] is False


def test_below_272_no_match_is_won():
    res = replay(record(hand("Rob", 8, "Sam", 8)))
    assert res["matches"] == {A: 0, B: 0} and res["match"] == {A: 0, B: 256}


def test_a_team_with_fewer_matches_needs_only_136():
    won = hand("Rob", 9, "Sam", 9)  # 512 match points: Sam & Emily win a match
    after = replay(record(won))
    assert after["matches"] == {A: 0, B: 1}
    # next dealer: Rob dealt and is on the losing team, so his partner Nick deals
    assert next_dealer(record(won)) == "Nick"
    res = replay(record(won, hand("Nick", 8, "Rob", 8)))  # Rob & Nick: 256 >= 136
    bd = res["rounds"][1]["breakdown"]
    assert bd["thresholds"] == {A: 136, B: 272}
    assert bd["match_won"] == A
    assert res["matches"] == {A: 1, B: 1}
    # the leader still needs 272: Sam & Emily with 256 have not won
    res = replay(record(won, hand("Nick", 8, "Sam", 8)))
    assert res["rounds"][1]["breakdown"]["match_won"] is None
    assert res["match"] == {A: 0, B: 256}


def test_beginners_need_136_for_every_match():
    res = replay(record(hand("Rob", 8, "Sam", 8), beginners=True))
    assert res["matches"] == {A: 0, B: 1}
    assert res["rounds"][0]["breakdown"]["thresholds"] == {A: 136, B: 136}
    res = replay(record(hand("Rob", 7, "Sam", 7), beginners=True))
    assert res["matches"] == {A: 0, B: 0}  # 128 < 136


def test_the_losing_team_deals_first_in_the_next_match():
    # Sam (winning team) deals the winning hand: the next player clockwise, Nick, deals.
    rec = record(hand("Rob", -3, "Sam", 0), hand("Sam", 9, "Emily", 9))
    res = replay(rec)
    assert res["rounds"][1]["dealer"] == "Sam"
    assert res["matches"] == {A: 0, B: 1}
    assert next_dealer(rec) == "Nick"
    # Nick (losing team) deals the winning hand: his partner Rob deals next.
    rec = record(hand("Nick", 9, "Sam", 9), first_dealer="Nick")
    assert next_dealer(rec) == "Rob"
    # Rob & Nick win with Nick dealing: Sam, to his left, is on the losing team.
    rec = record(hand("Nick", 9, "Rob", 9), first_dealer="Nick")
    assert next_dealer(rec) == "Emily"


def test_otherwise_the_deal_passes_clockwise():
    rec = record(*(hand(d, 0, "Sam", 3) for d in ["Nick", "Emily", "Rob", "Sam"]),
                 first_dealer="Nick")
    assert [r["dealer"] for r in replay(rec)["rounds"]] == ["Nick", "Emily", "Rob", "Sam"]
    assert next_dealer(rec) == "Nick"


def _two_match_lead():
    # Sam & Emily win two matches in a row (the second needs 272: they lead).
    return [hand("Rob", 9, "Sam", 9), hand("Nick", 9, "Emily", 9)]


def test_the_game_ends_when_a_team_leads_by_two_matches():
    res = replay(record(*_two_match_lead()))
    assert res["matches"] == {A: 0, B: 2}
    assert res["finished"] is True
    assert res["winners"] == ["Sam", "Emily"]
    assert res["rounds"][-1]["breakdown"]["game_over"] is True
    assert next_dealer(record(*_two_match_lead())) is None


def test_a_one_match_lead_does_not_end_the_game():
    res = replay(record(hand("Rob", 9, "Rob", 9)))
    assert res["finished"] is False and res["winners"] == []
    res = replay(record(hand("Rob", 9, "Rob", 9), hand("Sam", 8, "Sam", 8),
                        hand("Nick", 9, "Nick", 9), first_dealer="Rob"))
    # Rob & Nick won, Sam & Emily (trailing) won on 256 >= 136, Rob & Nick won again
    assert [r["dealer"] for r in res["rounds"]] == ["Rob", "Sam", "Nick"]
    assert res["matches"] == {A: 2, B: 1} and res["finished"] is False


def test_winners_of_the_first_team():
    rec = record(hand("Rob", 9, "Rob", 9), hand("Sam", 9, "Nick", 9))
    res = replay(rec)
    assert res["finished"] and res["winners"] == ["Rob", "Nick"]


def test_hands_after_the_end_are_refused():
    rec = record(*_two_match_lead(), hand("Emily", 0, "Sam", 3))
    assert error(rec) == "round 3: the game already ended after round 2"
    game = Game.start(PLAYERS, "Rob", beginners=False)
    for raw in _two_match_lead():
        _, game = game.play(read_hand(raw, PLAYERS, game.dealer, "hand"))
    with pytest.raises(RuleError, match="round 3: the game already ended after round 2"):
        game.play(read_hand(_two_match_lead()[0], PLAYERS, "Rob", "hand"))


def test_points_too_large_for_json_are_refused_not_rounded():
    rec = record(hand("Rob", -3, "Rob", 0),   # Rob & Nick: 1/8 match, P(6) game points
                 hand("Sam", 9, "Rob", 9))    # 512 1/8: a match won with a fraction
    assert replay(rec)["totals"][A] == 64 + 1 + 512.125
    assert next_dealer(rec) == "Emily"
    # Sam & Emily display all 52 cards and take no trick: P(94) match points.
    rec["rounds"].append({"bids": auction("Emily", 48, "Sam"), "tricks": 0})
    assert error(rec).startswith("round 3: the points have grown too large")


# --- options and checklists -----------------------------------------------------------


def test_options():
    assert tremp.DEFAULTS == {"beginners": False}
    assert error(record(beginners="yes")) == (
        "the beginners option must be true or false, not 'yes'")
    assert error(record(target=3)) == "tremp has no option 'target'"
    assert error("tremp") == "a game record must be a JSON object"
    assert replay({"game": "tremp", "players": PLAYERS})["rounds"] == []
    assert "tremp is for 4 players, not 3" in error(
        {"game": "tremp", "players": PLAYERS[:3], "rounds": []})


def test_deck_prep_names_the_partnerships():
    steps = [str(step) for step in deck_prep(PLAYERS, {}).steps]
    assert "nothing is taken out" in steps[0]
    assert "Rob & Nick against Sam & Emily" in steps[1]
    assert "272" in steps[2] and "136" in steps[2]
    assert "136 match points (beginners)" in str(deck_prep(PLAYERS, {"beginners": True}).steps[2])


def test_deal_steps_name_the_dealer_and_the_first_bidder():
    checklist = deal_steps(PLAYERS, "Emily", {})
    steps = [str(step) for step in checklist.steps]
    assert str(checklist.title) == "Tremp: Emily deals"
    assert steps[0].startswith("Emily shuffles and deals all 52 cards one at a time")
    assert "starting with Rob: 13 each" in steps[0]
    assert steps[1].startswith("Bidding starts at \u22124 with Rob")
    assert "If Rob, Sam and Nick all pass, Emily must bid (house rule)." in steps[2]


def test_checklists_check_their_input():
    with pytest.raises(RuleError, match="tremp is for 4 players, not 5"):
        deck_prep(PLAYERS + ["Di"], {})
    with pytest.raises(RuleError, match="'Di' is not a player"):
        deal_steps(PLAYERS, "Di", {})
    with pytest.raises(RuleError, match="tremp has no option 'target'"):
        deck_prep(PLAYERS, {"target": 1})
    with pytest.raises(RuleError, match="options must be a JSON object"):
        deck_prep(PLAYERS, [])


# --- generated games: the properties --------------------------------------------------

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def exact(value):
    return Fraction(value)


@settings(max_examples=120, deadline=None)
@given(seed=seeds, hands=st.integers(0, 40), beginners=st.booleans())
def test_generated_games_keep_the_books(seed, hands, beginners):
    rec = gen.random_record(random.Random(seed), rounds=hands, beginners=beginners)
    res = replay(rec)
    for team in (A, B):
        assert exact(res["totals"][team]) == sum(exact(r["scores"][team]) for r in res["rounds"])
    assert res["money"] == {}
    lead = abs(res["matches"][A] - res["matches"][B])
    assert res["finished"] == (lead >= 2)
    if res["finished"]:
        assert res["winners"] in (["Rob", "Nick"], ["Sam", "Emily"])
    for r in res["rounds"]:
        bd = r["breakdown"]
        assert r["bid"] == -4 + len(bd["displayed"])
        assert r["bidder"] == bd["displayed"][-1]["player"]
        assert Suit(r["trump"]).partner is Suit(r["tremp"])
        assert all(exact(v) < bd["thresholds"][t] for t, v in r["match"].items())


@settings(max_examples=100, deadline=None)
@given(seed=seeds, hands=st.integers(1, 25), cut=st.integers(0, 25))
def test_a_prefix_of_the_hands_gives_a_prefix_of_the_results(seed, hands, cut):
    rec = gen.random_record(random.Random(seed), rounds=hands)
    full = replay(rec)
    part = replay(dict(rec, rounds=rec["rounds"][:cut]))
    assert part["rounds"] == full["rounds"][:cut]


@settings(max_examples=100, deadline=None)
@given(seed=seeds, hands=st.integers(0, 25))
def test_records_and_results_survive_json(seed, hands):
    rec = gen.random_record(random.Random(seed), rounds=hands)
    res = replay(rec)
    assert replay(json.loads(json.dumps(rec))) == res
    assert json.loads(json.dumps(res)) == res


def test_a_fifty_hand_game():
    rec = gen.random_record(random.Random(50), rounds=50, avoid_end=True)
    res = replay(rec)
    assert len(res["rounds"]) == 50 and not res["finished"]
