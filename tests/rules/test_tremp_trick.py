"""Tremp's trick judge: who wins a trick, and the rule that decided.

The judge is held against the written conditions ("Who wins a trick" in
companion/games/tremp/texts/en.md) encoded again here, plainly and on card texts, so that
a slip in the rules layer's card model or ordering cannot hide in both.
"""

from __future__ import annotations

import doctest
import itertools
from functools import reduce

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.tremp import rules as tremp
from companion.games.tremp.rules import Reason, Step, TrickResult, beats, trick_winner
from companion.rules import RuleError
from companion.rules.cards import Suit, SuitCard, parse_card, standard_deck

DECK = [str(c) for c in standard_deck()]
SUIT_SYMBOLS = "♠♥♦♣"

# --- the written conditions, encoded independently ------------------------------------

LOW_TO_HIGH = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
SAME_COLOUR = {"♠": "♣", "♣": "♠", "♥": "♦", "♦": "♥"}
CONDITION = {1: Reason.HIGHER, 2: Reason.OVER_TREMP, 3: Reason.TREMP_OVER_TRUMP,
             4: Reason.ACE_OVER_KING, 5: Reason.TRUMP}


def written_conditions(card: str, winning: str, trump: str) -> list[int]:
    """The numbers of the conditions that hold when ``card`` is played on ``winning``."""
    rank, suit = card[:-1], card[-1]
    w_rank, w_suit = winning[:-1], winning[-1]
    tremp_suit = SAME_COLOUR[trump]
    holds = {
        1: suit == w_suit and LOW_TO_HIGH.index(rank) > LOW_TO_HIGH.index(w_rank),
        2: suit != tremp_suit and w_suit == tremp_suit,
        3: suit == tremp_suit and w_suit == trump,
        4: rank == "A" and winning == "K" + suit,
        5: suit == trump and w_suit != trump,
    }
    return [n for n, held in holds.items() if held]


def test_every_ordered_pair_of_cards_under_every_trump_follows_the_written_conditions():
    judged = 0
    for trump in SUIT_SYMBOLS:
        for card, winning in itertools.permutations(DECK, 2):
            held = written_conditions(card, winning, trump)
            expected = CONDITION[held[0]] if held else None
            assert beats(card, winning, trump) is expected, (card, winning, trump)
            judged += 1
    assert judged == 4 * 52 * 51


def test_only_a_trump_on_tremp_meets_two_conditions_and_the_first_is_named():
    for trump in SUIT_SYMBOLS:
        double = [(c, w) for c, w in itertools.permutations(DECK, 2)
                  if len(written_conditions(c, w, trump)) > 1]
        assert len(double) == 13 * 13
        assert all(c[-1] == trump and w[-1] == SAME_COLOUR[trump] for c, w in double)
        assert {beats(c, w, trump) for c, w in double} == {Reason.OVER_TREMP}


def test_the_reasons_are_the_written_conditions_in_order():
    assert [r.condition for r in Reason] == [None, 1, 2, 3, 4, 5]
    assert Reason.LED.rule == "led and never beaten"
    assert [r.rule for r in Reason if r.condition] == [
        "a higher card of the same suit beats a lower one",
        "any other suit beats tremp",
        "tremp beats trump",
        "an ace beats the king of its suit",
        "trump beats any other suit",
    ]


# --- the worked lines of the rules ----------------------------------------------------

WORKED_LINES = [
    # Trump ♥, tremp ♦: K♠ A♠ 2♦ 3♥ — the fourth card wins.
    (["K♠", "A♠", "2♦", "3♥"], "♥", 3, [Reason.ACE_OVER_KING, None, Reason.TRUMP],
     ["A♠ beats K♠: an ace beats the king of its suit",
      "2♦ does not beat A♠: tremp beats only trump",
      "3♥ beats A♠: trump beats any other suit"]),
    # Trump ♠, tremp ♣: 5♠ 2♣ 9♥ 4♥ — the third card wins.
    (["5♠", "2♣", "9♥", "4♥"], "♠", 2, [Reason.TREMP_OVER_TRUMP, Reason.OVER_TREMP, None],
     ["2♣ beats 5♠: tremp beats trump",
      "9♥ beats 2♣: any other suit beats tremp",
      "4♥ does not beat 9♥: it is lower in the same suit"]),
]


@pytest.mark.parametrize("cards, trump, index, reasons, explanation", WORKED_LINES)
def test_the_worked_lines_of_the_rules(cards, trump, index, reasons, explanation):
    result = trick_winner(cards, trump)
    assert (result.index, str(result.card), result.reason) == (index, cards[index],
                                                               reasons[index - 1])
    assert result.trump is Suit(trump) and result.tremp is Suit(SAME_COLOUR[trump])
    assert [s.reason for s in result.steps] == reasons
    assert list(result.explanation) == explanation
    assert result.sentence == explanation[index - 1]
    assert result.beaten == result.steps[index - 1].against


