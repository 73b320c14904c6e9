"""A table keeps its money in any currency, through the pages: Norwegian kroner (øre) and
Japanese yen (whole yen), typed, kept, settled and shown in each of the four languages as
Babel writes them; and the start form offers the device's own currency first.

Rob, Sam, Nick and Emily play a Tromplemond of one round (Rob wins, Sam is runner-up) and a
Clumond (Rob +9 chips, Sam −4, Nick −5) whose chip value is typed on the ledger.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
import unicodedata
from urllib.parse import urlsplit

import pytest

from companion.rules import RuleError
from companion.rules import evening as ledger_of
from companion.web.words import say
from tests.web.test_ledger import Evening, text

pytestmark = pytest.mark.db

LANGUAGES = ("en", "fr", "de", "nb")

NOK = {
    "unit": "NOK", "device": "nb-NO,nb;q=0.9,en;q=0.5",
    "fee": "12,50 kr", "fee_kept": 1250, "chip": "0,50", "chip_kept": 50,
    "net": {"Rob": 2950, "Sam": -200, "Nick": -1500, "Emily": -1250},
    # Rob's net on the ledger; Nick's transfer to Rob; Rob's Tromplemond money in the book;
    # the joining fee each player has paid, on the game's screen: as each language writes them.
    "shown": {
        "en": ("+NOK29.50", "Nick pays Rob NOK15.00", "+NOK25.00", "−NOK12.50"),
        "fr": ("+29,50\xa0NOK", "Nick paie 15,00\xa0NOK à Rob", "+25,00\xa0NOK", "−12,50\xa0NOK"),
        "de": ("+29,50\xa0NOK", "Nick zahlt Rob 15,00\xa0NOK", "+25,00\xa0NOK", "−12,50\xa0NOK"),
        "nb": ("+29,50\xa0kr", "Nick betaler Rob 15,00\xa0kr", "+25,00\xa0kr", "−12,50\xa0kr"),
    },
    # What each player pays Rob, as typed on the tablet (in Norwegian).
    "payments": {"Nick": "15,00 kr", "Emily": "kr 12,5", "Sam": "2"},
    "csv_fee": "-12.50",
}

JPY = {
    "unit": "JPY", "device": "ja-JP,ja;q=0.9,en;q=0.5",
    "fee": "¥1,000", "fee_kept": 1000, "chip": "10", "chip_kept": 10,
    "net": {"Rob": 2090, "Sam": -40, "Nick": -1050, "Emily": -1000},
    "shown": {
        "en": ("+¥2,090", "Nick pays Rob ¥1,050", "+¥2,000", "−¥1,000"),
        "fr": ("+2\u202f090\xa0JPY", "Nick paie 1\u202f050\xa0JPY à Rob", "+2\u202f000\xa0JPY",
               "−1\u202f000\xa0JPY"),
        "de": ("+2.090\xa0¥", "Nick zahlt Rob 1.050\xa0¥", "+2.000\xa0¥", "−1.000\xa0¥"),
        "nb": ("+2\xa0090\xa0JPY", "Nick betaler Rob 1\xa0050\xa0JPY", "+2\xa0000\xa0JPY",
               "−1\xa0000\xa0JPY"),
    },
    "payments": {"Nick": "1 050", "Emily": "1000 ¥", "Sam": "JPY 40"},
    "csv_fee": "-1000",
}


def speaks(client, language: str) -> None:
    """The client's browser asks for ``language`` from now on."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language


def net_shown(page: str) -> dict[str, tuple[int, str]]:
    """Each player's net on the ledger: its amount and its text."""
    return {name: (int(amount), shown) for name, amount, shown in re.findall(
        r'data-net="(\w+)" data-amount="(-?\d+)">([^<]+)<', html.unescape(page))}


