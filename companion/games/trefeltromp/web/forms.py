"""Reading Trefeltromp's forms: the options, an amount, and a corrected hand; the tarot
picker's cards. Each reader raises ``FormError`` (or the rules' ``RuleError``) with a
message for the player; nothing here writes."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from werkzeug.datastructures import MultiDict

from companion.rules import RuleError
from companion.rules.cards import SUITS, TarotTrump, tarot_deck
from companion.web import forms as shared
from companion.web.currencies import device_currency
from companion.web.forms import FormError, check_unit, read_money, whole_number
from companion.web.words import say, sentence  # (sentence: said here, its callers' name for it)

from .. import rules

__all__ = ["MAX_CHIPS", "PICKER", "TarotPicker", "hand_fields", "hand_fields_from_form",
           "option_values", "read_amount", "read_hand", "read_options", "sentence"]

MAX_CHIPS = 100_000
"""The most chips a typed amount (a bet, a buy, an option) may be."""

OPTION_FIELDS = ("unit", "ante", "stack", "limit", "chip_value")


# --------------------------------------------------------------------------- the options


def _defaults(unit: str) -> dict[str, str]:
    """The options form as first drawn: the rules' defaults, and the money a chip may be
    worth (the table's, or the device's own currency for a table in chips: the form's
    example, 0.05, is then taken as it stands)."""
    defaults = rules.DEFAULTS
    money = unit if unit != "chips" else device_currency()
    return {"unit": money, "ante": str(defaults["ante"]), "stack": str(defaults["stack"]),
            "limit": "", "chip_value": ""}


def option_values(unit: str, form: Mapping[str, str] | None) -> dict[str, str]:
    """The options form's values: as sent, or the rules' defaults."""
    return shared.options_as_sent(OPTION_FIELDS, _defaults(unit), form)


def read_options(form: Mapping[str, str], unit: str) -> tuple[str, dict[str, Any]]:
    """The money unit and the record's options from the start form (FormError, RuleError).

    A blank limit is no limit; a blank chip value leaves the chips out of the money.
    """
    form = shared.options_with_defaults(OPTION_FIELDS, _defaults(unit), form)
    unit = check_unit(form.get("unit"))
    limit = (form.get("limit") or "").strip()
    value = read_money(form.get("chip_value"), unit, _("The value of one chip"))
    if value and unit == "chips":
        raise FormError(_("Pick the currency a chip is worth, or leave the chip's value "
                          "blank"))
    options = {
        "ante": whole_number(form.get("ante"), _("The ante"), 0, MAX_CHIPS),
        "stack": whole_number(form.get("stack"), _("The starting stack"), 0, MAX_CHIPS),
        "limit": whole_number(limit, _("The limit on a bet or raise"), 1, MAX_CHIPS) if limit
        else None,
        "chip_value": value or None,
    }
    rules.read_options(options)
    return unit, options


def read_amount(form: Mapping[str, str], what: str) -> int:
    """An amount tapped (a chip button, ``amount``) or typed (``typed``, which wins).

    >>> read_amount({"amount": "10", "typed": " "}, "The raise"), read_amount({"typed": "7"}, "x")
    (10, 7)
    """
    typed = (form.get("typed") or "").strip()
    picked = typed or (form.get("amount") or "").strip()
    if not picked:
        raise FormError(_("%(what)s: tap an amount or type one", what=what))
    return whole_number(picked, what, 1, MAX_CHIPS)


# --------------------------------------------------------------------------- the tarot picker


@dataclass(frozen=True)
class TarotSuit:
    """One suit of the picker: its symbol, its letter, its name and its 14 cards."""

    symbol: str
    letter: str
    name: str
    """The suit's name, said in the device's language as the picker is drawn."""
    cards: tuple[str, ...]


@dataclass(frozen=True)
class TarotPicker:
    """The tarot picker: the trumps by numeral (the Fool first), then the suits."""

    trumps: tuple[str, ...]
    suits: tuple[TarotSuit, ...]

    @property
    def cards(self) -> tuple[str, ...]:
        """All 78 cards as the app writes them."""
        return self.trumps + tuple(card for suit in self.suits for card in suit.cards)


_SUIT_NAMES = {"♠": _l("swords"), "♥": _l("cups"), "♦": _l("coins"), "♣": _l("wands")}

PICKER = TarotPicker(
    trumps=tuple(str(card) for card in tarot_deck() if isinstance(card, TarotTrump)),
    suits=tuple(TarotSuit(str(suit), suit.letter, _SUIT_NAMES[str(suit)],
                          tuple(str(card) for card in tarot_deck()
                                if getattr(card, "suit", None) is suit))
                for suit in SUITS),
)
"""The 78 tarot cards as the reveal's picker lays them out."""


# --------------------------------------------------------------------------- a corrected hand

_ENTRY = re.compile(r"^(?P<verb>[A-Za-z]+)(?:\s+(?P<amount>\S+))?$")


