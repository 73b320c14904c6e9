"""A game's score table, its record as JSON, and importing a record through the API."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from urllib.parse import urlsplit

import pytest

from companion.extensions import db
from companion.rules import RuleError, replay
from companion.store import Table
from tests.conftest import CSRF

pytestmark = pytest.mark.db

CLUMOND = {
    "game": "clumond", "players": ["Ann", "Bo", "Cy"], "first_dealer": "Bo",
    "options": {"stack": 100, "ante": 5},
    "rounds": [{"declarer": None, "trump": None, "tricks": {"Ann": 5, "Bo": 4, "Cy": 4},
                "kept": {"Ann": ["3♥", "7♠", "4♦"], "Bo": ["A♣", "2♣", "K♥"],
                         "Cy": ["5♦", "6♦", "Q♠"]}}],
}
GNOME = {
    "game": "trumplestiltskin", "players": ["Ann", "Bo", "Cy", "Di"], "first_dealer": "Ann",
    "options": {},
    "rounds": [{"bids": [["Bo", 10], ["Cy", "pass"], ["Di", 12], ["Ann", "pass"],
                         ["Bo", "pass"]],
                "looked": ["Bo"], "gnome": "9♥", "trump": "♥",
                "points": {"Ann": 3, "Bo": 5, "Cy": 2, "Di": 6}}],
}


def count_tables(app) -> int:
    with app.app_context():
        return db.session.query(Table).count()


def import_record(client, record):
    return client.post("/api/games", data=json.dumps(record), content_type="application/json")


def path(url: str) -> str:
    return urlsplit(url).path


# record.json -----------------------------------------------------------------------------

def test_record_json_is_the_design_record_in_its_order(client, actions):
    code = actions.create_table(dealer=2)
    actions.start(code)
    response = actions.phone().get(f"/t/{code}/games/1/record.json")
    assert response.status_code == 200 and response.is_json
    record = response.get_json()
    assert list(record) == ["game", "players", "first_dealer", "options", "rounds"]
    # The options are written out in full, so the record means the same under any defaults.
    assert record == {"game": "tromplemond", "players": ["Rob", "Sam", "Nick", "Emily"],
                      "first_dealer": "Sam", "options": {
                          "joining_fee": 0, "payout": [75, 25], "tromp_stake": 0, "rounds": 8,
                          "target": 200}, "rounds": []}


def test_record_json_of_an_unknown_game_is_a_json_404(client, actions):
    code = actions.create_table()
    response = client.get(f"/t/{code}/games/3/record.json")
    assert response.status_code == 404 and "no game 3" in response.get_json()["error"]
    assert client.get("/t/BCDFGHJK/games/1/record.json").status_code == 404


def test_a_record_goes_round_the_export_and_import_unchanged(client, actions):
    code = actions.create_table()
    actions.start(code)
    exported = client.get(f"/t/{code}/games/1/record.json").get_json()
    response = import_record(client, exported)
    assert response.status_code == 201
    again = client.get(path(response.get_json()["game_url"]) + "/record.json").get_json()
    assert again == exported


# POST /api/games --------------------------------------------------------------------------

def test_importing_a_record_makes_a_table_playing_it(app, actions):
    api = app.test_client()  # no cookie, no CSRF token: a script
    response = import_record(api, CLUMOND)
    assert response.status_code == 201
    answer = response.get_json()
    assert set(answer) >= {"table_url", "game_url", "recovery_code"}
    assert answer["table_url"].startswith("http://localhost/t/")
    assert re.fullmatch(r"http://localhost/t/[A-Z0-9]{8}/games/1", answer["game_url"])
    code = path(answer["table_url"]).rsplit("/", 1)[-1]
    table = actions.table(code)
    assert table.game == "clumond"
    assert [(s.name, s.key_hash) for s in table.seats] == [("Ann", None), ("Bo", None),
                                                          ("Cy", None)]
    assert table.first_dealer == 2
    assert api.get(path(answer["game_url"]) + "/record.json").get_json() == CLUMOND
    # Nobody holds the scorekeeper key until the recovery code takes the table over.
    assert api.get(path(answer["table_url"])).status_code == 403
    tablet = actions.phone()
    response = actions.post("/recover", {"code": code, "recovery": answer["recovery_code"]},
                            client=tablet)
    assert response.status_code == 303
    assert tablet.get(path(answer["table_url"])).status_code == 200
    # The seats are free, and the game is under way: a phone asks, the new scorekeeper lets
    # it in.
    phone, response = actions.claim(code, 2)
    assert 'id="waiting"' in phone.get(f"/t/{code}/seat").get_data(as_text=True)
    assert actions.approve(code, 2, keeper=tablet).status_code == 303
    assert "You are Bo (seat 2)" in phone.get(f"/t/{code}/seat").get_data(as_text=True)


def test_urls_in_the_answer_use_the_public_url(app):
    app.config["PUBLIC_URL"] = "http://192.168.1.20:5000"
    answer = import_record(app.test_client(), CLUMOND).get_json()
    assert answer["table_url"].startswith("http://192.168.1.20:5000/t/")
    assert answer["game_url"].startswith("http://192.168.1.20:5000/t/")


def test_record_level_flags_are_kept(client):
    record = {"game": "tromplemond", "players": ["Rob", "Sam", "Nick", "Emily"],
              "first_dealer": "Rob", "options": {"joining_fee": 10}, "rounds": [],
              "void": True}
    answer = import_record(client, record).get_json()
    assert client.get(path(answer["game_url"]) + "/record.json").get_json() == record


def test_a_record_the_rules_refuse_is_a_400_with_their_message(app, client):
    bad = {**CLUMOND, "players": ["Ann", "Bo"]}
    with pytest.raises(RuleError) as refused:
        replay(bad)
    before = count_tables(app)
    response = import_record(client, bad)
    assert response.status_code == 400
    assert response.get_json() == {"error": str(refused.value)}
    assert count_tables(app) == before


def test_a_round_that_breaks_the_rules_is_refused(app, client):
    bad = json.loads(json.dumps(CLUMOND))
    bad["rounds"][0]["tricks"]["Ann"] = 9
    before = count_tables(app)
    response = import_record(client, bad)
    assert response.status_code == 400 and response.get_json()["error"]
    assert count_tables(app) == before


@pytest.mark.parametrize("body", ["not json", "{", "[1, 2]", '"tromplemond"', "null", ""])
def test_a_body_that_is_not_a_record_is_a_400(app, client, body):
    before = count_tables(app)
    response = client.post("/api/games", data=body, content_type="application/json")
    assert response.status_code == 400
    assert "JSON object" in response.get_json()["error"]
    assert count_tables(app) == before


def test_a_record_sent_as_a_form_is_a_400(client):
    response = client.post("/api/games", data={"game": "clumond"})
    assert response.status_code == 400 and response.is_json


def test_names_a_seat_cannot_hold_are_refused(app, client):
    long_name = {**CLUMOND, "players": ["Ann", "Bo", "C" * 41], "rounds": [],
                 "first_dealer": "Ann"}
    response = import_record(client, long_name)
    assert response.status_code == 400 and "at most 40" in response.get_json()["error"]
    crowd = {"game": "trefeltromp", "players": [f"P{i}" for i in range(20)],
             "first_dealer": "P0", "rounds": []}
    response = import_record(client, crowd)
    assert response.status_code == 400 and "2 to 19 players, not 20" in response.get_json()["error"]
    assert count_tables(app) == 0


def test_a_huge_body_is_a_413(client):
    record = {**CLUMOND, "padding": "x" * 600_000}
    response = import_record(client, record)
    assert response.status_code == 413 and response.is_json


def test_the_api_is_rate_limited(app):
    app.config["API_LIMIT"] = "3/minute"
    api = app.test_client()
    statuses = [import_record(api, CLUMOND).status_code for _ in range(4)]
    assert statuses == [201, 201, 201, 429]


# The score table ---------------------------------------------------------------------------

def test_the_game_page_shows_the_replayed_result(app):
    client = app.test_client()
    answer = import_record(client, CLUMOND).get_json()
    html = client.get(path(answer["game_url"])).get_data(as_text=True)
    result = replay(CLUMOND)
    for name, total in result["totals"].items():
        assert re.search(rf'data-total="{name}">{total}<', html)
    for name, amount in result["money"].items():
        shown = f"{amount:+d}".replace("-", "\u2212") if amount else "0"
        assert re.search(rf'<th scope="row">{name}</th><td class="[a-z]*">{shown}</td>', html)
    assert re.search(r'<tr data-round="1"[^>]*>\s*<th scope="row">1</th>\s*'
                     r'<td class="dealer">Bo</td>', html)


def test_halves_are_shown_exactly(app):
    client = app.test_client()
    answer = import_record(client, GNOME).get_json()
    assert replay(GNOME)["totals"]["Bo"] == 2.5
    html = client.get(path(answer["game_url"])).get_data(as_text=True)
    assert 'data-total="Bo">2½<' in html


def test_the_game_page_is_public_and_live(app, actions):
    code = actions.create_table()
    actions.start(code)
    watcher = actions.phone()
    html = watcher.get(f"/t/{code}/games/1").get_data(as_text=True)
    assert 'data-testid="score-table"' in html
    v = actions.table(code).version
    assert f'hx-get="/t/{code}/games/1/pulse?v={v}&amp;s=' in html
    response = watcher.get(f"/t/{code}/games/1/pulse?v={v}", headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert watcher.get(f"/t/{code}/games/2").status_code == 404


def test_names_from_an_imported_record_are_escaped(app):
    record = {**CLUMOND, "players": ["<img src=x>", "Bo", "Cy"], "first_dealer": "Bo",
              "rounds": []}
    client = app.test_client()
    answer = import_record(client, record).get_json()
    html = client.get(path(answer["game_url"])).get_data(as_text=True)
    assert "<img src=x>" not in html and "&lt;img src=x&gt;" in html


def test_the_rules_page_is_in_the_device_language_when_translated(client, tmp_path, monkeypatch):
    from companion.rules import games

    def page(path: str) -> str:  # (its form token says the second it was made)
        return CSRF.sub("", client.get(path).get_data(as_text=True))

    english = page("/rules/clumond")
    clumond = games.registered("clumond")
    (tmp_path / "en.md").write_bytes(clumond.translated("en").read_bytes())
    (tmp_path / "fr.md").write_text(
        "# Clumond\n\nUn jeu de plis pour trois joueurs : chacun garde trois cartes.\n\n"
        "- **(house)** Le donneur coupe en dernier.\n", encoding="utf-8")
    monkeypatch.setitem(games._REGISTRY, "clumond",
                        replace(clumond, texts=str(tmp_path / "{lang}.md")))
    client.set_cookie("lang", "fr")
    french = client.get("/rules/clumond").get_data(as_text=True)
    assert "Un jeu de plis pour trois joueurs" in french and "(house)" not in french
    assert re.search(r'<strong class="house" title="[^"]+">[^<]+</strong> Le donneur', french)
    assert "Un jeu de plis pour trois joueurs." in client.get("/rules").get_data(as_text=True)
    # A language without its own text reads the English rules.
    client.set_cookie("lang", "de")
    german = client.get("/rules/clumond").get_data(as_text=True)
    assert "Un jeu de plis" not in german and "Going for Clumond" in german
    client.set_cookie("lang", "en")
    assert page("/rules/clumond") == english
