"""Tromplemond (RULES.md §1): the worked example, every rule, reading and message."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.tromplemond import rules as t
from companion.rules import RuleError, deal_steps, deck_prep, replay
from companion.rules.cards import parse_card

from .gen_tromplemond import random_game, random_record

P = ["Rob", "Sam", "Nick", "Emily"]

ROB = {"public": ["K♥", "10♠"], "secret": ["Q♥", "J♦", "K♠"]}
SAM = {"public": ["A♣", "2♦"], "secret": ["10♦", "4♠", "K♦"]}
NICK = {"public": ["J♥", "A♦"], "secret": ["J♠", "A♠", "10♥"]}
EMILY = {"public": ["2♠", "3♥"], "secret": ["J♣", "A♥", "4♦"]}


def game(played, first="Rob", **options):
    return {"game": "tromplemond", "players": list(P), "first_dealer": first,
            "options": options, "rounds": played}


def q(points, public=0, secret=0):
    return {"points": points, "public_jacks": public, "secret_jacks": secret}


def example_round(**fields):
    rnd = {"hands": {"Rob": ROB, "Sam": SAM, "Nick": NICK}, "voted_off": "Emily"}
    rnd.update(fields)
    return copy.deepcopy(rnd)


def quick_round(off, hands, **fields):
    """A round in the quick form: ``hands`` maps each survivor to q(...)."""
    return {"hands": dict(hands), "voted_off": off, **fields}


def lead_round(leader, off):
    """``leader`` scores 58, the two other survivors 39 each (no jacks)."""
    others = [p for p in P if p not in (leader, off)]
    return quick_round(off, {leader: q(48), others[0]: q(10), others[1]: q(10)})


def even_round(off):
    """The three survivors score 40 each."""
    return quick_round(off, {p: q(20) for p in P if p != off})


def error(record):
    with pytest.raises(RuleError) as caught:
        t.replay(record)
    return str(caught.value)


# --------------------------------------------------------------------------- worked example


def test_worked_example_fixed():
    result = replay(game([example_round()]))
    assert result["rounds"][0]["scores"] == {"Rob": 11, "Sam": -9, "Nick": 30, "Emily": 0}
    assert result["totals"] == {"Rob": 11, "Sam": -9, "Nick": 30, "Emily": 0}
    assert list(result["totals"]) == P
    assert result["finished"] is False and result["winners"] == [] and result["money"] == {}
    assert result["rounds"][0]["dealer"] == "Rob"
    assert list(result) == ["rounds", "totals", "finished", "winners", "money", "kitty"]
    assert list(result["rounds"][0]) == ["dealer", "scores", "totals", "tromp", "breakdown"]


def test_seed_example_two_ten_of_diamonds_refused():
    rnd = example_round()
    rnd["hands"]["Nick"]["secret"][2] = "10♦"
    assert error(game([rnd])) == "round 1: 10♦ is in both Sam's and Nick's hands"


def test_worked_example_with_emily_entered_and_quick_forms():
    rnd = example_round()
    rnd["hands"]["Emily"] = EMILY
    rnd["hands"]["Sam"] = q(26)
    rnd["hands"]["Rob"] = q(26, 0, 1)
    assert replay(game([rnd]))["totals"] == {"Rob": 11, "Sam": -9, "Nick": 30, "Emily": 0}


def test_breakdown_explains_every_number():
    bd = replay(game([example_round()]))["rounds"][0]["breakdown"]
    assert bd["round"] == 1 and bd["extra_round"] is False
    assert bd["off"] == {"player": "Emily", "reason": "voted off"}
    rob = bd["players"]["Rob"]
    assert rob["own_points"] == 26 and rob["halves"] == {"Sam": 13, "Nick": 12}
    assert rob["jacks_against"] == {"Nick": 2} and rob["jack_penalty"] == -40
    assert rob["call"] == "Petit Tromplemond!" and rob["called"] is False and rob["won"] == 0
    sam = bd["players"]["Sam"]
    assert sam["jacks_against"] == {"Rob": 1, "Nick": 2} and sam["jack_penalty"] == -60
    assert sam["call"] is None
    assert bd["players"]["Nick"]["call"] == "Moyenne Tromplemond!"
    assert bd["players"]["Emily"] == {"off": True, "score": 0}
    assert list(bd["players"]) == P
    assert "− 40 (Nick's 2 jacks) = 11" in rob["explain"]
    # One minus sign on every page: a total below zero is written "= −9", never "= -9".
    assert sam["points"] < 0 and sam["explain"].endswith(f"= \u2212{-sam['points']}")


@pytest.mark.parametrize("seed", range(5))
def test_the_explain_phrase_says_the_breakdowns_english(seed):
    """The screens say a survivor's line from ``t.explain`` (a Phrase, in any language);
    its English is the breakdown's own ``explain``, word for word."""
    record = random_record(random.Random(seed), rounds=12, target=10**9)
    for done in replay(record)["rounds"]:
        for player, line in done["breakdown"]["players"].items():
            if not line["off"]:
                assert str(t.explain(done["breakdown"], player)) == line["explain"]


# --------------------------------------------------------------------------- card points


@pytest.mark.parametrize("card, points", [("A♠", 10), ("K♥", 8), ("Q♦", 6), ("10♠", 4),
                                          ("4♥", 2), ("3♦", 2), ("2♠", 2), ("J♣", 0),
                                          ("A♣", 10), ("td", 4)])
def test_card_points(card, points):
    assert t.card_points(card) == points
    assert t.card_points(parse_card(card)) == points


@pytest.mark.parametrize("card", ["5♠", "9♥", "K♣", "10♣", "2♣", "XXI", "red joker"])
def test_card_points_refuses_cards_outside_the_deck(card):
    with pytest.raises(RuleError, match="not in the Tromplemond deck"):
        t.card_points(card)


def test_deck_has_26_cards():
    assert len(t.DECK) == len(set(t.DECK)) == 26
    assert sum(c.rank.value == "J" for c in t.DECK) == 4
    assert sum(c.rank.value == "A" for c in t.DECK) == 4
    assert {str(c) for c in t.DECK if c.suit.value == "♣"} == {"A♣", "J♣"}
    assert t.hand_points(["A♠", "A♥", "A♦", "A♣", "K♠"]) == 48


def test_is_jack_and_is_ace():
    assert t.is_jack(parse_card("J♣")) and not t.is_jack(parse_card("A♣"))
    assert t.is_ace(parse_card("A♣")) and not t.is_ace(parse_card("XXI"))


def test_reachable_points():
    assert max(t.REACHABLE_POINTS[0]) == 48 and min(t.REACHABLE_POINTS[0]) == 10
    assert 48 not in t.REACHABLE_POINTS[2] and max(t.REACHABLE_POINTS[2]) == 30
    assert t.REACHABLE_POINTS[4] == {2, 4, 6, 8, 10}
    assert 0 not in t.REACHABLE_POINTS[4]
    assert 46 in t.REACHABLE_POINTS[0]  # A A A A Q


# --------------------------------------------------------------------------- TROMP! calls