def hand_fields(players: Sequence[str], facts: Mapping[str, Any]) -> dict[str, Any]:
    """The correction form's fields from a hand's facts (record form)."""
    buys = rules.bought(facts.get("buys") or [])
    calls = list(facts.get("calls") or [])
    shows = list(facts.get("shows") or [])
    leave = set(facts.get("leave") or [])
    return _paired({
        "buys": [{"index": i, "player": p, "value": str(buys.get(p, ""))}
                 for i, p in enumerate(players, 1)],
        "leave": [{"index": i, "player": p, "checked": p in leave}
                  for i, p in enumerate(players, 1)],
        "calls": [{"k": k, "name": stage.value,
                   "text": "\n".join(_entry_text(e) for e in (calls[k] if k < len(calls)
                                                              else []))}
                  for k, stage in enumerate(rules.BETTING_ROUNDS)],
        "shows": [{"k": k, "name": stage.value,
                   "cards": [{"index": i, "player": p,
                              "value": str((shows[k] if k < len(shows) else {}).get(p, ""))}
                             for i, p in enumerate(players, 1)]}
                  for k, stage in enumerate(rules.REVEALS)],
    })


def _paired(fields: dict[str, Any]) -> dict[str, Any]:
    """The fields with each betting round beside the reveal that follows it (``steps``)."""
    # The draw follows fyrsturkalla; each later betting round, a reveal.
    after = [None, *fields["shows"]]
    return fields | {"steps": [{"call": call, "show": show}
                               for call, show in zip(fields["calls"], after, strict=True)]}


def _entry_text(entry: Sequence[Any]) -> str:
    return " ".join(str(part) for part in entry)


def hand_fields_from_form(players: Sequence[str], form: MultiDict[str, str]) -> dict[str, Any]:
    """The correction form's fields as they were sent (to show them again with a message)."""
    return _paired({
        "buys": [{"index": i, "player": p, "value": form.get(f"buy-{i}", "")[:12]}
                 for i, p in enumerate(players, 1)],
        "leave": [{"index": i, "player": p, "checked": form.get(f"leave-{i}") == "on"}
                  for i, p in enumerate(players, 1)],
        "calls": [{"k": k, "name": stage.value, "text": form.get(f"call-{k}", "")[:4000]}
                  for k, stage in enumerate(rules.BETTING_ROUNDS)],
        "shows": [{"k": k, "name": stage.value,
                   "cards": [{"index": i, "player": p,
                              "value": form.get(f"show-{k}-{i}", "")[:12]}
                             for i, p in enumerate(players, 1)]}
                  for k, stage in enumerate(rules.REVEALS)],
    })


def _player_at_start(line: str, players: Sequence[str]) -> tuple[str, str] | None:
    """The player a line starts with (the longest name that fits), and the rest of it."""
    for name in sorted(players, key=len, reverse=True):
        if line[:len(name)].casefold() == name.casefold() and (
                len(line) == len(name) or line[len(name)].isspace()):
            return name, line[len(name):].strip()
    return None


def _read_call(text: str, players: Sequence[str], title: str) -> list[list[Any]]:
    entries: list[list[Any]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = " ".join(raw.split())
        if not line:
            continue
        found = _player_at_start(line, players)
        if found is None:
            raise FormError(_("%(title)s, line %(number)s: start with a player's name "
                              "(%(players)s), then check, bet N, raise N, call, fold or stay",
                              title=title, number=number, players=", ".join(players)))
        name, rest = found
        match = _ENTRY.match(rest)
        if match is None:
            raise FormError(_("%(title)s, line %(number)s: after %(name)s, write check, bet N, "
                              "raise N, call, fold or stay", title=title, number=number,
                              name=name))
        verb = match["verb"].lower()
        entry: list[Any] = [name, verb]
        if match["amount"] is not None:
            entry.append(whole_number(match["amount"], _(
                "%(title)s, line %(number)s: %(name)s's %(verb)s", title=title, number=number,
                name=name, verb=verb), 1, MAX_CHIPS))
        try:
            rules.Action.from_entry(entry)
        except RuleError as error:
            raise FormError(_("%(title)s, line %(number)s: %(error)s", title=title,
                              number=number, error=say(error))) from None
        entries.append(entry)
    return entries


def read_hand(form: MultiDict[str, str], players: Sequence[str]) -> dict[str, Any]:
    """A corrected hand from the form, in the record's form (FormError).

    Empty betting rounds and reveals at the end are left out (the hand ended
    early); the rules check the rest when the record is replayed.
    """
    buys = []
    for i, player in enumerate(players, 1):
        typed = form.get(f"buy-{i}", "").strip()
        if typed and typed != "0":
            buys.append([player, whole_number(typed, _("%(player)s's chips bought",
                                                         player=player), 1, MAX_CHIPS)])
    calls = [_read_call(form.get(f"call-{k}", ""), players, stage.value.capitalize())
             for k, stage in enumerate(rules.BETTING_ROUNDS)]
    while calls and not calls[-1]:
        calls.pop()
    shows: list[dict[str, str]] = []
    for k, stage in enumerate(rules.REVEALS):
        cards = {}
        for i, player in enumerate(players, 1):
            typed = form.get(f"show-{k}-{i}", "").strip()
            if typed:
                try:
                    cards[player] = str(rules.tarot_card(typed[:20]))
                except RuleError as error:
                    raise FormError(_("%(stage)s: %(player)s's card: %(error)s",
                                      stage=stage.value.capitalize(), player=player,
                                      error=say(error))) from None
        shows.append(cards)
    while shows and not shows[-1]:
        shows.pop()
    leave = [p for i, p in enumerate(players, 1) if form.get(f"leave-{i}") == "on"]
    return {"buys": buys, "leave": leave, "calls": calls, "shows": shows}
