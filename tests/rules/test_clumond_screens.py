"""Clumond's helpers for the screens: the offers, the round as entered, its checks and words."""

from __future__ import annotations

import pytest

from companion.games.clumond.rules import (
    Offers,
    counting,
    explain,
    going_for_clumond,
    leader,
    pick,
    progress,
    read_trump,
    replay,
    round_checks,
    round_record,
    working,
)
from companion.rules import RuleError

PLAYERS = ["Ann", "Bo", "Cy"]


def record(*rounds, **options):
    return {"game": "clumond", "players": PLAYERS, "first_dealer": "Cy", "options": options,
            "rounds": list(rounds)}


# --------------------------------------------------------------------------- trumps, leads


@pytest.mark.parametrize(("given", "read"), [
    ("♥", "♥"), ("S", "♠"), ("diamonds", "♦"), ("Clubs", "♣"), ("none", "none"),
    (" No trumps ", "none"), ("no trump", "none"),
])
def test_a_trump_is_read_in_any_spelling(given, read):
    assert read_trump(given) == read


@pytest.mark.parametrize("given", ["", "joker", None, 3, "10♥"])
def test_anything_else_is_not_a_trump(given):
    with pytest.raises(RuleError, match="name a trump suit"):
        read_trump(given)


def test_the_first_lead_is_left_of_the_declarer_or_of_the_dealer():
    assert leader(PLAYERS, "Ann", None) == "Bo"
    assert leader(PLAYERS, "Ann", "Cy") == "Ann"


def test_tricks_that_count_in_words():
    assert [counting(n) for n in (0, 1, 9, 10, 11, 13)] == [
        "0 tricks: 0 count", "1 trick: 1 counts", "9 tricks: 9 count", "10 tricks: 0 count",
        "11 tricks: 1 counts", "13 tricks: 3 count"]


# --------------------------------------------------------------------------- kept cards


def test_kept_cards_are_picked_from_the_48_card_deck():
    assert [str(c) for c in pick(["AC", "2h", "Q♠"])] == ["A♣", "2♥", "Q♠"]
    assert pick([]) == ()


@pytest.mark.parametrize(("cards", "message"), [
    (["10♦"], "10♦ is not in the Clumond deck: the four 10s are taken out"),
    (["TS"], "10♠ is not in the Clumond deck: the four 10s are taken out"),
    (["red joker"], "red joker is not in the Clumond deck$"),
    (["XXI"], "XXI is not in the Clumond deck$"),
    (["1S"], "'1S' is not a card"),
    ([None], "'None' is not a card"),
    (["A♣", "ac"], "A♣ is picked twice"),
    (["A♣", "2♣", "3♣", "4♣"], "4 cards are picked: each player keeps 3"),
])
def test_a_bad_pick_is_refused_naming_the_card(cards, message):
    with pytest.raises(RuleError, match=message):
        pick(cards)


def test_the_working_of_a_declaration_as_the_cards_are_picked():
    assert working(["3♥", "7♠", "4♦"]) == "3♥ 7♠ 4♦: 2 + 1 + 0 = 3"
    assert working(["A♣", "2♣", "K♣"]) == "A♣ 2♣ K♣: 3 + 3 + 3 = 9"
    assert working(["5♦", "6♦"]) == "5♦ 6♦: 0 + 0 = 0 so far"
    assert working(["K♥"]) == "K♥: 2 so far"
    assert working([]) == ""


# --------------------------------------------------------------------------- going for Clumond


def test_the_offer_goes_round_from_the_dealers_left():
    offers = going_for_clumond(PLAYERS, "Bo")
    assert offers.order == ("Cy", "Ann", "Bo") and offers.turn == "Cy"
    offers = offers.answer("Cy", False).answer("Ann", False)
    assert offers.turn == "Bo" and not offers.nobody
    assert offers.answers == (("Cy", False), ("Ann", False), ("Bo", None))
    offers = offers.answer("Bo", False)
    assert offers.nobody and offers.turn is None and offers.declarer is None


