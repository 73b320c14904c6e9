"""The ways an attacker got a 500 out of the app, each now a clear 4xx that changes nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from companion.extensions import db, limiter
from companion.store import Table
from companion.store.evenings import AMOUNT_LIMIT
from companion.web.games import load_flows
from tests.web.phases import PHASES

FLOWS = load_flows()
"""Every registered game's flow."""

pytestmark = pytest.mark.db

HUGE = ["2147483648", "9223372036854775808", "99999999999999999999999"]


def tromplemond(actions):
    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.start(code)
    actions.post(f"/t/{code}/games/1/tromplemond/vote", {"round": "1"})
    return code, phones


@pytest.mark.parametrize("stage", ["²", "١", "٣", "1" * 30, "-1"])
def test_unicode_and_huge_digits_in_a_slip_are_refused(actions, stage):
    code, phones = tromplemond(actions)
    before = actions.table(code).version
    response = actions.vote(code, phones[0], "Sam", stage=stage)
    assert response.status_code == 400 and "names no vote" in response.get_data(as_text=True)
    assert actions.table(code).version == before


@pytest.mark.parametrize("number", HUGE)
def test_oversized_numbers_in_a_url_are_a_404(app, actions, number):
    code, phones = tromplemond(actions)
    urls = [rule.rule for rule in app.url_map.iter_rules() if "<int:" in rule.rule]
    assert len(urls) > 10
    for rule in urls:
        path = rule.replace("<code>", code)
        for name in ("number", "position", "round_number", "request_id"):
            path = path.replace(f"<int:{name}>", number)
        path = path.replace("<step>", "vote").replace("<any(approve, deny):answer>", "deny")
        for client in (actions.keeper, phones[0]):
            assert client.get(path).status_code in (404, 405), path
            response = actions.post(path, {"round": "1"}, client=client)
            assert response.status_code in (404, 405), path
    assert actions.table(code).games[0].rounds == []


@pytest.mark.parametrize(("body", "message"), [
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"game": "tremp", "players": ["A", "B", "C", "D"], "x": NaN}', "NaN is not a number"),
    (b'{"game": "tremp", "players": ["A", "B", "C", "D"], "x": 1e400}', "too large a number"),
    (b'{"game": "tremp", "players": ["A", "B", "C", "\\ud800"]}', "valid UTF-8"),
    (b'{"game": "tremp", "players": ["A", "B", "C", "D"], "rounds": [], "notes": "hi"}',
     "has no field 'notes'"),
])
def test_an_imported_record_that_json_or_the_rules_cannot_keep_is_refused(client, actions,
                                                                        body, message):
    response = client.post("/api/games", data=body, content_type="application/json")
    assert response.status_code == 400 and message in response.get_json()["error"]
    assert client.post("/api/games", json={"game": "tremp", "players": ["A", "B", "C", "D"],
                                           "rounds": []}).status_code == 201


def test_one_games_screens_refuse_another_game(app, actions):
    """A Trefeltromp or Clumond tap sent to a Tromplemond game is a 404 and changes nothing
    (it once reached the other game's code and failed with a 500)."""
    code, phones = tromplemond(actions)
    before = actions.table(code).version
    others = [rule.rule for rule in app.url_map.iter_rules()
              if rule.rule.startswith("/t/<code>/games/<int:number>/")
              and "POST" in rule.methods and "/tromplemond/" not in rule.rule
              and any(f"/{game}/" in rule.rule for game in FLOWS if game != "tromplemond")]
    assert len(others) > 10
    for rule in others:
        path = (rule.replace("<code>", code).replace("<int:number>", "1")
                .replace("<int:position>", "1"))
        answers = [actions.post(path, {"round": "1", "moment": "0"}, client=client)
                   for client in (actions.keeper, phones[0])]
        assert {answer.status_code for answer in answers} <= {403, 404}, path
        assert any(answer.status_code == 404
                   and "is Tromplemond, not" in answer.get_data(as_text=True)
                   for answer in answers), path
    assert actions.table(code).version == before