def test_the_issue_example_sentence():
    result = trick_winner(["K♥", "A♥", "Q♦", "J♦"], "♠")
    assert (result.index, result.sentence) == (
        1, "A♥ beats K♥: an ace beats the king of its suit")


# --- the judge is one left fold of the pairwise rule ----------------------------------

def spellings(card: str) -> list[object]:
    """Ways a player or a page may hand the judge one card."""
    parsed = parse_card(card)
    assert isinstance(parsed, SuitCard)
    ascii_text = parsed.ascii
    ways: list[object] = [card, parsed, ascii_text, ascii_text.lower(), f" {card} "]
    if ascii_text.startswith("10"):
        ways.append("T" + ascii_text[2:])
    return ways


TRUMP_SPELLINGS = {
    "♠": ["♠", "S", "s", "spades", "Spade", Suit.SPADES],
    "♥": ["♥", "H", "h", "hearts", "Heart", Suit.HEARTS],
    "♦": ["♦", "D", "d", "diamonds", "DIAMOND", Suit.DIAMONDS],
    "♣": ["♣", "C", "c", "clubs", "Club", Suit.CLUBS],
}


def fold(cards: list[str], trump: str) -> tuple[int, Reason]:
    """The card led wins, unless a later card beats the card winning at that moment."""
    def step(best: tuple[int, Reason], k: int) -> tuple[int, Reason]:
        reason = beats(cards[k], cards[best[0]], trump)
        return best if reason is None else (k, reason)
    return reduce(step, range(1, len(cards)), (0, Reason.LED))


@given(st.permutations(DECK).map(lambda cards: cards[:4]),
       st.sampled_from(SUIT_SYMBOLS), st.data())
def test_the_judge_is_a_left_fold_of_the_pairwise_rule(cards, trump, data):
    written = [data.draw(st.sampled_from(spellings(c))) for c in cards]
    trump_as = data.draw(st.sampled_from(TRUMP_SPELLINGS[trump]))
    result = trick_winner(written, trump_as)
    assert (result.index, result.reason) == fold(cards, trump)
    assert [str(c) for c in result.cards] == cards
    assert result.trump is Suit(trump)
    # Each later card is held against the card winning at that moment, and only that card.
    winning = 0
    for k, step in enumerate(result.steps, start=1):
        assert (step.index, str(step.card), step.against) == (k, cards[k], result.cards[winning])
        assert step.reason is beats(cards[k], cards[winning], trump)
        if step.reason is not None:
            winning = k
    assert winning == result.index
    assert result.card == result.cards[result.index]
    assert result.beaten == (result.steps[result.index - 1].against if result.index else None)
    assert result == trick_winner(cards, trump)


# --- sentences ------------------------------------------------------------------------

@pytest.mark.parametrize("cards, trump, line", [
    (["A♥", "2♥", "J♠", "Q♠"], "♠", "2♥ beats A♥: a higher card of the same suit beats a "
                                     "lower one (A is low)"),
    (["K♥", "A♥", "J♠", "Q♠"], "♠", "A♥ beats K♥: an ace beats the king of its suit"),
    (["A♥", "K♥", "J♠", "Q♠"], "♠", "K♥ beats A♥: a higher card of the same suit beats a "
                                     "lower one (A is low)"),
    (["9♥", "10♥", "J♠", "Q♠"], "♠", "10♥ beats 9♥: a higher card of the same suit beats a "
                                      "lower one"),
    (["9♥", "A♥", "J♠", "Q♠"], "♠", "A♥ does not beat 9♥: it is lower in the same suit "
                                     "(A is low)"),
    (["9♥", "2♦", "J♠", "Q♠"], "♥", "2♦ beats 9♥: tremp beats trump"),
    (["9♠", "2♦", "J♠", "Q♠"], "♦", "2♦ beats 9♠: trump beats any other suit"),
    (["9♥", "2♦", "J♠", "Q♠"], "♦", "2♦ beats 9♥: any other suit beats tremp"),
    (["9♥", "2♠", "J♠", "Q♠"], "♥", "2♠ does not beat 9♥: from another suit, only tremp "
                                     "beats trump"),
    (["9♥", "2♦", "J♠", "Q♠"], "♣", "2♦ does not beat 9♥: from another suit, only trump "
                                     "beats it"),
    (["9♥", "2♣", "J♠", "Q♠"], "♠", "2♣ does not beat 9♥: tremp beats only trump"),
])
def test_each_kind_of_step_reads_as_a_sentence(cards, trump, line):
    assert trick_winner(cards, trump).explanation[0] == line


