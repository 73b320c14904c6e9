"""The evening's ledger through the pages: the grid, the lines, who pays whom, payments
marked and undone, chip values, the exports, closing the evening, past evenings.

Rob, Sam, Nick and Emily play a Tromplemond of one round for a £2.00 joining
fee through the pages (Rob wins, Sam is runner-up), then a Clumond of one
round that Rob, Sam and Nick played: its record is written through the store,
as a finished game, until Clumond has round screens of its own. Every number a
page shows is checked against ``companion.rules.evening`` of the evening's
exported record.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
from babel.dates import format_skeleton

from companion.extensions import db
from companion.rules import evening as ledger_of
from companion.store import ENDED, changes, evenings, queries

pytestmark = pytest.mark.db

PLAYERS = ("Rob", "Sam", "Nick", "Emily")
HTMX = {"HX-Request": "true"}
TROMPLEMOND = {"unit": "GBP", "joining_fee": "2.00", "payout_winner": "75",
               "payout_runner_up": "25", "tromp_stake": "", "rounds": "1", "target": "200"}
QUICK = {"Rob": 20, "Sam": 12, "Nick": 10}  # Emily goes off: Rob wins, Sam is runner-up
CLUMOND_ROUND = {"tricks": {"Rob": 3, "Sam": 4, "Nick": 6},
                 "declared": {"Rob": 3, "Sam": 8, "Nick": 1}}


def text(response) -> str:
    return response.get_data(as_text=True)


class Evening:
    """A table's evening: the tablet (``actions.keeper``) and four phones."""

    def __init__(self, actions) -> None:
        self.actions = actions
        self.app = actions.app
        self.keeper = actions.keeper
        self.code = actions.create_table()
        self.phones = dict(zip(PLAYERS, actions.seat_everyone(self.code), strict=True))

    # --- playing

    def tromplemond(self, *, finish: bool = True, end: bool = True,
                    options: dict | None = None) -> int:
        """Start a Tromplemond with a £2.00 fee (or ``options`` on top of that); play its one
        round; end it. Its number."""
        assert self.actions.post(f"/t/{self.code}/start",
                                 TROMPLEMOND | (options or {})).status_code == 303
        number = len(self.actions.table(self.code).games)
        if finish:
            where = f"/t/{self.code}/games/{number}"
            assert self.actions.post(f"{where}/tromplemond/vote",
                                     {"round": "1"}).status_code == 303
            for voter in PLAYERS:
                target = "Emily" if voter != "Emily" else "Rob"
                assert self.actions.vote(self.code, self.phones[voter], target,
                                         number=number).status_code == 303
            for position, name in enumerate(PLAYERS[:3], 1):
                assert self.actions.post(f"{where}/tromplemond/hands/{position}", {
                    "round": "1", "how": "quick", "points": str(QUICK[name]),
                    "public_jacks": "0", "secret_jacks": "0"}).status_code == 303
            assert self.actions.post(f"{where}/confirm", {"round": "1"}).status_code == 303
        if end:
            self.end(number)
        return number

    def end(self, number: int) -> None:
        assert self.actions.post(f"/t/{self.code}/games/{number}/end").status_code == 303

    def clumond(self, *, chip_value: int | None = None, rounds: list | None = None,
                status: str = ENDED) -> None:
        """A Clumond of Rob, Sam and Nick, written through the store (no round screens yet).

        The table turns to Clumond, as the scorekeeper would before starting it.
        """
        options = {"rounds": 1} | ({"chip_value": chip_value} if chip_value else {})
        with self.app.app_context():
            table = db.session.scalar(queries.table_by_code(self.code))
            table.game = "clumond"
            game = changes.start_game(table, {
                "game": "clumond", "players": ["Rob", "Sam", "Nick"], "first_dealer": "Nick",
                "options": options, "rounds": [CLUMOND_ROUND] if rounds is None else rounds})
            if status == ENDED:
                changes.end_game(table, game, ENDED)
            db.session.commit()

    # --- reading

    def url(self, tail: str = "", number: int = 1) -> str:
        return f"/t/{self.code}/evenings/{number}{tail}"

    def record(self, number: int = 1) -> dict:
        response = self.keeper.get(self.url("/evening.json", number))
        assert response.status_code == 200
        return response.get_json()

    def result(self, number: int = 1) -> dict:
        return ledger_of(self.record(number))

    def page(self, client=None, number: int = 1) -> str:
        response = (client or self.keeper).get(self.url(number=number))
        assert response.status_code == 200, text(response)
        return text(response)

    def version(self) -> int:
        return self.actions.table(self.code).version

    # --- doing

    def post(self, tail: str, data: dict | None = None, *, client=None, number: int = 1):
        return self.actions.post(self.url(tail, number), data or {}, client=client)

    def mark(self, payer: str, payee: str, amount: str, *, client=None):
        return self.post("/paid", {"payer": payer, "payee": payee, "amount": amount},
                         client=client)