@pytest.mark.parametrize("secret, public, call", [
    (0, 0, None), (1, 0, t.TrompCall.PETIT), (0, 1, t.TrompCall.PETIT),
    (1, 1, t.TrompCall.MOYENNE), (2, 0, t.TrompCall.TROMPLEMOND), (2, 1, t.TrompCall.GRAND),
    (3, 0, t.TrompCall.SUPER), (3, 1, t.TrompCall.ULTIMATE), (0, 2, t.TrompCall.KICKSELF),
    (1, 2, t.TrompCall.KICKSELF), (2, 2, t.TrompCall.EXTREME),
])
def test_tromp_call_table(secret, public, call):
    assert t.tromp_call(secret, public) is call


def test_tromp_call_names_and_shares():
    assert str(t.TrompCall.GRAND) == "Grand Tromplemond!"
    assert t.TrompCall.GRAND.display_name == "Grand Tromplemond!"
    assert t.TrompCall.MOYENNE.wins.startswith("¼ of the round pot")
    assert t.TrompCall.EXTREME.hand == "2 jacks in the back row, 2 on show"
    shares = {c: c.share_of(20) for c in t.TrompCall}
    assert shares == {t.TrompCall.PETIT: 0, t.TrompCall.MOYENNE: 5,
                      t.TrompCall.TROMPLEMOND: 10, t.TrompCall.GRAND: 20,
                      t.TrompCall.SUPER: 20, t.TrompCall.ULTIMATE: 20,
                      t.TrompCall.KICKSELF: 10, t.TrompCall.EXTREME: 20}
    assert t.TrompCall.MOYENNE.share_of(6) == 1  # rounded down


@pytest.mark.parametrize("secret, public, message", [
    (4, 0, "at most 3"), (0, 3, "at most 2"), (-1, 0, "at least 0"), (3, 2, "5 jacks"),
    ("2", 0, "whole number"),
])
def test_tromp_call_refuses_impossible_hands(secret, public, message):
    with pytest.raises(RuleError, match=message):
        t.tromp_call(secret, public)


# --------------------------------------------------------------------------- hands


def test_read_hand_full_and_quick():
    full = t.read_hand("Nick", NICK)
    assert (full.points, full.public_jacks, full.secret_jacks, full.jacks) == (24, 1, 1, 2)
    assert full.is_full and full.call is t.TrompCall.MOYENNE and len(full.cards) == 5
    quick = t.read_hand("Sam", {"points": 26})
    assert (quick.points, quick.public_jacks, quick.secret_jacks) == (26, 0, 0)
    assert not quick.is_full and quick.cards == () and quick.call is None
    assert t.read_hand("Sam", quick) is quick
    assert t.read_hand("Rob", {"public": ["kh", "TS"], "secret": ["QH", "jd", "K♠"]}) == \
        t.read_hand("Rob", ROB)


@pytest.mark.parametrize("hand, message", [
    ({"points": 27}, "Sam's points must be even"),
    ({"points": 50}, "Sam's points must be at most 48, not 50"),
    ({"points": -2}, "Sam's points must be at least 0"),
    ({"points": 48, "public_jacks": 1, "secret_jacks": 1},
     "Sam's hand cannot be worth 48 points with 2 jacks and 3 other cards"),
    ({"points": 2}, "Sam's hand cannot be worth 2 points with 0 jacks"),
    ({"points": 0, "public_jacks": 2, "secret_jacks": 2}, "cannot be worth 0 points"),
    ({"points": 10, "public_jacks": 3}, "Sam's jacks on show (public_jacks) must be at most 2"),
    ({"points": 10, "secret_jacks": 4}, "Sam's jacks in the back row (secret_jacks) must be at"),
    ({"points": 10, "secret_jacks": 3, "public_jacks": 2}, "Sam's hand cannot hold 5 jacks"),
    ({"points": "ten"}, "Sam's points must be a whole number"),
    ({"points": True}, "Sam's points must be a whole number"),
    ({"points": 10, "public": ["A♠"]}, "Sam's hand must give either"),
    ({"public": ["A♠", "K♠"]}, "Sam's hand must give either"),
    ({}, "Sam's hand must give either"),
    ([], "Sam's hand must be a JSON object"),
    ({"public": ["A♠", "K♠", "Q♠"], "secret": ["2♠", "3♠"]},
     "Sam's hand must have 2 public cards, not 3"),
    ({"public": ["A♠", "K♠"], "secret": ["2♠", "3♠"]}, "Sam's hand must have 3 secret cards"),
    ({"public": "A♠ K♠", "secret": ["2♠", "3♠", "4♠"]}, "Sam's public cards must be a list"),
    ({"public": ["A♠", "K♣"], "secret": ["2♠", "3♠", "4♠"]},
     "K♣ in Sam's hand is not in the Tromplemond deck"),
    ({"public": ["A♠", "XXI"], "secret": ["2♠", "3♠", "4♠"]},
     "XXI in Sam's hand is not in the Tromplemond deck"),
    ({"public": ["A♠", "1S"], "secret": ["2♠", "3♠", "4♠"]}, "'1S' in Sam's hand is not a card"),
    ({"public": ["A♠", 7], "secret": ["2♠", "3♠", "4♠"]}, "7 in Sam's hand is not a card"),
    ({"public": ["A♠", "2♠"], "secret": ["2S", "3♠", "4♠"]}, "2♠ is twice in Sam's hand"),
])
def test_bad_hands_are_refused_with_the_round_and_player(hand, message):
    rnd = example_round()
    rnd["hands"]["Sam"] = hand
    assert message in error(game([rnd]))
    assert error(game([rnd])).startswith("round 1: ")


def test_full_hand_checks_at_construction():
    ace, king = parse_card("A♠"), parse_card("K♠")
    with pytest.raises(RuleError, match="Rob's hand must have 2 public cards, not 1"):
        t.FullHand("Rob", (ace,), (king, parse_card("Q♠"), parse_card("2♠")))
    with pytest.raises(RuleError, match="Rob's hand must have 3 secret cards, not x"):
        t.FullHand("Rob", (ace, king), "x")
    with pytest.raises(RuleError, match="'A♠' in Rob's hand is not a card"):
        t.FullHand("Rob", ("A♠", king), (parse_card("Q♠"), parse_card("2♠"), parse_card("3♠")))
    with pytest.raises(RuleError, match="5♠ in Rob's hand is not in the Tromplemond deck"):
        t.FullHand("Rob", (ace, parse_card("5♠")),
                   (parse_card("Q♠"), parse_card("2♠"), parse_card("3♠")))


def test_hand_conflicts_for_a_partial_round():
    assert t.hand_conflicts({"Rob": ROB}) == []
    conflicts = t.hand_conflicts({"Rob": ROB, "Sam": {"public": ["K♥", "2♦"],
                                                      "secret": ["Q♥", "4♠", "K♦"]},
                                  "Nick": {"points": 3}})
    assert [c.players for c in conflicts] == [("Nick",), ("Rob", "Sam"), ("Rob", "Sam")]
    assert [c.card for c in conflicts] == [None, "K♥", "Q♥"]
    assert conflicts[1].message == "K♥ is in both Rob's and Sam's hands"
    three = t.hand_conflicts({"Rob": ROB, "Sam": ROB, "Nick": ROB})
    assert three[0].message == "K♥ is in Rob's, Sam's and Nick's hands"
    bad_card = t.hand_conflicts({"Rob": {"public": ["K♣", "2♦"], "secret": ["Q♥", "4♠", "K♦"]}})
    assert bad_card[0].card == "K♣" and bad_card[0].players == ("Rob",)