def test_the_first_yes_is_the_declarer_and_ends_the_offers():
    offers = going_for_clumond(PLAYERS, "Cy").answer("Ann", False).answer("Bo", True)
    assert offers.declarer == "Bo" and offers.turn is None and not offers.nobody
    assert offers.answers == (("Ann", False), ("Bo", True), ("Cy", None))
    with pytest.raises(RuleError, match="over for this round: Bo went for it"):
        offers.answer("Cy", True)


def test_an_answer_out_of_turn_or_after_everyone_said_no_is_refused():
    offers = going_for_clumond(PLAYERS, "Cy")
    with pytest.raises(RuleError, match="It is Ann's turn to answer, not Bo's"):
        offers.answer("Bo", True)
    done = offers.answer("Ann", False).answer("Bo", False).answer("Cy", False)
    with pytest.raises(RuleError, match="over for this round$"):
        done.answer("Ann", True)


def test_the_last_answer_can_be_taken_back():
    offers = going_for_clumond(PLAYERS, "Cy", passed=["Ann"], declarer="Bo")
    assert offers.take_back() == going_for_clumond(PLAYERS, "Cy", passed=["Ann"])
    assert offers.take_back().take_back() == going_for_clumond(PLAYERS, "Cy")
    with pytest.raises(RuleError, match="Nobody has answered yet"):
        going_for_clumond(PLAYERS, "Cy").take_back()


@pytest.mark.parametrize(("passed", "declarer", "message"), [
    (["Bo"], None, "asked in turn"),
    (["Ann", "Cy"], None, "asked in turn"),
    ([], "Bo", "Bo was not the one asked after nobody"),
    (["Ann", "Bo", "Cy"], "Ann", "Ann was not the one asked after Ann, Bo, Cy"),
])
def test_offers_out_of_order_are_refused(passed, declarer, message):
    with pytest.raises(RuleError, match=message):
        Offers(("Ann", "Bo", "Cy"), tuple(passed), declarer)


# --------------------------------------------------------------------------- the game now


def test_progress_names_the_round_its_dealer_and_its_pot():
    now = progress(record())
    assert (now.label, now.dealer, now.pot, now.pot_after_antes) == ("Round 1 of 10", "Cy",
                                                                      0, 15)
    assert not now.finished and now.result == replay(record())
    # Nobody succeeds: every chip stays, and the next round's antes add to it.
    missed = {"tricks": {"Ann": 5, "Bo": 4, "Cy": 4}, "declared": {"Ann": 0, "Bo": 0, "Cy": 0}}
    now = progress(record(missed, ante=2, rounds=None, target=150))
    assert (now.label, now.dealer, now.pot, now.pot_after_antes) == (
        "Round 2 · first to 150", "Ann", 19, 25)


def test_progress_once_the_game_is_over():
    made = {"tricks": {"Ann": 5, "Bo": 4, "Cy": 4}, "declared": {"Ann": 5, "Bo": 4, "Cy": 4}}
    now = progress(record(made, rounds=1, target=200))
    assert now.finished and now.dealer is None and now.round_number == 1
    assert now.label == "Round 1 of 1 · or first to 200"
    assert now.pot == 0


# --------------------------------------------------------------------------- checks


def test_a_complete_standard_round_is_ready():
    checks = round_checks(PLAYERS, None, {"Ann": 5, "Bo": 4, "Cy": 4},
                          {"Ann": ["3♥", "7♠", "4♦"], "Bo": ["A♣", "2♣", "K♥"]}, {"Cy": 1})
    assert checks.ready and checks.problems == () and checks.missing == ()


def test_tricks_that_do_not_add_up_to_13_concern_everyone():
    checks = round_checks(PLAYERS, None, {"Ann": 5, "Bo": 4, "Cy": 5}, {},
                          {"Ann": 1, "Bo": 1, "Cy": 1})
    assert [p.message for p in checks.problems] == ["The tricks add up to 14, not 13"]
    assert all(checks.concerning(p) for p in PLAYERS) and not checks.ready
    few = round_checks(PLAYERS, None, {"Ann": 0, "Bo": 0, "Cy": 0}, {}, {})
    assert [p.message for p in few.problems] == ["The tricks add up to 0, not 13"]
    early = round_checks(PLAYERS, None, {"Ann": 13}, {}, {})
    assert early.problems == () and early.missing == (
        "Ann's kept cards", "Bo's tricks and kept cards", "Cy's tricks and kept cards")


