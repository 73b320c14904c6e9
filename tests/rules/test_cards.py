"""Cards: every spelling in DESIGN.md parses, every card reads back, bad ones are refused."""

from __future__ import annotations

import pytest

from companion.rules.cards import (
    BLACK_JOKER,
    FOOL,
    RED_JOKER,
    STANDARD_RANKS,
    SUITS,
    TAROT_RANKS,
    Card,
    Colour,
    Joker,
    Rank,
    Suit,
    SuitCard,
    TarotTrump,
    parse_card,
    parse_suit,
    standard_deck,
    tarot_deck,
)
from companion.rules.errors import RuleError


def card(rank: Rank, suit: Suit) -> SuitCard:
    return SuitCard(rank, suit)


@pytest.mark.parametrize(("text", "wanted"), [
    ("10♦", card(Rank.TEN, Suit.DIAMONDS)),
    ("10D", card(Rank.TEN, Suit.DIAMONDS)),
    ("TD", card(Rank.TEN, Suit.DIAMONDS)),
    ("td", card(Rank.TEN, Suit.DIAMONDS)),
    ("10d", card(Rank.TEN, Suit.DIAMONDS)),
    ("jc", card(Rank.JACK, Suit.CLUBS)),
    ("J♣", card(Rank.JACK, Suit.CLUBS)),
    ("A♠", card(Rank.ACE, Suit.SPADES)),
    ("AS", card(Rank.ACE, Suit.SPADES)),
    ("KH", card(Rank.KING, Suit.HEARTS)),
    ("Q♦", card(Rank.QUEEN, Suit.DIAMONDS)),
    ("9♥", card(Rank.NINE, Suit.HEARTS)),
    ("2♦", card(Rank.TWO, Suit.DIAMONDS)),
    ("P♠", card(Rank.PAGE, Suit.SPADES)),
    ("N♥", card(Rank.KNIGHT, Suit.HEARTS)),
    ("ns", card(Rank.KNIGHT, Suit.SPADES)),
    ("XXI", TarotTrump(21)),
    ("xxi", TarotTrump(21)),
    ("I", TarotTrump(1)),
    ("iv", TarotTrump(4)),
    ("XIX", TarotTrump(19)),
    ("Fool", FOOL),
    ("fool", FOOL),
    ("red joker", RED_JOKER),
    ("Red Joker", RED_JOKER),
    ("black joker", BLACK_JOKER),
    ("BLACK JOKER", BLACK_JOKER),
    ("K♥️", card(Rank.KING, Suit.HEARTS)),  # emoji heart: U+2665 U+FE0F
    ("10\u2666\ufe0f", card(Rank.TEN, Suit.DIAMONDS)),
    (" 10 ♦ ", card(Rank.TEN, Suit.DIAMONDS)),
    ("A♤", card(Rank.ACE, Suit.SPADES)),
    ("3♡", card(Rank.THREE, Suit.HEARTS)),
])
def test_every_spelling_parses(text, wanted):
    assert parse_card(text) == wanted


def test_the_emoji_heart_really_carries_the_variation_selector():
    assert "K♥️" != "K♥" and parse_card("K♥️") == parse_card("K♥")


@pytest.mark.parametrize("deck", [standard_deck(), tarot_deck()], ids=["standard", "tarot"])
def test_every_card_formats_and_reads_back(deck):
    for each in deck:
        text = str(each)
        assert parse_card(text) == each
        assert parse_card(text.lower()) == each
        assert parse_card(text.upper()) == each
        if isinstance(each, SuitCard):
            assert parse_card(each.ascii) == each
            assert parse_card(each.ascii.lower()) == each
        assert repr(each).endswith(f"('{text}')")


def test_the_decks():
    standard = standard_deck()
    assert len(standard) == 52 and len(set(standard)) == 52
    tarot = tarot_deck()
    assert len(tarot) == 78 and len(set(tarot)) == 78
    assert sum(isinstance(c, TarotTrump) for c in tarot) == 22
    assert len(STANDARD_RANKS) == 13 and len(TAROT_RANKS) == 14 and len(SUITS) == 4
    assert all(isinstance(c, Card) for c in (*standard, *tarot, RED_JOKER, BLACK_JOKER))