@pytest.fixture
def evening(actions) -> Evening:
    """Game 1: a finished Tromplemond with a £2.00 fee; game 2: a finished Clumond, 5p a chip."""
    table = Evening(actions)
    table.tromplemond()
    table.clumond(chip_value=5)
    return table


def cells(html: str) -> dict[tuple[str, int], int]:
    """The grid's amounts by (player, game in the evening)."""
    found = {}
    for player, body in re.findall(r'<tr data-player="([^"]+)"[^>]*>(.*?)</tr>', html, re.S):
        for game, amount in re.findall(r'<td data-game="(\d+)" data-amount="(-?\d+)"', body):
            found[(player, int(game))] = int(amount)
    return found


def nets(html: str) -> dict[str, int]:
    return {name: int(amount) for name, amount in
            re.findall(r'data-net="([^"]+)" data-amount="(-?\d+)"', html)}


def transfers(html: str) -> list[list]:
    return [[payer, payee, int(amount)] for payer, payee, amount in re.findall(
        r'<li class="transfer[^"]*" data-payer="([^"]+)" data-payee="([^"]+)" '
        r'data-amount="(\d+)"', html)]


def line_items(html: str, player: str, game: int) -> list[tuple[str, int]]:
    block = re.search(rf'data-testid="lines-{player}-{game}">(.*?)</details>', html, re.S)
    assert block, f"no lines for {player} in game {game}"
    return [(what, int(amount)) for what, amount in re.findall(
        r'data-what="([^"]+)" data-amount="(-?\d+)"', block.group(1))]


# --------------------------------------------------------------------------- the page


def test_the_grid_the_lines_and_who_pays_whom_are_the_rules(evening):
    result = evening.result()
    assert [g["finished"] for g in result["games"]] == [True, True]
    assert result["games"][0]["money"] == {"Rob": 400, "Sam": 0, "Nick": -200, "Emily": -200}
    assert result["games"][1]["money"] == {"Rob": 45, "Sam": -20, "Nick": -25}
    html = evening.page()
    assert cells(html) == {(player, index): amount
                           for index, game in enumerate(result["games"], 1)
                           for player, amount in game["money"].items()}
    assert nets(html) == result["net"] == {"Rob": 445, "Sam": -20, "Nick": -225, "Emily": -200}
    assert transfers(html) == result["owing"] and result["owing"]
    for player in PLAYERS:
        for index in (1, 2):
            if player == "Emily" and index == 2:
                assert 'data-testid="lines-Emily-2"' not in html  # she did not play it
                continue
            assert line_items(html, player, index) == [
                (line["what"], line["amount"]) for line in result["lines"]
                if line["player"] == player and line["game"] == index]
    assert "£2.00" in html and "+£4.45" in html and "\u2212£2.25" in html
    assert 'data-square="no"' in html and 'data-testid="square"' not in html
    # Every screen reaches it: the tablet and every phone have the link.
    tablet = text(evening.keeper.get(f"/t/{evening.code}"))
    seat = text(evening.phones["Sam"].get(f"/t/{evening.code}/seat"))
    for html in (tablet, seat):
        assert f'href="/t/{evening.code}/evening" data-testid="ledger-link"' in html
    current = evening.phones["Sam"].get(f"/t/{evening.code}/evening")
    assert current.status_code == 303 and current.headers["Location"].endswith(evening.url())


def test_each_phone_picks_out_its_own_row_and_transfers(evening):
    owing = evening.result()["owing"]
    for name, phone in evening.phones.items():
        html = evening.page(phone)
        assert re.findall(r'<tr data-player="([^"]+)" class="mine"', html) == [name]
        for payer, payee, amount in owing:
            pounds = f"£{amount // 100}.{amount % 100:02d}"
            item = re.search(rf'<li class="transfer( mine)?" data-payer="{payer}" '
                             rf'data-payee="{payee}".*?</li>', html, re.S).group(0)
            if payer == name:
                assert " mine" in item and f"You pay {payee} {pounds}" in item
            elif payee == name:
                assert " mine" in item and f"{payer} pays you {pounds}" in item
            else:
                assert " mine" not in item and f"{payer} pays {payee} {pounds}" in item
            # Only the payee's phone (and the tablet) may mark it paid.
            assert (f'data-testid="mark-paid-{payer}-{payee}"' in item) == (payee == name)
    tablet = evening.page()
    assert 'class="mine"' not in tablet
    assert all(f'data-testid="mark-paid-{p}-{q}"' in tablet for p, q, _ in owing)
    # Someone watching with the join link sees the ledger and can change nothing.
    watcher = evening.actions.phone()
    html = evening.page(watcher)
    assert 'data-testid="mark-paid' not in html and 'data-testid="close-evening"' not in html


