"""The five ways an attacker got a 500 out of the app, each now a clear 4xx that changes nothing."""

from __future__ import annotations

import pytest

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
              and any(f"/{game}/" in rule.rule
                      for game in ("clumond", "trefeltromp", "trumplestiltskin", "tremp"))]
    assert len(others) > 10
    for rule in others:
        path = (rule.replace("<code>", code).replace("<int:number>", "1")
                .replace("<int:position>", "1"))
        answers = [actions.post(path, {"round": "1", "at": "0"}, client=client)
                   for client in (actions.keeper, phones[0])]
        assert {answer.status_code for answer in answers} <= {403, 404}, path
        assert any(answer.status_code == 404
                   and "is Tromplemond, not" in answer.get_data(as_text=True)
                   for answer in answers), path
    assert actions.table(code).version == before