def played(actions, money: dict) -> Evening:
    """The evening of the module's docstring, its money in ``money["unit"]``: the table made
    on a device of the currency's country, the fee and the chip value typed there."""
    speaks(actions.keeper, money["device"])
    table = Evening(actions)
    assert actions.table(table.code).unit == money["unit"]  # the device's own, from the start
    start = text(actions.keeper.get(f"/t/{table.code}/start"))
    assert f'<option value="{money["unit"]}" selected>' in start
    table.tromplemond(options={"unit": money["unit"], "joining_fee": money["fee"]})
    assert table.record()["games"][0]["options"]["joining_fee"] == money["fee_kept"]
    table.clumond()
    assert table.post("/games/2/chip-value", {"chip_value": money["chip"]}).status_code == 303
    assert table.record()["games"][1]["options"]["chip_value"] == money["chip_kept"]
    return table


@pytest.mark.parametrize("money", [NOK, JPY], ids=["NOK", "JPY"])
def test_an_evening_in_kroner_or_yen_is_kept_settled_and_shown_in_each_language(actions, money):
    table = played(actions, money)
    record = table.record()
    assert record["unit"] == money["unit"]
    result = ledger_of(record)
    assert result["net"] == money["net"] and sum(result["net"].values()) == 0
    assert all(type(amount) is int for _payer, _payee, amount in result["owing"])
    for language in LANGUAGES:
        speaks(table.keeper, language)
        page = table.page()
        net, transfer, _game_money, _fee = money["shown"][language]
        assert net_shown(page)["Rob"] == (money["net"]["Rob"], net), language
        assert transfer in html.unescape(page), language
    speaks(table.keeper, "nb")
    for payer, typed in money["payments"].items():
        assert table.mark(payer, "Rob", typed).status_code == 303, (payer, typed)
    settled = table.record()
    assert [amount for _payer, _payee, amount in settled["paid"]] == [
        -money["net"][payer] for payer in money["payments"]]
    assert ledger_of(settled)["settled"] is True
    assert 'data-testid="square"' in table.page()


@pytest.mark.parametrize("money", [NOK, JPY], ids=["NOK", "JPY"])
def test_the_game_s_screens_write_the_table_s_currency(actions, money):
    speaks(actions.keeper, money["device"])
    table = Evening(actions)
    table.tromplemond(options={"unit": money["unit"], "joining_fee": money["fee"]},
                      finish=False, end=False)
    for language in LANGUAGES:
        speaks(table.keeper, language)
        fee = money["shown"][language][3]
        for page in (f"/t/{table.code}", f"/t/{table.code}/games/1"):
            shown = html.unescape(text(table.keeper.get(page)))
            assert re.findall(r'data-money="(\w+)">([^<]+)<', shown) == [
                (name, fee) for name in ("Rob", "Sam", "Nick", "Emily")], (language, page)
            assert fee.lstrip("−") in shown  # the deck prep's "each put the joining fee of …"


@pytest.mark.parametrize("money", [NOK, JPY], ids=["NOK", "JPY"])
def test_the_book_the_recap_and_the_csv_write_the_table_s_currency(actions, money):
    table = played(actions, money)
    for language in LANGUAGES:
        speaks(table.keeper, language)
        net, transfer, game_money, _fee = money["shown"][language]
        book = html.unescape(text(table.keeper.get(f"/t/{table.code}/records")))
        assert re.search(rf'data-testid="money-{money["unit"]}">\s*<dt>.*?'
                         rf'<span class="value">{re.escape(game_money)}</span>', book, re.S)
        assert re.search(rf'data-testid="total-{money["unit"]}">[^<]*<strong>{re.escape(net)}<',
                         book), language
        recap = text(table.keeper.get(table.url("/recap.txt")))
        assert transfer in recap and f"Rob {net}" in recap, language
    speaks(table.keeper, "en")
    rows = list(csv.DictReader(io.StringIO(text(table.keeper.get(table.url("/lines.csv"))))))
    fees = [row for row in rows if row["what"] == "joining fee"]
    assert [(row["amount"], row["unit"]) for row in fees] == [
        (money["csv_fee"], money["unit"])] * 4


