"""Reading Tromplemond's forms: the options, a hand from the card picker or the quick form,
and a corrected round. Each reader raises ``FormError`` (or the rules' ``RuleError``) with a
message for the player; nothing here writes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from companion.rules import RuleError
from companion.rules.cards import SuitCard, parse_card
from companion.web import forms as shared
from companion.web.forms import FormError, check_unit, example_amount, read_money, whole_number
from companion.web.words import say

from .. import rules

DECK_ROWS: tuple[tuple[tuple[str, str], ...], ...] = tuple(
    tuple((c.ascii, str(c)) for c in rules.DECK if c.suit is suit)
    for suit in dict.fromkeys(c.suit for c in rules.DECK)
)
"""The 26 cards by suit, as (code, card) pairs (``KH``, ``K♥``): the card picker's rows."""
BY_CODE = {code: text for row in DECK_ROWS for code, text in row}

OPTION_FIELDS = ("unit", "joining_fee", "payout_winner", "payout_runner_up", "tromp_stake",
                 "rounds", "target")
QUICK_FIELDS = ("points", "public_jacks", "secret_jacks")


def codes_of(cards: Any) -> list[str]:
    """The picker codes of cards as a record spells them (``K♥`` or ``kh``: ``KH``)."""
    codes = []
    for text in cards or ():
        try:
            card = parse_card(text)
        except RuleError:
            continue
        if isinstance(card, SuitCard):
            codes.append(card.ascii)
    return codes


# --------------------------------------------------------------------------- the options


def read_options(form: Mapping[str, str], unit: str) -> tuple[str, dict[str, Any]]:
    """The money unit and the record's options from the start form (FormError, RuleError).

    A field the form does not send takes its default (``unit``: the table's).
    """
    form = shared.options_with_defaults(OPTION_FIELDS, _defaults(unit), form)
    unit = check_unit(form.get("unit"))
    fee = read_money(form.get("joining_fee"), unit, _l("The joining fee"))
    stake = read_money(form.get("tromp_stake"), unit, _l("The TROMP! stake"))
    winner = whole_number(form.get("payout_winner"), _l("The winner's share"), 0, 100)
    runner_up = whole_number(form.get("payout_runner_up"), _l("The runner-up's share"), 0, 100)
    options = {
        "joining_fee": fee, "payout": [winner, runner_up], "tromp_stake": stake,
        "rounds": whole_number(form.get("rounds"), _l("The number of rounds"), 1, 99),
        "target": whole_number(form.get("target"), _l("The target"), 1, 9999),
    }
    rules.read_options(options)
    return unit, options


def option_values(unit: str, form: Mapping[str, str] | None) -> dict[str, str]:
    """The options form's values: as sent, or the rules' defaults."""
    return shared.options_as_sent(OPTION_FIELDS, _defaults(unit), form)


def example_amounts(unit: str) -> dict[str, str]:
    """The amounts the options form shows as examples, in the unit first chosen: ``2.50`` and
    ``0.50`` in pounds (``2,50`` as French writes it), ``250`` and ``50`` in yen."""
    return {"fee": example_amount(250, unit), "stake": example_amount(50, unit)}


def _defaults(unit: str) -> dict[str, str]:
    """The options form as first drawn: the rules' defaults."""
    defaults = rules.DEFAULTS
    return {"unit": unit, "joining_fee": "", "tromp_stake": "",
            "payout_winner": str(defaults["payout"][0]),
            "payout_runner_up": str(defaults["payout"][1]),
            "rounds": str(defaults["rounds"]), "target": str(defaults["target"])}


# --------------------------------------------------------------------------- hands


def _picked(form: MultiDict[str, str], name: str, size: int, face_up: bool) -> list[str]:
    cards = []
    for code in form.getlist(name):
        if code not in BY_CODE:
            raise FormError(_("%(code)s is not a card of the Tromplemond deck",
                              code=repr(code[:6])))
        cards.append(BY_CODE[code])
    if len(cards) != size:
        if face_up:
            raise FormError(_("Pick %(size)s face-up cards (you picked %(count)s)",
                              size=size, count=len(cards)))
        raise FormError(_("Pick %(size)s face-down cards (you picked %(count)s)",
                          size=size, count=len(cards)))
    return cards


def _checked(hand: dict[str, Any], player: str) -> dict[str, Any]:
    try:
        rules.read_hand(player, hand)
    except RuleError as error:
        raise FormError(say(error)) from None
    return hand


def read_picker(form: MultiDict[str, str], player: str, prefix: str = "") -> dict[str, Any]:
    """A full hand from the card picker: 2 face-up and 3 face-down cards (FormError)."""
    return _checked({"public": _picked(form, prefix + "public", rules.PUBLIC_CARDS, True),
                     "secret": _picked(form, prefix + "secret", rules.SECRET_CARDS, False)},
                    player)


