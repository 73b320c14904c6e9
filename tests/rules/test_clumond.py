"""Clumond (RULES.md section 2): the rules, the house decisions, the checks."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.clumond import rules as clumond
from companion.games.clumond.rules import (
    DECK,
    RoundFacts,
    Table,
    deal_steps,
    deck_prep,
    declaration,
    next_dealer,
    payment,
    read_options,
    read_round,
    replay,
    settle,
    tricks_that_count,
)
from companion.rules import RuleError
from companion.rules import replay as replay_any

from . import gen_clumond as gen

PLAYERS = ["Ann", "Bo", "Cy"]


def record(*rounds, first_dealer="Ann", **options):
    return {"game": "clumond", "players": PLAYERS, "first_dealer": first_dealer,
            "options": options, "rounds": list(rounds)}


def std(tricks, declared, **extra):
    """A standard round given with declared numbers, both in seat order."""
    return {"declarer": None, "trump": None,
            "tricks": dict(zip(PLAYERS, tricks, strict=True)),
            "declared": dict(zip(PLAYERS, declared, strict=True)), **extra}


def clumond_round(declarer, trump, tricks, declared):
    return {"declarer": declarer, "trump": trump,
            "tricks": dict(zip(PLAYERS, tricks, strict=True)), "declared": declared}


def error(rec) -> str:
    with pytest.raises(RuleError) as info:
        replay(rec)
    return str(info.value)


KEPT = {"Ann": ["3♥", "7♠", "4♦"], "Bo": ["A♣", "2♣", "K♥"], "Cy": ["5♦", "6♦", "Q♠"]}


def kept_round(**changes):
    base = {"declarer": None, "trump": None, "tricks": {"Ann": 3, "Bo": 4, "Cy": 6},
            "kept": {p: list(c) for p, c in KEPT.items()}}
    base.update(changes)
    return base


# --- the helpers and the RULES.md examples ---------------------------------


def test_rules_example_cards_declare_three():
    assert declaration(["3♥", "7♠", "4♦"]) == 3


def test_declaration_counts_each_suit():
    assert declaration(["2♣", "3♣", "4♣"]) == 9
    assert declaration(["2♥", "3♥", "4♥"]) == 6
    assert declaration(["2♠", "3♠", "4♠"]) == 3
    assert declaration(["2♦", "3♦", "4♦"]) == 0
    assert declaration(["AC", "kh", "QS"]) == 6


def test_declaration_needs_three_suit_cards():
    with pytest.raises(RuleError, match="3 kept cards, not 2"):
        declaration(["2♣", "3♣"])
    with pytest.raises(RuleError, match="red joker is not in the Clumond deck"):
        declaration(["2♣", "3♣", "red joker"])


def test_rules_example_nine_tricks_declaring_five_pays_four():
    assert payment(9, 5) == 4
    rec = record(std((9, 2, 2), (5, 2, 2)), rounds=5)
    bd = replay(rec)["rounds"][0]["breakdown"]["players"]["Ann"]
    assert bd["payment"] == 4
    assert bd["success"] is False


@pytest.mark.parametrize(("won", "count"), [(0, 0), (9, 9), (10, 0), (11, 1), (12, 2), (13, 3)])
def test_tricks_that_count(won, count):
    assert tricks_that_count(won) == count


def test_tricks_that_count_refuses_impossible_numbers():
    with pytest.raises(RuleError, match="at most 13, not 14"):
        tricks_that_count(14)
    with pytest.raises(RuleError, match="at least 0"):
        tricks_that_count(-1)


def test_payment_refuses_a_declaration_above_nine():
    with pytest.raises(RuleError, match="at most 9, not 10"):
        payment(3, 10)


# --- a standard round -----------------------------------------------------------


def test_everyone_antes_and_failures_pay_the_difference_into_the_pot():
    res = replay(record(std((5, 4, 4), (2, 6, 4)), rounds=5, ante=3))
    rnd = res["rounds"][0]
    # Ann: 5 vs 2 pays 3; Bo: 4 vs 6 pays 2; Cy succeeds: pot 9 + 5 = 14, takes 14 // 3 = 4.
    assert rnd["scores"] == {"Ann": -6, "Bo": -5, "Cy": 1}
    assert rnd["totals"] == {"Ann": 94, "Bo": 95, "Cy": 101}
    assert rnd["pot"] == res["pot"] == 10
    bd = rnd["breakdown"]
    assert (bd["pot_carried"], bd["pot_after_antes"], bd["pot_after_payments"]) == (0, 9, 14)
    assert bd["players"]["Cy"]["payout"] == 4
    assert bd["left_in_pot"] == 10


def test_successful_players_each_take_a_third_of_the_same_pot():
    res = replay(record(std((3, 4, 6), (3, 4, 0)), rounds=5))
    # Pot 15 + Cy's 6 = 21: Ann and Bo take 7 each, 7 stays.
    assert res["rounds"][0]["scores"] == {"Ann": 2, "Bo": 2, "Cy": -11}
    assert res["pot"] == 7


def test_everyone_succeeding_leaves_the_odd_chips_in_the_pot():
    res = replay(record(std((3, 4, 6), (3, 4, 6)), rounds=5, ante=5))
    assert res["rounds"][0]["scores"] == {"Ann": 0, "Bo": 0, "Cy": 0}
    res = replay(record(std((3, 4, 6), (3, 4, 6)), rounds=5, ante=4))
    # 12 // 3 = 4 each: nothing left
    assert res["pot"] == 0
    res = replay(record(std((3, 4, 6), (3, 3, 6)), std((3, 4, 6), (3, 4, 6)), rounds=5, ante=4))
    # round 1: Bo pays 1, pot 13, Ann and Cy take 4 each, 5 stay; round 2: 17 -> 5 each, 2 stay
    assert res["rounds"][1]["scores"] == {"Ann": 1, "Bo": 1, "Cy": 1}
    assert res["pot"] == 2


def test_ten_or_more_tricks_count_less_ten():
    res = replay(record(std((12, 1, 0), (2, 1, 0)), rounds=5))
    assert [p["success"] for p in res["rounds"][0]["breakdown"]["players"].values()] == [
        True, True, True]
    assert res["rounds"][0]["breakdown"]["players"]["Ann"]["tricks_that_count"] == 2


def test_the_pot_carries_over_between_rounds():
    res = replay(record(std((5, 4, 4), (0, 0, 0)), std((5, 4, 4), (5, 0, 0)), rounds=5))
    # round 1: 15 + 13 = 28 stays; round 2: 28 + 15 + 8 = 51, Ann takes 17
    assert res["rounds"][0]["pot"] == 28
    assert res["rounds"][1]["breakdown"]["pot_carried"] == 28
    assert res["rounds"][1]["breakdown"]["players"]["Ann"]["payout"] == 17
    assert res["pot"] == 34


def test_kept_cards_give_the_declarations():
    res = replay(record(kept_round(), rounds=5))
    players = res["rounds"][0]["breakdown"]["players"]
    assert {p: v["declaration"] for p, v in players.items()} == {"Ann": 3, "Bo": 8, "Cy": 1}
    assert players["Ann"]["kept"] == ["3♥", "7♠", "4♦"]
    assert players["Ann"]["success"] is True


def test_kept_and_declared_may_be_mixed_and_must_agree():
    rnd = kept_round(kept={"Ann": KEPT["Ann"]}, declared={"Ann": 3, "Bo": 8, "Cy": 1})
    res = replay(record(rnd, rounds=5))
    assert res["rounds"][0]["breakdown"]["players"]["Bo"]["kept"] is None
    assert res["rounds"][0]["breakdown"]["players"]["Bo"]["declaration"] == 8
    msg = error(record(kept_round(declared={"Ann": 4}), rounds=5))
    assert msg == "round 1: Ann's declared 4 does not match Ann's kept cards (3♥ 7♠ 4♦ declare 3)"


def test_ascii_spellings_of_kept_cards():
    rnd = kept_round(kept={"Ann": ["3h", "7S", "4D"], "Bo": ["AC", "2c", "KH"],
                           "Cy": ["5d", "6d", "qs"]})
    assert replay(record(rnd, rounds=5)) == replay(record(kept_round(), rounds=5))


# --- a declarer round -------------------------------------------------------------


def test_declarer_who_succeeds_takes_the_whole_pot():
    res = replay(record(std((5, 4, 4), (0, 0, 0)),
                        clumond_round("Bo", "♥", (4, 6, 3), {"Bo": 6}), rounds=5))
    # round 1 leaves 28; round 2: 28 + 15, all to Bo
    assert res["rounds"][1]["scores"] == {"Ann": -5, "Bo": 38, "Cy": -5}
    assert res["pot"] == 0
    bd = res["rounds"][1]["breakdown"]
    assert (bd["declarer"], bd["trump"]) == ("Bo", "♥")
    assert bd["players"]["Ann"]["success"] is None
    assert bd["players"]["Ann"]["declaration"] is None


def test_declarer_who_fails_gives_the_pot_to_the_opponents_odd_chip_stays():
    res = replay(record(clumond_round("Cy", "none", (6, 5, 2), {"Cy": 4}), rounds=5, ante=5))
    # pot 15: 7 each to Ann and Bo, 1 stays
    assert res["rounds"][0]["scores"] == {"Ann": 2, "Bo": 2, "Cy": -5}
    assert res["pot"] == 1
    assert res["rounds"][0]["breakdown"]["trump"] == "none"


def test_in_a_declarer_round_only_the_declarer_matters_and_nobody_pays():
    # Ann and Bo miss their declarations by a lot; they pay nothing.
    rnd = clumond_round("Cy", "♠", (13, 0, 0), {"Ann": 0, "Bo": 9, "Cy": 0})
    res = replay(record(rnd, rounds=5))
    players = res["rounds"][0]["breakdown"]["players"]
    assert [v["payment"] for v in players.values()] == [0, 0, 0]
    assert res["rounds"][0]["scores"] == {"Ann": -5, "Bo": -5, "Cy": 10}
    assert players["Ann"]["success"] is None


def test_trump_spellings():
    for spelling, shown in [("hearts", "♥"), ("C", "♣"), ("No trumps", "none"), ("NONE", "none")]:
        res = replay(record(clumond_round("Ann", spelling, (0, 6, 7), {"Ann": 0}), rounds=5))
        assert res["rounds"][0]["breakdown"]["trump"] == shown


# --- dealing, the end of the game, money ---------------------------------------


def test_the_deal_passes_clockwise_from_the_first_dealer():
    rounds = [std((5, 4, 4), (0, 0, 0))] * 4
    res = replay(record(*rounds, first_dealer="Bo", rounds=5))
    assert [r["dealer"] for r in res["rounds"]] == ["Bo", "Cy", "Ann", "Bo"]
    assert next_dealer(record(*rounds, first_dealer="Bo", rounds=5)) == "Cy"


def test_game_ends_after_the_agreed_rounds_and_the_pot_is_shared_out():
    # 2 rounds, nobody succeeds: pot grows; the last round shares it out.
    r1 = std((5, 4, 4), (0, 0, 0))  # pays 5+4+4, pot 28
    r2 = std((5, 4, 4), (4, 4, 4))  # Ann pays 1, Bo and Cy take (28+15+1)//3 = 14
    res = replay(record(r1, r2, first_dealer="Bo", rounds=2))
    assert res["finished"] is True
    last = res["rounds"][1]
    # left 44 - 28 = 16; dealer of round 2 is Cy, so odd chip to Ann first
    assert last["breakdown"]["left_in_pot"] == 16
    assert {p: v["share_out"] for p, v in last["breakdown"]["players"].items()} == {
        "Ann": 6, "Bo": 5, "Cy": 5}
    assert last["pot"] == res["pot"] == 0
    assert last["breakdown"]["game_over"] == "after 2 rounds"
    assert sum(res["money"].values()) == 0
    assert res["totals"] == {"Ann": 100 - 10 - 6 + 6, "Bo": 100 - 10 - 4 + 14 + 5,
                             "Cy": 100 - 10 - 4 + 14 + 5}
    assert res["winners"] == ["Bo", "Cy"]


def test_odd_chips_of_the_share_out_go_from_the_dealers_left():
    r = std((5, 4, 4), (0, 4, 4))  # Ann pays 5; pot 20; Bo, Cy take 6: 8 left
    for dealer, shares in [("Ann", (2, 3, 3)), ("Bo", (3, 2, 3)), ("Cy", (3, 3, 2))]:
        res = replay(record(r, first_dealer=dealer, rounds=1))
        got = tuple(v["share_out"] for v in res["rounds"][0]["breakdown"]["players"].values())
        assert got == shares


def test_game_ends_when_a_stack_reaches_the_target():
    win = clumond_round("Ann", "♣", (3, 5, 5), {"Ann": 3})  # Ann takes 15: stack 110
    res = replay(record(win, win, rounds=None, target=120))
    assert res["finished"] is True
    assert res["rounds"][1]["breakdown"]["game_over"] == "Ann reached the target of 120"
    assert res["totals"] == {"Ann": 120, "Bo": 90, "Cy": 90}
    assert res["winners"] == ["Ann"]
    res = replay(record(win, rounds=None, target=120))
    assert res["finished"] is False and res["winners"] == []


def test_whichever_end_comes_first_rounds_or_target():
    win = clumond_round("Ann", "♣", (3, 5, 5), {"Ann": 3})
    assert replay(record(win, rounds=1, target=200))["finished"] is True
    assert replay(record(win, rounds=9, target=110))["finished"] is True
    assert replay(record(win, rounds=9, target=111))["finished"] is False


def test_the_target_is_checked_before_the_share_out():
    # Without the share-out nobody reaches 102; the game goes on.
    r = std((5, 4, 4), (0, 4, 4))  # Ann -10, Bo +1, Cy +1, 8 left in the pot
    res = replay(record(r, rounds=None, target=102))
    assert res["finished"] is False
    assert res["pot"] == 8


def test_rounds_after_the_end_are_refused():
    r = std((5, 4, 4), (0, 0, 0))
    assert error(record(r, r, r, rounds=2)) == "round 3: the game already ended after round 2"
    win = clumond_round("Ann", "♣", (3, 5, 5), {"Ann": 3})
    assert error(record(win, r, rounds=None, target=110)) == (
        "round 2: the game already ended after round 1")


def test_a_finished_table_refuses_to_play_on():
    opts = read_options({"rounds": 1})
    facts = RoundFacts(None, None, (5, 4, 4), (0, 0, 0), (None,) * 3)
    _, table = Table.start(PLAYERS, "Ann", opts).play(facts)
    assert table.finished
    with pytest.raises(RuleError, match="round 2: the game already ended after round 1"):
        table.play(facts)
    assert next_dealer(record(std((5, 4, 4), (0, 0, 0)), rounds=1)) is None


def test_money_is_stack_less_starting_stack_and_the_rest_is_in_the_pot():
    res = replay(record(std((5, 4, 4), (2, 6, 4)), rounds=5, stack=50, ante=3))
    assert res["money"] == {p: t - 50 for p, t in res["totals"].items()}
    assert sum(res["money"].values()) == -res["pot"]
    assert res["finished"] is False and res["winners"] == []


def test_a_stack_may_go_below_zero():
    lose = std((13, 0, 0), (0, 0, 0))  # Ann pays 3 every round
    res = replay(record(*[lose] * 2, rounds=3, stack=0, ante=1))
    assert res["totals"]["Ann"] < 0


def test_empty_record_and_dispatch():
    res = replay_any(record())
    assert res == {"rounds": [], "totals": {"Ann": 100, "Bo": 100, "Cy": 100},
                   "finished": False, "winners": [], "money": {"Ann": 0, "Bo": 0, "Cy": 0},
                   "pot": 0}


def test_settle_on_its_own():
    s = settle(RoundFacts("Bo", None, (3, 7, 3), (None, 7, None), (None,) * 3),
               PLAYERS, ante=2, pot=1)
    assert s.payouts == (0, 7, 0) and s.pot == 0 and s.changes == (-2, 5, -2)


def test_round_facts_check_the_tricks_add_up():
    with pytest.raises(RuleError, match="add up to 12"):
        RoundFacts(None, None, (4, 4, 4), (0, 0, 0), (None,) * 3)


# --- options ------------------------------------------------------------------------


def test_default_options():
    assert clumond.DEFAULTS == {"stack": 100, "ante": 5, "rounds": 10, "target": None,
                                "chip_value": None}
    res = replay(record(*[std((5, 4, 4), (5, 4, 4))] * 10))
    assert res["finished"] is True


@pytest.mark.parametrize(("options", "message"), [
    ({"rounds": None, "target": None}, "needs an end"),
    ({"target": 100}, "the target stack (100) must be more than the starting stack (100)"),
    ({"ante": "5"}, "the ante must be a whole number, not '5'"),
    ({"ante": -1}, "the ante must be at least 0, not -1"),
    ({"stack": True}, "the starting stack must be a whole number, not True"),
    ({"rounds": 0}, "the number of rounds must be at least 1, not 0"),
    ({"target": 1.5}, "the target stack must be a whole number, not 1.5"),
    ({"kitty": 3}, "clumond has no option 'kitty'"),
])
def test_bad_options(options, message):
    assert message in error(record(**options))


def test_read_options_refuses_a_non_object():
    with pytest.raises(RuleError, match="options must be a JSON object"):
        read_options([])


# --- validation of a round --------------------------------------------------------


@pytest.mark.parametrize(("rnd", "message"), [
    ("nope", "round 1: a round must be a JSON object"),
    (kept_round(tricks=None), "round 1: the tricks are missing"),
    (kept_round(tricks=[3, 4, 6]), "round 1: tricks must be an object giving each player's"),
    (kept_round(tricks={"Ann": 3, "Bo": 10}), "round 1: Cy's tricks are missing"),
    (kept_round(tricks={"Ann": 3, "Bo": 4, "Cy": 5}), "round 1: the tricks add up to 12, not 13"),
    (kept_round(tricks={"Ann": -1, "Bo": 8, "Cy": 6}),
     "round 1: Ann's tricks must be at least 0, not -1"),
    (kept_round(tricks={"Ann": 14, "Bo": 0, "Cy": 0}),
     "round 1: Ann's tricks must be at most 13, not 14"),
    (kept_round(tricks={"Ann": "3", "Bo": 4, "Cy": 6}),
     "round 1: Ann's tricks must be a whole number, not '3'"),
    (kept_round(tricks={"Ann": 3, "Bo": 4, "Cy": 6, "Dan": 0}),
     "round 1: 'Dan' is not a player at this table"),
    (kept_round(kept={"Ann": ["10♠", "7♠", "4♦"], "Bo": KEPT["Bo"], "Cy": KEPT["Cy"]}),
     "round 1: 10♠ in Ann's kept cards is not in the Clumond deck"),
    (kept_round(kept={"Ann": ["red joker", "7♠", "4♦"], "Bo": KEPT["Bo"], "Cy": KEPT["Cy"]}),
     "round 1: red joker in Ann's kept cards is not in the Clumond deck"),
    (kept_round(kept={"Ann": ["3♥", "7♠", "4♦"], "Bo": ["A♣", "2♣", "7♠"], "Cy": KEPT["Cy"]}),
     "round 1: 7♠ is in both Ann's and Bo's kept cards"),
    (kept_round(kept={"Ann": ["3♥", "7♠", "7S"], "Bo": KEPT["Bo"], "Cy": KEPT["Cy"]}),
     "round 1: 7♠ is twice in Ann's kept cards"),
    (kept_round(kept={"Ann": ["3♥", "7♠"], "Bo": KEPT["Bo"], "Cy": KEPT["Cy"]}),
     "round 1: Ann kept 2 cards, not 3"),
    (kept_round(kept={"Ann": "3♥ 7♠ 4♦", "Bo": KEPT["Bo"], "Cy": KEPT["Cy"]}),
     "round 1: Ann's kept cards must be a list of 3 cards"),
    (kept_round(kept={"Ann": ["3♥", "1♠", "4♦"], "Bo": KEPT["Bo"], "Cy": KEPT["Cy"]}),
     "round 1: '1♠' in Ann's kept cards is not a card"),
    (kept_round(kept={"Ann": ["3♥", 7, "4♦"], "Bo": KEPT["Bo"], "Cy": KEPT["Cy"]}),
     "round 1: 7 in Ann's kept cards is not a card"),
    (kept_round(kept={"Ann": KEPT["Ann"], "Bo": KEPT["Bo"]}),
     "round 1: Cy's declaration is missing (give Cy's kept cards or declared number)"),
    (kept_round(kept={"Ann": KEPT["Ann"], "Bo": KEPT["Bo"]}, declared={"Cy": 10}),
     "round 1: Cy's declaration must be at most 9, not 10"),
    (kept_round(kept="all of them"), "round 1: kept must be an object"),
    (kept_round(declared={"Dan": 3}), "round 1: 'Dan' is not a player at this table"),
    (kept_round(declarer="Dan", trump="♥"), "round 1: the declarer: 'Dan' is not a player"),
    (kept_round(trump="♥"), "round 1: a trump (♥) is named but nobody went for Clumond"),
    (kept_round(declarer="Ann"), 'round 1: Ann went for Clumond but no trump (or "none")'),
    (kept_round(declarer="Ann", trump="roses"), "round 1: Ann's trump 'roses' is not a suit"),
    (kept_round(declarer="Ann", trump=3), "round 1: Ann's trump 3 is not a suit"),
    (clumond_round("Ann", "♥", (3, 4, 6), {"Bo": 3}), "round 1: Ann's declaration is missing"),
])
def test_bad_rounds_are_refused_with_a_message_naming_the_fault(rnd, message):
    assert message in error(record(rnd, rounds=5))


def test_the_message_names_the_round():
    good = std((5, 4, 4), (0, 0, 0))
    bad = std((5, 4, 3), (0, 0, 0))
    assert error(record(good, good, bad, rounds=5)) == "round 3: the tricks add up to 12, not 13"
    assert error(record(good, [good], rounds=5)).startswith("round 2: a round must be a JSON")


def test_unknown_round_fields_are_refused():
    assert error(record(kept_round(trick={"Ann": 5}), rounds=5)) == (
        "round 1: a round has no field 'trick' (only declared, declarer, kept, tricks, trump)")


def test_not_a_clumond_record():
    with pytest.raises(RuleError, match="not a clumond record"):
        replay({"game": "tremp", "players": PLAYERS})
    with pytest.raises(RuleError, match="clumond is for 3 players, not 4"):
        replay({"game": "clumond", "players": PLAYERS + ["Di"]})


def test_read_round_is_usable_on_its_own():
    facts = read_round(kept_round(), PLAYERS, "round 7")
    assert facts.declarations == (3, 8, 1)
    with pytest.raises(RuleError, match="^round 7: "):
        read_round({"tricks": {}}, PLAYERS, "round 7")
    with pytest.raises(RuleError, match="^round 7: a round must be a JSON object"):
        read_round(["Ann"], PLAYERS, "round 7")


# --- checklists -------------------------------------------------------------------------


def test_deck_prep_names_the_deck_and_the_players():
    steps = deck_prep(PLAYERS, {"stack": 40, "ante": 2, "rounds": None, "target": 80}).steps
    text = "\n".join(steps)
    assert "Remove the four 10s" in text and "48 cards remain, 16 for each player" in text
    assert "Give Ann, Bo and Cy 40 chips each; the ante is 2 chips a round." in text
    assert "a stack reaches 80" in text and "after" not in steps[3]
    both = deck_prep(PLAYERS, {"target": 150}).steps[3]
    assert both == ("The game ends after 10 rounds, or at the end of the first round "
                    "in which a stack reaches 150.")
    assert len(DECK) == 48
    assert deck_prep(PLAYERS, {}).steps[3] == "The game ends after 10 rounds."


def test_deal_steps_name_the_dealer_and_who_is_asked_first():
    checklist = deal_steps(PLAYERS, "Cy", {"ante": 3})
    assert checklist.title == "Clumond: Cy deals"
    assert checklist.steps[0] == "Everyone antes 3 chips into the pot."
    assert checklist.steps[2] == "Going for Clumond: Ann is asked first, then Bo, then Cy."
    assert "Ann leads" in checklist.steps[4]
    assert checklist.as_dict()["steps"][1].startswith("Cy shuffles the 48 cards")


def test_checklists_check_players_and_dealer():
    with pytest.raises(RuleError, match="clumond is for 3 players, not 2"):
        deck_prep(["Ann", "Bo"], {})
    with pytest.raises(RuleError, match="'Dan' is not a player"):
        deal_steps(PLAYERS, "Dan", {})
    with pytest.raises(RuleError, match="has no option 'pot'"):
        deal_steps(PLAYERS, "Ann", {"pot": 1})


# --- generated games: the properties -------------------------------------------------

seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=120, deadline=None)
@given(seed=seeds, rounds=st.integers(1, 15), ante=st.integers(0, 10),
       target=st.sampled_from([None, 110, 130, 200]))
def test_generated_games_keep_the_books(seed, rounds, ante, target):
    rec = gen.random_record(random.Random(seed), rounds=rounds, ante=ante, target=target)
    res = replay(rec)
    start = 100
    for p in PLAYERS:
        # totals = starting stack + the round scores
        assert res["totals"][p] == start + sum(r["scores"][p] for r in res["rounds"])
    # chips are conserved: stacks + pot = chips handed out
    assert sum(res["totals"].values()) + res["pot"] == 3 * start
    for r in res["rounds"]:
        assert sum(r["totals"].values()) + r["pot"] == 3 * start
        bd = r["breakdown"]
        assert all(v["change"] == r["scores"][p] for p, v in bd["players"].items())
    assert res["finished"] is True
    assert res["pot"] == 0
    assert sum(res["money"].values()) == 0
    assert res["winners"] and all(res["totals"][w] == max(res["totals"].values())
                                  for w in res["winners"])


@settings(max_examples=100, deadline=None)
@given(seed=seeds, rounds=st.integers(1, 12), cut=st.integers(0, 12))
def test_a_prefix_of_the_rounds_gives_a_prefix_of_the_results(seed, rounds, cut):
    rec = gen.random_record(random.Random(seed), rounds=rounds)
    full = replay(rec)
    short = dict(rec, rounds=rec["rounds"][:cut])
    part = replay(short)
    assert part["rounds"] == full["rounds"][:cut]
    if cut < len(rec["rounds"]):
        assert part["finished"] is False
        assert sum(part["money"].values()) + part["pot"] == 0


@settings(max_examples=100, deadline=None)
@given(seed=seeds, rounds=st.integers(1, 12))
def test_records_and_results_survive_json(seed, rounds):
    rec = gen.random_record(random.Random(seed), rounds=rounds, played=rounds - 1)
    res = replay(rec)
    again = json.loads(json.dumps(rec))
    assert replay(again) == res
    assert json.loads(json.dumps(res)) == res


def test_a_fifty_round_game():
    rec = gen.random_record(random.Random(50), rounds=50)
    res = replay(rec)
    assert len(res["rounds"]) == 50 and res["finished"] and res["pot"] == 0
