"""RuleError: a stable code and its facts, said in English by one registry (issue 30).

The English of every error is what it always was (the other rules tests
assert it word for word); these tests check what a web layer needs to say it
in another language: the code, and params that are facts (numbers, names,
cards), not English. ``conftest.py`` checks the same of every RuleError the
rules tests raise, and that every code's English is said by some test.
"""

from __future__ import annotations

import pickle

import pytest

from companion.games.clumond import rules as clumond
from companion.games.tremp import rules as tremp
from companion.games.tromplemond import rules as tromplemond
from companion.games.trumplestiltskin import rules as ts
from companion.rules.cards import parse_card
from companion.rules.common import the_round
from companion.rules.errors import MESSAGES, Phrase, RuleError, say

from .conftest import english_in

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def facts(error: RuleError | Phrase) -> tuple:
    """An error's code and params, a wrapped error's included (errors compare by identity)."""
    return (error.code, {k: facts(v) if isinstance(v, RuleError | Phrase) else v
                         for k, v in error.params.items()})


def refusal(call, *args) -> RuleError:
    with pytest.raises(RuleError) as info:
        call(*args)
    return info.value


# --- the registry ------------------------------------------------------------------


def test_every_code_is_dotted_and_its_template_reads():
    for code, template in MESSAGES.items():
        head, _, rest = code.partition(".")
        assert head and rest and code == code.lower().strip(), code
        glued = code.startswith("phrase.")  # " at banen" is said after another word
        assert template == (template.rstrip() if glued else template.strip()), code
        assert "  " not in template, code


def test_a_code_without_english_is_refused_when_the_error_is_made():
    with pytest.raises(KeyError, match="no.such.code"):
        RuleError("no.such.code", n=1)
    with pytest.raises(KeyError, match="phrase.nothing"):
        RuleError("rule.within", where=Phrase("phrase.nothing"), error="x")


def test_a_param_the_template_names_but_the_raise_forgets_is_an_error_not_a_guess():
    with pytest.raises(KeyError, match="card"):
        RuleError("clumond.not_in_deck")


# --- facts, not English -------------------------------------------------------------


def test_not_a_card_carries_the_text_typed():
    error = refusal(parse_card, " 1S ")
    assert (error.code, error.params) == ("card.not_a_card", {"text": "1S"})
    assert str(error) == "'1S' is not a card"


def test_two_hands_holding_one_card_name_the_round_the_card_and_the_players():
    hands = {"Sam": {"public": ["10♦", "A♠"], "secret": ["K♠", "Q♠", "2♠"]},
             "Nick": {"public": ["10♦", "A♥"], "secret": ["K♥", "Q♥", "2♥"]}}
    error = refusal(tromplemond.check_hands, hands, the_round(2))
    assert str(error) == "round 3: 10♦ is in both Sam's and Nick's hands"
    assert error.code == "rule.within"
    assert error.params["where"] == Phrase("phrase.round", {"number": 3})
    inner = error.params["error"]
    assert inner.code == "tromplemond.card_in_hands"
    assert inner.params == {"card": "10♦", "owners": ("Sam", "Nick")}


def test_a_bid_out_of_turn_names_who_did_what_and_whose_turn_it_was():
    record = {"game": "tremp", "players": PLAYERS, "first_dealer": "Di",
              "rounds": [{"bids": [["Bo", "pass"]], "tricks": 7}]}
    error = refusal(tremp.replay, record)
    assert str(error) == "round 1: Bo passed out of turn; it was Ann's turn"
    assert error.code == "bid.out_of_turn"
    assert error.params == {"label": Phrase("phrase.round", {"number": 1}), "name": "Bo",
                            "did": Phrase("phrase.passed_word"), "turn": "Ann"}


def test_a_round_after_the_end_gives_numbers_not_words():
    rounds = [{"tricks": {"Ann": 5, "Bo": 4, "Cy": 4}, "declared": {"Ann": 3, "Bo": 3, "Cy": 3}}]
    record = {"game": "clumond", "players": ["Ann", "Bo", "Cy"], "options": {"rounds": 1},
              "rounds": rounds * 2}
    error = refusal(clumond.replay, record)
    assert str(error) == "round 2: the game already ended after round 1"
    assert error.code == "round.game_over"
    assert error.params == {"label": Phrase("phrase.round", {"number": 2}), "played": 1}


