"""The record book's page, the night's recap and the import page, through the Flask client.

Two evenings at one table (Rob, Sam, Nick and Emily; Rob wins each Tromplemond for a
£2.00 fee, Sam is runner-up): every figure the book shows is the one
``companion.rules.records.record_book`` gives for the table's exported evening records.
"""

from __future__ import annotations

import html
import io
import json
import re

import pytest

from companion.rules.records import record_book
from companion.web.records.book import marked_names
from tests.web.test_ledger import Evening, text

pytestmark = pytest.mark.db


@pytest.fixture
def table(actions) -> Evening:
    """Evening 1 (a Tromplemond) closed; evening 2 (another) being played, its game over."""
    table = Evening(actions)
    table.tromplemond()
    assert table.post("/close").status_code == 303
    table.tromplemond()
    return table


def figures(page: str) -> dict[tuple[str, str, str], str]:
    """The book's figures by (player id, game, figure), as shown."""
    found = {}
    for player, body in re.findall(r'data-player="([^"]+)">(.*?)</section>', page, re.S):
        for game, block in re.findall(r'<dl class="figures" data-game="(\w+)">(.*?)</dl>',
                                      body, re.S):
            for testid, value in re.findall(
                    r'data-testid="([\w-]+)">\s*<dt>.*?<span class="value">([^<]*)</span>',
                    block, re.S):
                found[(player, game, testid)] = html.unescape(value)
    return found


def test_the_book_shows_the_rules_figures_with_links_to_where_they_came_from(table):
    page = text(table.keeper.get(f"/t/{table.code}/records"))
    book = record_book([table.record(1), table.record(2)])
    shown = figures(page)
    for player in book.players:
        tromplemond = player.games["tromplemond"]
        assert shown[(player.id, "tromplemond", "played")] == "2"
        assert shown[(player.id, "tromplemond", "won")] == str(tromplemond.won.value)
    rob = next(p for p in book.players if p.name == "Rob")
    assert rob.games["tromplemond"].won.value == 2
    assert rob.games["tromplemond"].money["GBP"].value == 800  # twice: £6 of £8, less £2
    assert shown[(rob.id, "tromplemond", "money-GBP")] == "+£8.00"
    # Where the best round came from: the game's page, at the round.
    assert f'href="/t/{table.code}/games/1#round-1"' in page
    for game, number in re.findall(rf'href="/t/{table.code}/games/(\d+)#round-(\d+)"', page):
        shown_game = text(table.keeper.get(f"/t/{table.code}/games/{game}"))
        assert shown_game.count(f'id="round-{number}"') == 1, (game, number)
    assert 'data-testid="highest-tromplemond-round"' in page
    # One tap from the ledger, on the tablet and on every phone.
    for client in (table.keeper, table.phones["Sam"]):
        ledger = text(client.get(f"/t/{table.code}/evenings/2"))
        assert f'href="/t/{table.code}/records"' in ledger


def test_a_phone_sees_the_book_with_its_own_player_picked_out(table):
    page = text(table.phones["Nick"].get(f"/t/{table.code}/records"))
    assert page.count("(you)") == 1
    assert re.search(r'book-player mine"[^>]*>\s*<h2[^>]*><span data-testid="player-name">Nick',
                     page)


def test_two_players_who_share_a_name_are_marked_apart():
    def evening(name: str, player_id: str) -> dict:
        hand = {"points": 20, "public_jacks": 0, "secret_jacks": 0}
        seats = [name, "Ben", "Cleo", "Dev"]
        return {"unit": "GBP", "player_ids": {name: player_id},
                "games": [{"game": "tromplemond", "players": seats, "options": {"rounds": 1},
                           "rounds": [{"hands": {s: hand for s in seats[:3]},
                                       "voted_off": "Dev"}]}]}

    book = record_book([evening("Sam", "7"), evening("Sam", "9")])
    names = marked_names(book)
    assert names["7"] == "Sam #1" and names["9"] == "Sam #2" and names["Ben"] == "Ben"


