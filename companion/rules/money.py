"""The table's money unit: a currency by its ISO 4217 code, or chips.

An evening's ``unit`` (``docs/records.md``, "The evening") is the code of a currency Babel
knows (``GBP``, ``EUR``, ``NOK``, ``JPY``, ...), or ``chips``. Every amount is a whole
number of the unit's minor unit: pence, cents, øre; whole yen; a thousandth of a Kuwaiti
dinar. How many decimals a currency has is Babel's (the CLDR's) count, so that the app
reads and writes an amount with the decimals Babel formats it with.

>>> check_unit("NOK"), minor_digits("NOK"), minor_digits("JPY"), minor_digits("KWD")
('NOK', 2, 0, 3)
>>> minor_digits("chips"), is_unit("chips"), is_unit("nok"), is_unit("ABC")
(0, True, False, False)
>>> check_unit("ABC")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
RuleError: unit must be a currency's ISO 4217 code (...) or chips, not 'ABC'
"""

from __future__ import annotations

from functools import cache

from babel.numbers import get_currency_precision, list_currencies

from .contract import CHIPS
from .errors import RuleError


@cache
def currencies() -> frozenset[str]:
    """Every currency code Babel knows: those in use and those withdrawn (``DEM``), so that
    an old record still reads."""
    return frozenset(code for code in list_currencies()
                     if len(code) == 3 and code.isascii() and code.isalpha() and code.isupper())


def is_unit(unit: object) -> bool:
    """True for ``chips`` and for a currency's code as ISO 4217 writes it (``NOK``)."""
    return unit == CHIPS or (isinstance(unit, str) and unit in currencies())


def check_unit(unit: object) -> str:
    """The unit as it is, when it is one (:func:`is_unit`); else ``evening.unknown_unit``."""
    if not is_unit(unit):
        raise RuleError("evening.unknown_unit", unit=unit)
    assert isinstance(unit, str)
    return unit


def minor_digits(unit: str) -> int:
    """How many decimals the unit's amounts are written with: 2 for pence or øre, 0 for yen
    and for chips (a whole number of the unit is its smallest amount)."""
    if unit == CHIPS:
        return 0
    return get_currency_precision(check_unit(unit))


__all__ = ["CHIPS", "check_unit", "currencies", "is_unit", "minor_digits"]