def test_a_field_is_a_phrase_with_the_player_in_it():
    raw = {"tricks": {"Ann": 5, "Bo": 4, "Cy": 4}, "declared": [3, 3, 3]}
    error = refusal(clumond.read_round, raw, ["Ann", "Bo", "Cy"], the_round(0))
    assert str(error) == ("round 1: declared must be an object giving each player's "
                          "declaration")
    assert error.params["what"] == Phrase("field.each_players_declaration")
    raw = {"tricks": {"Ann": 5, "Bo": 4, "Cy": "4"}}
    error = refusal(clumond.read_round, raw, ["Ann", "Bo", "Cy"], the_round(0))
    assert error.code == "number.not_whole"
    assert error.params == {"what": Phrase("field.tricks_of", {"label": the_round(0), "p": "Cy"}),
                            "value": "4"}


def test_a_pass_out_of_turn_is_said_from_the_pass_itself():
    bids = [["Bo", "pass"], ["Ann", "pass"]]
    record = {"game": "trumplestiltskin", "players": ["Ann", "Bo", "Cy"], "first_dealer": "Cy",
              "rounds": [{"bids": bids, "looked": [], "gnome": "9♥",
                          "points": {"Ann": 0, "Bo": 0, "Cy": 0}}]}
    error = refusal(ts.replay, record)
    assert str(error) == "round 1: Bo cannot pass out of turn: it is Ann's turn"
    inner = error.params["error"]
    assert inner.code == "trumplestiltskin.bid_out_of_turn"
    assert inner.params["said"] == Phrase("phrase.pass_word")


def test_a_list_of_names_stays_a_list():
    error = refusal(clumond.Offers, ("Ann", "Bo", "Cy"), ("Bo",))
    assert str(error) == "going for Clumond is asked in turn (Ann, Bo, Cy), not Bo"
    assert error.params == {"order": ("Ann", "Bo", "Cy"), "passed": ("Bo",)}


def test_the_english_check_finds_a_sentence_in_a_param():
    assert english_in("card.not_a_card", {"text": "10 of hearts"}) == []  # shown with !r
    assert english_in("rule.within", {"where": "round 2", "error": "x"}) == []
    assert english_in("rule.within", {"where": "round 2: the bids", "error": "x"}) == [
        "rule.within: where='round 2: the bids'"]
    assert english_in("clumond.kept_by_two", {"label": the_round(0), "card": "7♠",
                                              "holder": "Ann", "p": "the dealer"}) == [
        "clumond.kept_by_two: p='the dealer'"]


# --- still a ValueError, str-able and picklable ----------------------------------------


def test_a_rule_error_is_a_value_error_whose_text_is_its_english():
    error = RuleError("record.player_count", game="tremp", allowed=(4,), count=3)
    assert isinstance(error, ValueError)
    assert str(error) == error.args[0] == "tremp is for 4 players, not 3"
    assert say(error.code, error.params) == str(error)


@pytest.mark.parametrize("make", [
    lambda: refusal(parse_card, "1S"),
    lambda: RuleError("rule.within", where=the_round(4),
                      error=RuleError("tromplemond.card_in_hands", card="10♦",
                                      owners=("Sam", "Nick", "Bo"))),
    lambda: refusal(tromplemond.read_hand, "Sam", {"public": ["5♠", "A♠"],
                                                   "secret": ["K♠", "Q♠", "2♠"]}),
])
def test_a_rule_error_survives_pickling(make):
    error = make()
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error)
    assert str(again) == str(error) and facts(again) == facts(error)
    assert getattr(again, "card", None) == getattr(error, "card", None)


def test_a_hand_problem_still_names_its_card():
    error = refusal(tromplemond.read_hand, "Sam", {"public": ["5♠", "A♠"],
                                                   "secret": ["K♠", "Q♠", "2♠"]})
    assert str(error) == "5♠ in Sam's hand is not in the Tromplemond deck"
    assert error.card == "5♠"


def test_a_phrase_is_a_frozen_hashable_fact():
    phrase = the_round(2)
    assert str(phrase) == "round 3" and f"{phrase}!" == "round 3!"
    assert {phrase, the_round(2)} == {phrase}
    with pytest.raises(AttributeError):
        phrase.code = "phrase.this_hand"