def test_the_recap_says_who_won_and_who_pays_whom_as_picture_and_text(table):
    result = table.result(1)
    page = text(table.keeper.get(f"/t/{table.code}/evenings/1/recap"))
    svg = table.keeper.get(f"/t/{table.code}/evenings/1/recap.svg")
    plain = text(table.keeper.get(f"/t/{table.code}/evenings/1/recap.txt"))
    assert svg.mimetype == "image/svg+xml" and svg.data.startswith(b"<svg")
    picture = svg.get_data(as_text=True)
    assert "Tromplemond: won by Rob" in plain and "Tromplemond: won by Rob" in picture
    for payer, payee, _amount in result["owing"]:
        assert f"{payer} pays {payee}" in plain
        assert f"{payer} pays {payee}" in picture
        assert f"{payer} pays {payee}" in html.unescape(page)
    best = record_book([table.record(1)]).records.highest_tromplemond_round
    assert f"Best Tromplemond round: {best.value} points, Rob (round 1)" in plain
    assert 'data-testid="share-recap"' in page and "recap.js" in page
    print(f"recap: SVG {len(svg.data)} bytes, text {len(plain.encode())} bytes")


def test_the_recap_escapes_names_in_the_picture(actions):
    table = Evening(actions)
    assert actions.post(f"/t/{table.code}/evenings/1/name",
                        {"name": "<b>&\"Fri\""}).status_code in (303, 400)
    table.tromplemond()
    picture = table.keeper.get(f"/t/{table.code}/evenings/1/recap.svg").get_data(as_text=True)
    assert "<b>" not in picture


def upload(client, token: str, body: bytes, name: str = "evening.json"):
    return client.post("/import", data={"csrf_token": token,
                                        "record": (io.BytesIO(body), name)},
                       content_type="multipart/form-data")


def test_the_tablet_imports_an_evening_from_a_file_and_keeps_the_table(app, table):
    record = table.record(1)
    tablet = app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"',
                      text(tablet.get("/import"))).group(1)
    answer = upload(tablet, token, json.dumps(record).encode())
    assert answer.status_code == 303, text(answer)
    ledger = answer.headers["Location"]
    assert re.search(r"/t/\w+/evenings/1$", ledger)
    code = ledger.split("/")[2]
    made = tablet.get(f"/t/{code}/evenings/1/evening.json").get_json()
    assert made["games"] == record["games"] and made["paid"] == record["paid"]
    assert tablet.get(f"/t/{code}").status_code == 200  # this screen is the scorekeeper


def test_the_import_page_refuses_what_the_api_refuses_in_a_person_s_words(app, table):
    """The page refuses what the API refuses, with the same facts, said for a person holding
    a file rather than for a developer (every kind, in each language: test_import_page.py)."""
    tablet = app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"',
                      text(tablet.get("/import"))).group(1)
    record = table.record(1)
    record["games"][0]["rounds"][0]["voted_off"] = "Nobody"
    api = app.test_client().post("/api/evenings", json=record)
    page = upload(tablet, token, json.dumps(record).encode())
    assert api.status_code == page.status_code == 400
    message = api.get_json()["error"]
    assert message.startswith("game 1: round 1:")
    shown = html.unescape(text(page))
    assert f"The rules refuse this record, so nothing was made. G{message[1:]}." in shown
    broken = upload(tablet, token, b"{not json")
    assert broken.status_code == 400
    assert "it could not be read. Pick the .json file the companion exported." in text(broken)
    assert "JSON object" not in text(broken) and "Expecting" not in text(broken)
    game = dict(record["games"][0], rounds=[], typo=1)
    refused = upload(tablet, token, json.dumps(game).encode(), "record.json")
    assert refused.status_code == 400
    assert "has a field the app does not know (\u201ctypo\u201d)" in html.unescape(text(refused))
    empty = tablet.post("/import", data={"csrf_token": token})
    assert empty.status_code == 400 and "Pick a file" in text(empty)


@pytest.mark.parametrize(("lang", "shown"), [
    ("en", ["−0.3", "0.3", "−2.3", "2.5", "0.0", "1234.6", "3", "−1"]),
    ("fr", ["−0,3", "0,3", "−2,3", "2,5", "0,0", "1234,6", "3", "−1"]),
    ("de", ["−0,3", "0,3", "−2,3", "2,5", "0,0", "1234,6", "3", "−1"]),
    ("nb", ["−0,3", "0,3", "−2,3", "2,5", "0,0", "1234,6", "3", "−1"]),
])
def test_an_average_is_rounded_as_a_person_rounds_it_in_the_device_s_language(app, lang, shown):
    """A half goes away from zero (−0.25 is −0.3, not the −0.2 of rounding half to even),
    and the number is written as the device's language writes it."""
    from fractions import Fraction

    from companion.web.records.book import average_text

    averages = [Fraction(-1, 4), Fraction(1, 4), Fraction(-7, 3), Fraction(5, 2),
                Fraction(-1, 40), Fraction(24691, 20), 3, -1]
    with app.test_request_context(headers={"Accept-Language": lang}):
        assert [average_text(a) for a in averages] == shown