def test_a_card_in_two_players_kept_cards_concerns_those_two():
    checks = round_checks(PLAYERS, None, {},
                          {"Ann": ["K♣", "2♥", "3♠"], "Bo": ["4♦", "5♦", "6♦"],
                           "Cy": ["K♣", "2♥", "Q♦"]}, {})
    assert [p.message for p in checks.problems] == [
        "K♣ is in both Ann's and Cy's kept cards", "2♥ is in both Ann's and Cy's kept cards"]
    assert checks.concerning("Bo") == () and len(checks.concerning("Cy")) == 2


@pytest.mark.parametrize(("cards", "message"), [
    (["10♥", "2♥", "3♥"], "Ann: 10♥ is not in the Clumond deck: the four 10s are taken out"),
    (["2♥", "3♥"], "Ann: 2 kept cards: each player keeps 3"),
])
def test_kept_cards_that_cannot_be_are_a_problem_for_their_player(cards, message):
    checks = round_checks(PLAYERS, None, {}, {"Ann": cards}, {})
    assert checks.concerning("Ann") == (message,) and checks.concerning("Bo") == ()


def test_a_declarer_round_needs_only_the_declarers_declaration():
    checks = round_checks(PLAYERS, "Bo", {"Ann": 5, "Bo": 4, "Cy": 4}, {}, {})
    assert checks.missing == ("Bo's kept cards",)
    assert round_checks(PLAYERS, "Bo", {"Ann": 5, "Bo": 4, "Cy": 4}, {}, {"Bo": 4}).ready


def test_the_record_round_from_what_was_entered():
    facts = round_record(PLAYERS, None, "♥", {"Cy": 4, "Ann": 5, "Bo": 4},
                         {"Bo": ["A♣", "2♣", "K♥"]}, {"Ann": 3, "Bo": 8, "Cy": None})
    assert facts == {"declarer": None, "trump": None, "tricks": {"Ann": 5, "Bo": 4, "Cy": 4},
                     "kept": {"Bo": ["A♣", "2♣", "K♥"]}, "declared": {"Ann": 3}}
    assert list(facts["tricks"]) == PLAYERS
    assert round_record(PLAYERS, "Ann", "none", {"Ann": 13, "Bo": 0, "Cy": 0}, {}, {}) == {
        "declarer": "Ann", "trump": "none", "tricks": {"Ann": 13, "Bo": 0, "Cy": 0}}


# --------------------------------------------------------------------------- the round in words


def test_each_players_round_in_words():
    standard = {"tricks": {"Ann": 3, "Bo": 4, "Cy": 6}, "declared": {"Ann": 3, "Bo": 8, "Cy": 1}}
    made = {"declarer": "Bo", "trump": "♥", "tricks": {"Ann": 1, "Bo": 12, "Cy": 0},
            "declared": {"Bo": 2}}
    missed = {"declarer": "Cy", "trump": "none", "tricks": {"Ann": 3, "Bo": 1, "Cy": 9},
              "declared": {"Cy": 5, "Ann": 3}}
    rounds = replay(record(standard, made, missed))["rounds"]
    said = [{p: explain(r["breakdown"], p) for p in PLAYERS} for r in rounds]
    assert said[0] == {"Ann": "3 tricks: 3 count, declared 3: made it, takes ⅓ of the pot: 8",
                       "Bo": "4 tricks: 4 count, declared 8: 4 off, pays 4",
                       "Cy": "6 tricks: 6 count, declared 1: 5 off, pays 5"}
    assert said[1] == {
        "Ann": "1 trick: 1 counts; Bo made Clumond: nothing from the pot",
        "Bo": "went for Clumond, 12 tricks: 2 count, declared 2: made it, "
              "takes the whole pot: 31",
        "Cy": "0 tricks: 0 count; Bo made Clumond: nothing from the pot"}
    assert said[2] == {
        "Ann": "3 tricks: 3 count, declared 3; Cy missed Clumond: takes half the pot: 7",
        "Bo": "1 trick: 1 counts; Cy missed Clumond: takes half the pot: 7",
        "Cy": "went for Clumond, 9 tricks: 9 count, declared 5: missed, "
              "the pot goes to the other two"}
