"""Reading Tremp's forms: the options, a displayed card, the tricks, a tap of the trick
counter, a trick for the judge, and a corrected hand. Each reader raises ``FormError``
with a message for the player; nothing here writes."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _

from companion.rules import RuleError
from companion.rules.cards import SUITS, Suit, SuitCard, parse_card, parse_suit
from companion.rules.common import left_of
from companion.web.forms import FormError, whole_number

from .. import rules

DECK: tuple[SuitCard, ...] = tuple(SuitCard(rank, suit) for suit in SUITS
                                   for rank in rules.LOW_TO_HIGH)
"""The 52 cards by suit, each suit in Tremp's order (A low … K): the pickers' tiles."""

DECK_ROWS: tuple[tuple[SuitCard, ...], ...] = tuple(
    tuple(card for card in DECK if card.suit is suit) for suit in SUITS)
"""The pickers' rows: one suit each."""

BY_CODE: dict[str, SuitCard] = {card.ascii: card for card in DECK}
"""A card by its picker code (``KS``, ``10H``)."""

PASS_WORDS = frozenset({"pass", "p", "-", "\u2013", "\u2014"})
"""What the correction form reads as a pass (and the device's word for it)."""


# --------------------------------------------------------------------------- the options


def read_options(form: Mapping[str, str]) -> dict[str, Any]:
    """The record's options from the start form: ``beginners`` (every match to 136) when ticked.

    Left out otherwise: the record then takes the rules' default.
    """
    return {"beginners": True} if form.get("beginners") == "on" else {}


# --------------------------------------------------------------------------- the bidding


def read_card(form: Mapping[str, str]) -> SuitCard:
    """The card a player displays, picked from the 52-card picker (FormError)."""
    code = form.get("card", "")
    if not code:
        raise FormError(_("Pick the card you display first, then tap Display"))
    card = BY_CODE.get(code)
    if card is None:
        raise FormError(_("%(code)s is not a card of a 52-card deck", code=repr(code[:6])))
    return card


def read_tricks(form: Mapping[str, str], team: str) -> int:
    """The tricks the bidding team took: a whole number from 0 to 13 (FormError)."""
    return whole_number(form.get("tricks"), _("The tricks taken by %(team)s", team=team), 0,
                        rules.TRICKS)


def read_position(form: Mapping[str, str], seats: int) -> int:
    """A seat tapped on the trick counter (FormError)."""
    return whole_number(form.get("winner"), _("The seat that won the trick"), 1, seats)


# --------------------------------------------------------------------------- the trick judge


def read_trick(args: Mapping[str, str], players: Sequence[str],
               trump: Suit | None) -> tuple[list[SuitCard], Suit | None, str | None]:
    """The judge page's query: the cards tapped so far (in order), trump, who led (FormError).

    ``trump`` is the hand's trump, taken when the query names none.
    """
    cards: list[SuitCard] = []
    for code in (args.get("cards") or "").split():
        card = BY_CODE.get(code)
        if card is None:
            raise FormError(_("%(code)s is not a card of a 52-card deck", code=repr(code[:6])))
        if card in cards:
            raise FormError(_("%(card)s is already in the trick", card=card))
        cards.append(card)
    if len(cards) > rules.TRICK_CARDS:
        raise FormError(_("A trick is %(cards)s cards, one from each player",
                          cards=rules.TRICK_CARDS))
    if args.get("trump"):
        try:
            trump = parse_suit(args["trump"])
        except RuleError:
            raise FormError(_("Trump is one of ♠ ♥ ♦ ♣")) from None
    lead = args.get("lead") or None
    if lead is not None and lead not in players:
        raise FormError(_("%(name)s is not a player at this table", name=repr(lead[:40])))
    return cards, trump, lead


def trick_query(cards: Sequence[SuitCard], trump: Suit | None, lead: str | None,
                ) -> dict[str, str]:
    """The judge page's query for a trick so far (the inverse of :func:`read_trick`)."""
    query = {"cards": " ".join(card.ascii for card in cards)}
    if trump is not None:
        query["trump"] = trump.letter
    if lead is not None:
        query["lead"] = lead
    return {k: v for k, v in query.items() if v}


# --------------------------------------------------------------------------- a past hand


def bids_text(bids: Sequence[Sequence[str]]) -> str:
    """A hand's bids as the correction form writes them: ``5♥ pass K♠ pass pass pass`` (a
    pass in the device's language)."""
    return " ".join(_("pass") if what.strip().lower() == "pass" else str(parse_card(what))
                    for _player, what in bids)


def read_bids_text(text: str, players: Sequence[str], first: str) -> list[list[str]]:
    """Bids typed in turn from ``first`` (a card, or pass) as the record's ``bids`` (FormError).

    >>> read_bids_text("5h pass KS, p p -", ["Rob", "Sam", "Nick", "Emily"], "Sam")
    [['Sam', '5♥'], ['Nick', 'pass'], ['Emily', 'K♠'], ['Rob', 'pass'], ['Sam', 'pass'], \
['Nick', 'pass']]
    """
    words = [w for w in re.split(r"[\s,;]+", text or "") if w]
    if not words:
        raise FormError(_("Type the bids in turn: a card to display it, or pass"))
    if len(words) > 4 * (rules.TRICKS + 1):
        raise FormError(_("That is %(count)s bids: more than a hand can hold", count=len(words)))
    passes = PASS_WORDS | {_("pass").lower()}
    entries = []
    for k, word in enumerate(words):
        player = left_of(players, first, k)
        if word.lower() in passes:
            entries.append([player, "pass"])
            continue
        try:
            card = parse_card(word)
        except RuleError:
            card = None
        if not isinstance(card, SuitCard) or card.ascii not in BY_CODE:
            raise FormError(_("Bid %(number)s (%(name)s): %(word)s is neither a card nor pass",
                              number=k + 1, name=player, word=repr(word[:10])))
        entries.append([player, str(card)])
    return entries


def read_hand(form: Mapping[str, str], players: Sequence[str],
              old: Mapping[str, Any]) -> dict[str, Any]:
    """A corrected hand: the bids in turn from the same first bidder, and the tricks."""
    first = old["bids"][0][0]
    bids = read_bids_text(form.get("bids", ""), players, first)
    tricks = whole_number(form.get("tricks"), _("The tricks taken by the bidders"), 0,
                          rules.TRICKS)
    return {"bids": bids, "tricks": tricks}


def hand_fields(facts: Mapping[str, Any]) -> dict[str, str]:
    """The correction form's values from a hand's facts."""
    return {"bids": bids_text(facts.get("bids") or []), "tricks": str(facts.get("tricks", ""))}


def hand_fields_from_form(form: Mapping[str, str]) -> dict[str, str]:
    """The correction form's values as they were sent (to show them again with a message)."""
    return {"bids": form.get("bids", ""), "tricks": form.get("tricks", "")}
