"""The table's money unit: a currency by its ISO 4217 code, or chips.

An evening's ``unit`` (``docs/records.md``, "The evening") is the ISO 4217 code of a
currency in use (``GBP``, ``EUR``, ``NOK``, ``JPY``, ...), or ``chips``. Every amount is a
whole number of the unit's minor unit as ISO 4217 counts it: pence, cents, øre; whole yen; a
thousandth of a Kuwaiti dinar. ISO's count, not a display library's: the CLDR writes some
currencies without decimals (the forint, the rupiah) whose ISO minor unit is a hundredth,
and a stored amount must mean the same whatever library draws it.

The table below is ISO 4217's list of currencies in use with their minor units, kept here
as data so that the rules need nothing beyond the standard library (they also run in the
browser); ``tests/rules/test_money.py`` checks it against the codes Babel knows in use.

>>> check_unit("NOK"), minor_digits("NOK"), minor_digits("JPY"), minor_digits("KWD")
('NOK', 2, 0, 3)
>>> minor_digits("HUF"), minor_digits("chips"), is_unit("chips"), is_unit("nok")
(2, 0, True, False)
>>> check_unit("ABC")  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
RuleError: unit must be a currency's ISO 4217 code (...) or chips, not 'ABC'
"""

from __future__ import annotations

from .contract import CHIPS
from .errors import RuleError

WHOLE = frozenset("BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF".split())
"""ISO 4217's currencies in use whose minor unit is the currency itself (no decimals)."""

THOUSANDTHS = frozenset("BHD IQD JOD KWD LYD OMR TND".split())
"""ISO 4217's currencies in use whose minor unit is a thousandth."""

IN_USE = frozenset("""
AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD
CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS
GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW
KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR
MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR
SDG SEK SGD SHP SLE SOS SRD SSP STN SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD
UYU UZS VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG
""".split())
"""ISO 4217's codes of the currencies in use as a country's money (no funds, no metals)."""


def currencies() -> frozenset[str]:
    """Every currency a table may keep its money in (:data:`IN_USE`)."""
    return IN_USE


def is_unit(unit: object) -> bool:
    """True for ``chips`` and for a currency's code as ISO 4217 writes it (``NOK``)."""
    return unit == CHIPS or (isinstance(unit, str) and unit in IN_USE)


def check_unit(unit: object) -> str:
    """The unit as it is, when it is one (:func:`is_unit`); else ``evening.unknown_unit``."""
    if not is_unit(unit):
        raise RuleError("evening.unknown_unit", unit=unit)
    assert isinstance(unit, str)
    return unit


def minor_digits(unit: str) -> int:
    """How many decimals the unit's amounts are written with, ISO 4217's minor unit: 2 for
    pence or øre, 3 for fils, 0 for yen and for chips (a whole chip is its smallest amount)."""
    if unit == CHIPS or check_unit(unit) in WHOLE:
        return 0
    return 3 if unit in THOUSANDTHS else 2


__all__ = ["CHIPS", "check_unit", "currencies", "is_unit", "minor_digits"]