def test_check_hands_raises_the_first_conflict():
    with pytest.raises(RuleError, match="^round 4: K♥ is in both Rob's and Sam's hands$"):
        t.check_hands({"Rob": ROB, "Sam": ROB}, "round 4")
    with pytest.raises(RuleError, match="^K♥ is in both"):
        t.check_hands({"Rob": ROB, "Sam": ROB})
    assert t.check_hands({"Rob": ROB})["Rob"].points == 26


def test_too_many_jacks_across_quick_hands():
    rnd = quick_round("Emily", {"Rob": q(10, 1, 2), "Sam": q(14, 0, 2), "Nick": q(20)})
    message = error(game([rnd]))
    assert message == ("round 1: 5 jacks are entered but the deck has only 4 "
                       "(Rob: 3; Sam: 2)")


def test_too_many_jacks_mixing_full_and_quick():
    rnd = example_round()
    rnd["hands"]["Sam"] = q(14, 0, 2)
    assert error(game([rnd])) == ("round 1: 5 jacks are entered but the deck has only 4 "
                                  "(Rob: J♦; Sam: 2; Nick: J♥ J♠)")


def test_four_hands_must_hold_all_four_jacks_and_aces():
    rnd = example_round()
    rnd["hands"]["Emily"] = {"public": ["2♠", "3♥"], "secret": ["Q♠", "A♥", "4♦"]}
    assert error(game([rnd])) == ("round 1: only 3 jacks in the four hands "
                                  "(Rob: J♦; Nick: J♥ J♠); all 4 are dealt every round")
    rnd["hands"]["Emily"] = {"public": ["2♠", "3♥"], "secret": ["J♣", "Q♠", "4♦"]}
    assert error(game([rnd])) == ("round 1: only 3 aces in the four hands "
                                  "(Sam: A♣; Nick: A♦ A♠); all 4 are dealt every round")
    rnd["hands"]["Emily"] = q(14, 0, 1)  # aces of a quick hand are unknown
    assert replay(game([rnd]))["totals"]["Nick"] == 30
    rnd["hands"]["Emily"] = q(14)
    assert "only 3 jacks in the four hands" in error(game([rnd]))


def test_three_hands_may_hold_fewer_jacks_and_aces():
    rnd = quick_round("Emily", {"Rob": q(20), "Sam": q(20), "Nick": q(20)})
    assert replay(game([rnd]))["totals"] == {"Rob": 40, "Sam": 40, "Nick": 40, "Emily": 0}


def test_off_players_hand_is_checked_for_duplicates():
    rnd = example_round()
    rnd["hands"]["Emily"] = {"public": ["2♠", "3♥"], "secret": ["J♣", "A♥", "K♥"]}
    assert error(game([rnd])) == "round 1: K♥ is in both Rob's and Emily's hands"


def test_more_than_four_hands_is_a_conflict():
    hands = {name: q(20) for name in ["A", "B", "C", "D", "E"]}
    assert t.hand_conflicts(hands)[-1].message == "there are 4 hands in Tromplemond, not 5"


# --------------------------------------------------------------------------- who goes off


def test_off_player_scores_zero_and_hand_counts_for_nobody():
    rnd = example_round()
    rnd["hands"]["Emily"] = EMILY  # her J♣ would cost the others 20 if it counted
    result = replay(game([rnd]))
    assert result["totals"] == {"Rob": 11, "Sam": -9, "Nick": 30, "Emily": 0}


def test_shown_early_goes_off():
    result = replay(game([example_round(voted_off=None, shown_early="Emily")]))
    assert result["totals"] == {"Rob": 11, "Sam": -9, "Nick": 30, "Emily": 0}
    assert result["rounds"][0]["breakdown"]["off"] == {"player": "Emily",
                                                        "reason": "showed cards early"}
    same = replay(game([example_round(shown_early="Emily")]))
    assert same["totals"] == result["totals"]


def test_shown_early_and_a_different_voted_off_is_refused():
    rnd = example_round(shown_early="Emily", voted_off="Sam")
    assert error(game([rnd])) == ("round 1: Emily showed cards early, so Emily goes off, "
                                  "not Sam")


def test_somebody_must_go_off():
    rnd = example_round(voted_off=None)
    assert "round 1: nobody went off" in error(game([rnd]))


def test_survivors_hands_are_required():
    rnd = example_round()
    del rnd["hands"]["Sam"]
    assert error(game([rnd])) == "round 1: Sam's hand is missing"
    assert error(game([{"voted_off": "Emily"}])) == "round 1: Rob's hand is missing"


@pytest.mark.parametrize("fields, message", [
    ({"voted_off": "Bob"}, "round 1: voted_off: 'Bob' is not a player at this table"),
    ({"voted_off": 3}, "round 1: voted_off: 3 is not a player"),
    ({"shown_early": "Bob"}, "round 1: shown_early: 'Bob' is not a player"),
    ({"dealer_forfeit": "yes"}, "round 1: dealer_forfeit must be true or false, not 'yes'"),
    ({"hands": []}, "round 1: hands must be a JSON object"),
    ({"called": "Nick"}, "round 1: called must be a list of players"),
    ({"called": ["Bob"]}, "round 1: called: 'Bob' is not a player"),
    ({"called": ["Nick", "Nick"]}, "round 1: Nick is listed twice in called"),
    ({"called": ["Emily"]}, "round 1: Emily went off and cannot win a TROMP! call"),
    ({"called": ["Sam"]}, "round 1: Sam is listed as calling TROMP!, but Sam's hand holds no jack"),
    ({"cut_winner": "Bob"}, "round 1: cut_winner: 'Bob' is not a player"),
    ({"voted": "Emily"}, "round 1: unknown field 'voted'"),
])
def test_bad_round_fields(fields, message):
    assert error(game([example_round(**fields)])).startswith(message)


def test_hands_for_unknown_players_are_refused():
    rnd = example_round()
    rnd["hands"]["Bob"] = q(20)
    assert error(game([rnd])) == "round 1: hands: 'Bob' is not a player at this table"


def test_non_dict_round_is_refused():
    assert error(game([example_round(), "round two"])).startswith("round 2 ")
    with pytest.raises(RuleError, match="round 2 must be a JSON object"):
        t.read_round("round two", 1, P, "Sam")


def test_null_fields_mean_their_defaults():
    rnd = example_round(shown_early=None, dealer_forfeit=None, called=None, cut_winner=None)
    assert replay(game([rnd]))["totals"]["Nick"] == 30
    rnd = example_round(hands=None, voted_off="Emily")
    assert error(game([rnd])) == "round 1: Rob's hand is missing"


# --------------------------------------------------------------------------- dealer


def test_deal_passes_to_the_left():
    rounds = [example_round() for _ in range(5)]
    dealers = [r["dealer"] for r in replay(game(rounds, target=10**6))["rounds"]]
    assert dealers == ["Rob", "Sam", "Nick", "Emily", "Rob"]
    dealers = [r["dealer"] for r in replay(game(rounds, first="Nick", target=10**6))["rounds"]]
    assert dealers == ["Nick", "Emily", "Rob", "Sam", "Nick"]


