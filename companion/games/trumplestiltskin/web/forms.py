"""Reading Trumplestiltskin's forms: the options, a bid, the Gnome card and trump, points,
and a corrected hand. Each reader raises ``FormError`` (or the rules' ``RuleError``) with a
message for the player; nothing here writes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from companion.rules import RuleError
from companion.rules.cards import Card, parse_card
from companion.web import forms as shared
from companion.web.forms import MINUS, FormError, whole_number

from .. import rules

OPTION_FIELDS = ("target", "gnome_target")
SUIT_CHOICES: tuple[str, ...] = tuple(str(suit) for suit in rules.SUITS)
"""The four suits as the trump selects offer them."""
STEPS = {"-1": -1, "1": 1, "5": 5}
"""The bid stepper's buttons: −1, +1, +5."""
MOST_BID = 9999
"""The largest bid the form takes (the rules set no limit; a bid no hand can make fails)."""
MOST_POINTS = 999
"""The largest number the points field reads (the hand's limit is checked by the rules)."""
MOST_SPEECHES = 100
"""The correction form reads at most this many bids and passes."""


# --------------------------------------------------------------------------- the options


DEFAULT_VALUES = {name: str(rules.DEFAULTS[name]) for name in OPTION_FIELDS}
"""The options form as first drawn: the rules' defaults."""


def option_values(form: Mapping[str, str] | None) -> dict[str, str]:
    """The options form's values: as sent, or the rules' defaults."""
    return shared.options_as_sent(OPTION_FIELDS, DEFAULT_VALUES, form)


def read_options(form: Mapping[str, str]) -> dict[str, int]:
    """The record's options from the start form (a field left out takes its default)."""
    values = shared.options_with_defaults(OPTION_FIELDS, DEFAULT_VALUES, form)
    return {"target": whole_number(values["target"], _l("The target"), 1, MOST_BID),
            "gnome_target": whole_number(values["gnome_target"], _l("The Gnome's target"), 1,
                                         MOST_BID)}


# --------------------------------------------------------------------------- the bidding


def read_bid(form: Mapping[str, str]) -> int:
    """The bid typed, or (nothing typed) the stepper's: a whole number of at least 1."""
    typed = form.get("bid", "").strip()
    if re.fullmatch(r"[-\u2212]\s*\d+", typed):
        raise FormError(_("A bid is at least 1, not %(typed)s: bid a whole number of 1 or "
                          "more, or pass", typed=typed.replace('-', MINUS)))
    return whole_number(typed or form.get("proposal", ""), _("A bid"), 1, MOST_BID)


def typed_bid(form: Mapping[str, str]) -> int | None:
    """The bid typed or the stepper's, if it reads as one (to step from it)."""
    try:
        return read_bid(form)
    except FormError:
        return None


def read_step(form: Mapping[str, str]) -> int:
    """The stepper button tapped: −1, +1 or +5."""
    step = STEPS.get(form.get("adjust", ""))
    if step is None:
        raise FormError(_("Step the bid by −1, +1 or +5"))
    return step


# --------------------------------------------------------------------------- the Gnome


def read_gnome(text: object) -> Card:
    """The Gnome card picked: one of the six Blanket cards."""
    try:
        card = parse_card(text)
    except RuleError:
        raise FormError(_("Pick the Gnome card: 9♠, 9♥, 9♦, 9♣, the red joker or the black "
                          "joker")) from None
    if not rules.is_blanket(card):
        raise FormError(_("Pick the Gnome card: 9♠, 9♥, 9♦, 9♣, the red joker or the black "
                          "joker, not %(card)s", card=card))
    return card


# --------------------------------------------------------------------------- points


def read_points(form: Mapping[str, str]) -> int:
    """A player's points typed as a number."""
    return whole_number(form.get("points", ""), _("Points"), 0, MOST_POINTS)


# --------------------------------------------------------------------------- a past hand


def hand_fields(players: list[str], facts: Mapping[str, Any]) -> dict[str, Any]:
    """The correction form's values from a hand's facts (and a few empty rows to add bids)."""
    bids = list(facts.get("bids") or [])
    speeches = [{"index": i, "who": who, "said": _said(said)}
                for i, (who, said) in enumerate(bids, 1)]
    speeches += [{"index": i, "who": "", "said": ""}
                 for i in range(len(bids) + 1, len(bids) + len(players) + 1)]
    looked = facts.get("looked") or []
    points = facts.get("points") or {}
    return {
        "speeches": speeches,
        "players": [{"index": i, "player": p, "looked": p in looked,
                     "points": str(points.get(p, ""))} for i, p in enumerate(players, 1)],
        "gnome": facts.get("gnome") or "", "trump": facts.get("trump") or "",
    }


def _said(said: object) -> str:
    """A bid or a pass as the correction form shows it: the number, or "pass" in the
    device's language."""
    text = str(said).lower()
    return _("pass") if text == "pass" else text


def _is_pass(said: str) -> bool:
    """True for a pass typed in the correction form: "pass", or the device's word for it."""
    return said.lower() in ("pass", _("pass").lower())


def hand_fields_from_form(players: list[str], form: MultiDict[str, str]) -> dict[str, Any]:
    """The correction form's values as they were sent (to show them again with a message)."""
    speeches = [{"index": i, "who": form.get(f"who-{i}", ""), "said": form.get(f"said-{i}", "")}
                for i in range(1, MOST_SPEECHES + 1) if f"who-{i}" in form or f"said-{i}" in form]
    return {
        "speeches": speeches,
        "players": [{"index": i, "player": p, "looked": form.get(f"looked-{i}") == "on",
                     "points": form.get(f"points-{i}", "")} for i, p in enumerate(players, 1)],
        "gnome": form.get("gnome", ""), "trump": form.get("trump", ""),
    }


def read_hand(form: MultiDict[str, str], players: list[str]) -> dict[str, Any]:
    """A corrected hand from the correction form (FormError, RuleError).

    Blank rows of bids are skipped. Without a Gnome card the hand is one
    everyone passed: it keeps its bids, and who looked at the Gnome if anyone did.
    """
    bids: list[list[Any]] = []
    for i in range(1, MOST_SPEECHES + 1):
        who, said = form.get(f"who-{i}", ""), form.get(f"said-{i}", "").strip()
        if not who and not said:
            continue
        if who not in players:
            raise FormError(_("Bid %(number)s: pick who spoke", number=i))
        if _is_pass(said):
            bids.append([who, "pass"])
        else:
            bids.append([who, whole_number(said, _("Bid %(number)s (%(name)s): a bid or “pass”",
                                                   number=i, name=who), 1, MOST_BID)])
    looked = [p for i, p in enumerate(players, 1) if form.get(f"looked-{i}") == "on"]
    if not form.get("gnome"):
        return {"bids": bids, "looked": looked} if looked else {"bids": bids}
    card = read_gnome(form.get("gnome"))
    trump = rules.trump_for(card, form.get("trump") or None)
    return {
        "bids": bids,
        "looked": looked,
        "gnome": str(card), "trump": str(trump),
        "points": {p: whole_number(form.get(f"points-{i}", ""),
                                   _("%(name)s's points", name=p), 0, MOST_POINTS)
                   for i, p in enumerate(players, 1)},
    }