def test_the_live_region_answers_204_until_something_changes(evening):
    version = evening.version()
    url = evening.url("/live")
    assert evening.phones["Rob"].get(f"{url}?v={version}", headers=HTMX).status_code == 204
    payer, payee, amount = evening.result()["owing"][0]
    assert evening.mark(payer, payee, str(amount / 100)).status_code == 303
    fresh = evening.phones["Rob"].get(f"{url}?v={version}", headers=HTMX)
    assert fresh.status_code == 200 and f'data-version="{version + 1}"' in text(fresh)
    plain = evening.phones["Rob"].get(url)
    assert plain.status_code == 303 and plain.headers["Location"].endswith(evening.url())


# --------------------------------------------------------------------------- payments


def test_the_payee_marks_a_transfer_paid_on_their_phone_and_undoes_it(evening):
    owing = evening.result()["owing"]
    payer, payee, amount = owing[0]
    response = evening.mark(payer, payee, f"{amount / 100:.2f}",
                            client=evening.phones[payee])
    assert response.status_code == 303
    record = evening.record()
    assert record["paid"] == [[payer, payee, amount]]
    result = ledger_of(record)
    assert [payer, payee, amount] not in result["owing"]
    html = evening.page(evening.phones[payee])
    assert transfers(html) == result["owing"]
    payment = re.search(rf'data-payment="(\d+)" data-payer="{payer}"', html).group(1)
    assert f'data-testid="undo-{payment}"' in html
    # The payer's phone sees the payment, and cannot take it back.
    assert f'data-testid="undo-{payment}"' not in evening.page(evening.phones[payer])
    undo = f"/payments/{payment}/undo"
    assert evening.post(undo, client=evening.phones[payer]).status_code == 403
    assert evening.post(undo, client=evening.phones[payee]).status_code == 303
    assert evening.record()["paid"] == []
    assert evening.post(undo).status_code == 409  # already taken back


def test_the_scorekeeper_marks_part_of_a_transfer_and_then_the_rest(evening):
    payer, payee, amount = evening.result()["owing"][-1]
    assert evening.mark(payer, payee, "0.10").status_code == 303
    assert evening.record()["paid"] == [[payer, payee, 10]]
    left = next(t for t in evening.result()["owing"] if t[:2] == [payer, payee])
    assert left[2] == amount - 10
    assert evening.mark(payer, payee, f"£{left[2] / 100:.2f}").status_code == 303
    # Every transfer paid: the evening is square, on every screen.
    for payer, payee, amount in evening.result()["owing"]:
        assert evening.mark(payer, payee, f"{amount / 100:.2f}").status_code == 303
    result = evening.result()
    assert result["owing"] == [] and result["settled"]
    for client in (None, evening.phones["Emily"]):
        html = evening.page(client)
        assert 'data-testid="square"' in html and 'data-square="yes"' in html
        assert "The evening is square." in html


def test_a_french_phone_types_amounts_with_a_comma_and_reads_them_as_france_does(evening):
    """The payee's French phone sees its amounts as French writes them, offers the amount
    with a comma, and a comma or a point reads the same."""
    phone = evening.phones["Rob"]
    phone.set_cookie("lang", "fr")
    html = evening.page(phone)
    assert "Emily vous paie 2,00\xa0£GB" in html
    assert 'name="amount" value="2,00"' in html
    assert evening.mark("Emily", "Rob", "0,50", client=phone).status_code == 303
    assert evening.mark("Emily", "Rob", "0.5", client=phone).status_code == 303
    assert evening.record()["paid"] == [["Emily", "Rob", 50], ["Emily", "Rob", 50]]
    refused = evening.mark("Emily", "Rob", "9,00", client=phone)
    assert refused.status_code == 400 and "Emily doit 1,00 à Rob, pas 9,00." in text(refused)