def test_dealer_forfeit_only_zeroes_the_dealers_score():
    result = replay(game([example_round(dealer_forfeit=True)]))  # Rob deals round 1
    assert result["totals"] == {"Rob": 0, "Sam": -9, "Nick": 30, "Emily": 0}
    rob = result["rounds"][0]["breakdown"]["players"]["Rob"]
    assert rob["points"] == 11 and rob["score"] == 0 and rob["forfeited"] is True
    assert result["rounds"][0]["breakdown"]["dealer_forfeit"] is True


def test_dealer_forfeit_keeps_the_dealers_tromp_winnings():
    rnd = quick_round("Emily", {"Rob": q(20, 1, 1), "Sam": q(20), "Nick": q(20)},
                      called=["Rob"], dealer_forfeit=True)
    result = replay(game([rnd], tromp_stake=5))
    assert result["rounds"][0]["scores"]["Rob"] == 0
    assert result["rounds"][0]["tromp"] == {"Rob": 5}
    assert result["money"] == {"Rob": 0, "Sam": -5, "Nick": -5, "Emily": -5}


def test_dealer_forfeit_by_the_off_dealer_changes_nothing():
    rnd = example_round(voted_off="Rob", dealer_forfeit=True)
    rnd["hands"] = {"Sam": q(20), "Nick": q(20), "Emily": q(20)}
    result = replay(game([rnd]))
    assert result["totals"] == {"Rob": 0, "Sam": 40, "Nick": 40, "Emily": 40}
    assert result["rounds"][0]["breakdown"]["players"]["Rob"] == {"off": True, "score": 0}


# --------------------------------------------------------------------------- end of the game


def test_game_ends_after_the_agreed_rounds():
    rounds = [lead_round("Rob", "Emily") for _ in range(8)]
    result = replay(game(rounds, target=10**6))
    assert result["finished"] is True and result["winners"] == ["Rob"]
    assert result["rounds"][-1]["breakdown"]["end"]["how"] == "rounds played"
    assert replay(game(rounds[:7], target=10**6))["finished"] is False
    assert error(game(rounds + [lead_round("Rob", "Emily")], target=10**6)) == \
        "round 9: the game already ended after round 8"


def test_game_ends_when_a_total_reaches_the_target():
    rounds = [lead_round("Rob", "Emily") for _ in range(4)]
    result = replay(game(rounds[:3]))
    assert result["totals"]["Rob"] == 174 and result["finished"] is False
    result = replay(game(rounds))
    assert result["totals"]["Rob"] == 232 and result["finished"] is True
    assert result["winners"] == ["Rob"]
    assert result["rounds"][-1]["breakdown"]["end"]["how"] == "target reached"
    assert error(game(rounds + [lead_round("Rob", "Emily")])) == \
        "round 5: the game already ended after round 4"
    assert replay(game([lead_round("Sam", "Emily")], target=58))["winners"] == ["Sam"]
    assert replay(game([lead_round("Sam", "Emily")], target=59))["finished"] is False


def test_shared_top_needs_an_extra_round():
    result = replay(game([even_round("Emily")], rounds=1))
    assert result["finished"] is False and result["winners"] == []
    # The extra round: all four play, Sam takes the lead.
    result = replay(game([even_round("Emily"), lead_round("Sam", "Rob")], rounds=1))
    assert result["finished"] is True and result["winners"] == ["Sam"]
    assert result["rounds"][1]["breakdown"]["extra_round"] is True
    assert result["rounds"][1]["dealer"] == "Sam"
    assert result["rounds"][1]["breakdown"]["end"]["how"] == "extra round"
    # Last place can win the extra round.
    extra = quick_round("Sam", {"Rob": q(48), "Nick": q(46), "Emily": q(10, 2, 2)})
    result = replay(game([even_round("Emily"), extra], rounds=1))
    assert result["totals"] == {"Rob": 36, "Sam": 40, "Nick": 35, "Emily": 57}
    assert result["winners"] == ["Emily"]


def test_still_tied_after_the_extra_round_needs_the_card_cut():
    rounds = [even_round("Emily"), even_round("Emily")]
    result = replay(game(rounds, rounds=1))
    assert result["finished"] is False and result["winners"] == []
    message = error(game(rounds + [even_round("Emily")], rounds=1))
    assert message.startswith("round 3: the game already ended after the extra round 2")
    assert "cut_winner on round 2" in message
    rounds[1]["cut_winner"] = "Nick"
    result = replay(game(rounds, rounds=1))
    assert result["finished"] is True and result["winners"] == ["Nick"]
    assert result["rounds"][1]["breakdown"]["end"]["how"] == "card cut"
    assert result["rounds"][1]["breakdown"]["end"]["runners_up"] == ["Rob", "Sam"]
    assert error(game(rounds + [even_round("Emily")], rounds=1)) == \
        "round 3: the game already ended after round 2"


def test_cut_winner_must_be_among_those_sharing_the_top():
    rounds = [even_round("Emily"), even_round("Emily")]
    rounds[1]["cut_winner"] = "Emily"
    assert error(game(rounds, rounds=1)) == ("round 2: the cut winner Emily is not one of "
                                             "those sharing the top total (Rob, Sam, Nick)")


def test_cut_winner_anywhere_else_is_refused():
    rnd = even_round("Emily")
    rnd["cut_winner"] = "Rob"
    assert error(game([rnd], rounds=1)) == ("round 1: cut_winner is only for the extra round, "
                                            "when the top total is still shared after it")
    rounds = [even_round("Emily"), lead_round("Sam", "Rob")]
    rounds[1]["cut_winner"] = "Sam"
    assert error(game(rounds, rounds=1)) == ("round 2: no card cut is needed: Sam has the top "
                                             "total alone after the extra round")


# --------------------------------------------------------------------------- joining fee


def test_joining_fee_winner_and_runner_up():
    rounds = [lead_round("Rob", "Emily"), lead_round("Sam", "Rob")]
    # Rob 58 + 0, Sam 39 + 58 = 97, Nick 39 + 39 = 78, Emily 0 + 39.
    result = replay(game(rounds, rounds=2, joining_fee=10))
    assert result["winners"] == ["Sam"]
    assert result["money"] == {"Rob": -10, "Sam": 20, "Nick": 0, "Emily": -10}
    end = result["rounds"][-1]["breakdown"]["end"]
    assert end["runners_up"] == ["Nick"]
    assert end["joining_fee"] == {"pot": 40, "paid": {"Sam": 30, "Nick": 10}, "extreme": None}


def test_joining_fee_left_over_units_go_to_the_winner():
    rounds = [lead_round("Rob", "Emily")]
    result = replay(game(rounds, rounds=1, joining_fee=7, payout=[60, 40]))
    # Pot 28: runners-up Sam and Nick share 40% = 11 → 5 each; Rob 18.
    assert result["money"] == {"Rob": 11, "Sam": -2, "Nick": -2, "Emily": -7}
    assert sum(result["money"].values()) == 0


