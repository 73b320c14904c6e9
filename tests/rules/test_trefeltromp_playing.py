"""Trefeltromp's hand in progress, acted on without the app: each thing done in a hand is a
rules function on the draft's facts (``deal``, ``act``, ``draw``, ``buy``, ``lay``,
``undo``) that checks the action first, refuses it with a rule code leaving the facts as
they were, and says what follows (the hand joins the record, a reveal is due)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.trefeltromp import rules
from companion.games.trefeltromp.rules import Action, Done, Stage, Verb
from companion.rules import RuleError

P3 = ["Ann", "Bo", "Cy"]


def new_record(*hands, stack=100, ante=10, players=P3):
    return {"game": "trefeltromp", "players": list(players), "first_dealer": players[0],
            "options": {"ante": ante, "stack": stack}, "rounds": list(hands)}


def refused(code, do, facts):
    """``do(facts)`` is refused with ``code``, and ``facts`` are left as they were."""
    before = copy.deepcopy(facts)
    with pytest.raises(RuleError) as caught:
        do(facts)
    assert caught.value.code == code
    assert facts == before


def play(record, facts, *moves):
    """The facts after ``moves``: ``(player, verb[, amount])``, ``"draw"`` or a reveal's
    cards (a dict)."""
    for move in moves:
        if move == "draw":
            facts = rules.draw(record, facts).facts
        elif isinstance(move, dict):
            facts = rules.lay(record, facts, move).facts
        else:
            facts = rules.act(record, facts, Action(move[0], Verb(move[1]), *move[2:])).facts
    return facts


def test_a_bet_is_written_into_its_betting_round_and_the_log():
    record = new_record()
    dealt = rules.deal(record, {}).facts
    change = rules.act(record, dealt, Action("Bo", Verb.BET, 20))
    assert change.facts["calls"] == [[["Bo", "bet", 20]]]
    assert change.facts["log"] == ["start", "act"]
    assert change.finished is None and change.reveal is None
    assert rules.log_of(change.facts) == [Done.START, Done.ACT]


@pytest.mark.parametrize(("move", "code"), [
    (("Cy", "check"), "trefeltromp.out_of_turn"),
    (("Bo", "call"), "trefeltromp.cannot_call"),
    (("Bo", "bet", 500), "trefeltromp.bet_short"),
    (("Di", "check"), "trefeltromp.not_seated"),
])
def test_a_bet_the_rules_refuse_changes_nothing(move, code):
    record = new_record()
    dealt = rules.deal(record, {}).facts
    refused(code, lambda facts: rules.act(record, facts, Action(move[0], Verb(move[1]),
                                                                 *move[2:])), dealt)


def test_nobody_bets_before_the_deal_nor_before_the_draw():
    record = new_record()
    refused("trefeltromp.not_dealt", lambda f: rules.act(record, f, Action("Bo", Verb.CHECK)),
            {})
    facts = play(record, rules.deal(record, {}).facts,
                 ("Bo", "check"), ("Cy", "check"), ("Ann", "check"))
    refused("trefeltromp.draw_first",
            lambda f: rules.act(record, f, Action("Bo", Verb.CHECK)), facts)
    assert rules.act(record, rules.draw(record, facts).facts, Action("Bo", Verb.CHECK))


def test_a_deal_nobody_can_cover_is_refused_naming_the_hand():
    record = new_record(stack=5)
    refused("rule.within_comma", lambda f: rules.deal(record, f), {})
    with pytest.raises(RuleError) as caught:
        rules.deal(record, {})
    assert caught.value.params["error"].code == "trefeltromp.ante_short"
    assert str(caught.value).startswith("round 1, ante: Ann cannot cover the ante of 10")


def test_a_reveal_is_due_after_its_call_and_its_cards_turn_together():
    record = new_record()
    facts = play(record, rules.deal(record, {}).facts,
                 ("Bo", "check"), ("Cy", "check"), ("Ann", "check"), "draw",
                 ("Bo", "check"), ("Cy", "check"))
    last = rules.act(record, facts, Action("Ann", Verb.CHECK))
    assert (last.reveal, last.layers) == (Stage.BANEN, ("Ann", "Bo", "Cy"))
    refused("trefeltromp.nobody_to_act",
            lambda f: rules.act(record, f, Action("Bo", Verb.CHECK)), last.facts)
    shown = rules.lay(record, last.facts, {"Ann": "XXI", "Bo": "K♥", "Cy": "2♣"})
    assert shown.facts["shows"] == [{"Ann": "XXI", "Bo": "K♥", "Cy": "2♣"}]
    assert shown.reveal is None and shown.facts["log"][-1] == "show"


def test_a_card_laid_twice_asks_those_two_again_and_undo_forgets_the_reveal():
    record = new_record()
    facts = play(record, rules.deal(record, {}).facts,
                 ("Bo", "check"), ("Cy", "check"), ("Ann", "check"), "draw",
                 ("Bo", "check"), ("Cy", "check"), ("Ann", "check"))
    clash = rules.lay(record, facts, {"Ann": "XXI", "Bo": "K♥", "Cy": "kh"})
    assert (clash.reveal, clash.layers) == (Stage.BANEN, ("Bo", "Cy"))
    assert clash.facts["clash"]["kept"] == {"Ann": "XXI"}
    again = rules.lay(record, clash.facts, {"Bo": "K♥", "Cy": "2♣"})
    assert again.facts["shows"] == [{"Ann": "XXI", "Bo": "K♥", "Cy": "2♣"}]
    undone = rules.undo(record, clash.facts)
    assert undone.facts == facts
    assert (undone.forgotten, undone.reveal, undone.layers) == (Stage.BANEN, Stage.BANEN,
                                                                ("Ann", "Bo", "Cy"))
    back = rules.undo(record, again.facts)
    assert back.facts == facts and back.forgotten is Stage.BANEN


def test_a_hand_won_by_folding_joins_the_record():
    record = new_record()
    facts = play(record, rules.deal(record, {}).facts, ("Bo", "fold"))
    over = rules.act(record, facts, Action("Cy", Verb.FOLD))
    assert over.finished == {"buys": [], "leave": [],
                             "calls": [[["Bo", "fold"], ["Cy", "fold"]]], "shows": []}
    assert rules.replay({**record, "rounds": [over.finished]})["totals"]["Ann"] == 120
    assert rules.follows(record, over.facts).finished == over.finished


def test_nothing_to_undo_is_refused_and_a_buy_is_taken_back():
    record = new_record()
    refused("trefeltromp.nothing_to_undo", lambda f: rules.undo(record, f), {})
    bought = rules.buy(record, {}, "Cy", 50)
    assert bought.facts == {"buys": [["Cy", 50]], "log": ["buy"]}
    assert rules.undo(record, bought.facts).facts == {"log": []}
    refused("trefeltromp.buyer_not_seated",
            lambda f: rules.buy(record, f, "Di", 50), rules.deal(record, {}).facts)


def test_facts_that_no_longer_fit_the_record_call_for_nothing():
    record = new_record()
    broken = {"started": True, "calls": [[["Zed", "check"]]]}
    assert rules.follows(record, broken) == rules.Change(broken)


MOVES = st.lists(st.tuples(st.sampled_from(list(Verb)), st.sampled_from([5, 10, 25, 40])),
                 max_size=14)


@settings(max_examples=60, deadline=None)
@given(MOVES)
def test_undo_takes_back_exactly_the_last_thing_done(moves):
    """Whatever legal actions were taken, undoing the last one gives back the facts as they
    were before it (and a refused one changes nothing)."""
    record = new_record()
    facts = rules.deal(record, {}).facts
    assert rules.undo(record, facts).facts == {"log": []}
    for verb, amount in moves:
        hand = rules._hand_of(record, facts)
        if hand is None or hand.to_act is None:
            break
        if hand.stage is Stage.BANENKALLA and not rules.drawn(facts):
            facts = rules.draw(record, facts).facts
            continue
        action = Action(hand.to_act, verb, amount if verb in (Verb.BET, Verb.RAISE) else None)
        before = copy.deepcopy(facts)
        try:
            change = rules.act(record, facts, action)
        except RuleError:
            assert facts == before
            continue
        assert rules.undo(record, change.facts).facts == before
        facts = change.facts