@pytest.mark.parametrize("who, form, status, message", [
    ("stranger", {}, 403, "phone or the scorekeeper marks a payment to Rob"),
    ("payer", {}, 403, "phone or the scorekeeper marks a payment to Rob"),
    ("other", {}, 403, "phone or the scorekeeper marks a payment to Rob"),
    ("keeper", {"payer": "Rob", "payee": "Emily"}, 409, "Rob owes Emily nothing now"),
    ("keeper", {"amount": "abc"}, 400, "The amount must be an amount like 2.50"),
    ("keeper", {"amount": "0"}, 400, "The amount is empty"),
    ("keeper", {"amount": "1.234"}, 400, "The amount must be an amount like 2.50"),
    ("keeper", {"amount": "-1"}, 400, "The amount must be an amount like 2.50"),
    ("keeper", {"amount": "99.00"}, 400, "Emily owes Rob 2.00, not 99.00"),
    ("keeper", {"payer": "Zed"}, 400, "The payer must be a player of this evening"),
    ("keeper", {"payee": "<b>"}, 400, "The payee must be a player of this evening"),
    ("keeper", {"payer": ["Emily", "Sam"]}, 303, None),  # the first of a repeated field
])
def test_marking_a_payment_refuses_what_cannot_be(evening, who, form, status, message):
    assert ["Emily", "Rob", 200] in evening.result()["owing"]
    client = {"stranger": evening.actions.phone(), "payer": evening.phones["Emily"],
              "other": evening.phones["Sam"], "keeper": None}[who]
    data = {"payer": "Emily", "payee": "Rob", "amount": "2.00"} | form
    response = evening.actions.post(evening.url("/paid"), data, client=client)
    assert response.status_code == status, text(response)
    if message is not None:
        assert message in text(response) and evening.record()["paid"] == []


def test_a_form_without_its_token_or_for_no_evening_changes_nothing(evening):
    response = evening.keeper.post(evening.url("/paid"), data={
        "payer": "Emily", "payee": "Rob", "amount": "2.00"})
    assert response.status_code == 400 and "expired" in text(response)
    assert evening.post("/paid", number=7).status_code == 404
    assert evening.post("/payments/999/undo").status_code == 409
    assert evening.keeper.get(evening.url(number=7)).status_code == 404
    assert evening.keeper.get("/t/BCDFGHJK/evenings/1").status_code == 404
    assert evening.record()["paid"] == []


def test_a_payer_cannot_become_the_payee_to_mark_their_own_debt_paid(evening):
    # Emily owes Rob £2.00; Rob's phone has left, so his seat is free (the Eve → Gus).
    assert ["Emily", "Rob", 200] in evening.result()["owing"]
    code = evening.code
    assert evening.actions.post(f"/t/{code}/seats/1/leave",
                                client=evening.phones["Rob"]).status_code == 303
    emily = evening.phones["Emily"]
    # Her own phone holds her seat: it cannot take Rob's as well.
    _, response = evening.actions.claim(code, 1, phone=emily)
    assert response.headers["Location"].endswith("/seat")
    # Her second browser, on the join link: the claim is a request the scorekeeper answers.
    second, response = evening.actions.claim(code, 1)
    assert response.status_code == 303
    assert 'id="waiting"' in text(second.get(f"/t/{code}/seat"))
    # Leaving her own seat first makes her phone no payee either.
    evening.actions.post(f"/t/{code}/seats/4/leave", client=emily)
    _, response = evening.actions.claim(code, 1, phone=emily)
    assert response.status_code == 303
    assert evening.actions.table(code).seat_at(1).key_hash is None
    for browser in (second, emily):
        assert evening.mark("Emily", "Rob", "2.00", client=browser).status_code == 403
    assert evening.record()["paid"] == []
    assert ["Emily", "Rob", 200] in evening.result()["owing"]


# --------------------------------------------------------------------------- chip values