@pytest.mark.parametrize("money", [NOK, JPY], ids=["NOK", "JPY"])
def test_an_evening_in_kroner_or_yen_exports_and_imports_with_its_unit(app, actions, money):
    table = played(actions, money)
    table.mark("Nick", "Rob", money["payments"]["Nick"])
    record = table.record()
    made = app.test_client().post("/api/evenings", json=record)
    assert made.status_code == 201, text(made)
    code = urlsplit(made.get_json()["table_url"]).path.rsplit("/", 1)[-1]
    assert actions.table(code).unit == money["unit"]
    again = app.test_client().get(f"/t/{code}/evenings/1/evening.json").get_json()
    assert again["unit"] == money["unit"] and again["paid"] == record["paid"]
    assert again["games"] == record["games"]
    assert ledger_of(again)["owing"] == ledger_of(record)["owing"]
    assert json.loads(json.dumps(again)) == again


@pytest.mark.parametrize(("language", "message"), [
    ("en", "The amount is a whole number in JPY (no decimals), not 1050.5"),
    ("fr", "Le montant : un nombre entier en JPY (sans décimales), pas 1050.5"),
    ("de", "Der Betrag ist in JPY eine ganze Zahl (ohne Nachkommastellen), nicht 1050.5"),
    ("nb", "Beløpet er et helt tall i JPY (uten desimaler), ikke 1050.5"),
])
def test_yen_are_whole_and_a_decimal_is_refused_with_a_message(actions, language, message):
    table = played(actions, JPY)
    speaks(table.keeper, language)
    refused = table.mark("Nick", "Rob", "1050.5")
    assert refused.status_code == 400 and message in html.unescape(text(refused))
    refused = table.post("/games/2/chip-value", {"chip_value": "0,5"})
    assert refused.status_code == 400 and "JPY" in text(refused)
    assert table.record()["paid"] == []
    assert table.record()["games"][1]["options"]["chip_value"] == 10


def plain(name: str) -> str:
    """A name as a list by name sorts it: without accents, in lower case."""
    return "".join(c for c in unicodedata.normalize("NFKD", name)
                   if not unicodedata.combining(c)).casefold()


def select_codes(page: str) -> tuple[list[str], list[str]]:
    """The money select's codes: those before its group of other currencies, and those in it."""
    select = re.search(r'<select id="unit".*?</select>', page, re.S).group(0)
    top, _, rest = select.partition("<optgroup")
    return re.findall(r'<option value="([^"]+)"', top), re.findall(r'<option value="([^"]+)"',
                                                                   rest)


@pytest.mark.parametrize(("device", "currency"), [
    ("nb-NO,nb;q=0.9", "NOK"), ("de-DE,de;q=0.9,en;q=0.5", "EUR"), ("en-US,en;q=0.9", "USD"),
    ("ja-JP,ja;q=0.9", "JPY"), ("en-GB", "GBP"), ("de-CH,de;q=0.9", "CHF"), (None, "GBP"),
])
@pytest.mark.parametrize("game", ["tromplemond", "clumond", "trefeltromp"])
def test_the_money_select_offers_the_device_s_currency_first(actions, device, currency, game):
    if device is not None:
        speaks(actions.keeper, device)
    players = ["Rob", "Sam", "Nick", "Emily"] if game != "clumond" else ["Rob", "Sam", "Nick"]
    code = actions.create_table(game=game, players=players)
    actions.seat_everyone(code)
    page = text(actions.keeper.get(f"/t/{code}/start"))
    top, rest = select_codes(page)
    assert top[0] == currency and f'<option value="{currency}" selected>' in page
    usual = ["GBP", "EUR", "USD", "NOK", "SEK", "DKK", "CHF", "JPY"]
    chips = ["chips"] if game != "clumond" else []  # Clumond's select is what a chip is worth
    assert top == [currency, *(code for code in usual if code != currency), *chips]
    assert len(rest) > 100 and "AUD" in rest and "INR" in rest and "DEM" not in rest
    assert len(set(top + rest)) == len(top + rest)  # each once
    labels = re.findall(r'<optgroup label="[^"]+">(.*?)</optgroup>', page, re.S)[0]
    names = [plain(html.unescape(n)) for n in re.findall(r">([^<]+)</option>", labels)]
    assert names == sorted(names)  # by name, accents and case aside (Ägypten by A)


def test_a_norwegian_device_reads_the_select_in_norwegian(actions):
    speaks(actions.keeper, "nb-NO")
    code = actions.create_table()
    actions.seat_everyone(code)
    page = html.unescape(text(actions.keeper.get(f"/t/{code}/start")))
    assert '<option value="NOK" selected>norske kroner (NOK)</option>' in page
    assert '<optgroup label="Andre valutaer">' in page
    assert '<option value="chips">sjetonger</option>' in page