def test_formatting():
    assert str(card(Rank.TEN, Suit.DIAMONDS)) == "10♦"
    assert card(Rank.TEN, Suit.DIAMONDS).ascii == "10D"
    assert str(TarotTrump(21)) == "XXI" and str(FOOL) == "Fool" and FOOL.is_fool
    assert not TarotTrump(1).is_fool
    assert str(RED_JOKER) == "red joker" and str(BLACK_JOKER) == "black joker"
    assert repr(RED_JOKER) == "Joker('red joker')"


def test_parsing_a_card_returns_it():
    each = card(Rank.ACE, Suit.CLUBS)
    assert parse_card(each) is each and parse_card(FOOL) is FOOL
    assert parse_card(RED_JOKER) is RED_JOKER


@pytest.mark.parametrize("text", ["1S", "11♥", "XXII", "joker", "", "A", "♠", "10X",
                                  "ZZ", "A♠♠", "jokers red", "0", "♥️"])
def test_bad_cards_are_refused_with_the_message(text):
    with pytest.raises(RuleError) as info:
        parse_card(text)
    assert str(info.value) == f"{text.strip()!r} is not a card"


@pytest.mark.parametrize("value", [None, 10, ["A♠"], 2.5])
def test_non_text_is_refused(value):
    with pytest.raises(RuleError, match="is not a card"):
        parse_card(value)


@pytest.mark.parametrize(("text", "suit"), [
    ("♠", Suit.SPADES), ("s", Suit.SPADES), ("Spades", Suit.SPADES), ("spade", Suit.SPADES),
    ("♥️", Suit.HEARTS), ("H", Suit.HEARTS), ("hearts", Suit.HEARTS), ("♡", Suit.HEARTS),
    ("♦", Suit.DIAMONDS), ("diamond", Suit.DIAMONDS), ("D", Suit.DIAMONDS),
    ("♣", Suit.CLUBS), ("Clubs", Suit.CLUBS), ("c", Suit.CLUBS),
    (Suit.CLUBS, Suit.CLUBS),
])
def test_parse_suit(text, suit):
    assert parse_suit(text) == suit


@pytest.mark.parametrize("text", ["purple", "", "none", None, 3, "♠♠"])
def test_bad_suits_are_refused(text):
    with pytest.raises(RuleError) as info:
        parse_suit(text)
    assert str(info.value) == f"{text!r} is not a suit"


def test_suit_properties():
    assert [s.is_red for s in SUITS] == [False, True, True, False]
    assert Suit.HEARTS.colour == Colour.RED and Suit.CLUBS.colour == Colour.BLACK
    assert {s: s.partner for s in SUITS} == {
        Suit.SPADES: Suit.CLUBS, Suit.CLUBS: Suit.SPADES,
        Suit.HEARTS: Suit.DIAMONDS, Suit.DIAMONDS: Suit.HEARTS}
    assert "".join(s.letter for s in SUITS) == "SHDC"
    assert str(Suit.HEARTS) == "♥"


def test_rank_properties():
    assert [r.pip for r in STANDARD_RANKS[:9]] == list(range(2, 11))
    assert Rank.ACE.pip is None and Rank.KING.pip is None
    assert {r for r in Rank if r.is_court} == {Rank.JACK, Rank.PAGE, Rank.KNIGHT, Rank.QUEEN,
                                               Rank.KING}
    assert str(Rank.TEN) == "10"


def test_cards_are_checked_at_construction():
    with pytest.raises(TypeError):
        SuitCard("A", Suit.SPADES)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="0 \\(the Fool\\) to 21, not 22"):
        TarotTrump(22)
    with pytest.raises(ValueError):
        TarotTrump(-1)
    assert Joker(Colour.RED) == RED_JOKER


def test_cards_are_frozen_and_hashable():
    each = card(Rank.ACE, Suit.SPADES)
    with pytest.raises(AttributeError):
        each.rank = Rank.KING  # type: ignore[misc]
    assert len({each, card(Rank.ACE, Suit.SPADES), FOOL, TarotTrump(0)}) == 2