def test_a_chip_value_set_on_the_ledger_turns_the_chips_into_money(actions):
    table = Evening(actions)
    table.tromplemond()
    table.clumond()
    result = table.result()
    assert result["games"][1] == {"game": "clumond", "finished": True, "money": {},
                                  "chips": {"Rob": 9, "Sam": -4, "Nick": -5}}
    html = table.page()
    assert 'data-testid="no-chip-value-note"' in html and 'data-chips="9"' in html
    assert "9 chips" in html and nets(html) == result["net"]
    # Only the scorekeeper sets it; the rules check it.
    url = "/games/2/chip-value"
    assert table.post(url, {"chip_value": "0.05"},
                      client=table.phones["Rob"]).status_code == 403
    refused = table.post(url, {"chip_value": "0"})
    assert refused.status_code == 400 and "chip_value must be a positive whole number" in \
        text(refused)
    assert table.post(url, {"chip_value": "5p"}).status_code == 400
    assert table.post("/games/1/chip-value", {"chip_value": "0.05"}).status_code == 400
    assert table.post("/games/9/chip-value", {"chip_value": "0.05"}).status_code == 404
    assert "chip_value" not in table.record()["games"][1]["options"]
    assert table.post(url, {"chip_value": "0.05"}).status_code == 303
    assert table.record()["games"][1]["options"]["chip_value"] == 5
    result = table.result()
    html = table.page()
    assert result["games"][1]["money"] == {"Rob": 45, "Sam": -20, "Nick": -25}
    assert cells(html)[("Rob", 2)] == 45 and nets(html) == result["net"]
    assert "1 chip = £0.05" in html and 'data-testid="no-chip-value-note"' not in html
    # Cleared again: the chips are not money.
    assert table.post(url, {"chip_value": ""}).status_code == 303
    assert "chip_value" not in table.record()["games"][1]["options"]


# --------------------------------------------------------------------------- games not finished


def test_a_running_game_is_in_play_and_a_game_closed_early_is_not_counted(actions):
    table = Evening(actions)
    table.tromplemond()
    table.tromplemond(finish=False, end=False)
    result = table.result()
    html = table.page()
    assert result["in_play"] == {"Rob": -200, "Sam": -200, "Nick": -200, "Emily": -200}
    assert 'data-testid="in-play-note"' in html and 'data-testid="in-play"' in html
    assert cells(html)[("Rob", 2)] == -200 and nets(html) == result["net"]
    assert 'class="uncounted' in html and 'data-testid="square"' not in html
    # Ended before its end: its money stays out of net and owing, and the page says so.
    table.end(2)
    html = table.page()
    assert 'data-testid="closed-early-note"' in html and 'data-testid="in-play"' not in html
    assert transfers(html) == table.result()["owing"] and nets(html) == result["net"]


# --------------------------------------------------------------------------- exports


def test_the_evening_record_goes_out_and_comes_back_the_same(evening):
    payer, payee, amount = evening.result()["owing"][0]
    assert evening.mark(payer, payee, f"{amount / 100:.2f}").status_code == 303
    assert evening.post("/name", {"name": "Friday"}).status_code == 303
    record = evening.record()
    assert list(record) == ["evening", "unit", "games", "paid", "player_ids"]
    assert record["evening"] == "Friday" and record["unit"] == "GBP"
    assert [g["game"] for g in record["games"]] == ["tromplemond", "clumond"]
    answer = evening.app.test_client().post("/api/evenings", json=record)
    assert answer.status_code == 201, text(answer)
    made = answer.get_json()
    assert made["recovery_code"] and made["evening_url"].endswith("/evenings/1")
    again = evening.app.test_client().get(urlsplit(made["evening_url"]).path + "/evening.json")
    # The same players, under the new table's ids (tests/web/test_players.py).
    ids = record.pop("player_ids")
    back = again.get_json()
    assert back.pop("player_ids").keys() == ids.keys() and back == record
    code = urlsplit(made["table_url"]).path.rsplit("/", 1)[-1]
    table = evening.actions.table(code)
    assert [s.name for s in table.seats] == list(PLAYERS) and table.unit == "GBP"
    assert [g.status for g in table.games] == [ENDED, ENDED] and table.name == "Friday (imported)"


@pytest.mark.parametrize("body, message", [
    ({"unit": "GBP", "games": [{"game": "clumond", "players": ["A", "B", "C"],
                                "rounds": [{"tricks": {"A": 13}}]}]}, "game 1: "),
    ({"unit": "pounds", "games": []}, "unit must be a currency's ISO 4217 code"),
    ({"unit": "GBP"}, "The evening has no games"),
    ({"unit": "GBP", "games": [], "paid": [["A", "B", 1]]}, "payment 1: "),
    ({"unit": "GBP", "eveningg": "Fri"}, "an evening has no field 'eveningg'"),
    ([1, 2], "Send an evening record as a JSON object"),
])
def test_an_evening_the_rules_refuse_is_not_imported(app, body, message):
    response = app.test_client().post("/api/evenings", json=body)
    assert response.status_code == 400 and message in response.get_json()["error"]