def test_runner_up_after_a_cut_includes_those_it_beat():
    rounds = [quick_round("Emily", {"Rob": q(20), "Sam": q(20), "Nick": q(10)}),
              quick_round("Emily", {"Rob": q(20), "Sam": q(20), "Nick": q(10)},
                          cut_winner="Rob")]
    result = replay(game(rounds, rounds=1, joining_fee=10))
    assert result["winners"] == ["Rob"]
    assert result["money"] == {"Rob": 20, "Sam": 0, "Nick": -10, "Emily": -10}


@pytest.mark.parametrize("payout", [[70, 20], [75], [75, 25, 0], "75/25", [75.5, 24.5],
                                    [110, -10], [True, 99]])
def test_payout_must_be_two_percentages_adding_to_100(payout):
    assert "payout must be two whole percentages" in error(game([], payout=payout))


def test_payout_may_be_written_with_whole_floats():
    assert t.read_options({"payout": [60.0, 40.0]}).payout == (60, 40)


@pytest.mark.parametrize("options, message", [
    ({"joining_fee": -1}, "the joining fee must be at least 0"),
    ({"tromp_stake": 2.5}, "the TROMP! stake must be a whole number"),
    ({"rounds": 0}, "the number of rounds must be at least 1"),
    ({"target": "high"}, "the target must be a whole number"),
    ({"stake": 5}, "tromplemond has no option 'stake'"),
])
def test_bad_options(options, message):
    assert message in error(game([], **options))


def test_options_direct_construction_checks():
    with pytest.raises(RuleError, match="payout"):
        t.Options(payout=[75, 25])
    with pytest.raises(RuleError, match="options must be a JSON object"):
        t.read_options([])
    with pytest.raises(RuleError, match="tromplemond has no option 'stake'"):
        t.read_options({"stake": 1})


# --------------------------------------------------------------------------- TROMP! money


def test_tromp_round_pot_kitty_and_end_share_out():
    r1 = quick_round("Emily", {"Rob": q(20, 1, 0), "Sam": q(30), "Nick": q(10, 1, 2)},
                     called=["Nick", "Rob"])
    r2 = quick_round("Rob", {"Sam": q(20, 1, 1), "Nick": q(24), "Emily": q(30, 0, 1)},
                     called=["Sam"])
    result = replay(game([r1, r2], rounds=2, joining_fee=10, tromp_stake=4))
    assert [r["scores"] for r in result["rounds"]] == [
        {"Rob": -20, "Sam": -35, "Nick": 15, "Emily": 0},
        {"Rob": 0, "Sam": 27, "Nick": -11, "Emily": 12},
    ]
    assert [r["tromp"] for r in result["rounds"]] == [{"Nick": 16}, {"Sam": 4}]
    assert result["rounds"][0]["breakdown"]["players"]["Rob"]["called"] is True
    assert result["rounds"][0]["breakdown"]["players"]["Rob"]["won"] == 0  # Petit
    pot = result["rounds"][1]["breakdown"]["pot"]
    assert pot == {"round_pot": 16, "kitty_before": 0, "extreme": None,
                   "extreme_took_kitty": 0, "to_kitty": 12, "kitty": 12}
    assert result["winners"] == ["Emily"]
    end = result["rounds"][1]["breakdown"]["end"]
    assert end["kitty"] == {"at_end": 12, "super": {}, "ultimate": {}, "best_round": {"Sam": 12},
                            "best_round_score": 27}
    assert result["money"] == {"Rob": -18, "Sam": -2, "Nick": 8, "Emily": 12}
    assert result["kitty"] == 0


def test_money_while_the_game_runs_leaves_the_rest_in_the_pots():
    r1 = quick_round("Emily", {"Rob": q(20, 1, 0), "Sam": q(30), "Nick": q(10, 1, 2)},
                     called=["Nick"])
    r2 = quick_round("Rob", {"Sam": q(20, 1, 1), "Nick": q(24), "Emily": q(30, 0, 1)})
    result = replay(game([r1, r2], rounds=8, joining_fee=10, tromp_stake=4))
    assert result["finished"] is False and result["kitty"] == 16
    assert sum(result["money"].values()) == -(40 + 16)
    assert result["money"] == {"Rob": -18, "Sam": -18, "Nick": -2, "Emily": -18}


def test_no_stakes_means_no_money():
    assert replay(game([example_round(called=["Nick"])]))["money"] == {}
    assert replay(game([example_round(called=["Nick"])]))["rounds"][0]["tromp"] == {}
    assert replay(game([], joining_fee=5))["money"] == dict.fromkeys(P, -5)


def test_every_paying_call_wins_its_share():
    cases = [(q(20, 1, 1), 5), (q(20, 0, 2), 10), (q(20, 1, 2), 20), (q(10, 0, 3), 20),
             (q(10, 1, 3), 20), (q(20, 2, 0), 10), (q(20, 2, 1), 10), (q(10, 2, 2), 20),
             (q(20, 1, 0), 0)]
    for hand, won in cases:
        rnd = quick_round("Emily", {"Rob": hand, "Sam": q(20), "Nick": q(20)}, called=["Rob"])
        result = replay(game([rnd], tromp_stake=5))
        assert result["rounds"][0]["breakdown"]["players"]["Rob"]["won"] == won, hand
        assert result["kitty"] == 20 - won, hand


def test_an_uncalled_hand_wins_nothing():
    rnd = quick_round("Emily", {"Rob": q(20, 1, 2), "Sam": q(20), "Nick": q(20)})
    result = replay(game([rnd], tromp_stake=5))
    assert result["rounds"][0]["tromp"] == {} and result["kitty"] == 20


def test_two_calls_share_one_round_pot():
    rnd = quick_round("Emily", {"Rob": q(20, 0, 2), "Sam": q(20, 1, 1), "Nick": q(20)},
                      called=["Rob", "Sam"])
    result = replay(game([rnd], tromp_stake=3))  # pot 12: ½ = 6, ¼ = 3
    assert result["rounds"][0]["tromp"] == {"Rob": 6, "Sam": 3}
    assert result["kitty"] == 3
    rnd["called"] = ["Sam", "Rob"]  # seat order whatever the order written
    assert list(replay(game([rnd], tromp_stake=3))["rounds"][0]["tromp"]) == ["Rob", "Sam"]


def test_extreme_takes_kitty_pots_and_joining_fee():
    r1 = quick_round("Emily", {"Rob": q(20, 0, 2), "Sam": q(20), "Nick": q(20)}, called=["Rob"])
    r2 = quick_round("Emily", {"Rob": q(10), "Sam": q(10), "Nick": q(2, 2, 2)},
                     called=["Nick"])
    r3 = quick_round("Nick", {"Rob": q(20), "Sam": q(20, 1, 1), "Emily": q(48)},
                     called=["Sam"])
    result = replay(game([r1, r2, r3], rounds=3, joining_fee=10, tromp_stake=4))
    assert [r["tromp"] for r in result["rounds"]] == [{"Rob": 8}, {"Nick": 16}, {"Nick": 16}]
    pot2 = result["rounds"][1]["breakdown"]["pot"]
    assert pot2["extreme"] == "Nick" and pot2["extreme_took_kitty"] == 8 and pot2["kitty"] == 0
    assert result["rounds"][2]["breakdown"]["players"]["Sam"]["won"] == 0
    assert result["totals"] == {"Rob": -10, "Sam": -10, "Nick": 12, "Emily": 28}
    assert result["winners"] == ["Emily"]  # the fee goes to Nick all the same
    assert result["rounds"][2]["breakdown"]["end"]["joining_fee"] == {
        "pot": 40, "paid": {"Nick": 40}, "extreme": "Nick"}
    assert result["money"] == {"Rob": -14, "Sam": -22, "Nick": 58, "Emily": -22}


