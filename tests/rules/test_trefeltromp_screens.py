"""Trefeltromp's helpers for the screens: options, amounts, buys, cards laid, the story of a
hand, leaving and the final figures (all pure, all from the rules)."""

from __future__ import annotations

import pytest

from companion.games.trefeltromp.rules import (
    CHIP_STEPS,
    Action,
    Happening,
    Options,
    Stage,
    Verb,
    amount_choices,
    bought,
    buy_choices,
    card_to_show,
    figures,
    hand_story,
    read_options,
    replay,
    replay_now,
    shortfall,
    shown_twice,
    start_hand,
    table_now,
    who_leaves,
)
from companion.rules import RuleError
from tests.rules.test_trefeltromp import DESIGN_HAND

P3 = ["Ann", "Bo", "Cy"]
STACKS = dict.fromkeys(P3, 100)


def record(*hands, players=P3, **options):
    return {"game": "trefeltromp", "players": list(players), "first_dealer": "Ann",
            "options": options, "rounds": list(hands)}


def checks(*names):
    return [[n, "check"] for n in names]


def to_banen(hand):
    """Everyone checks twice (dealer Ann: Bo, Cy, Ann): banen is due."""
    for _ in range(2):
        for p in ("Bo", "Cy", "Ann"):
            hand = hand.act(Action(p, Verb.CHECK))
    return hand


# --- options and the replay ------------------------------------------------------------

def test_read_options_fills_in_and_checks():
    assert read_options(None) == Options(10, 500, None, None)
    assert read_options({"limit": 50, "chip_value": 2}) == Options(10, 500, 50, 2)
    with pytest.raises(RuleError, match="no option 'antes'"):
        read_options({"antes": 5})
    with pytest.raises(RuleError, match="chip_value"):
        read_options({"chip_value": 0})


def test_replay_now_is_replay_and_table_now():
    rec = record({"calls": [[["Bo", "bet", 5]]]})
    result, table = replay_now(rec)
    assert result == replay(rec) and table == table_now(rec)
    assert table.hand is not None and table.hand.to_act == "Cy"


# --- amounts and buys ----------------------------------------------------------------------

def test_bought_adds_up_a_hands_buys():
    assert bought([]) == {}
    assert bought([["Cy", 200], ["Ann", 50], ["Cy", 100.0]]) == {"Cy": 300, "Ann": 50}
    with pytest.raises(RuleError, match="Cy's buy"):
        bought([["Cy", 0]])


def test_amount_choices_are_the_steps_below_the_most_then_the_most():
    hand = start_hand(P3, "Ann", STACKS)
    assert amount_choices(hand) == (*CHIP_STEPS, 90)
    hand = hand.act(Action("Bo", Verb.BET, 80))  # Cy: 80 to call of 90, raise by at most 10
    assert amount_choices(hand) == (5, 10)
    hand = hand.act(Action("Cy", Verb.RAISE, 10))  # Ann must put 90: nothing left to raise
    assert amount_choices(hand) == ()


def test_amount_choices_keep_to_the_limit():
    hand = start_hand(P3, "Ann", STACKS, limit=25)
    assert amount_choices(hand) == (5, 10, 25)
    assert amount_choices(start_hand(P3, "Ann", STACKS, limit=3)) == (3,)


def test_shortfall_and_buy_choices():
    hand = start_hand(P3, "Ann", {"Ann": 40, "Bo": 100, "Cy": 100})
    assert shortfall(hand) == 0 and buy_choices(hand, 500) == ()
    hand = hand.act(Action("Bo", Verb.BET, 50)).act(Action("Cy", Verb.CALL))
    assert hand.to_act == "Ann" and shortfall(hand) == 20
    assert shortfall(hand, "Cy") == 0 and shortfall(hand, "Zed") == 0
    assert buy_choices(hand, 500) == (20, 500)
    assert buy_choices(hand, 20) == (20,) and buy_choices(hand, 0) == (20,)
    over = start_hand(["Ann", "Bo"], "Ann", {"Ann": 40, "Bo": 40})
    over = over.act(Action("Bo", Verb.FOLD))
    assert over.over and shortfall(over) == 0


