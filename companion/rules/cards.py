"""Cards: values, parsing of every spelling players type, and formatting.

Three kinds of card are used by the five games:

- :class:`SuitCard` — a rank and a suit (``10♦``, ``K♠``; tarot courts
  ``P♠`` Page and ``N♠`` Knight);
- :class:`TarotTrump` — the tarot trumps ``I`` … ``XXI`` and the ``Fool`` (0);
- :class:`Joker` — ``red joker`` and ``black joker``.

>>> parse_card("10D"), parse_card("td"), parse_card("J♣"), parse_card("xxi")
(SuitCard('10♦'), SuitCard('10♦'), SuitCard('J♣'), TarotTrump('XXI'))
>>> str(parse_card("fool")), str(parse_card("Red Joker")), str(parse_card("ns"))
('Fool', 'red joker', 'N♠')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Union

from .errors import RuleError


class Suit(Enum):
    """The four suits, by their symbol."""

    SPADES = "♠"
    HEARTS = "♥"
    DIAMONDS = "♦"
    CLUBS = "♣"

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def colour(self) -> Colour:
        """The suit's colour."""
        return Colour.RED if self.is_red else Colour.BLACK

    @property
    def partner(self) -> Suit:
        """The other suit of the same colour (spades ↔ clubs, hearts ↔ diamonds)."""
        return _PARTNER[self]

    @property
    def letter(self) -> str:
        """The ASCII letter: S, H, D or C."""
        return _SUIT_LETTER[self]

    def __str__(self) -> str:
        return self.value


class Colour(Enum):
    """A card colour (for jokers and suits)."""

    RED = "red"
    BLACK = "black"


_PARTNER = {
    Suit.SPADES: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.HEARTS,
}
_SUIT_LETTER = {Suit.SPADES: "S", Suit.HEARTS: "H", Suit.DIAMONDS: "D", Suit.CLUBS: "C"}


