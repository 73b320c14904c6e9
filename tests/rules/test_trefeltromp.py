"""Trefeltromp (RULES.md section 4): the rules, the house decisions, the checks."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.trefeltromp import rules as trefeltromp
from companion.games.trefeltromp.rules import (
    DEFAULTS,
    PLAYERS,
    Action,
    Stage,
    Verb,
    current_hand,
    deal_steps,
    deck_prep,
    legal_actions,
    max_amount,
    next_to_act,
    replay,
    reveal_strength,
    reveal_winner,
    start_hand,
    table_now,
    tarot_card,
    to_call,
)
from companion.rules import RuleError
from companion.rules import deal_steps as deal_steps_any
from companion.rules import replay as replay_any
from companion.rules.cards import RED_JOKER, parse_card


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


gen = _load("gen_trefeltromp")

P3 = ["Ann", "Bo", "Cy"]


def record(*hands, players=P3, first_dealer="Ann", **options):
    return {"game": "trefeltromp", "players": list(players), "first_dealer": first_dealer,
            "options": options, "rounds": list(hands)}


def hand(*calls, shows=(), buys=(), leave=()):
    return {"buys": [list(b) for b in buys], "leave": list(leave),
            "calls": [list(c) for c in calls], "shows": list(shows)}


def checks(*names):
    return [[n, "check"] for n in names]


def error(rec) -> str:
    with pytest.raises(RuleError) as caught:
        replay(rec)
    return str(caught.value)


# Dealer Ann, so every betting round starts with Bo: Bo, Cy, Ann.
ALL_CHECK = (checks("Bo", "Cy", "Ann"),) * 4
TIES = ({"Ann": "K♥", "Bo": "Q♠", "Cy": "5♣"},      # best card shared: two courts
        {"Ann": "A♠", "Bo": "A♦", "Cy": "3♣"},      # two aces
        {"Ann": "7♣", "Bo": "7♦", "Cy": "2♠"})      # two sevens

DESIGN_HAND = {
    "buys": [["Cy", 200]], "leave": [],
    "calls": [[["Bo", "check"], ["Cy", "bet", 20], ["Ann", "call"], ["Bo", "fold"]],
              [["Cy", "check"], ["Ann", "check"]],
              [["Cy", "bet", 10], ["Ann", "call"]],
              [["Cy", "check"], ["Ann", "check"]]],
    "shows": [{"Ann": "XXI", "Cy": "K♥"}, {"Ann": "Fool", "Cy": "7♣"},
              {"Ann": "A♠", "Cy": "A♦"}],
}


# ---------------------------------------------------------------------------
# The worked example of DESIGN.md


def test_design_example_hand():
    result = replay(record(DESIGN_HAND))
    # Antes 30; Cy bets 20 and Ann calls: 70. Banen: XXI takes 70 // 3 = 23 (47 left).
    # Detuilerkalla: 10 each, 67. Detuiler: the Fool is the only trump and takes 33.
    # Debekranse: two aces tie, the 34 chips stay in the pot.
    assert result["totals"] == {"Ann": 516, "Bo": 490, "Cy": 660}
    assert result["pot"] == 34
    assert result["money"] == {"Ann": 16, "Bo": -10, "Cy": -40}
    assert result["finished"] is False and result["winners"] == []
    (only,) = result["rounds"]
    assert only["dealer"] == "Ann"
    assert only["scores"] == {"Ann": 16, "Bo": -10, "Cy": -240 + 200}
    assert only["pot"] == 34
    b = only["breakdown"]
    assert b["buys"] == {"Cy": 200} and b["ante"] == 10
    assert (b["pot_carried"], b["pot_after_antes"]) == (0, 30)
    assert [c["pot"] for c in b["calls"]] == [70, 70, 67, 34]
    assert b["calls"][0]["actions"] == [
        {"player": "Bo", "action": "check", "chips": 0},
        {"player": "Cy", "action": "bet", "by": 20, "chips": 20},
        {"player": "Ann", "action": "call", "chips": 20},
        {"player": "Bo", "action": "fold", "chips": 0}]
    assert [(r["winner"], r["share"], r["tied"]) for r in b["reveals"]] == [
        ("Ann", 23, []), ("Ann", 33, []), (None, 0, ["Ann", "Cy"])]
    assert b["reveals"][1]["cards"] == {"Ann": "Fool", "Cy": "7♣"}
    assert b["folded"] == ["Bo"] and b["won_by_fold"] is None
    assert b["fool_privilege"] == []  # the Fool won, so no privilege
    assert b["stage"] == "over" and b["to_act"] is None


def test_result_keys_in_contract_order():
    result = replay(record(DESIGN_HAND))
    assert list(result) == ["rounds", "totals", "finished", "winners", "money", "pot"]
    assert list(result["rounds"][0]) == ["dealer", "scores", "totals", "pot", "breakdown"]
    assert list(result["totals"]) == P3 and list(result["rounds"][0]["scores"]) == P3


def test_dispatch_through_the_package():
    assert replay_any(record(DESIGN_HAND)) == replay(record(DESIGN_HAND))
    assert deal_steps_any("trefeltromp", P3, "Bo").title == "Trefeltromp: Bo deals"


def test_empty_record():
    result = replay(record())
    assert result == {"rounds": [], "totals": {"Ann": 500, "Bo": 500, "Cy": 500},
                      "finished": False, "winners": [], "money": {"Ann": 0, "Bo": 0, "Cy": 0},
                      "pot": 0}
    assert DEFAULTS == {"ante": 10, "stack": 500, "limit": None, "chip_value": None}


# ---------------------------------------------------------------------------
# A hand: antes, shares, rounding, carrying the pot


def test_shares_round_down_and_the_rest_stays():
    rec = record(hand([["Bo", "bet", 2], ["Cy", "call"], ["Ann", "call"]],
                      checks("Bo", "Cy", "Ann"),
                      [["Bo", "bet", 1], ["Cy", "call"], ["Ann", "call"]],
                      checks("Bo", "Cy", "Ann"),
                      shows=[{"Ann": "3♠", "Bo": "9♥", "Cy": "XXI"},
                             {"Ann": "N♣", "Bo": "A♣", "Cy": "10♦"},
                             {"Ann": "Q♥", "Bo": "2♦", "Cy": "4♠"}]), ante=5)
    result = replay(rec)
    reveals = result["rounds"][0]["breakdown"]["reveals"]
    # 21 in the pot: banen 21 // 3 = 7; then 14 + 3 = 17: detuiler 17 // 2 = 8; crown 9.
    assert [(r["winner"], r["share"], r["pot"]) for r in reveals] == [
        ("Cy", 7, 14), ("Bo", 8, 9), ("Ann", 9, 0)]
    assert result["totals"] == {"Ann": 501, "Bo": 500, "Cy": 499}
    assert result["pot"] == 0


def test_ties_keep_the_pot_and_the_next_hand_still_antes():
    first = hand(*ALL_CHECK, shows=TIES)
    second = hand(checks("Ann", "Bo", "Cy"), checks("Ann", "Bo", "Cy"),
                  checks("Ann", "Bo", "Cy"), checks("Ann", "Bo", "Cy"),
                  shows=[{"Ann": "XXI", "Bo": "2♠", "Cy": "3♠"},
                         {"Ann": "4♠", "Bo": "XX", "Cy": "5♠"},
                         {"Ann": "6♠", "Bo": "8♠", "Cy": "XIX"}])
    result = replay(record(first, second))
    one, two = result["rounds"]
    assert one["pot"] == 30 and one["scores"] == {"Ann": -10, "Bo": -10, "Cy": -10}
    assert all(r["winner"] is None for r in one["breakdown"]["reveals"])
    b = two["breakdown"]
    assert (b["pot_carried"], b["pot_after_antes"]) == (30, 60)
    # 60: Ann takes 20, Bo 20, Cy the last 20.
    assert [r["share"] for r in b["reveals"]] == [20, 20, 20]
    assert two["scores"] == {"Ann": 10, "Bo": 10, "Cy": 10}
    assert result["totals"] == {"Ann": 500, "Bo": 500, "Cy": 500} and result["pot"] == 0


def test_dealer_passes_right_and_betting_starts_left_of_dealer():
    rec = record(*[hand(*ALL_CHECK, shows=TIES)] * 1)
    assert replay(rec)["rounds"][0]["dealer"] == "Ann"
    # Round 2: the dealer is right of Ann, i.e. Cy, and Ann (left of Cy) bets first.
    second = hand([["Ann", "fold"], ["Bo", "fold"]])
    result = replay(record(hand(*ALL_CHECK, shows=TIES), second))
    assert result["rounds"][1]["dealer"] == "Cy"
    assert "it is Ann's turn, not Bo's" in error(
        record(hand(*ALL_CHECK, shows=TIES), hand([["Bo", "check"]])))


def test_later_betting_rounds_start_with_first_player_still_in_left_of_dealer():
    # Dealer Ann; Bo (left of Ann) folds, so banenkalla starts with Cy.
    rec = record(hand([["Bo", "fold"], ["Cy", "check"], ["Ann", "check"]],
                      [["Ann", "check"]]))
    assert "it is Cy's turn, not Ann's" in error(rec)
    ok = replay(record(hand([["Bo", "fold"], ["Cy", "check"], ["Ann", "check"]],
                            checks("Cy", "Ann"))))
    assert ok["rounds"][0]["breakdown"]["stage"] == "banen"


def test_the_dealer_folded_is_skipped():
    rec = record(hand([["Bo", "check"], ["Cy", "check"], ["Ann", "fold"]],
                      checks("Bo", "Cy"), checks("Bo", "Cy")),
                 )
    assert "banen reveal is missing" in error(rec)
    rec = record(hand([["Bo", "check"], ["Cy", "check"], ["Ann", "fold"]],
                      checks("Bo", "Cy"), checks("Bo", "Cy"),
                      shows=[{"Bo": "A♠", "Cy": "2♠"}]))
    assert replay(rec)["rounds"][0]["breakdown"]["calls"][2]["over"] is True


# ---------------------------------------------------------------------------
# Betting


def test_raise_is_n_more_than_the_call():
    rec = record(hand([["Bo", "bet", 10], ["Cy", "raise", 5], ["Ann", "call"], ["Bo", "call"]]))
    result = replay(rec)
    call = result["rounds"][0]["breakdown"]["calls"][0]
    assert [a["chips"] for a in call["actions"]] == [10, 15, 15, 5]
    assert call["pot"] == 30 + 45 and call["over"] is True
    assert result["totals"] == {"Ann": 475, "Bo": 475, "Cy": 475}


def test_a_raise_reopens_the_betting_round():
    actions = [["Bo", "check"], ["Cy", "bet", 10], ["Ann", "raise", 10], ["Bo", "call"],
               ["Cy", "call"]]
    result = replay(record(hand(actions)))
    assert result["rounds"][0]["breakdown"]["calls"][0]["pot"] == 30 + 60
    assert "Bo's check is one action too many" in error(record(hand(actions + [["Bo", "check"]])))
    # Before Cy calls, the round is still open: it is Cy's turn.
    rec = record(hand(actions[:4], checks("Bo", "Cy", "Ann")))
    assert ("round 1, fyrsturkalla: the betting round is not over (it is Cy's turn in "
            "fyrsturkalla) but later entries follow") == error(rec)


@pytest.mark.parametrize(("actions", "message"), [
    ([["Bo", "bet", 5], ["Cy", "check"]],
     "round 1, fyrsturkalla: Cy cannot check: there are 5 chips to call"),
    ([["Bo", "bet", 5], ["Cy", "bet", 10]],
     "round 1, fyrsturkalla: Cy cannot bet: there is already a bet (call 5, raise or fold)"),
    ([["Bo", "raise", 5]], "round 1, fyrsturkalla: Bo cannot raise: nobody has bet yet"),
    ([["Bo", "call"]], "round 1, fyrsturkalla: Bo cannot call: there is nothing to call"),
    ([["Bo", "stay"]], "round 1, fyrsturkalla: Bo cannot stay: only a player who showed the Fool"),
    ([["Cy", "check"]], "round 1, fyrsturkalla: it is Bo's turn, not Cy's"),
    ([["Bo", "fold"], ["Bo", "check"]], "it is Cy's turn, not Bo's (Bo has folded)"),
    ([["Zed", "check"]], "round 1, fyrsturkalla: 'Zed' is not a player at this table"),
])
def test_betting_checks(actions, message):
    assert message in error(record(hand(actions)))


def test_fold_with_nothing_to_call_is_allowed():
    result = replay(record(hand([["Bo", "fold"], ["Cy", "check"], ["Ann", "check"]])))
    assert result["rounds"][0]["breakdown"]["folded"] == ["Bo"]


def test_limit_caps_each_bet_and_raise():
    ok = record(hand([["Bo", "bet", 20], ["Cy", "raise", 20], ["Ann", "call"], ["Bo", "call"]]),
                limit=20)
    assert replay(ok)["rounds"][0]["breakdown"]["calls"][0]["pot"] == 30 + 120
    msg = error(record(hand([["Bo", "bet", 21]]), limit=20))
    assert msg == "round 1, fyrsturkalla: Bo's bet of 21 is over the table limit of 20"
    msg = error(record(hand([["Bo", "bet", 5], ["Cy", "raise", 25]]), limit=20))
    assert "Cy's raise of 25 is over the table limit of 20" in msg
    assert replay(record(hand([["Bo", "bet", 450]])))["pot"] == 480  # no limit by default


def test_no_all_ins_a_player_must_cover():
    msg = error(record(hand([["Bo", "bet", 50], ["Cy", "call"]], buys=[("Bo", 100)]), stack=30))
    assert msg == ("round 1, fyrsturkalla: Cy cannot cover the call of 50 with 20 chips; "
                   "buy more or fold")
    msg = error(record(hand([["Bo", "bet", 21]]), stack=30))
    assert "Bo cannot cover a bet of 21 with 20 chips" in msg
    msg = error(record(hand([["Bo", "bet", 20], ["Cy", "raise", 1]]), stack=30))
    assert "Cy cannot cover a raise of 1 (21 in all) with 20 chips" in msg
    # Exactly enough is fine.
    assert replay(record(hand([["Bo", "bet", 20], ["Cy", "call"]]), stack=30))["pot"] == 70


def test_ante_must_be_covered():
    msg = error(record(hand(), stack=5))
    assert msg == ("round 1, ante: Ann cannot cover the ante of 10 with 5 chips; "
                   "buy more or leave the table")
    ok = replay(record(hand(buys=[("Ann", 5), ("Bo", 5), ("Cy", 5)]), stack=5))
    assert ok["totals"] == {"Ann": 0, "Bo": 0, "Cy": 0} and ok["pot"] == 30


def test_verbs_are_read_regardless_of_case_and_amounts_as_whole_numbers():
    rec = record(hand([["Bo", " BET ", 20.0], ["Cy", "Call"], ["Ann", "fold"]]))
    call = replay(rec)["rounds"][0]["breakdown"]["calls"][0]
    assert call["actions"][0] == {"player": "Bo", "action": "bet", "by": 20, "chips": 20}


@pytest.mark.parametrize(("entry", "message"), [
    ("Bo check", "'Bo check' is not an action"),
    (["Bo"], "is not an action"),
    (["Bo", "bet", 5, 6], "is not an action"),
    ([7, "check"], "7 is not a player's name"),
    (["", "check"], "'' is not a player's name"),
    (["Bo", "pass"], "Bo: 'pass' is not an action (check, bet, raise, call, fold or stay)"),
    (["Bo", 3], "Bo: 3 is not an action"),
    (["Bo", "bet"], "Bo's bet needs an amount"),
    (["Bo", "check", 5], "Bo's check takes no amount"),
    (["Bo", "bet", 0], "Bo's bet must be at least 1, not 0"),
    (["Bo", "bet", -5], "Bo's bet must be at least 1, not -5"),
    (["Bo", "bet", "ten"], "Bo's bet must be a whole number, not 'ten'"),
    (["Bo", "bet", True], "Bo's bet must be a whole number, not True"),
    (["Bo", "bet", 2.5], "Bo's bet must be a whole number, not 2.5"),
])
def test_malformed_actions(entry, message):
    msg = error(record(hand([entry])))
    assert msg.startswith("round 1, fyrsturkalla: ") and message in msg


# ---------------------------------------------------------------------------
# All but one fold


def test_last_player_in_takes_the_whole_pot_at_once():
    rec = record(hand([["Bo", "bet", 10], ["Cy", "fold"], ["Ann", "fold"]]))
    result = replay(rec)
    b = result["rounds"][0]["breakdown"]
    assert b["won_by_fold"] == {"player": "Bo", "share": 40}
    assert b["stage"] == "over" and b["folded"] == ["Ann", "Cy"]  # seat order
    assert result["totals"] == {"Ann": 490, "Bo": 520, "Cy": 490} and result["pot"] == 0
    assert result["rounds"][0]["scores"] == {"Ann": -10, "Bo": 20, "Cy": -10}


def test_fold_out_after_a_reveal_takes_what_is_left():
    rec = record(hand(checks("Bo", "Cy", "Ann"), checks("Bo", "Cy", "Ann"),
                      [["Bo", "bet", 10], ["Cy", "fold"], ["Ann", "fold"]],
                      shows=[{"Ann": "XXI", "Bo": "2♠", "Cy": "3♠"}]))
    result = replay(rec)
    # Ann took 10 at banen; Bo takes the remaining 20 plus his own 10.
    assert result["rounds"][0]["breakdown"]["won_by_fold"] == {"player": "Bo", "share": 30}
    assert result["totals"] == {"Ann": 500, "Bo": 510, "Cy": 490}


def test_nothing_may_follow_a_hand_won_by_folding():
    base = [["Bo", "bet", 10], ["Cy", "fold"], ["Ann", "fold"]]
    msg = error(record(hand(base + [["Bo", "check"]])))
    assert msg == ("round 1, fyrsturkalla: the hand ended when everyone but Bo folded; "
                   "Bo's check comes after it")
    msg = error(record(hand(base, checks("Bo"))))
    assert "round 1, banenkalla: the hand ended when everyone but Bo folded" in msg
    msg = error(record(hand(base, [], shows=[{"Bo": "XXI"}])))
    assert msg == "round 1, banen: the hand ended when everyone but Bo folded; no cards are shown"
    # Empty entries after the end are fine, even with gaps.
    padded = {"calls": [base, [], [], []], "shows": []}
    assert replay(record(padded))["rounds"][0]["breakdown"]["won_by_fold"]["player"] == "Bo"
    padded = {"calls": [base, [], [], []], "shows": [{}, {}, {}]}
    assert replay(record(padded))["totals"]["Bo"] == 520


# ---------------------------------------------------------------------------
# Who wins a reveal


def cards(**by_name):
    return {name: tarot_card(text) for name, text in by_name.items()}


@pytest.mark.parametrize(("shown", "winner"), [
    ({"a": "XXI", "b": "A♠", "c": "XX"}, "a"),           # The World beats everything
    ({"a": "II", "b": "I"}, "a"),                        # higher trump
    ({"a": "Fool", "b": "A♠", "c": "K♥"}, "a"),          # the Fool, the only trump, wins
    ({"a": "Fool", "b": "I"}, "b"),                      # ... and loses to any other trump
    ({"a": "A♦", "b": "K♦", "c": "10♦"}, "a"),           # an Ace beats the courts
    ({"a": "P♣", "b": "10♣"}, "a"),                      # the lowest court beats a 10
    ({"a": "10♥", "b": "9♠"}, "a"),                      # then 10 down to 2
    ({"a": "3♥", "b": "2♥"}, "a"),
    ({"a": "A♠", "b": "7♠", "c": "7♥"}, "a"),            # a tie below the best does not matter
    ({"a": "K♠", "b": "P♥"}, None),                      # the courts are all equal
    ({"a": "N♦", "b": "Q♣", "c": "2♠"}, None),
    ({"a": "A♠", "b": "A♥"}, None),                      # suits never matter
    ({"a": "7♣", "b": "7♦"}, None),
])
def test_who_wins_a_reveal(shown, winner):
    assert reveal_winner(cards(**shown)) == winner


def test_reveal_strength_orders_the_deck():
    deck = [tarot_card(c) for c in ("2♠", "9♠", "10♠", "P♠", "N♠", "Q♠", "K♠", "A♠", "Fool",
                                    "I", "XXI")]
    strengths = [reveal_strength(c) for c in deck]
    assert strengths == sorted(strengths)
    assert len({reveal_strength(c) for c in deck[3:7]}) == 1
    with pytest.raises(RuleError, match="red joker is not a tarot card"):
        reveal_strength(RED_JOKER)


@pytest.mark.parametrize(("text", "message"), [
    ("red joker", "the red joker is not a tarot card"),
    ("J♠", "J♠ is not a tarot card (the court cards are P, N, Q, K)"),
    ("1S", "'1S' is not a card"),
    ("XXII", "'XXII' is not a card"),
])
def test_only_tarot_cards(text, message):
    with pytest.raises(RuleError) as caught:
        tarot_card(text)
    assert message in str(caught.value)
    assert tarot_card(parse_card("xxi")) == tarot_card("XXI")


# ---------------------------------------------------------------------------
# Reveals: who shows, which cards


def to_banen(shows):
    return record(hand([["Bo", "fold"], ["Cy", "check"], ["Ann", "check"]],
                       checks("Cy", "Ann"), shows=shows))


@pytest.mark.parametrize(("shown", "message"), [
    ({"Cy": "XXI"}, "round 1, banen: no card shown by Ann"),
    ({}, "round 1, banen: no card shown by Ann, Cy"),
    ({"Ann": "2♠", "Cy": "3♠", "Bo": "4♠"}, "round 1, banen: Bo folded and shows no card"),
    ({"Ann": "2♠", "Cy": "3♠", "Zed": "4♠"}, "round 1, banen: Zed is not in this hand"),
    ({"Ann": "2♠", "Cy": "joker"}, "round 1, banen: Cy's card: 'joker' is not a card"),
    ({"Ann": "2♠", "Cy": "black joker"}, "Cy's card: the black joker is not a tarot card"),
    ({"Ann": "J♥", "Cy": "3♠"}, "Ann's card: J♥ is not a tarot card"),
    ({"Ann": "XXI", "Cy": "xxi"}, "round 1, banen: Cy shows XXI, already shown by Ann this hand"),
    ({"Ann": 21, "Cy": "3♠"}, "Ann's card: 21 is not a card"),
])
def test_reveal_checks(shown, message):
    assert message in error(to_banen([shown]))


def test_shows_must_be_an_object():
    assert "round 1, banen: the cards shown must be a JSON object" in error(
        to_banen([["XXI", "2♠"]]))


def test_no_card_twice_in_a_hand():
    rec = record(hand(*ALL_CHECK[:3], shows=[{"Ann": "XXI", "Bo": "2♠", "Cy": "3♠"},
                                             {"Ann": "4♠", "Bo": "XXI", "Cy": "5♠"}]))
    assert ("round 1, detuiler: Bo shows XXI, already shown by Ann at banen this hand"
            == error(rec))
    rec = record(hand(*ALL_CHECK[:3], shows=[{"Ann": "XXI", "Bo": "2♠", "Cy": "3♠"},
                                             {"Ann": "XXI", "Bo": "4♠", "Cy": "5♠"}]))
    assert "Ann shows XXI, already shown at banen this hand" in error(rec)
    # The same card in the next hand is another deal: fine.
    two = record(hand(*ALL_CHECK, shows=TIES), hand(*[checks("Ann", "Bo", "Cy")] * 2,
                                                    shows=[TIES[0]]))
    assert replay(two)["rounds"][1]["breakdown"]["reveals"][0]["winner"] is None


# ---------------------------------------------------------------------------
# The Fool's privilege

FOOL_LOSES = {"Ann": "5♠", "Bo": "Fool", "Cy": "XXI"}   # Bo showed the Fool and lost


def fool_hand(detuilerkalla, *later, shows=()):
    return hand(checks("Bo", "Cy", "Ann"), checks("Bo", "Cy", "Ann"), detuilerkalla, *later,
                shows=[FOOL_LOSES, *shows])


def test_fool_privilege_stay_without_matching():
    rec = record(fool_hand([["Bo", "stay"], ["Cy", "bet", 20], ["Ann", "call"]],
                           shows=[{"Ann": "6♠", "Bo": "A♠", "Cy": "7♠"}]))
    result = replay(rec)
    b = result["rounds"][0]["breakdown"]
    assert b["fool_privilege"] == [
        {"player": "Bo", "betting_round": "detuilerkalla", "stayed": True}]
    assert b["calls"][2]["over"] is True and b["calls"][2]["pot"] == 20 + 40
    # Bo stayed in and won detuiler with the Ace: half of 60.
    assert b["reveals"][1]["winner"] == "Bo" and b["reveals"][1]["share"] == 30
    assert result["totals"] == {"Ann": 470, "Bo": 520, "Cy": 480}


def test_fool_privilege_even_with_nothing_to_call_and_not_asked_again():
    stayed = [["Bo", "stay"], ["Cy", "bet", 5], ["Ann", "raise", 5], ["Cy", "call"]]
    b = replay(record(fool_hand(stayed)))["rounds"][0]["breakdown"]
    assert b["calls"][2]["over"] is True and b["stage"] == "detuiler"
    assert "Bo's call is one action too many" in error(record(fool_hand(stayed + [["Bo",
                                                                                   "call"]])))
    msg = error(record(fool_hand([["Bo", "stay"], ["Cy", "bet", 5], ["Bo", "call"]])))
    assert msg == ("round 1, detuilerkalla: it is Ann's turn, not Bo's "
                   "(Bo stayed and is not asked again)")


def test_fool_privilege_given_up_by_acting():
    rec = record(fool_hand([["Bo", "check"], ["Cy", "bet", 5], ["Ann", "call"], ["Bo", "stay"]]))
    assert error(rec) == ("round 1, detuilerkalla: Bo gave up the Fool's privilege by acting "
                          "earlier in this betting round; match or fold")
    # Acting normally (a raise, say) means matching like everyone else.
    rec = record(fool_hand([["Bo", "bet", 10], ["Cy", "raise", 5], ["Ann", "call"]]))
    hand_now = current_hand(rec)
    assert next_to_act(hand_now) == "Bo" and to_call(hand_now) == 5
    assert Verb.STAY not in legal_actions(hand_now)


def test_only_the_fool_loser_may_stay():
    rec = record(fool_hand([["Bo", "check"], ["Cy", "stay"]]))
    assert "round 1, detuilerkalla: Cy cannot stay" in error(rec)


def test_fool_privilege_only_for_the_very_next_betting_round():
    rec = record(fool_hand(checks("Bo", "Cy", "Ann"), [["Bo", "stay"]],
                           shows=[{"Ann": "6♠", "Bo": "7♥", "Cy": "8♠"}]))
    assert "round 1, debekransekalla: Bo cannot stay" in error(rec)


def test_fool_lost_at_detuiler_gives_privilege_at_debekransekalla():
    rec = record(hand(*ALL_CHECK[:3], [["Bo", "bet", 5], ["Cy", "stay"], ["Ann", "call"]],
                      shows=[{"Ann": "2♠", "Bo": "3♠", "Cy": "4♠"},
                             {"Ann": "XXI", "Bo": "5♠", "Cy": "Fool"},
                             {"Ann": "6♠", "Bo": "7♠", "Cy": "A♦"}]))
    result = replay(rec)
    b = result["rounds"][0]["breakdown"]
    assert b["fool_privilege"] == [
        {"player": "Cy", "betting_round": "debekransekalla", "stayed": True}]
    assert b["reveals"][2]["winner"] == "Cy"


def test_fool_winning_or_shown_last_gives_no_privilege():
    won = record(hand(*ALL_CHECK[:2], [["Bo", "stay"]],
                      shows=[{"Ann": "5♠", "Bo": "Fool", "Cy": "A♠"}]))
    assert "Bo cannot stay" in error(won)
    last = hand(*ALL_CHECK, shows=[TIES[0], TIES[1], {"Ann": "XXI", "Bo": "Fool", "Cy": "2♠"}])
    rec = record(last, hand([["Ann", "check"], ["Bo", "stay"]]))
    assert "round 2, fyrsturkalla: Bo cannot stay" in error(rec)


def test_a_stayer_is_still_in_the_hand():
    # Everyone else folds: the one who stayed takes the pot.
    rec = record(fool_hand([["Bo", "stay"], ["Cy", "fold"], ["Ann", "fold"]]))
    result = replay(rec)
    assert result["rounds"][0]["breakdown"]["won_by_fold"] == {"player": "Bo", "share": 20}
    # Or the bettor and the stayer both show at detuiler.
    rec = record(fool_hand([["Bo", "stay"], ["Cy", "bet", 10], ["Ann", "fold"]],
                           shows=[{"Cy": "2♠"}]))
    assert "round 1, detuiler: no card shown by Bo" == error(rec)


# ---------------------------------------------------------------------------
# Buys, leaving, the end of the game


def test_buys_add_to_stack_and_to_chips_bought_not_to_scores():
    result = replay(record(hand(*ALL_CHECK, shows=TIES, buys=[("Bo", 50), ("Bo", 25)])))
    assert result["rounds"][0]["breakdown"]["buys"] == {"Bo": 75}
    assert result["rounds"][0]["scores"]["Bo"] == -10
    assert result["totals"]["Bo"] == 565 and result["money"]["Bo"] == -10


@pytest.mark.parametrize(("buys", "message"), [
    ([["Zed", 5]], "round 1: buys: 'Zed' is not a player at this table"),
    ([["Bo", 0]], "round 1: Bo's buy must be at least 1, not 0"),
    ([["Bo", "lots"]], "round 1: Bo's buy must be a whole number"),
    ([["Bo"]], "round 1: ['Bo'] is not a buy: write [name, chips]"),
    ("Bo 50", "round 1: buys must be a list"),
])
def test_buy_checks(buys, message):
    rec = record({"buys": buys})
    assert message in error(rec)


def test_leavers_take_their_stack_and_play_no_further_part():
    first = hand([["Bo", "bet", 10], ["Cy", "fold"], ["Ann", "fold"]], leave=["Bo"])
    result = replay(record(first, hand(checks("Ann", "Cy"))))
    assert result["totals"]["Bo"] == 520
    assert result["rounds"][1]["breakdown"]["seated"] == ["Ann", "Cy"]
    assert result["rounds"][1]["scores"]["Bo"] == 0
    assert result["finished"] is False
    assert "Bo is not seated in this hand" in error(
        record(first, hand([["Ann", "check"], ["Bo", "check"]])))
    assert "round 2: Bo has left the table and cannot buy chips" == error(
        record(first, {"buys": [["Bo", 10]]}))
    assert "round 2: Bo has already left the table" == error(record(first, {"leave": ["Bo"]}))


def test_the_deal_skips_players_who_left():
    players = ["Ann", "Bo", "Cy", "Di"]
    # Dealer Ann: Bo bets, everyone else folds; Di leaves.
    first = hand([["Bo", "bet", 1], ["Cy", "fold"], ["Di", "fold"], ["Ann", "fold"]],
                 leave=["Di"])
    # Right of Ann is Di, who left: Cy deals, and Ann (left of Cy) acts first.
    second = hand([["Ann", "bet", 1], ["Bo", "fold"], ["Cy", "fold"]])
    # Right of Cy is Bo; left of Bo is Cy, who acts first.
    third = hand([["Cy", "bet", 1], ["Ann", "fold"], ["Bo", "fold"]])
    result = replay(record(first, second, third, players=players))
    assert [r["dealer"] for r in result["rounds"]] == ["Ann", "Cy", "Bo"]


def _two_hands(crown):
    # Round 1 (dealer Ann): Ann folds, Bo and Cy tie at every reveal: 32 stay in the pot.
    first = hand([["Bo", "bet", 1], ["Cy", "call"], ["Ann", "fold"]],
                 checks("Bo", "Cy"), checks("Bo", "Cy"), checks("Bo", "Cy"),
                 shows=[{"Bo": "K♥", "Cy": "Q♠"}, {"Bo": "A♠", "Cy": "A♦"},
                        {"Bo": "7♣", "Cy": "7♦"}])
    # Round 2 (dealer Cy): 62 in the pot; banen and detuiler tie; then everyone leaves.
    second = hand(*[checks("Ann", "Bo", "Cy")] * 4,
                  shows=[{"Ann": "P♠", "Bo": "N♠", "Cy": "2♥"},
                         {"Ann": "9♦", "Bo": "9♣", "Cy": "8♥"}, crown],
                  leave=["Cy", "Ann", "Bo"])
    return record(first, second)


def test_the_last_players_leave_after_the_pot_was_won():
    result = replay(_two_hands({"Ann": "V", "Bo": "2♦", "Cy": "VI"}))
    assert result["rounds"][0]["pot"] == 32
    assert result["rounds"][1]["breakdown"]["share_out"] == {}
    assert result["totals"] == {"Ann": 480, "Bo": 479, "Cy": 541}
    assert result["finished"] is True and result["winners"] == ["Cy"]


def test_the_last_players_leave_and_share_out_the_pot():
    result = replay(_two_hands({"Ann": "4♥", "Bo": "4♣", "Cy": "4♦"}))
    two = result["rounds"][1]
    assert two["dealer"] == "Cy"
    # 62 chips among all who sat in the hand, odd chips from the dealer's left (Ann).
    assert two["breakdown"]["share_out"] == {"Ann": 21, "Bo": 21, "Cy": 20}
    assert two["breakdown"]["left"] == ["Ann", "Bo", "Cy"]
    assert two["scores"] == {"Ann": 11, "Bo": 11, "Cy": 10}
    assert two["pot"] == 0 and result["pot"] == 0
    assert result["totals"] == {"Ann": 501, "Bo": 500, "Cy": 499}
    assert result["money"] == {"Ann": 1, "Bo": 0, "Cy": -1}
    assert result["finished"] is True and result["winners"] == ["Ann"]


def test_shared_win():
    rec = record(hand(*ALL_CHECK, shows=TIES, leave=P3))
    result = replay(rec)
    assert result["money"] == {"Ann": 0, "Bo": 0, "Cy": 0}
    assert result["winners"] == P3


def test_nothing_after_the_game_ended():
    rec = record(hand([["Bo", "fold"], ["Cy", "fold"]], leave=P3), hand())
    assert error(rec) == "round 2: the game already ended after round 1"


def test_a_player_alone_must_leave_too():
    first = hand([["Bo", "fold"]], leave=["Ann"])
    rec = record(first, players=["Ann", "Bo"])
    assert replay(rec)["finished"] is False
    msg = error(record(first, hand(), players=["Ann", "Bo"]))
    assert msg == ("round 2: only Bo is still at the table and a hand needs at least 2 "
                   "players; record Bo as leaving after round 1")


@pytest.mark.parametrize(("leave", "message"), [
    (["Zed"], "round 1: leave: 'Zed' is not a player at this table"),
    (["Bo", "Bo"], "round 1: Bo is named twice in leave"),
    ("Bo", "round 1: leave must be a list"),
])
def test_leave_checks(leave, message):
    rec = record({"calls": [[["Bo", "fold"], ["Cy", "fold"]]], "leave": leave})
    assert message in error(rec)


def test_no_leaving_during_a_hand():
    rec = record(hand(checks("Bo"), leave=["Cy"]))
    assert error(rec) == ("round 1: Cy cannot leave before the hand is over "
                          "(it is Cy's turn in fyrsturkalla)")


# ---------------------------------------------------------------------------
# A hand in progress


def test_a_hand_in_progress():
    rec = record(hand([["Bo", "bet", 20], ["Cy", "call"]]))
    result = replay(rec)
    b = result["rounds"][0]["breakdown"]
    assert b["stage"] == "fyrsturkalla" and b["to_act"] == "Ann"
    assert b["calls"][0]["over"] is False
    assert result["pot"] == 70 and result["totals"] == {"Ann": 490, "Bo": 470, "Cy": 470}
    assert result["rounds"][0]["scores"] == {"Ann": -10, "Bo": -30, "Cy": -30}
    assert result["finished"] is False and result["winners"] == []
    assert sum(result["totals"].values()) + result["pot"] == 1500
    now = current_hand(rec)
    assert next_to_act(now) == "Ann" and to_call(now) == 20
    assert legal_actions(now) == (Verb.CALL, Verb.RAISE, Verb.FOLD)
    msg = error(record(hand([["Bo", "bet", 20], ["Cy", "call"]]), hand()))
    assert msg == ("round 1: the hand is not over (it is Ann's turn in fyrsturkalla) "
                   "but round 2 follows")


def test_a_hand_waiting_for_a_reveal():
    rec = record(hand(*ALL_CHECK[:2]))
    b = replay(rec)["rounds"][0]["breakdown"]
    assert b["stage"] == "banen" and b["to_act"] is None
    assert "(banen is due)" in error(record(hand(*ALL_CHECK[:2]), hand()))
    now = current_hand(rec)
    assert now.stage is Stage.BANEN and next_to_act(now) is None
    assert legal_actions(now) == () and to_call(now) == 0 and max_amount(now) == 0


def test_current_hand_is_none_between_hands():
    assert current_hand(record()) is None
    assert current_hand(record(DESIGN_HAND)) is None
    assert current_hand(record(hand())).to_act == "Bo"


def test_privilege_is_listed_as_soon_as_it_is_earned():
    rec = record(hand(*ALL_CHECK[:2], shows=[FOOL_LOSES]))
    b = replay(rec)["rounds"][0]["breakdown"]
    assert b["fool_privilege"] == [
        {"player": "Bo", "betting_round": "detuilerkalla", "stayed": False}]
    now = current_hand(rec)
    assert now.privileged == "Bo" and next_to_act(now) == "Bo"
    assert legal_actions(now) == (Verb.CHECK, Verb.BET, Verb.STAY, Verb.FOLD)


# ---------------------------------------------------------------------------
# The shape of the record


@pytest.mark.parametrize(("hand_record", "message"), [
    ({"calls": "check"}, "round 1: calls must be a list"),
    ({"calls": [[["Bo", "check"]]], "shows": {"Ann": "XXI"}}, "round 1: shows must be a list"),
    ({"calls": ["check"]}, "round 1, fyrsturkalla: a betting round must be a list of actions"),
    ({"calls": [[]] * 5}, "round 1: a hand has 4 betting rounds, not 5"),
    ({"shows": [{}] * 4}, "round 1: a hand has 3 reveals, not 4"),
    ({"shows": [{"Ann": "XXI"}]}, "round 1: the banen reveal is given but fyrsturkalla is "
                                  "missing"),
    ({"calls": [ALL_CHECK[0]], "shows": [{"Ann": "XXI"}]},
     "round 1: the banen reveal is given but banenkalla is missing"),
    ({"calls": list(ALL_CHECK[:3])},
     "round 1: detuilerkalla is given but the banen reveal is missing"),
    ({"calls": list(ALL_CHECK), "shows": [TIES[0]]},
     "round 1: debekransekalla is given but the detuiler reveal is missing"),
    ({"calls": [ALL_CHECK[0], [], ALL_CHECK[2]], "shows": [TIES[0]]},
     "round 1, banenkalla: the betting round is not over (it is Bo's turn in banenkalla)"),
    ({"call": []}, "round 1: a hand has no field 'call' (only buys, leave, calls, shows)"),
])
def test_record_shape_checks(hand_record, message):
    assert message in error(record(hand_record))


def test_not_a_record():
    with pytest.raises(RuleError, match="a game record must be a JSON object"):
        replay(["trefeltromp"])
    with pytest.raises(RuleError, match="rounds must be a list of JSON objects"):
        replay(dict(record(), rounds="none"))
    with pytest.raises(RuleError, match="this is not a trefeltromp record"):
        replay(dict(record(), game="tremp"))


def test_stage_kinds():
    assert [s.value for s in Stage if s.is_betting] == [
        "fyrsturkalla", "banenkalla", "detuilerkalla", "debekransekalla"]
    assert [str(s) for s in Stage if s.is_reveal] == ["banen", "detuiler", "debekranse"]
    assert not Stage.OVER.is_betting and not Stage.OVER.is_reveal


def test_fields_may_be_null_or_left_out():
    result = replay(record({"buys": None, "leave": None, "calls": None, "shows": None}))
    assert result["rounds"][0]["breakdown"]["stage"] == "fyrsturkalla"


def test_a_hand_must_be_an_object():
    assert error(record(hand(), ["Bo", "check"])) == "round 2: a hand must be a JSON object"


@pytest.mark.parametrize(("options", "message"), [
    ({"ante": -1}, "the ante must be at least 0, not -1"),
    ({"stack": "lots"}, "the starting stack must be a whole number"),
    ({"limit": 0}, "the limit must be at least 1, not 0"),
    ({"blinds": 5}, "trefeltromp has no option 'blinds'"),
])
def test_option_checks(options, message):
    assert message in error(record(**options))


def test_player_counts():
    assert PLAYERS == range(2, 20)
    assert "trefeltromp is for 2 to 19 players, not 1" in error(
        record(players=["Ann"], first_dealer="Ann"))
    names = [f"P{i}" for i in range(20)]
    assert "not 20" in error(record(players=names, first_dealer="P0"))


def test_an_ante_of_zero_and_a_starting_stack_of_zero():
    result = replay(record(hand([["Bo", "bet", 5], ["Cy", "fold"], ["Ann", "fold"]],
                                buys=[("Bo", 5)]), ante=0, stack=0))
    assert result["totals"] == {"Ann": 0, "Bo": 5, "Cy": 0}
    assert result["money"] == {"Ann": 0, "Bo": 0, "Cy": 0}


# ---------------------------------------------------------------------------
# The hand as a state machine (for the web layer)


def test_state_machine_walkthrough():
    h = start_hand(P3, "Ann", {"Ann": 100, "Bo": 100, "Cy": 30}, pot=5, limit=50)
    assert (h.pot, h.stage, next_to_act(h)) == (35, Stage.FYRSTURKALLA, "Bo")
    assert legal_actions(h) == (Verb.CHECK, Verb.BET, Verb.FOLD) and max_amount(h) == 50
    h = h.act(Action("Bo", Verb.BET, 30))
    assert next_to_act(h) == "Cy" and to_call(h) == 30 and to_call(h, "Ann") == 30
    # Cy has 20 chips: cannot call; a buy opens the call and the raise.
    assert legal_actions(h) == (Verb.FOLD,) and max_amount(h) == 0
    h = h.buy("Cy", 15)
    assert h.stack("Cy") == 35 and legal_actions(h) == (Verb.CALL, Verb.RAISE, Verb.FOLD)
    assert max_amount(h) == 5
    h = h.act(Action("Cy", Verb.CALL))
    assert to_call(h, "Cy") == 0 and to_call(h, "Zed") == 0
    h = h.act(Action("Ann", Verb.FOLD))
    assert h.stage is Stage.BANENKALLA and h.in_hand == ("Bo", "Cy") and h.pot == 95
    h = h.act(Action("Bo", Verb.CHECK)).act(Action("Cy", Verb.CHECK))
    assert h.stage is Stage.BANEN
    h = h.show({"Bo": tarot_card("XXI"), "Cy": "N♥"})
    assert h.reveals[-1].winner == "Bo" and h.reveals[-1].share == 31
    assert h.stacks_by_player() == {"Ann": 90, "Bo": 91, "Cy": 5}


def test_state_machine_refuses_out_of_place_calls():
    h = start_hand(["Ann", "Bo"], "Ann", {"Ann": 50, "Bo": 50})
    with pytest.raises(RuleError, match="fyrsturkalla: no cards are shown now"):
        h.show({"Ann": "XXI", "Bo": "XX"})
    with pytest.raises(RuleError, match="fyrsturkalla: Zed is not seated in this hand"):
        h.act(Action("Zed", Verb.CHECK))
    h = h.act(Action("Bo", Verb.CHECK)).act(Action("Ann", Verb.CHECK))
    h = h.act(Action("Bo", Verb.CHECK)).act(Action("Ann", Verb.CHECK))
    with pytest.raises(RuleError, match="banen: nobody is to act now; Bo's check is out of place"):
        h.act(Action("Bo", Verb.CHECK))
    with pytest.raises(RuleError, match="Cy is not seated in this hand"):
        h.buy("Cy", 5)
    with pytest.raises(RuleError, match="Bo's buy must be at least 1"):
        h.buy("Bo", 0)


def test_a_raise_needs_more_than_the_call():
    h = start_hand(["Ann", "Bo"], "Ann", {"Ann": 50, "Bo": 40}).act(Action("Bo", Verb.BET, 20))
    h = h.act(Action("Ann", Verb.RAISE, 10))
    assert to_call(h) == 10 and legal_actions(h) == (Verb.CALL, Verb.FOLD)


@pytest.mark.parametrize(("seats", "dealer", "stacks", "message"), [
    (["Ann"], "Ann", {"Ann": 50}, "a hand needs at least 2 players"),
    (["Ann", "Bo"], "Cy", {"Ann": 50, "Bo": 50}, "the dealer 'Cy' is not seated"),
    (["Ann", "Bo"], "Ann", {"Ann": 50}, "ante: Bo has no stack"),
    (["Ann", "Bo"], "Ann", {"Ann": 50, "Bo": 9}, "Bo cannot cover the ante of 10 with 9"),
])
def test_start_hand_checks(seats, dealer, stacks, message):
    with pytest.raises(RuleError, match=message):
        start_hand(seats, dealer, stacks)


@pytest.mark.parametrize(("args", "message"), [
    (("", Verb.CHECK), "'' is not a player's name"),
    (("Bo", "check"), "Bo: 'check' is not an action"),
    (("Bo", Verb.BET), "Bo's bet must be a whole number, not None"),
    (("Bo", Verb.CHECK, 5), "Bo's check takes no amount"),
])
def test_action_checks(args, message):
    with pytest.raises(RuleError, match=message):
        Action(*args)


def test_action_amount_from_json():
    action = Action("Bo", Verb.RAISE, 20.0)
    assert action.amount == 20 and type(action.amount) is int
    assert action.as_entry() == ["Bo", "raise", 20]
    assert Action.from_entry(("Bo", "fold")).as_entry() == ["Bo", "fold"]


# ---------------------------------------------------------------------------
# Checklists


def test_deck_prep():
    steps = deck_prep(["Ann", "Bo", "Cy", "Di"], {"ante": 5, "stack": 200, "limit": 40}).steps
    assert "78-card tarot deck" in steps[0] and "Fool" in steps[0]
    assert steps[1] == "Take nothing out: all 78 cards are played."
    assert "P♠ N♠ Q♠ K♠" in steps[2]
    assert steps[3] == ("Give each of the 4 players 200 chips. The ante is 5 a hand; "
                        "no bet or raise over 40.")
    assert steps[4] == "Each hand deals 12 cards (3 each); the other 66 are the draw pile."
    assert "no limit on a bet or raise" in deck_prep(P3, {}).steps[3]
    assert deck_prep(P3, {}).as_dict()["title"] == "Trefeltromp: the deck and the chips"


def test_deal_steps_name_the_dealer_and_the_directions():
    steps = deal_steps(["Ann", "Bo", "Cy", "Di"], "Bo", {"ante": 5}).steps
    assert steps[0] == "Everyone antes 5: Ann, Bo, Cy, Di. Chips already in the pot stay there."
    assert steps[1] == ("Bo shuffles and deals 3 cards face down to each player, "
                        "counter-clockwise: Ann first, then Di, then Cy, then Bo.")
    assert steps[2] == "Fyrsturkalla (first call): a betting round, Cy first, then clockwise."
    assert "left of Bo" in steps[4]
    assert "⅓" in steps[5] and "½" in steps[7] and "whole pot" in steps[9]
    assert steps[-1] == "Next hand Ann deals (the deal passes to the right)."


@pytest.mark.parametrize(("players", "dealer", "options", "message"), [
    (["Ann"], "Ann", {}, "trefeltromp is for 2 to 19 players"),
    (["Ann", ""], "Ann", {}, "trefeltromp is for 2 to 19 players"),
    (P3, "Zed", {}, "the dealer 'Zed' is not one of the players"),
    (P3, "Ann", {"blinds": 1}, "trefeltromp has no option 'blinds'"),
    (P3, "Ann", {"ante": -2}, "the ante must be at least 0"),
])
def test_checklist_checks(players, dealer, options, message):
    with pytest.raises(RuleError, match=message):
        deal_steps(players, dealer, options)


# ---------------------------------------------------------------------------
# Properties of random real-play games


OPTIONS = st.sampled_from([{}, {"ante": 0}, {"ante": 1, "stack": 20}, {"limit": 5},
                           {"stack": 0, "ante": 3, "limit": 100}, {"ante": 25}])


def _bought(rec):
    start = (DEFAULTS | rec["options"])["stack"]
    bought = dict.fromkeys(rec["players"], start)
    for r in rec["rounds"]:
        for name, chips in r.get("buys") or []:
            bought[name] += chips
    return bought


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(0, 12), options=OPTIONS)
def test_random_games_keep_every_chip(seed, rounds, options):
    rec = gen.random_record(random.Random(seed), rounds, **options)
    result = replay(rec)
    bought = _bought(rec)
    start = (DEFAULTS | options)["stack"]
    # Chips are conserved: stacks plus pot = chips bought.
    assert sum(result["totals"].values()) + result["pot"] == sum(bought.values())
    assert result["money"] == {p: result["totals"][p] - bought[p] for p in rec["players"]}
    assert sum(result["money"].values()) == -result["pot"]
    if result["finished"]:
        assert result["pot"] == 0 and sum(result["money"].values()) == 0
        best = max(result["money"].values())
        assert result["winners"] == [p for p, m in result["money"].items() if m == best]
    else:
        assert result["winners"] == []
    # Totals are the starting stack, the chips bought and the round scores.
    for p in rec["players"]:
        scored = sum(r["scores"][p] for r in result["rounds"])
        assert result["totals"][p] == bought[p] + scored
        assert start + sum(r["breakdown"]["buys"].get(p, 0) for r in result["rounds"]) \
            == bought[p]
    # Each hand's pot: what came in, less what went out, as the breakdown tells it.
    pot = 0
    for r in result["rounds"]:
        b = r["breakdown"]
        assert b["pot_carried"] == pot
        assert b["pot_after_antes"] == pot + b["ante"] * len(b["seated"])
        paid = sum(a["chips"] for c in b["calls"] for a in c["actions"])
        taken = sum(x["share"] for x in b["reveals"])
        taken += b["won_by_fold"]["share"] if b["won_by_fold"] else 0
        taken += sum(b["share_out"].values())
        pot = b["pot_after_antes"] + paid - taken
        assert r["pot"] == pot
        assert sum(r["scores"].values()) == -(pot - b["pot_carried"])
    assert pot == result["pot"]
    assert all(v >= 0 for v in result["totals"].values())


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(1, 10))
def test_a_prefix_replays_to_the_prefix(seed, rounds):
    rec = gen.random_record(random.Random(seed), rounds)
    result = replay(rec)
    for k in range(len(rec["rounds"])):
        part = replay(dict(rec, rounds=rec["rounds"][:k]))
        assert part["rounds"] == result["rounds"][:k]


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(0, 10), options=OPTIONS)
def test_json_round_trip(seed, rounds, options):
    rec = gen.random_record(random.Random(seed), rounds, **options)
    result = replay(rec)
    assert replay(json.loads(json.dumps(rec))) == result
    assert json.loads(json.dumps(result)) == result
    in_play = bool(result["rounds"]) and result["rounds"][-1]["breakdown"]["stage"] != "over"
    assert (current_hand(rec) is not None) == in_play


def test_a_fifty_hand_game():
    rec = gen.random_record(random.Random(50), 50, players=5, finish=1.0, cut=0.0)
    result = replay(rec)
    assert len(result["rounds"]) == 50
    assert result["finished"] is True and sum(result["money"].values()) == 0


JUNK = [None, -1, 0, 2.5, True, "", "x", "XXI", "Ann", [], {}, ["Bo"], ["Bo", "bet"],
        ["Bo", "bet", -3], {"Ann": []}, [[]], 10**9]


def _mangle(value, rng):
    """``value`` with one element somewhere replaced by junk."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        return {k: (_mangle(v, rng) if k == key else v) for k, v in value.items()}
    if isinstance(value, list) and value and rng.random() < 0.8:
        i = rng.randrange(len(value))
        return value[:i] + [_mangle(value[i], rng)] + value[i + 1:]
    return rng.choice(JUNK)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_mangled_record_only_ever_raises_rule_error(seed):
    rng = random.Random(seed)
    rec = gen.random_record(rng, rng.randint(1, 6))
    mangled = _mangle(rec, rng)
    try:
        result = replay(mangled)
    except RuleError:
        return
    assert json.loads(json.dumps(result)) == result


def test_table_now_for_the_web_layer():
    start = table_now(record())
    assert start == trefeltromp.Table(("Ann", "Bo", "Cy"), None, "Ann")
    in_play = table_now(record(hand([["Bo", "check"]])))
    assert in_play.hand.to_act == "Cy" and in_play.next_dealer == "Cy"
    # Dealer Ann, then Cy; Bo left after round 2: Cy's right is Bo, gone, so Ann deals.
    rec = record(hand([["Bo", "fold"], ["Cy", "fold"]]),
                 hand([["Ann", "fold"], ["Bo", "fold"]], leave=["Bo"]))
    assert table_now(rec) == trefeltromp.Table(("Ann", "Cy"), None, "Ann")
    over = table_now(record(hand([["Bo", "fold"], ["Cy", "fold"]], leave=["Ann", "Cy"])))
    assert over == trefeltromp.Table(("Bo",), None, None)