# --- cards laid down -----------------------------------------------------------------------

def test_card_to_show_reads_and_checks_the_card():
    hand = to_banen(start_hand(P3, "Ann", STACKS))
    assert hand.stage is Stage.BANEN
    assert card_to_show(hand, "Ann", "xxi") == "XXI"
    assert card_to_show(hand, "Bo", "fool") == "Fool"
    with pytest.raises(RuleError, match="banen: Ann's card: J♠ is not a tarot card"):
        card_to_show(hand, "Ann", "J♠")
    with pytest.raises(RuleError, match="banen: Ann's card: .*is not a card"):
        card_to_show(hand, "Ann", "")
    with pytest.raises(RuleError, match="banen: Zed is not in this hand and lays no card"):
        card_to_show(hand, "Zed", "XXI")


def test_card_to_show_refuses_a_folded_player_and_a_reveal_not_due():
    hand = start_hand(P3, "Ann", STACKS)
    with pytest.raises(RuleError, match="fyrsturkalla: no cards are shown now"):
        card_to_show(hand, "Ann", "XXI")
    hand = hand.act(Action("Bo", Verb.FOLD))
    for _ in range(2):
        for p in ("Cy", "Ann"):
            hand = hand.act(Action(p, Verb.CHECK))
    with pytest.raises(RuleError, match="banen: Bo has folded and lays no card"):
        card_to_show(hand, "Bo", "XXI")


def test_card_to_show_refuses_a_card_shown_earlier_in_the_hand():
    hand = to_banen(start_hand(P3, "Ann", STACKS))
    hand = hand.show({"Ann": "XXI", "Bo": "K♥", "Cy": "2♣"})
    for p in ("Bo", "Cy", "Ann"):
        hand = hand.act(Action(p, Verb.CHECK))
    assert hand.stage is Stage.DETUILER
    with pytest.raises(RuleError, match="detuiler: XXI was shown at banen this hand"):
        card_to_show(hand, "Ann", "XXI")
    with pytest.raises(RuleError, match="detuiler: K♥ was shown by Bo at banen this hand"):
        card_to_show(hand, "Cy", "kh")
    assert card_to_show(hand, "Cy", "KS") == "K♠"


def test_shown_twice_names_each_card_laid_twice():
    assert shown_twice({}) == {}
    assert shown_twice({"Ann": "7♣", "Bo": "7c", "Cy": "Fool", "Di": "fool"}) == {
        "7♣": ("Ann", "Bo"), "Fool": ("Cy", "Di")}
    with pytest.raises(RuleError):
        shown_twice({"Ann": "red joker"})


def test_who_leaves_takes_a_lone_player_along():
    assert who_leaves(P3, set()) == ()
    assert who_leaves(P3, {"Bo"}) == ("Bo",)
    assert who_leaves(P3, ["Cy", "Ann"]) == ("Ann", "Bo", "Cy")
    assert who_leaves(["Ann", "Bo"], {"Bo"}) == ("Ann", "Bo")


# --- the story of a hand -------------------------------------------------------------------

FULL_HAND = DESIGN_HAND


def test_the_story_of_a_whole_hand_follows_the_pot():
    result = replay(record(FULL_HAND))
    story = hand_story(result["rounds"][0])
    kinds = [e.kind for e in story]
    assert kinds == [Happening.BUYS, Happening.ANTES,
                     Happening.BETTING, *[Happening.ACTION] * 4, Happening.DRAW,
                     Happening.BETTING, *[Happening.ACTION] * 2, Happening.REVEAL,
                     Happening.BETTING, *[Happening.ACTION] * 2, Happening.REVEAL,
                     Happening.BETTING, *[Happening.ACTION] * 2, Happening.REVEAL]
    assert story[0].amounts == (("Cy", 200),)
    assert (story[1].chips, story[1].players, story[1].pot_after) == (10, tuple(P3), 30)
    # Every step starts where the one before it ended.
    for before, after in zip(story, story[1:], strict=False):
        assert after.pot_before == before.pot_after
    bet = story[4]
    assert (bet.player, bet.action, bet.by, bet.chips, bet.pot_before, bet.pot_after) == (
        "Cy", "bet", 20, 20, 30, 50)
    reveals = [e for e in story if e.kind is Happening.REVEAL]
    assert [(r.name, r.winner, r.share, r.share_name, r.pot_before, r.pot_after)
            for r in reveals] == [("banen", "Ann", 23, "⅓", 70, 47),
                                  ("detuiler", "Ann", 33, "½", 67, 34),
                                  ("debekranse", None, 0, "the rest", 34, 34)]
    assert reveals[2].tied == ("Ann", "Cy")
    assert reveals[0].cards == (("Ann", "XXI"), ("Cy", "K♥"))
    assert story[-1].pot_after == result["rounds"][0]["pot"]