def test_a_later_extreme_takes_over():
    r1 = quick_round("Emily", {"Rob": q(20), "Sam": q(20), "Nick": q(10, 2, 2)},
                     called=["Nick"])
    r2 = quick_round("Emily", {"Rob": q(20), "Sam": q(20), "Nick": q(20)})
    r3 = quick_round("Nick", {"Rob": q(10, 2, 2), "Sam": q(20), "Emily": q(20)},
                     called=["Rob"])
    r4 = quick_round("Rob", {"Nick": q(20), "Sam": q(20), "Emily": q(20)})
    result = replay(game([r1, r2, r3, r4], rounds=4, joining_fee=10, tromp_stake=4))
    assert [r["tromp"] for r in result["rounds"]] == [{"Nick": 16}, {"Nick": 16},
                                                      {"Rob": 16}, {"Rob": 16}]
    end = result["rounds"][-1]["breakdown"]["end"]
    assert end["joining_fee"]["paid"] == {"Rob": 40}
    assert result["winners"] == ["Nick"]
    assert result["money"] == {"Rob": 46, "Sam": -26, "Nick": 6, "Emily": -26}


def test_super_and_ultimate_share_the_kitty_at_the_end():
    r1 = quick_round("Emily", {"Rob": q(20), "Sam": q(10, 0, 3), "Nick": q(20)}, called=["Sam"])
    r2 = quick_round("Emily", {"Rob": q(20, 1, 1), "Sam": q(20), "Nick": q(20)}, called=["Rob"])
    r3 = quick_round("Emily", {"Rob": q(20), "Sam": q(20), "Nick": q(10, 1, 3)},
                     called=["Nick"])
    result = replay(game([r1, r2, r3], rounds=3, tromp_stake=5))
    end = result["rounds"][-1]["breakdown"]["end"]["kitty"]
    assert end["at_end"] == 15 and end["super"] == {"Sam": 3} and end["ultimate"] == {"Nick": 12}
    assert end["best_round"] == {}
    assert sum(result["money"].values()) == 0 and result["kitty"] == 0
    assert result["money"] == {"Rob": -10, "Sam": 8, "Nick": 17, "Emily": -15}


def test_best_single_round_takes_the_rest_of_the_kitty_earliest_from_first_dealer():
    # Round 1 (Nick deals): Rob and Nick both score 5, the best single round.
    r1 = quick_round("Emily", {"Rob": q(20, 1, 1), "Sam": q(30), "Nick": q(20, 1, 1)},
                     called=["Rob"])
    r2 = quick_round("Rob", {"Sam": q(10, 1, 1), "Nick": q(10), "Emily": q(10, 1, 1)})
    result = replay(game([r1, r2], first="Nick", rounds=2, tromp_stake=5))
    assert [r["scores"] for r in result["rounds"]] == [
        {"Rob": 5, "Sam": -30, "Nick": 5, "Emily": 0},
        {"Rob": 0, "Sam": -20, "Nick": -60, "Emily": -20},
    ]
    end = result["rounds"][-1]["breakdown"]["end"]["kitty"]
    assert end["at_end"] == 35 and end["best_round_score"] == 5
    assert end["best_round"] == {"Nick": 18, "Rob": 17}


def test_share_kitty_helper():
    assert t.share_kitty(41, ["Sam", "Rob"], [], ["Nick"]) == {
        "super": {"Sam": 10, "Rob": 10}, "ultimate": {}, "best_round": {"Nick": 21}}
    assert t.share_kitty(41, [], ["Sam", "Rob"], ["Nick"]) == {
        "super": {}, "ultimate": {"Sam": 20, "Rob": 20}, "best_round": {"Nick": 1}}
    assert t.share_kitty(0, ["Sam"], ["Rob"], ["Nick"]) == {
        "super": {"Sam": 0}, "ultimate": {}, "best_round": {}}


def test_share_joining_pot_helper():
    assert t.share_joining_pot(40, (75, 25), "Rob", ["Sam"]) == {"Rob": 30, "Sam": 10}
    assert t.share_joining_pot(40, (100, 0), "Rob", ["Sam", "Nick"]) == {
        "Rob": 40, "Sam": 0, "Nick": 0}
    assert t.share_joining_pot(40, (75, 25), "Rob", []) == {"Rob": 40}


# --------------------------------------------------------------------------- void and banned


def test_void_game_gives_everything_back():
    r1 = quick_round("Emily", {"Rob": q(20, 0, 2), "Sam": q(20), "Nick": q(20)}, called=["Rob"])
    record = game([r1], joining_fee=10, tromp_stake=4) | {"void": True}
    result = replay(record)
    assert result["finished"] is True and result["winners"] == []
    assert result["money"] == dict.fromkeys(P, 0) and result["kitty"] == 0
    assert result["totals"]["Rob"] == 40
    assert result["rounds"][0]["breakdown"]["end"] == {"how": "void", "winners": [],
                                                        "returned": True}
    assert replay(game([r1]) | {"void": True})["money"] == {}
    assert replay(game([]) | {"void": True})["finished"] is True


def test_banned_game_keeps_the_standings_and_returns_the_money():
    rounds = [lead_round("Sam", "Emily"), even_round("Emily")]
    record = game(rounds, joining_fee=10) | {"banned": "Emily"}
    result = replay(record)
    assert result["finished"] is True and result["winners"] == ["Sam"]
    assert result["money"] == dict.fromkeys(P, 0)
    assert result["rounds"][-1]["breakdown"]["end"] == {
        "how": "banned", "winners": ["Sam"], "returned": True, "banned": "Emily"}
    tied = replay(game([even_round("Emily")]) | {"banned": "Rob"})
    assert tied["winners"] == ["Rob", "Sam", "Nick"]
    # A game that had already ended keeps its winner (the card cut's, here).
    cut = [even_round("Emily"), even_round("Emily") | {"cut_winner": "Nick"}]
    assert replay(game(cut, rounds=1) | {"banned": "Rob"})["winners"] == ["Nick"]


def test_void_wins_over_banned():
    result = replay(game([lead_round("Sam", "Emily")]) | {"void": True, "banned": "Emily"})
    assert result["winners"] == [] and result["finished"] is True


@pytest.mark.parametrize("flags, message", [
    ({"void": "yes"}, "void must be true or false, not 'yes'"),
    ({"banned": "Bob"}, "banned: 'Bob' is not a player at this table"),
    ({"banned": True}, "banned: True is not a player"),
])
def test_bad_flags(flags, message):
    assert error(game([]) | flags).startswith(message)


def test_void_null_means_not_void():
    assert replay(game([]) | {"void": None, "banned": None})["finished"] is False


# --------------------------------------------------------------------------- header


