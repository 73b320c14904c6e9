"""The currencies a table may keep its money in, as the start form offers them, and the
device's own currency.

A table's unit is any currency in use by its ISO 4217 code (``NOK``, ``JPY``: the rules'
:func:`companion.rules.money.currencies`), or ``chips``. The start form's money select offers the
device's own currency first (the country its browser names in ``Accept-Language``:
``nb-NO`` → NOK, ``de-DE`` → EUR, ``en-US`` → USD, ``ja-JP`` → JPY), then the usual ones
(:data:`USUAL`), chips where the game offers them, then every other currency in use today
by its name in the device's language. One native select is what a phone does best: the
usual choice is at the top without typing, and any other is found by its name in the
list the phone scrolls, with no code to know.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache

from babel.core import get_global, parse_locale
from babel.numbers import get_currency_name, get_territory_currencies
from flask import has_request_context, request
from flask_babel import lazy_gettext as _l

from ..rules.money import CHIPS, currencies, is_unit
from .device import locale_name

FALLBACK = "GBP"
"""The currency of a device whose browser names no country that has one."""

USUAL: tuple[str, ...] = ("GBP", "EUR", "USD", "NOK", "SEK", "DKK", "CHF", "JPY")
"""The currencies the start form offers right after the device's own."""

CHIPS_NAME = _l("chips")
"""What the money select calls chips."""


def _parts(tag: str) -> tuple[str, str | None] | None:
    """A language tag's language and country (``nb-NO``: ``nb``, ``NO``); None for what is
    no tag (``*``)."""
    try:
        language, territory, _script, _variant = parse_locale(tag.replace("_", "-"), sep="-")
    except ValueError:
        return None
    return language.lower(), territory.upper() if territory else None


def _likely_territory(language: str) -> str | None:
    """The country a language is most likely spoken in (``nb``: ``NO``, ``ja``: ``JP``)."""
    likely = get_global("likely_subtags").get(language)
    if likely is None:
        return None
    try:
        return parse_locale(likely)[1]
    except ValueError:
        return None


def _tags() -> list[str]:
    """The request's ``Accept-Language`` tags, best first (none outside a request)."""
    if not has_request_context():
        return []
    return [tag for tag, _quality in request.accept_languages]


def currency_of(territory: str | None) -> str | None:
    """The currency a country uses today (``NO``: ``NOK``), if Babel knows one."""
    if not territory:
        return None
    found = [code for code in get_territory_currencies(territory) if is_unit(code)]
    return found[0] if found else None


def device_currency(fallback: str = FALLBACK) -> str:
    """The currency of the device making the request: that of the first country its
    browser's languages name (``en-US,nb-NO`` → USD), else of the country its first language
    is most likely spoken in (``de`` → EUR); ``fallback`` when none says one.

    >>> from flask import Flask
    >>> with Flask(__name__).test_request_context(headers={"Accept-Language": "nb-NO,en"}):
    ...     device_currency()
    'NOK'
    """
    parts = [found for found in map(_parts, _tags()) if found is not None]
    for territory in [territory for _language, territory in parts if territory] + [
            _likely_territory(language) for language, _territory in parts]:
        found = currency_of(territory)
        if found is not None:
            return found
    return fallback


def starting_unit(default: str) -> str:
    """The unit a new table starts in: chips for a game of chips, else the device's own
    currency (``default``, the game's, when the device names none)."""
    return default if default == CHIPS else device_currency(default)


@dataclass(frozen=True)
class UnitChoice:
    """One choice of the money select: its code and what it shows."""

    code: str
    label: str


@dataclass(frozen=True)
class UnitChoices:
    """The money select's choices: ``first`` at the top, then ``rest`` by name."""

    first: tuple[UnitChoice, ...]
    rest: tuple[UnitChoice, ...]

    @property
    def codes(self) -> tuple[str, ...]:
        """Every code offered, in the select's order."""
        return tuple(choice.code for choice in self.first + self.rest)


def _sort_key(text: str) -> str:
    """A label as a list by name sorts it: accents and case left aside (``écu`` by ``e``)."""
    plain = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in plain if not unicodedata.combining(ch)).casefold()


@cache
def _labels(locale: str) -> dict[str, str]:
    """Each currency in use's label in a language: its name and its code,
    ``Norwegian Krone (NOK)``."""
    return {code: f"{get_currency_name(code, locale=locale)} ({code})" for code in currencies()}


def unit_label(code: str) -> str:
    """A unit as the money select shows it: ``Norwegian Krone (NOK)``, ``chips``."""
    if code == CHIPS:
        return str(CHIPS_NAME)
    locale = locale_name()
    return _labels(locale).get(code) or f"{get_currency_name(code, locale=locale)} ({code})"


def unit_choices(chosen: str | None, *, chips: bool) -> UnitChoices:
    """The choices of the start form's money select: the device's currency, the usual
    ones, chips (when ``chips``), and ``chosen`` when it is none of these and no longer in
    use (an imported evening's); then every other currency in use, by its label."""
    top = [device_currency(), *USUAL]
    if chips:
        top.append(CHIPS)
    if chosen is not None and is_unit(chosen) and chosen not in top and chosen not in currencies():
        top.append(chosen)
    top = [code for code in dict.fromkeys(top) if chips or code != CHIPS]
    rest = sorted((code for code in currencies() if code not in top),
                  key=lambda code: _sort_key(unit_label(code)))
    return UnitChoices(tuple(UnitChoice(code, unit_label(code)) for code in top),
                       tuple(UnitChoice(code, unit_label(code)) for code in rest))


__all__ = ["FALLBACK", "USUAL", "UnitChoice", "UnitChoices", "currency_of", "device_currency",
           "starting_unit", "unit_choices", "unit_label"]