def test_a_card_led_and_never_beaten():
    result = trick_winner(["Q♣", "J♣", "3♣", "A♣"], "♦")
    assert (result.index, result.reason, result.beaten) == (0, Reason.LED, None)
    assert result.sentence == "Q♣ was led and never beaten"
    assert all(step.reason is None for step in result.steps)


def test_judging_does_not_police_following_suit():
    # Hearts led, spades (trump) played by a player who may still hold hearts: it wins.
    assert trick_winner(["2♥", "3♠", "4♥", "5♥"], "♠").index == 1


# --- refusals -------------------------------------------------------------------------

@pytest.mark.parametrize("cards, message", [
    (["K♠", "A♠", "2♦"], "a trick is 4 cards, one from each player, not 3"),
    (["K♠", "A♠", "2♦", "3♥", "4♥"], "a trick is 4 cards, one from each player, not 5"),
    ("K♠ A♠ 2♦ 3♥", "a trick is a list of 4 cards in the order played"),
    (None, "a trick is a list of 4 cards in the order played, not None"),
    (["K♠", "1S", "2♦", "3♥"], "card 2 of the trick: '1S' is not a card"),
    (["K♠", "A♠", 7, "3♥"], "card 3 of the trick: 7 is not a card"),
    (["P♠", "A♠", "2♦", "3♥"], "card 1 of the trick: P♠ is not a card of a standard 52-card"),
    (["K♠", "A♠", "2♦", "red joker"], "card 4 of the trick: red joker is not a card of a "
                                      "standard"),
    (["K♠", "XXI", "2♦", "3♥"], "card 2 of the trick: XXI is not a card of a standard"),
    (["K♠", "A♠", "ks", "3♥"], r"K♠ is played twice in the trick \(cards 1 and 3\)"),
])
def test_a_trick_that_is_not_four_different_standard_cards_is_refused(cards, message):
    with pytest.raises(RuleError, match=message):
        trick_winner(cards, "♥")


@pytest.mark.parametrize("trump", ["none", "no trumps", "X", None, 3, "red joker"])
def test_a_trump_that_is_not_a_suit_is_refused(trump):
    with pytest.raises(RuleError, match=r"the trump must be a suit \(♠ ♥ ♦ ♣\), not "):
        trick_winner(["K♠", "A♠", "2♦", "3♥"], trump)


@pytest.mark.parametrize("card, winning, trump, message", [
    ("K♥", "kh", "♠", "K♥ cannot be played against itself"),
    ("N♥", "K♥", "♠", "the card played: N♥ is not a card of a standard 52-card deck"),
    ("K♥", "Fool", "♠", "the winning card: Fool is not a card of a standard 52-card deck"),
    ("K♥", "A♥", "trumps", "the trump must be a suit"),
])
def test_the_pairwise_rule_refuses_what_is_not_a_play(card, winning, trump, message):
    with pytest.raises(RuleError, match=message):
        beats(card, winning, trump)


def test_a_result_built_directly_is_checked_too():
    cards = tuple(parse_card(c) for c in ("K♠", "A♠", "2♦", "3♥"))
    assert TrickResult(cards, Suit.HEARTS).index == 3
    for bad in (list(cards), cards[:3], cards[:3] + (parse_card("XXI"),)):
        with pytest.raises(RuleError, match="a trick is 4 cards of a standard 52-card deck"):
            TrickResult(bad, Suit.HEARTS)  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="the trump must be a suit, not '♥'"):
        TrickResult(cards, "♥")  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="A♠ is played twice"):
        TrickResult(cards[:3] + (cards[1],), Suit.HEARTS)


@pytest.mark.parametrize("index", [0, 4])
def test_a_step_is_a_later_card_of_the_trick(index):
    with pytest.raises(RuleError, match=f"card 2 to 4, not card {index + 1}"):
        Step(index, parse_card("A♠"), parse_card("K♠"), Suit.HEARTS)


def test_results_are_frozen_values():
    result = trick_winner(["K♠", "A♠", "2♦", "3♥"], "H")
    with pytest.raises(AttributeError):
        result.index = 0  # type: ignore[misc]
    assert hash(result) == hash(trick_winner(("ks", "as", "2d", "3h"), Suit.HEARTS))


# --- the examples in the docstrings ---------------------------------------------------

@pytest.mark.parametrize("obj", [tremp.trick_winner, tremp.beats, tremp.Step,
                                 tremp.Reason.condition, tremp.Reason.rule])
def test_the_docstring_examples_hold(obj):
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = finder.find(obj, name=getattr(obj, "__qualname__", "doc"),
                        globs=vars(tremp).copy())
    assert tests and any(t.examples for t in tests)
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