def test_header_checks():
    assert "tromplemond is for 4 players, not 3" in error(game([]) | {"players": P[:3]})
    assert "not a tromplemond record" in error(game([]) | {"game": "tremp"})


def test_zero_rounds():
    result = replay(game([]))
    assert result == {"rounds": [], "totals": dict.fromkeys(P, 0), "finished": False,
                      "winners": [], "money": {}, "kitty": 0}


# --------------------------------------------------------------------------- the vote


@pytest.mark.parametrize("counts, off", [
    ({"Emily": 3, "Nick": 1}, "Emily"),
    ({"Emily": 2, "Nick": 1, "Sam": 1}, "Emily"),
    ({"Rob": 4}, "Rob"),
    ({"Rob": 0, "Sam": 1, "Nick": 3, "Emily": 0}, "Nick"),
])
def test_vote_voted_off(counts, off):
    outcome = t.vote_outcome(counts, P)
    assert outcome.kind is t.VoteKind.VOTED_OFF and outcome.voted_off == off
    assert outcome.tied == () and outcome.deciders == ()


def test_vote_two_two_goes_to_the_other_two():
    outcome = t.vote_outcome({"Emily": 2, "Rob": 2}, P)
    assert outcome.kind is t.VoteKind.TIE_BREAK and outcome.voted_off is None
    assert outcome.tied == ("Rob", "Emily") and outcome.deciders == ("Sam", "Nick")


def test_vote_all_one_is_a_revote():
    outcome = t.vote_outcome(dict.fromkeys(P, 1), P)
    assert outcome == t.VoteOutcome(t.VoteKind.REVOTE)


@pytest.mark.parametrize("counts, players, message", [
    ({"Emily": 3}, P, "the votes add up to 3, but there are 4 slips"),
    ({"Emily": 5}, P, "add up to 5"),
    ({"Bob": 4}, P, "the votes: 'Bob' is not a player"),
    ({"Emily": -1, "Rob": 5}, P, "Emily's votes must be at least 0"),
    ({"Emily": 4}, P[:3], "for 4 players, not 3"),
    ([("Emily", 4)], P, "the votes must be counts per player"),
])
def test_vote_validation(counts, players, message):
    with pytest.raises(RuleError, match=message):
        t.vote_outcome(counts, players)


def test_tie_break():
    tie = t.vote_outcome({"Emily": 2, "Rob": 2}, P)
    assert t.tie_break_outcome(["Emily", "Emily"], tie).voted_off == "Emily"
    again = t.tie_break_outcome(["Emily", "Rob"], tie)
    assert again.kind is t.VoteKind.TIE_BREAK and again.deciders == ("Sam", "Nick")
    assert again.tied == ("Rob", "Emily")
    assert t.tie_break_outcome({"Rob": 2}, ["Rob", "Emily"]).voted_off == "Rob"
    assert t.tie_break_outcome({"Rob": 1, "Emily": 1}, ("Rob", "Emily")).kind is \
        t.VoteKind.TIE_BREAK


@pytest.mark.parametrize("slips, tied, message", [
    (["Rob"], ["Rob", "Emily"], "there are 2 tie-break slips, not 1"),
    (["Rob", "Sam"], ["Rob", "Emily"], "must name Rob or Emily, not 'Sam'"),
    ({"Rob": 3}, ["Rob", "Emily"], "the tie-break slips add up to 3"),
    (["Rob", "Rob"], ["Rob", "Rob"], "between two tied players"),
    (["Rob", "Rob"], ["Rob"], "between two tied players"),
])
def test_tie_break_validation(slips, tied, message):
    with pytest.raises(RuleError, match=message):
        t.tie_break_outcome(slips, tied)


def test_tie_break_needs_a_tie():
    with pytest.raises(RuleError, match="no tie to break"):
        t.tie_break_outcome(["Rob", "Rob"], t.VoteOutcome(t.VoteKind.REVOTE))


def test_vote_outcome_is_checked_at_construction():
    with pytest.raises(ValueError, match="only a VOTED_OFF"):
        t.VoteOutcome(t.VoteKind.REVOTE, voted_off="Rob")
    with pytest.raises(ValueError, match="only a VOTED_OFF"):
        t.VoteOutcome(t.VoteKind.VOTED_OFF)
    with pytest.raises(ValueError, match="two tied players"):
        t.VoteOutcome(t.VoteKind.TIE_BREAK, tied=("Rob",))
    with pytest.raises(ValueError, match="only a tie-break"):
        t.VoteOutcome(t.VoteKind.REVOTE, tied=("Rob", "Sam"))
    with pytest.raises(TypeError):
        t.VoteOutcome("revote")


# --------------------------------------------------------------------------- checklists


def test_deck_prep():
    prep = deck_prep("tromplemond", P, {"joining_fee": 50, "tromp_stake": 5})
    text = "\n".join(prep.steps)
    assert "every 5, 6, 7, 8 and 9 (20 cards)" in text
    assert "K, Q, 10, 4, 3 and 2 of clubs (6 cards)" in text
    assert "26 cards remain: A♠ K♠ Q♠ J♠ 10♠ 4♠ 3♠ 2♠;" in text and "A♣ J♣." in text
    assert "Rob, Sam, Nick and Emily each put the joining fee of 50 in the pot (200 in all)" \
        in text
    assert "each player puts 5 in the round pot (20)" in text
    assert "8 rounds" in text and "reaches 200" in text
    plain = t.deck_prep(P, {})
    assert not any("joining fee" in s or "TROMP!" in s for s in plain.steps)
    assert plain.as_dict()["title"].startswith("Tromplemond")


def test_deal_steps_name_the_dealer_and_the_order():
    steps = deal_steps("tromplemond", P, "Nick", {"tromp_stake": 2})
    text = "\n".join(steps.steps)
    assert steps.title == "Tromplemond: Nick deals"
    assert steps.steps[0] == "Everyone puts the TROMP! stake of 2 in the round pot (8)."
    assert "Nick deals: set the 4 jacks and 4 aces aside." in text
    assert "discards 6 of them face down, unseen" in text
    assert "clockwise from Nick's left (Emily, Rob, Sam, Nick)" in text
    assert "3 cards face down" in text and "2 face up" in text
    assert "Claims, starting with Nick: Nick, Emily, Rob, Sam." in text
    assert steps.steps[-1] == "Next round Emily deals."
    plain = t.deal_steps(P, "Emily", {})
    assert plain.steps[0] == "Emily deals: set the 4 jacks and 4 aces aside."
    assert plain.steps[-1] == "Next round Rob deals."


@pytest.mark.parametrize("players, dealer, message", [
    (P[:3], "Rob", "for 4 players, not 3"),
    (["Rob", "Rob", "Sam", "Nick"], "Rob", "four different names"),
    (P, "Bob", "the dealer: 'Bob' is not a player"),
])
def test_deal_steps_validation(players, dealer, message):
    with pytest.raises(RuleError, match=message):
        t.deal_steps(players, dealer, {})


# --------------------------------------------------------------------------- properties


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _game(seed, **kwargs):
    rng = random.Random(seed)
    return random_game(rng, rounds=rng.choice([1, 2, 3, 8]), rigged=0.3, **kwargs)