def test_an_evening_of_more_players_than_seats_or_bad_names_is_refused(app):
    def clumond(players):
        return {"game": "clumond", "players": players, "options": {"rounds": 1},
                "rounds": [{"tricks": dict(zip(players, (3, 4, 6), strict=True)),
                            "declared": dict(zip(players, (3, 8, 1), strict=True))}]}

    many = [clumond([f"P{i}", f"P{i + 1}", f"P{i + 2}"]) for i in range(0, 21, 3)]
    client = app.test_client()
    response = client.post("/api/evenings", json={"unit": "GBP", "games": many})
    assert response.status_code == 400 and "at most 19 players" in response.get_json()["error"]
    response = client.post("/api/evenings", json={"unit": "GBP", "evening": " Fri",
                                                  "games": many[:1]})
    assert response.status_code == 400 and "extra spaces" in response.get_json()["error"]
    assert client.post("/api/evenings", data="{", content_type="application/json"
                       ).status_code == 400


def test_the_money_lines_go_to_a_spreadsheet_and_add_up_to_zero(evening):
    response = evening.keeper.get(evening.url("/lines.csv"))
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(text(response))))
    result = evening.result()
    assert list(rows[0]) == ["game", "table_game", "title", "status", "round", "player", "what",
                             "amount", "unit"]
    assert len(rows) == len(result["lines"])
    for row, line in zip(rows, result["lines"], strict=True):
        assert (int(row["game"]), row["player"], row["what"], row["unit"]) == (
            line["game"], line["player"], line["what"], "GBP")
        assert Decimal(row["amount"]) * 100 == line["amount"]
        assert row["round"] == ("" if line["round"] is None else str(line["round"]))
    for game in ("1", "2"):
        assert sum(Decimal(r["amount"]) for r in rows if r["game"] == game) == 0
    assert {r["title"] for r in rows} == {"Tromplemond", "Clumond"}
    assert {r["status"] for r in rows} == {"finished"}


def test_a_french_device_gets_french_headers_and_the_same_numbers(evening):
    """The header row is in the device's language; the rows stay data, the same numbers in
    the CSV's plain form (``2.25``, not ``2,25 €``) whatever the language."""
    english = list(csv.reader(io.StringIO(text(evening.keeper.get(evening.url("/lines.csv"))))))
    evening.keeper.set_cookie("lang", "fr")
    french = list(csv.reader(io.StringIO(text(evening.keeper.get(evening.url("/lines.csv"))))))
    assert english[0] == ["game", "table_game", "title", "status", "round", "player", "what",
                          "amount", "unit"]
    assert french[0] == ["partie", "partie à la table", "titre", "état", "manche", "joueur",
                         "objet", "montant", "unité"]
    assert french[1:] == english[1:] and len(french) == len(evening.result()["lines"]) + 1


def test_a_german_device_sees_german_dates(evening):
    """The evening's dates on the ledger, the evenings list and the recap are written as
    the device's language writes them (Babel), English as ever."""
    assert evening.post("/close").status_code == 303
    with evening.app.app_context():
        table = db.session.scalar(queries.table_by_code(evening.code))
        opened = db.session.scalar(evenings.evening_number(table.id, 1)).opened_at
    english = opened.strftime("%a %d %b %Y")
    assert english in evening.page()
    for client in (evening.keeper, evening.phones["Sam"]):
        client.set_cookie("lang", "de")
    german = format_skeleton("yMMMEd", opened, locale="de")  # "Sa., 28. Nov. 2026"
    assert german != english
    pages = [evening.page(), text(evening.phones["Sam"].get(f"/t/{evening.code}/evenings")),
             text(evening.keeper.get(evening.url("/recap"))),
             text(evening.keeper.get(evening.url("/recap.txt")))]
    for page in pages:
        assert german in page and english not in page
    assert f"{german}, {opened.strftime('%H:%M')}" in pages[0]


def test_a_name_a_spreadsheet_would_run_is_written_as_text(actions):
    code = actions.create_table(players=("=SUM(A1)", "Sam", "Nick", "Emily"))
    actions.post(f"/t/{code}/start", TROMPLEMOND)
    rows = list(csv.reader(io.StringIO(text(actions.keeper.get(
        f"/t/{code}/evenings/1/lines.csv")))))
    assert {row[5] for row in rows[1:]} == {"'=SUM(A1)", "Sam", "Nick", "Emily"}


# --------------------------------------------------------------------------- closing


