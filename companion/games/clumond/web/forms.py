"""Reading Clumond's forms: the options, a player's tricks and kept cards (or declared number),
and a corrected round. Each reader raises ``FormError`` (or the rules' ``RuleError``) with a
message for the player; nothing here writes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from companion.rules import RuleError
from companion.rules.cards import Rank
from companion.web import forms as shared
from companion.web.currencies import device_currency
from companion.web.forms import FormError, check_unit, example_amount, read_money, whole_number
from companion.web.words import say

from .. import rules

RANKS = (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE, Rank.EIGHT, Rank.SEVEN,
         Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO)
"""The ranks of the 48-card deck, highest first (no 10s)."""

DECK_ROWS: tuple[tuple[str, int, tuple[tuple[str, str], ...]], ...] = tuple(
    (str(suit), value, tuple((card.ascii, str(card)) for rank in RANKS
                             for card in rules.DECK if card.rank is rank and card.suit is suit))
    for suit, value in sorted(rules.SUIT_VALUE.items(), key=lambda item: -item[1])
)
"""The picker's rows, a suit each, by what a kept card of it declares (♣ 3, ♥ 2, ♠ 1, ♦ 0):
``(suit, value, ((code, card), …))``."""

TRICKS = tuple(range(rules.TRICKS + 1))
"""The tricks a player may win: the tiles of the tricks pad."""

DECLARATIONS = tuple(range(3 * max(rules.SUIT_VALUE.values()) + 1))
"""The numbers a declaration may be (0 to 9): the tiles of the declared-number pad."""

ENDS = ("rounds", "target", "either")
"""How the game ends: after N rounds, at a target stack, or whichever comes first."""

OPTION_FIELDS = ("stack", "ante", "ends", "rounds", "target", "chip_value", "unit")

HOW = ("cards", "number", "none")
"""How the tablet gives a player's declaration: the kept cards, the number, or not at all."""


def pads() -> dict[str, Any]:
    """The tiles of the pickers and pads, for the templates."""
    return {"deck_rows": DECK_ROWS, "trick_tiles": TRICKS, "number_tiles": DECLARATIONS,
            "trumps": rules.TRUMP_CHOICES}


def codes_of(cards: Any) -> list[str]:
    """The picker codes of cards as the record spells them (``K♥``: ``KH``)."""
    return [card.ascii for card in rules.pick(cards or ())]


# --------------------------------------------------------------------------- the options


def example_chip_value(unit: str) -> str:
    """The chip value the options form shows as an example, in the currency first chosen:
    ``0.10`` in pounds (``0,10`` as French writes it), ``10`` in yen."""
    return example_amount(10, unit)


def _defaults(unit: str) -> dict[str, str]:
    """The options form as first drawn: the rules' defaults (the chips are not money)."""
    defaults = rules.DEFAULTS
    return {"stack": str(defaults["stack"]), "ante": str(defaults["ante"]), "ends": "rounds",
            "rounds": str(defaults["rounds"]), "target": "", "chip_value": "",
            "unit": unit if unit != "chips" else device_currency()}


def option_values(unit: str, form: Mapping[str, str] | None) -> dict[str, str]:
    """The options form's values: as sent, or the rules' defaults."""
    return shared.options_as_sent(OPTION_FIELDS, _defaults(unit), form)


def read_options(form: Mapping[str, str], unit: str) -> tuple[dict[str, Any], str | None]:
    """The record's options and the table's money unit from the start form.

    A blank chip value means the chips are not money: the table's unit is
    then left as it is (None). A field the form does not send takes its default.
    """
    form = shared.options_with_defaults(OPTION_FIELDS, _defaults(unit), form)
    ends = form.get("ends")
    if ends not in ENDS:
        raise FormError(_("Say how the game ends: after a number of rounds, at a target "
                          "stack, or whichever comes first"))
    options: dict[str, Any] = {
        "stack": whole_number(form.get("stack"), _l("The starting stack"), 0, 99_999),
        "ante": whole_number(form.get("ante"), _l("The ante"), 0, 9_999),
        "rounds": (whole_number(form.get("rounds"), _l("The number of rounds"), 1, 99)
                   if ends != "target" else None),
        "target": (whole_number(form.get("target"), _l("The target stack"), 1, 999_999)
                   if ends != "rounds" else None),
        "chip_value": None,
    }
    chosen = None
    if (form.get("chip_value") or "").strip():
        chosen = check_unit(form.get("unit"))
        if chosen == "chips":
            raise FormError(_("Pick the currency one chip is worth"))
        options["chip_value"] = read_money(form.get("chip_value"), chosen,
                                           _l("The value of one chip")) or None
    if options["chip_value"] is None:
        chosen = None
    rules.read_options(options)
    return options, chosen


# --------------------------------------------------------------------------- one player's round


def read_tricks(form: Mapping[str, str], player: str, name: str = "tricks") -> int | None:
    """A player's tricks from the tricks pad (None: not tapped)."""
    typed = form.get(name, "")
    if typed == "":
        return None
    return whole_number(typed, _("%(name)s's tricks", name=player), 0, rules.TRICKS)


def read_kept(form: MultiDict[str, str], player: str, name: str = "kept") -> list[str] | None:
    """A player's kept cards from the picker: none (None), or exactly 3 of the 48-card deck."""
    try:
        cards = rules.pick(form.getlist(name))
    except RuleError as error:
        raise FormError(_("%(name)s's kept cards: %(problem)s", name=player,
                          problem=say(error))) from None
    if not cards:
        return None
    if len(cards) != rules.KEPT:
        raise FormError(_("Pick %(kept)s kept cards (you picked %(count)s)", kept=rules.KEPT,
                          count=len(cards)))
    return [str(card) for card in cards]