def read_quick(form: Mapping[str, str], player: str, prefix: str = "") -> dict[str, Any]:
    """A hand in the quick form: points, jacks on show, jacks in the back row (FormError)."""
    return _checked({
        "points": whole_number(form.get(prefix + "points"),
                               _("%(name)s's points", name=player), 0, 48),
        "public_jacks": whole_number(form.get(prefix + "public_jacks") or "0",
                                     _("%(name)s's jacks on show", name=player), 0,
                                     rules.PUBLIC_CARDS),
        "secret_jacks": whole_number(form.get(prefix + "secret_jacks") or "0",
                                     _("%(name)s's jacks in the back row", name=player), 0,
                                     rules.SECRET_CARDS),
    }, player)


def read_hand(form: MultiDict[str, str], player: str, prefix: str = "") -> dict[str, Any] | None:
    """A hand the way the form says it was entered: ``how`` is cards, quick or none."""
    how = form.get(prefix + "how", "cards")
    if how == "cards":
        return read_picker(form, player, prefix)
    if how == "quick":
        return read_quick(form, player, prefix)
    if how in ("none", "clear"):
        return None
    raise FormError(_("Enter the cards, the quick form, or clear the hand"))


def hand_fields(hand: Mapping[str, Any] | None, prefix: str = "") -> dict[str, Any]:
    """A hand's form values (the picker's ticks and the quick fields) from its record form."""
    hand = hand or {}
    how = "none" if not hand else "quick" if "points" in hand else "cards"
    return {"prefix": prefix, "how": how, "public": codes_of(hand.get("public")),
            "secret": codes_of(hand.get("secret")),
            **{k: str(hand.get(k, "")) for k in QUICK_FIELDS}}


def hand_fields_from_form(form: MultiDict[str, str], prefix: str = "") -> dict[str, Any]:
    """A hand's form values as they were sent (to show them again with a message)."""
    return {"prefix": prefix, "how": form.get(prefix + "how", "cards"),
            "public": form.getlist(prefix + "public"), "secret": form.getlist(prefix + "secret"),
            **{k: form.get(prefix + k, "") for k in QUICK_FIELDS}}


# --------------------------------------------------------------------------- a past round


def read_round(form: MultiDict[str, str], players: list[str],
               old: Mapping[str, Any]) -> dict[str, Any]:
    """A corrected round from the correction form (FormError)."""
    hands = {}
    for index, player in enumerate(players, 1):
        hand = read_hand(form, player, f"h{index}-")
        if hand is not None:
            hands[player] = hand
    off = form.get("off", "")
    if off not in players:
        raise FormError(_("Pick the player who went off"))
    early = form.get("shown_early") == "on"
    facts: dict[str, Any] = {
        "hands": hands, "voted_off": None if early else off,
        "shown_early": off if early else None,
        "dealer_forfeit": form.get("dealer_forfeit") == "on",
        "called": [p for i, p in enumerate(players, 1) if form.get(f"called-{i}") == "on"],
    }
    if "cut_winner" in old or form.get("cut_winner"):
        cut = form.get("cut_winner") or None
        if cut is not None and cut not in players:
            raise FormError(_("Pick the winner of the card cut"))
        facts["cut_winner"] = cut
    return facts


def round_fields(players: list[str], facts: Mapping[str, Any]) -> dict[str, Any]:
    """The correction form's values from a round's facts."""
    hands = facts.get("hands") or {}
    shown = facts.get("shown_early")
    return {
        "hands": [{"index": i, "player": p, "called": p in (facts.get("called") or []),
                   **hand_fields(hands.get(p), f"h{i}-")} for i, p in enumerate(players, 1)],
        "off": shown or facts.get("voted_off"), "shown_early": shown is not None,
        "dealer_forfeit": bool(facts.get("dealer_forfeit")), "cut": facts.get("cut_winner"),
        "has_cut": "cut_winner" in facts}


def round_fields_from_form(players: list[str], form: MultiDict[str, str]) -> dict[str, Any]:
    """The correction form's values as they were sent."""
    return {
        "hands": [{"index": i, "player": p, "called": form.get(f"called-{i}") == "on",
                   **hand_fields_from_form(form, f"h{i}-")} for i, p in enumerate(players, 1)],
        "off": form.get("off"), "shown_early": form.get("shown_early") == "on",
        "dealer_forfeit": form.get("dealer_forfeit") == "on",
        "cut": form.get("cut_winner") or None, "has_cut": "cut_winner" in form}