def test_closing_needs_every_game_ended_then_a_fresh_evening_begins(actions):
    table = Evening(actions)
    assert table.post("/close").status_code == 409  # nothing played yet
    table.tromplemond()
    number = table.tromplemond(end=False)  # finished by the rules, not yet ended
    assert table.post("/close", client=table.phones["Rob"]).status_code == 403
    refused = table.post("/close")
    assert refused.status_code == 409 and f"Game {number} is being played" in text(refused)
    assert table.post("/close", {"end": "1"}).status_code == 409
    assert f'name="end" value="{number}"' in table.page()  # the page offers to end it
    assert table.post("/close", {"end": str(number)}).status_code == 303
    closed = table.actions.table(table.code)
    assert closed.playing is None and [s.name for s in closed.seats] == list(PLAYERS)
    html = table.page()
    assert 'data-closed="yes"' in html and 'data-testid="close-evening"' not in html
    assert table.post("/close").status_code == 409  # closed already
    assert table.post("/games/1/chip-value", {"chip_value": "1"}).status_code == 409
    first = table.record()

    # A fresh evening: the ledger link opens it, and the next game is in it alone.
    current = table.keeper.get(f"/t/{table.code}/evening")
    assert current.headers["Location"].endswith(table.url(number=2))
    assert 'data-testid="no-games"' in table.page(number=2)
    table.clumond(chip_value=5)
    second = table.record(2)
    assert len(second["games"]) == 1 and second["games"][0]["game"] == "clumond"
    assert table.record() == first

    # Past evenings: both listed and readable, each player's balance by name.
    past = text(table.phones["Emily"].get(f"/t/{table.code}/evenings"))
    assert 'data-testid="evening-1"' in past and 'data-testid="evening-2"' in past
    together = ledger_of({"unit": "GBP", "games": first["games"] + second["games"],
                          "paid": []})
    balances = {name: int(amount) for name, amount in
                re.findall(r'data-balance="([^"]+)" data-amount="(-?\d+)"', past)}
    assert balances == together["net"]
    assert balances == {"Rob": 445 + 400, "Sam": -20, "Nick": -225 - 200,
                        "Emily": -200 - 200}
    one = table.result()
    assert re.findall(r'<td data-evening="1" data-amount="(-?\d+)"', past) == [
        str(one["net"][name]) for name in together["players"]]
    owing = re.findall(r'<li data-payer="([^"]+)" data-payee="([^"]+)" data-amount="(\d+)"',
                       past)
    assert [[p, q, int(a)] for p, q, a in owing] == together["owing"]
    assert 'data-testid="evening-closed"' in table.page(table.phones["Sam"])


def test_payments_can_still_be_marked_on_a_closed_evening(evening):
    assert evening.post("/close").status_code == 303
    payer, payee, amount = evening.result()["owing"][0]
    assert evening.mark(payer, payee, f"{amount / 100:.2f}",
                        client=evening.phones[payee]).status_code == 303
    assert evening.record()["paid"] == [[payer, payee, amount]]


def test_the_evening_is_named_by_the_scorekeeper_only(evening):
    assert evening.post("/name", {"name": "Friday"},
                        client=evening.phones["Rob"]).status_code == 403
    assert evening.post("/name", {"name": "x" * 41}).status_code == 400
    assert evening.post("/name", {"name": "  Friday   night "}).status_code == 303
    assert evening.record()["evening"] == "Friday night"
    assert "Evening 1 · Friday night" in evening.page()
    assert evening.post("/name", {"name": ""}).status_code == 303
    assert evening.record()["evening"] is None


# --------------------------------------------------------------------------- each game's own words


def store_game(table: Evening, record: dict, status: str | None = None) -> None:
    """Start a game of ``record`` at the table through the store (ended when ``status``)."""
    with table.app.app_context():
        stored = db.session.scalar(queries.table_by_code(table.code))
        stored.game = record["game"]
        game = changes.start_game(stored, record)
        if status is not None:
            changes.end_game(stored, game, status)
        db.session.commit()


TREMP_HAND = {"bids": [["Sam", "5♥"], ["Nick", "pass"], ["Emily", "K♠"], ["Rob", "pass"],
                       ["Sam", "pass"], ["Nick", "pass"]], "tricks": 9}