def read_declared(form: Mapping[str, str], player: str, name: str = "declared") -> int:
    """A declared number from the number pad (0 to 9)."""
    if form.get(name, "") == "":
        raise FormError(_("Tap %(name)s's declared number (0 to %(top)s)", name=player,
                          top=DECLARATIONS[-1]))
    return whole_number(form.get(name), _("%(name)s's declared number", name=player), 0,
                        DECLARATIONS[-1])


def read_how(form: Mapping[str, str], name: str = "how") -> str:
    """How the declaration is given: ``cards``, ``number`` or ``none``."""
    how = form.get(name, "cards")
    if how not in HOW:
        raise FormError(_("Give the kept cards, the declared number, or neither"))
    return how


def read_phone_entry(form: MultiDict[str, str], player: str,
                     ) -> tuple[int | None, list[str] | None, None]:
    """What a phone saves: its tricks and its 3 kept cards (either may wait, not both)."""
    tricks = read_tricks(form, player)
    kept = read_kept(form, player)
    if tricks is None and kept is None:
        raise FormError(_("Tap your tricks and pick your %(kept)s kept cards", kept=rules.KEPT))
    return tricks, kept, None


def read_keeper_entry(form: MultiDict[str, str], player: str, prefix: str = "", *,
                      needed: bool = True,
                      ) -> tuple[int | None, list[str] | None, int | None]:
    """A player's round as the tablet gives it: tricks, and kept cards or a declared number.

    ``needed`` False: the player's declaration does not count this round (a declarer round,
    not the declarer: the rules' "only the declarer's declaration matters"), so no kept
    cards picked is tricks only, as the page says."""
    tricks = read_tricks(form, player, prefix + "tricks")
    how = read_how(form, prefix + "how")
    kept = declared = None
    if how == "cards":
        kept = read_kept(form, player, prefix + "kept")
        if kept is None and needed:
            raise FormError(_("Pick %(name)s's %(kept)s kept cards, or give the declared number "
                              "instead", name=player, kept=rules.KEPT))
    elif how == "number":
        declared = read_declared(form, player, prefix + "declared")
    return tricks, kept, declared


def entry_fields(player: str, tricks: int | None, kept: Any, declared: int | None,
                 prefix: str = "") -> dict[str, Any]:
    """A player's entry as form values (the pads' and the picker's ticks)."""
    if kept:
        how = "cards"
    elif declared is not None:
        how = "number"
    else:  # nothing given yet: the tablet starts on the cards; a past round says so
        how = "none" if prefix else "cards"
    return {"player": player, "prefix": prefix, "how": how,
            "tricks": "" if tricks is None else str(tricks), "kept": codes_of(kept),
            "declared": "" if declared is None else str(declared)}


def entry_fields_from_form(form: MultiDict[str, str], player: str,
                           prefix: str = "") -> dict[str, Any]:
    """A player's entry as it was sent (to show it again with a message)."""
    return {"player": player, "prefix": prefix, "how": form.get(prefix + "how", "cards"),
            "tricks": form.get(prefix + "tricks", ""), "kept": form.getlist(prefix + "kept"),
            "declared": form.get(prefix + "declared", "")}


# --------------------------------------------------------------------------- a past round


def read_round(form: MultiDict[str, str], players: list[str]) -> dict[str, Any]:
    """A corrected round from the correction form (FormError); the rules check it after."""
    declarer = form.get("declarer") or None
    if declarer is not None and declarer not in players:
        raise FormError(_("Pick who went for Clumond, or nobody"))
    trump = None
    if declarer is not None:
        try:
            trump = rules.read_trump(form.get("trump", ""))
        except RuleError as error:
            raise FormError(_("%(name)s went for Clumond: %(problem)s", name=declarer,
                              problem=say(error))) from None
    tricks: dict[str, int] = {}
    kept: dict[str, list[str]] = {}
    declared: dict[str, int] = {}
    for index, player in enumerate(players, 1):
        prefix = f"p{index}-"
        given, cards, number = read_keeper_entry(
            form, player, prefix, needed=declarer is None or declarer == player)
        if given is None:
            raise FormError(_("Tap %(name)s's tricks", name=player))
        tricks[player] = given
        if cards is not None:
            kept[player] = cards
        if number is not None:
            declared[player] = number
    return rules.round_record(players, declarer, trump, tricks, kept, declared)


def round_fields(players: list[str], facts: Mapping[str, Any]) -> dict[str, Any]:
    """The correction form's values from a round's facts."""
    kept, declared = facts.get("kept") or {}, facts.get("declared") or {}
    return {"declarer": facts.get("declarer") or "",
            "trump": "" if facts.get("trump") is None else rules.read_trump(facts["trump"]),
            "entries": [entry_fields(p, (facts.get("tricks") or {}).get(p), kept.get(p),
                                     declared.get(p), f"p{i}-")
                        for i, p in enumerate(players, 1)]}


def round_fields_from_form(players: list[str], form: MultiDict[str, str]) -> dict[str, Any]:
    """The correction form's values as they were sent."""
    return {"declarer": form.get("declarer", ""), "trump": form.get("trump", ""),
            "entries": [entry_fields_from_form(form, p, f"p{i}-")
                        for i, p in enumerate(players, 1)]}