class Rank(Enum):
    """A suit card's rank. ``P`` and ``N`` are the tarot Page and Knight."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    PAGE = "P"
    KNIGHT = "N"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def pip(self) -> int | None:
        """The number on a number card (2–10), None for aces and court cards."""
        return int(self.value) if self.value.isdigit() else None

    @property
    def is_court(self) -> bool:
        """Jack, Page, Knight, Queen or King."""
        return self in (Rank.JACK, Rank.PAGE, Rank.KNIGHT, Rank.QUEEN, Rank.KING)

    def __str__(self) -> str:
        return self.value


STANDARD_RANKS: tuple[Rank, ...] = (
    Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN, Rank.EIGHT,
    Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE,
)
"""The thirteen ranks of a standard deck, two up to ace."""

TAROT_RANKS: tuple[Rank, ...] = (
    Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN,
    Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.PAGE, Rank.KNIGHT, Rank.QUEEN, Rank.KING,
)
"""The fourteen ranks of a tarot suit."""

SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


@dataclass(frozen=True)
class SuitCard:
    """A card with a rank and a suit, e.g. ``10♦``."""

    rank: Rank
    suit: Suit

    def __post_init__(self) -> None:
        if not isinstance(self.rank, Rank) or not isinstance(self.suit, Suit):
            raise TypeError("SuitCard needs a Rank and a Suit")

    def __str__(self) -> str:
        return f"{self.rank.value}{self.suit.value}"

    def __repr__(self) -> str:
        return f"SuitCard('{self}')"

    @property
    def ascii(self) -> str:
        """The ASCII spelling, e.g. ``10D``."""
        return f"{self.rank.value}{self.suit.letter}"


_ROMAN = (
    "Fool", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI",
    "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI",
)


@dataclass(frozen=True)
class TarotTrump:
    """A tarot trump: ``number`` 1–21, or 0 for the Fool."""

    number: int

    def __post_init__(self) -> None:
        if not isinstance(self.number, int) or not 0 <= self.number <= 21:
            raise ValueError(f"a tarot trump is numbered 0 (the Fool) to 21, not {self.number!r}")

    @property
    def is_fool(self) -> bool:
        """True for the Fool."""
        return self.number == 0

    def __str__(self) -> str:
        return _ROMAN[self.number]

    def __repr__(self) -> str:
        return f"TarotTrump('{self}')"


@dataclass(frozen=True)
class Joker:
    """A red or black joker."""

    colour: Colour

    def __str__(self) -> str:
        return f"{self.colour.value} joker"

    def __repr__(self) -> str:
        return f"Joker('{self}')"


Card = Union[SuitCard, TarotTrump, Joker]  # noqa: UP007 - a runtime alias, isinstance-able

FOOL = TarotTrump(0)
RED_JOKER = Joker(Colour.RED)
BLACK_JOKER = Joker(Colour.BLACK)

_SUIT_SPELLINGS = {
    "♠": Suit.SPADES, "♤": Suit.SPADES, "S": Suit.SPADES,
    "♥": Suit.HEARTS, "♡": Suit.HEARTS, "H": Suit.HEARTS,
    "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS, "D": Suit.DIAMONDS,
    "♣": Suit.CLUBS, "♧": Suit.CLUBS, "C": Suit.CLUBS,
}
_RANK_SPELLINGS = {r.value: r for r in Rank} | {"T": Rank.TEN}
_ROMAN_LOOKUP = {name.upper(): i for i, name in enumerate(_ROMAN)}
_SUIT_CARD = re.compile(r"^(10|[2-9TJQKAPN])([♠♤♥♡♦♢♣♧SHDC])$")


def parse_card(text: object) -> Card:
    """Read one card in any spelling of ``docs/records.md`` ("Cards").

    Accepts ``10♦ 10D TD td``, ``J♣ jc``, the tarot ``I``…``XXI``, ``Fool``,
    ``P♠``/``N♠`` (Page/Knight), ``red joker``/``black joker``; case and
    spaces do not matter, and the emoji forms of the suit symbols are fine.
    Raises :class:`RuleError` for anything else.

    >>> parse_card(" 10 ♦ ")
    SuitCard('10♦')
    >>> parse_card("1S")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    RuleError: '1S' is not a card
    """
    if isinstance(text, SuitCard | TarotTrump | Joker):
        return text
    if not isinstance(text, str):
        raise RuleError("card.not_a_card", text=text)
    # U+FE0F/U+FE0E: the emoji/text presentation selectors phones add after ♥.
    squeezed = re.sub(r"[\s\ufe0f\ufe0e]+", "", text).upper()
    if squeezed in ("REDJOKER", "JOKERRED"):
        return RED_JOKER
    if squeezed in ("BLACKJOKER", "JOKERBLACK"):
        return BLACK_JOKER
    if squeezed in _ROMAN_LOOKUP:
        return TarotTrump(_ROMAN_LOOKUP[squeezed])
    match = _SUIT_CARD.match(squeezed)
    if match is None:
        raise RuleError("card.not_a_card", text=text.strip())
    return SuitCard(_RANK_SPELLINGS[match.group(1)], _SUIT_SPELLINGS[match.group(2)])


def parse_suit(text: object) -> Suit:
    """Read a suit: a symbol, a letter, or a name (``hearts``, ``Spades``).

    >>> parse_suit("♥"), parse_suit("c"), parse_suit("Diamonds")
    (<Suit.HEARTS: '♥'>, <Suit.CLUBS: '♣'>, <Suit.DIAMONDS: '♦'>)
    """
    if isinstance(text, Suit):
        return text
    if isinstance(text, str):
        squeezed = re.sub(r"[\s\ufe0f\ufe0e]+", "", text).upper()
        if squeezed in _SUIT_SPELLINGS:
            return _SUIT_SPELLINGS[squeezed]
        for suit in Suit:
            if squeezed in (suit.name, suit.name.rstrip("S")):
                return suit
    raise RuleError("card.not_a_suit", text=text)


def standard_deck() -> tuple[SuitCard, ...]:
    """The 52 cards of a standard deck, by suit then rank."""
    return tuple(SuitCard(rank, suit) for suit in SUITS for rank in STANDARD_RANKS)


def tarot_deck() -> tuple[Card, ...]:
    """The 78 cards of a tarot deck: the Fool, I–XXI, then four suits of 14."""
    trumps = tuple(TarotTrump(n) for n in range(22))
    return trumps + tuple(SuitCard(rank, suit) for suit in SUITS for rank in TAROT_RANKS)