def test_each_games_own_screens_refuse_a_game_of_another_kind(app, actions):
    """A game's own screen (a GET under ``…/games/<n>/<game>/``) opened on a game of another
    kind is a 404 that says which game it is, for anyone: the Tremp judge, the Tromplemond
    penalties and the Trefeltromp hand story once failed there with a 500."""
    screens = {game: [rule.rule for rule in app.url_map.iter_rules()
                      if "GET" in rule.methods and rule.endpoint.startswith(f"{game}.")]
               for game in FLOWS}
    assert sum(map(len, screens.values())) >= 8
    for phase in PHASES:
        if phase.name != "dealing" and phase.name != "ready to deal":
            continue
        place = phase.build(actions)
        stranger = app.test_client()
        for game, rules in screens.items():
            if game == phase.game:
                continue
            for rule in rules:
                path = (rule.replace("<code>", place.code).replace("<int:number>", "1")
                        .replace("<int:position>", "1").replace("<int:hand_number>", "1"))
                for client in (actions.keeper, place.phone, stranger):
                    limiter.reset()  # (a 404 counts as a wrong code: 30 a minute a device)
                    answer = client.get(path)
                    assert answer.status_code == 404, (path, answer.status_code)
                    assert (f"Game 1 is {FLOWS[phase.game].title}, not {FLOWS[game].title}: "
                            "that screen is not for it.") in answer.get_data(as_text=True)


def evening_paying(amount: object) -> dict:
    """An evening record of a Tremp game being played, and Rob paying Sam ``amount``."""
    return {"unit": "GBP", "paid": [["Rob", "Sam", amount]],
            "games": [{"game": "tremp", "players": ["Rob", "Sam", "Nick", "Emily"],
                       "rounds": []}]}


def tables(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Table))


@pytest.mark.parametrize("amount", [AMOUNT_LIMIT + 1, 2**63, 10**30, float(2**63)])
def test_an_imported_payment_larger_than_the_app_keeps_is_refused(app, client, amount):
    """A payment the rules read but no payment row holds (it once gave a 500: an overflow on
    SQLite from 2**63, on PostgreSQL from 2**31) is refused as the rules refuse one."""
    response = client.post("/api/evenings", json=evening_paying(amount))
    assert response.status_code == 400
    assert response.get_json()["error"] == (
        f"payment 1: the amount must be at most {AMOUNT_LIMIT}, not {int(amount)}")
    assert tables(app) == 0


def test_an_imported_payment_of_the_most_the_app_keeps_is_kept(app, client):
    response = client.post("/api/evenings", json=evening_paying(AMOUNT_LIMIT))
    assert response.status_code == 201, response.get_json()
    record = client.get(response.get_json()["evening_url"].removeprefix("http://localhost")
                        + "/evening.json").get_json()
    assert record["paid"] == [["Rob", "Sam", AMOUNT_LIMIT]] and tables(app) == 1


@pytest.mark.parametrize("record", [
    {"game": "clumond", "players": ["Ann", "Bo", "Cy"], "options": {"chip_value": 9 * 10**4299},
     "rounds": [{"tricks": {"Ann": 3, "Bo": 4, "Cy": 6}, "declared": {"Ann": 3, "Bo": 8,
                                                                     "Cy": 1}}]},
    {"game": "tromplemond", "players": ["Rob", "Sam", "Nick", "Emily"],
     "options": {"joining_fee": 2**53}, "rounds": []},
])
def test_an_imported_number_beyond_what_json_readers_keep_is_refused(app, client, record):
    """A number the rules read but JSON readers elsewhere do not take back exactly (beyond
    2**53 - 1) is refused: a chip worth 9×10**4299 pence made the evening's pages fail with
    a 500 (Python writes no whole number of more than 4300 digits)."""
    for url, body in (("/api/games", record), ("/api/evenings", {"unit": "GBP",
                                                                 "games": [record]})):
        response = client.post(url, json=body)
        assert response.status_code == 400, url
        assert response.get_json()["error"].endswith(
            "is more than the app keeps: a number of a record is at most 9007199254740991")
    assert tables(app) == 0


def test_an_imported_evening_of_the_largest_numbers_shows_on_every_page(app, actions):
    """The largest fee, stake and chip value a record may hold, and the largest payment:
    every page of the table shows them (the fuzz sweep goes through all of them)."""
    place = next(phase for phase in PHASES if phase.name.startswith("imported")).build(actions)
    pages = ("/evening", "/evenings", "/evenings/1", "/evenings/1/lines.csv", "/games/1",
             "/games/2", "/games/2/pulse")
    for client, own in ((actions.keeper, ""), (place.phone, "/seat")):
        for path in (own, *pages):
            assert client.get(f"/t/{place.code}{path}").status_code in (200, 303), path
    page = actions.keeper.get(f"/t/{place.code}/games/2").get_data(as_text=True)
    assert "90071992547409.91" in page.replace(",", "")