def test_a_tremp_only_evening_says_tremp_moves_no_money(actions):
    """Tremp has no stakes: nothing of it is "in play", and closed early it leaves nothing
    uncounted; the page says it is played for points."""
    table = Evening(actions)
    store_game(table, {"game": "tremp", "players": list(PLAYERS), "first_dealer": "Rob",
                       "rounds": [TREMP_HAND]})
    assert table.result()["games"] == [{"game": "tremp", "finished": False, "money": {}}]
    for client in (table.keeper, table.phones["Sam"]):
        html = table.page(client)
        assert 'data-testid="for-points-note"' in html
        assert "Game 1 (Tremp) is played for points: it moves no money." in html
        assert "still in play" not in html and 'data-testid="in-play-note"' not in html
        assert 'data-testid="in-play"' not in html and "Money still in play" not in html
        assert "its money will not be counted" not in html
    table.end(1)
    html = table.page()
    assert 'data-testid="for-points-note"' in html
    assert 'data-testid="closed-early-note"' not in html and "keeps what they put in" not in html
    assert 'data-testid="square"' in html and "game closed early" not in html


def test_a_game_closed_early_shows_its_chip_money_as_not_counted_beside_the_net(actions):
    """A Clumond at 5p a chip ended after one of its three rounds: its money is out of the
    net (nobody pays for it), and its cells say so instead of reading as money won."""
    table = Evening(actions)
    store_game(table, {"game": "clumond", "players": ["Rob", "Sam", "Nick"],
                       "first_dealer": "Nick", "options": {"rounds": 3, "chip_value": 5},
                       "rounds": [CLUMOND_ROUND]}, ENDED)
    result = table.result()
    assert result["games"][0]["finished"] is False
    # Antes of 15 and Sam's and Nick's 9 missed chips: Rob took a third of the 24, 8.
    assert result["games"][0]["chips"] == {"Rob": 3, "Sam": -9, "Nick": -10}
    assert result["games"][0]["money"] == {"Rob": 15, "Sam": -45, "Nick": -50}
    assert result["net"] == {"Rob": 0, "Sam": 0, "Nick": 0}
    html = table.page()
    assert nets(html) == result["net"]
    assert 'data-status="closed early"' in html and 'data-testid="closed-early-note"' in html
    rob = re.search(r'data-testid="lines-Rob-1">\s*<summary>(.*?)</summary>', html, re.S)
    assert rob and rob.group(1) == ('<del>+£0.15</del> '
                                    '<small class="not-counted">not counted</small>')
    assert "<summary>+£0.15</summary>" not in html
    assert 'data-testid="square"' in html and "a game closed early is not counted" in html


def test_a_player_whose_seat_was_removed_still_reads_their_own_transfers_as_you(evening):
    owing = evening.result()["owing"]
    emily = evening.phones["Emily"]
    payee, amount = next((payee, amount) for payer, payee, amount in owing if payer == "Emily")
    assert emily.get(f"/t/{evening.code}/seat").status_code == 200  # she sat as Emily
    assert evening.actions.post(f"/t/{evening.code}/seats/4/remove").status_code == 303
    assert [s.name for s in evening.actions.table(evening.code).seats] == ["Rob", "Sam", "Nick"]
    html = evening.page(emily)
    assert f"You pay {payee} £{amount / 100:.2f}" in html
    assert f"Emily pays {payee}" not in html
    assert re.findall(r'<tr data-player="([^"]+)" class="mine"', html) == ["Emily"]
    book = text(emily.get(f"/t/{evening.code}/records"))
    assert book.count("(you)") == 1
    # A stranger's phone still reads it as the table's.
    stranger = evening.app.test_client()
    assert f"Emily pays {payee}" in evening.page(stranger)
    # Sam gives up his seat on his phone: his transfer is still his.
    sam = evening.phones["Sam"]
    assert evening.actions.post(f"/t/{evening.code}/seats/2/leave",
                                client=sam).status_code == 303
    sam_pays = next(payee for payer, payee, _amount in owing if payer == "Sam")
    html = evening.page(sam)
    assert f"You pay {sam_pays}" in html and f"Sam pays {sam_pays}" not in html


def test_a_player_who_left_the_game_is_not_counted_as_seated(actions):
    table = Evening(actions)
    store_game(table, {"game": "trefeltromp", "players": list(PLAYERS), "first_dealer": "Rob",
                       "rounds": [{"calls": [[["Sam", "bet", 5], ["Nick", "fold"],
                                              ["Emily", "fold"], ["Rob", "fold"]]],
                                   "leave": ["Emily"]}]})
    for name in ("Emily", "Sam"):
        page = text(table.phones[name].get(f"/t/{table.code}/seat"))
        assert re.search(r'data-testid="seated">3 of 4 seated<', page), name
        assert re.findall(r'data-seat="(\d)" data-joined="yes" data-gone="yes"', page) == ["4"]
        assert page.count('data-testid="left-the-table"') == 1
