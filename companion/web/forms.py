"""Reading what players type: names, numbers, choices. Each helper raises
:class:`FormError` with a message for the player; views turn it into a 400."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from decimal import Decimal
from functools import cache

from babel.core import Locale, UnknownLocaleError, get_global
from babel.numbers import (
    format_currency,
    format_decimal,
    get_currency_precision,
    get_currency_symbol,
    get_territory_currencies,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from ..rules.games import GAMES, game_module
from ..rules.money import CHIPS, is_unit, minor_digits
from ..store import NAME_LENGTH, Seat
from .device import locale_name

MINUS = "\u2212"
"""The one minus sign every page writes (−, not the hyphen -)."""

MAX_SEATS = max(max(game_module(name).PLAYERS) for name in GAMES)
"""The most seats the app gives a table: the most players any game of the registry takes
(Trefeltromp's 19), so that each game's seat range on the new-table form is its rules'."""


class FormError(ValueError):
    """Something typed or picked that the app cannot take; the message says why.

    The message is said in the device's language: each is a whole sentence with
    placeholders, and the ``what`` the helpers below name (``"The stake"``) is the caller's,
    a plain str or a translated one (``_l("The stake")``)."""


def clean_name(text: object, what: str = _l("A name")) -> str | None:
    """A typed name: spaces tidied; ``None`` when blank.

    >>> clean_name("  Sam   Smith "), clean_name("   ")
    ('Sam Smith', None)
    >>> clean_name("x" * 41)  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    FormError: A name is at most 40 characters long
    """
    if text is None:
        return None
    if not isinstance(text, str):
        raise FormError(_("%(what)s must be text", what=what))
    name = " ".join(text.split())
    if not name:
        return None
    if len(name) > NAME_LENGTH:
        raise FormError(_("%(what)s is at most %(most)s characters long "
                          "(\u201c%(start)s\u2026\u201d is %(length)s)", what=what,
                          most=NAME_LENGTH, start=name[:NAME_LENGTH], length=len(name)))
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs") for ch in name):
        raise FormError(_("%(what)s may not hold control characters", what=what))
    return name


def required_name(text: object, what: str = _l("A name")) -> str:
    """A typed name that may not be blank."""
    name = clean_name(text, what)
    if name is None:
        raise FormError(_("%(what)s is empty: type one", what=what))
    return name


def same_name(a: str, b: str) -> bool:
    """True for names players would take for the same (``Sam`` and ``sam``)."""
    return a.casefold() == b.casefold()


def seat_called(seats: Iterable[Seat], name: str | None, *,
                other_than: Seat | None = None) -> Seat | None:
    """The seat (besides ``other_than``) whose player is called ``name``, in any case, if
    any: two players at a table never share a name (the scores and the ledger go by it)."""
    if not name:
        return None
    return next((s for s in seats if s.name and same_name(s.name, name)
                 and (other_than is None or s.id != other_than.id)), None)


def first_duplicate(names: Iterable[str | None]) -> str | None:
    """The first name given twice (in any case), if any.

    >>> first_duplicate(["Ann", None, "Bo", "ann"]), first_duplicate(["Ann", None, None])
    ('ann', None)
    """
    seen: set[str] = set()
    for name in names:
        if name is None:
            continue
        if name.casefold() in seen:
            return name
        seen.add(name.casefold())
    return None


def options_as_sent(fields: Iterable[str], defaults: Mapping[str, str],
                    form: Mapping[str, str] | None) -> dict[str, str]:
    """A game's options form's values: as sent (a field left out is blank), or the game's
    ``defaults`` when nothing was sent yet (the form as first drawn)."""
    if form is not None:
        return {name: str(form.get(name, "")) for name in fields}
    return dict(defaults)


def options_with_defaults(fields: Iterable[str], defaults: Mapping[str, str],
                          form: Mapping[str, str]) -> dict[str, str]:
    """A game's options as sent, each field the form does not send taking its default."""
    return dict(defaults) | {name: form[name] for name in fields if name in form}


def whole_number(text: object, what: str, low: int, high: int) -> int:
    """A typed whole number between ``low`` and ``high``.

    >>> whole_number(" 4 ", "The number of seats", 2, 8)
    4
    """
    if not isinstance(text, str) or not re.fullmatch(r"\s*[0-9]{1,6}\s*", text):
        raise FormError(_("%(what)s must be a whole number", what=what))
    value = int(text)
    if not low <= value <= high:
        raise FormError(_("%(what)s must be from %(low)s to %(high)s, not %(value)s", what=what,
                          low=low, high=high, value=value))
    return value


MAX_AMOUNT = 10**7
"""The largest amount typed into a money field, in the minor unit (£100,000.00, ¥10,000,000)."""


def check_unit(unit: object) -> str:
    """A money unit the form sent: ``chips`` or a currency's code as ISO 4217 writes it
    (``NOK``; the rules' :func:`~companion.rules.money.is_unit`)."""
    if not is_unit(unit):
        raise FormError(_("Pick the money unit: a currency or chips"))
    assert isinstance(unit, str)
    return unit


@cache
def _home_locales(code: str) -> tuple[str, ...]:
    """The locales of the countries that use a currency today, each by the language most of
    it speaks (NOK: ``nb_NO``; CAD: ``en_CA``), where players write its symbol their way."""
    languages = get_global("territory_languages")
    found = []
    for territory in get_global("territory_currencies"):
        if code in get_territory_currencies(territory):
            spoken = languages.get(territory) or {}
            best = max(spoken, key=lambda lang: spoken[lang].get("population_percent", 0),
                       default=None)
            if best is not None:
                found.append(f"{best}_{territory}")
    return tuple(found)


@cache
def _symbols(code: str, locale: str) -> tuple[str, ...]:
    """What may stand before or after an amount typed in a currency, longest first: its code,
    its symbol in the device's language and the app's, and in its own countries' (``kr``
    for NOK, ``¥`` for JPY, ``$`` for CAD), each also without a full stop (``kr.``)."""
    if code == CHIPS:
        return ()
    found = {code}
    for where in (locale, "en", "fr", "de", "nb", "root", *_home_locales(code)):
        try:
            symbol = get_currency_symbol(code, where)
        except (UnknownLocaleError, ValueError):
            continue
        found |= {symbol, symbol.rstrip(".")}
    return tuple(sorted((s.casefold() for s in found if s and not any(c.isdigit() for c in s)),
                        key=len, reverse=True))


def _without_symbol(typed: str, unit: str) -> str:
    """A typed amount without the currency's code or symbol before or after it (``kr 12``,
    ``12 NOK``, ``¥1200``), in any case."""
    folded = typed.casefold()
    for symbol in _symbols(unit, locale_name()):
        if folded.startswith(symbol):
            return typed[len(symbol):].strip()
        if folded.endswith(symbol):
            return typed[:-len(symbol)].strip()
    return typed


def _whole(text: str, decimal: str | None, places: int) -> int | None:
    """A typed whole number: plain digits, or thousands grouped by one mark that is not the
    decimal one (``1 200``, ``1'200``, ``1.200.000``; ``1,200`` or ``1.200`` only where it
    cannot be a decimal: yen, or with another decimal mark, ``1.200,50``); else None."""
    if re.fullmatch(r"[0-9]{1,9}", text):
        return int(text)
    found = re.fullmatch(r"[1-9][0-9]{0,2}([.,\s'\u2019])[0-9]{3}(?:\1[0-9]{3}){0,2}", text)
    if found is None or found.group(1) == decimal:
        return None
    mark = found.group(1)
    if mark in ".," and places and decimal is None and text.count(mark) == 1:
        return None  # 1.505 in pounds: a slip for 1.50, or 1505? Neither is taken.
    return int(re.sub(r"[^0-9]", "", text))


def read_money(text: object, unit: str, what: str) -> int:
    """A typed amount (``2.50``, ``£2.50``, ``2,5``, ``2,50 €``, ``kr 12``, ``¥1,200``;
    blank: none) in the unit's minor unit (:func:`~companion.rules.money.minor_digits`
    decimals: 2 for pence and øre, none for yen): the code or symbol before or after the
    number, thousands grouped or not, the decimal mark a point or a comma.

    Whole yen may be grouped with a point or a comma (``¥1,200``); an amount with decimals
    only with a space, an apostrophe or a mark the decimal one is not (``1.200,50``): a
    lone ``1.505`` in pounds is a slip for 1.50 as likely as 1505, so it is refused.

    >>> read_money("2.50", "GBP", "The fee"), read_money("£3", "GBP", "The fee")
    (250, 300)
    >>> read_money("2,50 €", "EUR", "The fee"), read_money("4€", "EUR", "The fee")
    (250, 400)
    >>> read_money("12,5 kr", "NOK", "The fee"), read_money("¥1,200", "JPY", "The fee")
    (1250, 1200)
    >>> read_money(" ", "EUR", "The fee"), read_money("15", "chips", "The stake")
    (0, 15)
    >>> read_money("1.5", "chips", "The stake")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    FormError: The stake is a whole number of chips, not 1.5
    >>> read_money("12.5", "JPY", "The fee")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    FormError: The fee is a whole number in JPY (no decimals), not 12.5
    """
    if text is None:
        return 0
    if not isinstance(text, str):
        raise FormError(_("%(what)s must be an amount", what=what))
    places = minor_digits(unit)
    typed = _without_symbol(text.strip()[:40], unit)
    if not typed:
        return 0
    whole = part = None
    decimal = re.fullmatch(rf"(.*?)([.,])([0-9]{{1,{places}}})", typed) if places else None
    if decimal is not None:
        whole = _whole(decimal.group(1) or "0", decimal.group(2), places)
        part = decimal.group(3)
    if whole is None:
        whole, part = _whole(typed, None, places), None
    if whole is None:
        if re.fullmatch(r"[0-9]{1,9}[.,][0-9]+", typed) and not places:
            if unit == CHIPS:
                raise FormError(_("%(what)s is a whole number of chips, not %(typed)s",
                                  what=what, typed=typed))
            raise FormError(_("%(what)s is a whole number in %(currency)s (no decimals), "
                              "not %(typed)s", what=what, currency=unit, typed=typed))
        example = example_amount(250, unit) if places else "5"
        raise FormError(_("%(what)s must be an amount like %(example)s, "
                          "not \u201c%(typed)s\u201d", what=what, example=example,
                          typed=text.strip()[:20]))
    amount = whole * 10**places + int((part or "").ljust(places, "0") or 0)
    if amount > MAX_AMOUNT:
        raise FormError(_("%(what)s is more than the app takes (%(most)s)", what=what,
                          most=money_text(MAX_AMOUNT, unit)))
    return amount


def example_amount(amount: int, unit: str) -> str:
    """An amount in the minor unit as an options form shows it for an example, with the
    unit's decimals and the device's decimal mark: 250 is ``2.50`` in pounds (``2,50`` in
    French), ``250`` in yen or chips, ``0.250`` in Kuwaiti dinars.

    >>> example_amount(250, "GBP"), example_amount(250, "JPY"), example_amount(5, "KWD")
    ('2.50', '250', '0.005')
    """
    places = minor_digits(unit if is_unit(unit) else CHIPS)
    return format_decimal(Decimal(amount).scaleb(-places),
                          format="#,##0." + "0" * places if places else "#,##0",
                          locale=locale_name())


def _iso_decimals(code: str, places: int) -> dict:
    """Babel's options that write ``code`` with ISO 4217's ``places`` decimals: none where
    the CLDR agrees, else the locale's own pattern with that many."""
    if get_currency_precision(code) == places:
        return {}
    pattern = Locale.parse(locale_name()).currency_formats["standard"].pattern
    decimals = "." + "0" * places if places else ""
    return {"format": re.sub(r"\.0+", decimals, pattern), "currency_digits": False}


def money_text(amount: object, unit: str | None, sign: bool = False) -> str:
    """An amount in the unit's minor unit, as players read it in their language: ``£1.50``,
    ``−€0.05``, ``¥1,200``, ``15 chips`` in English; ``1,50 €`` in French, ``12,50 kr`` in
    Norwegian (Babel's formats, with the currency's own decimals, in the device's locale:
    :func:`~companion.web.device.locale_name`).

    With ``sign`` (a column of gains and losses), a gain shows ``+`` and chips
    are bare numbers, as the score tables write them. This is the one place
    money is written out.

    >>> money_text(150, "GBP"), money_text(-5, "EUR"), money_text(250, "USD", sign=True)
    ('£1.50', '−€0.05', '+$2.50')
    >>> money_text(1, "chips"), money_text(-15, "chips", sign=True), money_text(0, "GBP", True)
    ('1 chip', '−15', '£0.00')
    >>> money_text(123456, "GBP"), money_text(1200, "JPY"), money_text(1500, "KWD")
    ('£1,234.56', '¥1,200', 'KWD1.500')
    >>> money_text(123450, "HUF"), money_text(1500, "IQD")
    ('HUF1,234.50', 'IQD1.500')
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        return str(amount)
    code = unit if unit is not None and is_unit(unit) else CHIPS
    places = minor_digits(code)
    prefix = MINUS if amount < 0 else "+" if sign and amount > 0 else ""
    size = abs(amount)
    if code == CHIPS:
        return f"{prefix}{size}" if sign else prefix + ngettext("%(num)s chip", "%(num)s chips",
                                                                size)
    # ISO 4217's decimals: where the CLDR writes a currency with fewer (the forint), the
    # amount keeps the decimals it is stored with.
    shown = format_currency(Decimal(size).scaleb(-places), code, locale=locale_name(),
                            **_iso_decimals(code, places))
    return f"{prefix}{shown}"