def test_the_story_of_a_hand_in_progress_stops_where_it_stands():
    result = replay(record({"calls": [checks("Bo", "Cy", "Ann"), [["Bo", "bet", 5]]]}))
    story = hand_story(result["rounds"][0])
    assert [e.kind for e in story][-4:] == [Happening.ACTION, Happening.DRAW,
                                             Happening.BETTING, Happening.ACTION]
    assert story[-2].over is False and story[-1].pot_after == 35
    first = hand_story(replay(record({}))["rounds"][0])
    assert [e.kind for e in first] == [Happening.ANTES]
    banen = hand_story(replay(record({"calls": [checks("Bo", "Cy", "Ann")] * 2}))["rounds"][0])
    assert banen[-1].kind is Happening.ACTION  # banen is due: no reveal yet


def test_the_story_tells_a_fold_win_the_share_out_and_who_left():
    hands = [{"calls": [checks("Bo", "Cy", "Ann")] * 4,
              "shows": [{"Ann": "I", "Bo": "II", "Cy": "III"}, {"Ann": "2♣", "Bo": "2♦",
                                                                "Cy": "3♠"},
                        {"Ann": "4♣", "Bo": "4♦", "Cy": "3♥"}]},
             {"calls": [[["Ann", "fold"], ["Bo", "fold"]]], "leave": ["Ann", "Bo", "Cy"]}]
    result = replay(record(*hands))
    first = hand_story(result["rounds"][0])
    assert [e.kind for e in first][-1] is Happening.REVEAL and first[-1].tied == ("Ann", "Bo")
    story = hand_story(result["rounds"][1])
    won, left = story[-2], story[-1]
    assert (won.kind, won.player, won.share, won.pot_before, won.pot_after) == (
        Happening.WON_BY_FOLD, "Cy", first[-1].pot_after + 30, first[-1].pot_after + 30, 0)
    assert (left.kind, left.players) == (Happening.LEFT, ("Ann", "Bo", "Cy"))
    shared = replay(record(hands[0] | {"leave": ["Ann", "Bo", "Cy"]}))
    story = hand_story(shared["rounds"][0])
    share_out = next(e for e in story if e.kind is Happening.SHARE_OUT)
    assert share_out.pot_after == 0 and sum(n for _, n in share_out.amounts) == \
        share_out.pot_before


# --- the final figures ---------------------------------------------------------------------

def test_figures_without_a_chip_value_are_chips_only():
    f = figures(record(FULL_HAND))
    assert [(x.player, x.stack, x.bought, x.net, x.money) for x in f.lines] == [
        ("Ann", 516, 500, 16, None), ("Bo", 490, 500, -10, None), ("Cy", 660, 700, -40, None)]
    assert f.start == dict.fromkeys(P3, 500)
    assert (f.transfers, f.chip_value, f.pot, f.finished) == ((), None, 34, False)


def test_figures_with_a_chip_value_say_who_pays_whom_once_the_game_is_over():
    running = figures(record(FULL_HAND, chip_value=10))
    assert [x.money for x in running.lines] == [160, -100, -400] and running.transfers == ()
    over = figures(record(FULL_HAND | {"leave": P3}, chip_value=10))
    assert over.finished and over.pot == 0
    assert sum(x.money for x in over.lines) == 0
    assert sum(amount for _, _, amount in over.transfers) == sum(
        x.money for x in over.lines if x.money > 0)