@settings(max_examples=150, deadline=None)
@given(SEEDS)
def test_property_totals_are_the_sum_of_round_scores(seed):
    record, totals = _game(seed)
    result = replay(record)
    assert result["totals"] == totals  # the generator's own, independent sums
    running = dict.fromkeys(P, 0)
    for rnd in result["rounds"]:
        for p in P:
            running[p] += rnd["scores"][p]
        assert rnd["totals"] == running
    assert result["totals"] == running


@settings(max_examples=150, deadline=None)
@given(SEEDS)
def test_property_money_is_conserved(seed):
    record, _ = _game(seed, flags=True)
    result = replay(record)
    opts = record["options"]
    if not (opts["joining_fee"] or opts["tromp_stake"]):
        assert result["money"] == {}
        return
    held = sum(result["money"].values())
    if result["finished"]:
        assert held == 0 and result["kitty"] == 0
    else:
        assert held == -(4 * opts["joining_fee"] + result["kitty"])
    for rnd in result["rounds"]:
        pot = rnd["breakdown"]["pot"]
        assert sum(rnd["tromp"].values()) + pot["to_kitty"] == pot["round_pot"]
        assert all(v > 0 for v in rnd["tromp"].values())


@settings(max_examples=100, deadline=None)
@given(SEEDS)
def test_property_prefix_of_rounds_gives_prefix_of_results(seed):
    record, _ = _game(seed)
    full = replay(record)
    rng = random.Random(seed)
    k = rng.randrange(len(record["rounds"]) + 1)
    prefix = replay(record | {"rounds": record["rounds"][:k]})
    assert prefix["rounds"] == full["rounds"][:k]
    if k < len(record["rounds"]):
        assert prefix["finished"] is False


@settings(max_examples=100, deadline=None)
@given(SEEDS)
def test_property_json_round_trip(seed):
    record, _ = _game(seed, flags=True)
    result = replay(record)
    assert replay(json.loads(json.dumps(record))) == result
    assert json.loads(json.dumps(result)) == result


@settings(max_examples=100, deadline=None)
@given(SEEDS)
def test_property_finished_games_have_one_winner_or_flags(seed):
    record, _ = _game(seed, flags=True)
    result = replay(record)
    if record.get("void"):
        assert result["winners"] == [] and result["finished"]
    elif result["finished"] and not record.get("banned"):
        assert len(result["winners"]) == 1
        assert "end" in result["rounds"][-1]["breakdown"]
    elif not result["finished"]:
        assert result["winners"] == []


JUNK = [None, -1, 3.5, "x", [], {}, True, "Bob", 10**9, "Rob", ["Rob"], {"points": 3}, "A♠",
        float("nan"), 0, 2]


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


@settings(max_examples=150, deadline=None)
@given(SEEDS)
def test_property_a_mangled_record_raises_only_rule_errors(seed):
    record, _ = _game(seed, flags=True)
    rng = random.Random(seed)
    path = rng.choice([p for p in _paths(record) if p])
    parent = record
    for key in path[:-1]:
        parent = parent[key]
    if isinstance(parent, dict) and rng.random() < 0.2:
        del parent[path[-1]]
    else:
        parent[path[-1]] = copy.deepcopy(rng.choice(JUNK))
    try:
        t.replay(record)
    except RuleError as problem:
        if path[0] == "rounds" and len(path) > 2:  # the rounds before it still stand
            words = str(problem).split(":")[0].split()
            assert words[0] == "round" and int(words[1]) >= path[1] + 1


def test_fifty_round_game_replays():
    record = random_record(random.Random(7), rounds=50, target=10**9)
    result = replay(record)
    assert len(result["rounds"]) >= 50
    assert result["finished"] is True


# progress and standings (the round pages' "what now") --------------------------------------

def test_progress_of_a_new_game_names_the_first_dealer_and_the_claims():
    now = t.progress(game([], first="Nick"))
    assert (now.round_index, now.round_number, now.dealer) == (0, 1, "Nick")
    assert now.claim_order == ("Nick", "Emily", "Rob", "Sam")
    assert now.playing and not now.extra_round and not now.cut_due and not now.finished
    assert now.tied == () and now.result["totals"] == dict.fromkeys(P, 0)


def test_progress_passes_the_deal_left_each_round():
    now = t.progress(game([lead_round("Rob", "Emily")] * 3))
    assert (now.round_number, now.dealer, now.claim_order[0]) == (4, "Emily", "Emily")
    assert now.playing and not now.extra_round


def test_progress_after_the_last_round_with_a_shared_top_is_the_extra_round():
    now = t.progress(game([even_round("Emily")], rounds=1))
    assert now.extra_round and now.playing and not now.cut_due and not now.finished
    assert now.tied == ("Rob", "Sam", "Nick") and now.dealer == "Sam"


def test_progress_when_the_target_is_reached_by_two_is_the_extra_round():
    now = t.progress(game([even_round("Emily")], target=40))
    assert now.extra_round and now.tied == ("Rob", "Sam", "Nick")


def test_progress_after_a_tied_extra_round_wants_the_card_cut():
    rounds = [even_round("Emily"), even_round("Emily")]
    now = t.progress(game(rounds, rounds=1))
    assert now.cut_due and not now.playing and not now.extra_round and not now.finished
    assert now.tied == ("Rob", "Sam", "Nick")
    rounds[1]["cut_winner"] = "Sam"
    now = t.progress(game(rounds, rounds=1))
    assert now.finished and not now.cut_due and not now.playing and now.tied == ()
    assert now.result["winners"] == ["Sam"]


def test_progress_of_a_won_void_or_abandoned_game_is_finished():
    assert t.progress(game([lead_round("Rob", "Emily")], rounds=1)).finished
    record = game([even_round("Emily")], rounds=1)
    assert t.progress(record | {"void": True}).finished
    banned = t.progress(record | {"banned": "Sam"})
    assert banned.finished and not banned.extra_round and banned.tied == ()


def test_progress_refuses_a_bad_record_with_the_rules_message():
    with pytest.raises(RuleError, match="round 1: nobody went off"):
        t.progress(game([{"hands": {}}]))


def test_standings_share_places_and_keep_seat_order_within_one():
    lines = t.standings({"Rob": 30, "Sam": 42, "Nick": 42, "Emily": -5})
    assert [(s.place, s.player, s.total, s.shared) for s in lines] == [
        (1, "Sam", 42, True), (1, "Nick", 42, True), (3, "Rob", 30, False),
        (4, "Emily", -5, False)]
    assert [s.place for s in t.standings(dict.fromkeys(P, 0))] == [1, 1, 1, 1]


def test_checklists_write_amounts_with_the_money_writer_given():
    def pounds(n):
        return f"£{n // 100}.{n % 100:02d}"

    prep = t.deck_prep(P, {"joining_fee": 250, "tromp_stake": 50}, money=pounds)
    text = "\n".join(prep.steps)
    assert "each put the joining fee of £2.50 in the pot (£10.00 in all)" in text
    assert "each player puts £0.50 in the round pot (£2.00)" in text
    steps = t.deal_steps(P, "Sam", {"tromp_stake": 50}, money=pounds)
    assert steps.steps[0] == "Everyone puts the TROMP! stake of £0.50 in the round pot (£2.00)."
