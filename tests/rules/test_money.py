"""A table's money in any currency: the unit an evening names, and how many decimals its
amounts have (whole yen, øre, fils), which fixes what a stored amount means."""

from __future__ import annotations

import json

import pytest

from companion.rules import RuleError, evening, settle_up
from companion.rules.money import check_unit, currencies, is_unit, minor_digits

from .test_evening import design_clumond, design_tromplemond, settles

DECIMALS = {
    0: "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF",
    3: "BHD IQD JOD KWD LYD OMR TND",
}
"""Every currency in use whose minor unit is not a hundredth, as ISO 4217 counts it."""


def test_a_currency_s_decimals_are_iso_4217_s_and_stay_what_they_were():
    """An amount is kept in the minor unit: were a currency's decimals counted otherwise
    one day, every amount a table stored in it would change its meaning, so this list must
    change only with a migration of the amounts."""
    assert (minor_digits("NOK"), minor_digits("JPY"), minor_digits("KWD")) == (2, 0, 3)
    assert (minor_digits("GBP"), minor_digits("chips")) == (2, 0)
    assert (minor_digits("HUF"), minor_digits("IDR"), minor_digits("IQD")) == (2, 2, 3)
    other = {code: digits for digits, codes in DECIMALS.items() for code in codes.split()}
    assert {code: minor_digits(code) for code in currencies()
            if minor_digits(code) != 2} == other


def test_the_currencies_in_use_are_those_babel_knows_in_use():
    """The rules' own list (standard library only) against the CLDR's tender of today: a
    currency a country takes up or drops shows here first."""
    from babel.core import get_global

    in_use = {code for held in get_global("territory_currencies").values()
              for code, _start, end, tender in held if end is None and tender}
    assert currencies() == {code for code in in_use if len(code) == 3 and code.isupper()}


@pytest.mark.parametrize("unit", ["GBP", "EUR", "USD", "NOK", "SEK", "DKK", "CHF", "JPY",
                                  "KWD", "HUF", "chips"])
def test_any_currency_in_use_is_a_unit(unit):
    assert is_unit(unit) and check_unit(unit) == unit
    assert evening({"unit": unit})["settled"] is True


@pytest.mark.parametrize("unit", ["nok", "Nok", "NOKK", "ABC", "DEM", "kr", "¥", "", " GBP",
                                  None, 578, ["NOK"], "CHIPS"])
def test_an_unknown_unit_is_refused_by_its_code(unit):
    assert not is_unit(unit)
    with pytest.raises(RuleError) as info:
        evening({"unit": unit, "games": [design_clumond()]})
    assert info.value.code == "evening.unknown_unit" and info.value.params == {"unit": unit}
    assert str(info.value) == ("unit must be a currency's ISO 4217 code (such as GBP, EUR, NOK "
                               f"or JPY) or chips, not {unit!r}")


def scaled_evening(unit: str, factor: int) -> dict:
    """DESIGN.md's evening with every amount ``factor`` times larger, in ``unit``: a joining
    fee of 200 × ``factor`` in the unit's minor unit, a chip worth 5 × ``factor``."""
    tromplemond = design_tromplemond()
    tromplemond["options"] = {"joining_fee": 200 * factor, "tromp_stake": 50 * factor,
                              "rounds": 3}
    return {"evening": "Fredag", "unit": unit,
            "games": [tromplemond, design_clumond(chip_value=5 * factor)],
            "paid": [["Cleo", "Ana", 350 * factor]]}


@pytest.mark.parametrize(("unit", "factor"), [
    ("NOK", 25),  # a joining fee of kr 50,00 (5000 øre), a chip worth kr 1,25
    ("JPY", 5),  # a joining fee of ¥1,000, a chip worth ¥25: whole yen
    ("KWD", 250),  # a joining fee of KWD 50.000 (thousandths)
])
def test_an_evening_in_another_currency_replays_and_settles_in_its_minor_unit(unit, factor):
    record = scaled_evening(unit, factor)
    ledger = evening(json.loads(json.dumps(record)))  # as it is stored: JSON
    assert ledger["games"][0]["money"] == {
        p: amount * factor for p, amount in {"Ana": 750, "Ben": -50, "Cleo": -350,
                                             "Dev": -350}.items()}
    assert ledger["net"] == {"Ana": 690 * factor, "Ben": 50 * factor, "Cleo": -390 * factor,
                             "Dev": -350 * factor}
    assert sum(ledger["net"].values()) == 0
    assert all(type(line["amount"]) is int for line in ledger["lines"])
    owed = {p: ledger["net"][p] + ledger["paid"].get(p, 0) for p in ledger["players"]}
    assert settles(ledger["owing"], owed) and len(ledger["owing"]) == 3
    assert [list(t) for t in settle_up(owed)] == ledger["owing"]
    assert json.loads(json.dumps(ledger)) == ledger
    paid = evening(record | {"paid": record["paid"] + ledger["owing"]})
    assert paid["owing"] == [] and paid["settled"] is True


def test_whole_yen_stay_whole_when_a_share_does_not_divide():
    """A joining fee of ¥1,001 each: the pot of ¥4,004 splits 70/30 in whole yen (2802.8
    and 1201.2), the yen left over going to the winner, and the evening still sums to zero."""
    tromplemond = design_tromplemond()
    tromplemond["options"] = {"joining_fee": 1001, "payout": [70, 30], "tromp_stake": 0,
                              "rounds": 3}
    ledger = evening({"unit": "JPY", "games": [tromplemond]})
    money = ledger["games"][0]["money"]
    assert all(type(amount) is int for amount in money.values())
    assert sum(money.values()) == 0 and sum(ledger["net"].values()) == 0
    assert (money["Ana"], money["Ben"]) == (2802 + 1 - 1001, 1201 - 1001)