def test_an_unknown_currency_is_refused_and_the_table_keeps_its_unit(actions):
    speaks(actions.keeper, "nb-NO")
    table = Evening(actions)
    answer = actions.post(f"/t/{table.code}/start", {"unit": "KRONER", "joining_fee": "12"})
    assert answer.status_code == 400
    assert "Velg pengeenhet: en valuta eller sjetonger" in text(answer)
    assert actions.table(table.code).unit == "NOK" and actions.table(table.code).games == []


@pytest.mark.parametrize(("language", "message"), [
    ("en", "unit must be a currency's ISO 4217 code (such as GBP, EUR, NOK or JPY) or chips, "
           "not 'kroner'"),
    ("fr", "unit doit être le code ISO 4217 d'une devise (comme GBP, EUR, NOK ou JPY) ou "
           "chips, pas 'kroner'"),
    ("de", "unit muss der ISO-4217-Code einer Währung sein (etwa GBP, EUR, NOK oder JPY) oder "
           "chips, nicht 'kroner'"),
    ("nb", "unit må være en valutas ISO 4217-kode (som GBP, EUR, NOK eller JPY) eller chips, "
           "ikke 'kroner'"),
])
def test_the_rules_refusal_of_an_unknown_unit_is_said_in_each_language(app, language, message):
    with app.test_request_context(headers={"Accept-Language": language}):
        with pytest.raises(RuleError) as refused:
            ledger_of({"unit": "kroner"})
        assert say(refused.value) == message
    api = app.test_client().post("/api/evenings", json={"unit": "kroner", "games": []},
                                 headers={"Accept-Language": language})
    assert api.status_code == 400 and api.get_json()["error"] == (  # the API's is English
        "unit must be a currency's ISO 4217 code (such as GBP, EUR, NOK or JPY) or chips, "
        "not 'kroner'")


@pytest.mark.parametrize(("device", "game", "examples"), [
    ("ja-JP", "tromplemond", ["e.g. 250", "e.g. 50"]),  # whole yen
    ("nb-NO", "tromplemond", ["f.eks. 2,50", "f.eks. 0,50"]),
    ("en-GB", "tromplemond", ["e.g. 2.50", "e.g. 0.50"]),
    ("ar-KW", "tromplemond", ["e.g. 0.250", "e.g. 0.050"]),  # thousandths of a dinar
    ("ja-JP", "clumond", ["e.g. 150", "e.g. 10"]),  # (a target stack, then the chip value)
    ("de-DE", "clumond", ["z. B. 150", "z. B. 0,10"]),
    ("ja-JP", "trefeltromp", ["e.g. 5"]), ("en-US", "trefeltromp", ["e.g. 0.05"]),
])
def test_the_start_form_s_examples_have_the_currency_s_decimals(actions, device, game,
                                                                   examples):
    speaks(actions.keeper, device)
    players = ["Rob", "Sam", "Nick", "Emily"] if game != "clumond" else ["Rob", "Sam", "Nick"]
    code = actions.create_table(game=game, players=players)
    page = html.unescape(text(actions.keeper.get(f"/t/{code}/start")))
    assert re.findall(r'placeholder="([^"]*\d[^"]*)"', page) == examples


@pytest.mark.parametrize(("device", "unit"), [("nb-NO", "NOK"), ("ja-JP", "JPY"), (None, "GBP")])
def test_an_imported_game_counts_in_the_importing_device_s_currency(app, actions, device, unit):
    """A game record names no unit: its table takes the importer's currency, as a new one."""
    record = {"game": "tromplemond", "players": ["Ann", "Bo", "Cy", "Di"],
              "options": {"joining_fee": 5000}, "rounds": []}
    headers = {"Accept-Language": device} if device else {}
    made = app.test_client().post("/api/games", json=record, headers=headers)
    assert made.status_code == 201, text(made)
    code = urlsplit(made.get_json()["table_url"]).path.rsplit("/", 1)[-1]
    assert actions.table(code).unit == unit
