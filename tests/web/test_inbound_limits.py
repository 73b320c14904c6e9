"""Every inbound limit per address, at its shipped number: at it, taken; over it, a 429 (or a
413) that says the limit, and nothing changed.

Tables made, imports, heavy pages, event streams and a record's rounds. A request's body:
``tests/web/test_intake.py``; a request's head: ``tests/web/test_server_limits.py``.
"""

from __future__ import annotations

import json
import random
import time
from types import SimpleNamespace

import pytest
from sqlalchemy import func, select

from companion import config
from companion.extensions import db
from companion.live import streams as event_streams
from companion.store import Table
from tests.rules import gen_tremp
from tests.waiting import HANG

pytestmark = pytest.mark.db


@pytest.fixture
def shipped(app, monkeypatch):
    """The limits as shipped (the tests' app relaxes those on tables and imports), and a
    clock for them that a test moves on."""
    app.config.update(NEW_TABLE_LIMIT=config.NEW_TABLE_LIMIT, API_LIMIT=config.IMPORT_LIMIT,
                      REFUSED_IMPORT_LIMIT=config.REFUSED_IMPORT_LIMIT,
                      HEAVY_PAGE_LIMIT=config.HEAVY_PAGE_LIMIT, REFUSAL_PAUSE=0.0)
    clock = SimpleNamespace(now=1_000_000.0)
    monkeypatch.setattr("limits.storage.memory.time", SimpleNamespace(time=lambda: clock.now))
    return clock


def tables(app) -> int:
    with app.app_context():
        count = db.session.scalar(select(func.count()).select_from(Table))
        db.session.remove()
        return count


def make(actions, client) -> int:
    """One table made from ``client``'s address: the answer's status."""
    form = {"name": "Limits", "game": "tremp", "seats": "4", "player": ["A", "B", "C", "D"],
            "dealer": "1"}
    return actions.post("/new", form, client=client).status_code


def test_tables_made_per_address_at_and_over_the_limit(app, actions, shipped, monkeypatch):
    assert config.NEW_TABLE_LIMIT == "10/minute;60/hour"
    monkeypatch.setattr("companion.store.changes.recovery_hash", lambda code: "quick")
    laptop = actions.phone()
    # A form refused (a 400) makes no table, and is not counted.
    assert actions.post("/new", {"name": ""}, client=laptop).status_code == 400
    for minute in range(6):
        assert [make(actions, laptop) for _ in range(10)] == [303] * 10
        if minute < 5:
            shipped.now += 61
    refused = actions.post("/new", {"name": "One more", "game": "tremp", "seats": "4",
                                    "player": ["A", "B", "C", "D"]}, client=laptop)
    assert refused.status_code == 429
    assert ("Too many new tables from this network: at most 10 a minute and 60 an hour"
            in refused.get_data(as_text=True))
    assert tables(app) == 60
    shipped.now += 61
    assert make(actions, laptop) == 429, "60 in the hour"
    assert make(actions, actions.phone()) == 303, "another address is not affected"
    shipped.now += 3600
    assert make(actions, laptop) == 303
    assert tables(app) == 62


def test_a_forged_forwarded_address_does_not_escape_the_limit(tmp_path, monkeypatch):
    """Behind a proxy (``COMPANION_PROXY_FIX``), the address is the one the proxy adds last:
    what the client itself put in ``X-Forwarded-For`` counts for nothing."""
    from companion import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "tests", "PROXY_FIX": True,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'proxy.sqlite3'}",
                      "RATELIMIT_STORAGE_URI": "memory://", "NEW_TABLE_LIMIT": "3/minute"})
    with app.app_context():
        db.create_all()
    from companion.extensions import limiter

    limiter.reset()
    monkeypatch.setattr("companion.store.changes.recovery_hash", lambda code: "quick")
    client = app.test_client()
    token = client.get("/new").get_data(as_text=True).split('name="csrf_token" value="')[1]
    token = token.split('"')[0]
    statuses = []
    for forged in ("1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4", "5.5.5.5"):
        statuses.append(client.post("/new", data={
            "csrf_token": token, "name": "Proxy", "game": "tremp", "seats": "4",
            "player": ["A", "B", "C", "D"]},
            headers={"X-Forwarded-For": f"{forged}, 10.0.0.7"}).status_code)
    assert statuses == [303, 303, 303, 429, 429]


RECORD = {"game": "tremp", "players": ["Ann", "Bo", "Cy", "Di"], "rounds": []}


def send(client, path: str, record: dict):
    return client.post(path, data=json.dumps(record), content_type="application/json")


def test_imports_per_address_at_and_over_the_limit(app, shipped):
    assert config.IMPORT_LIMIT == "2/minute;20/hour"
    api = app.test_client()
    evening = {"unit": "GBP", "games": [RECORD], "paid": []}
    for minute in range(10):
        # Games and evenings count together; a record refused does not count.
        assert [send(api, "/api/games", dict(RECORD, typo=1)).status_code,
                send(api, "/api/games", RECORD).status_code,
                send(api, "/api/evenings", evening).status_code] == [400, 201, 201]
        refused = send(api, "/api/games", RECORD)
        assert refused.status_code == 429, minute
        shipped.now += 61
    assert refused.get_json()["error"] == ("Too many imports from this client: at most 2 a "
                                           "minute and 20 an hour. Wait, then send the next one.")
    assert send(api, "/api/games", RECORD).status_code == 429, "20 in the hour"
    assert tables(app) == 20
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.168.1.50"
    assert send(other, "/api/games", RECORD).status_code == 201


def test_refused_imports_per_address_at_and_over_their_limit(app, shipped):
    """A refused import counts towards a looser limit of its own: a flood of bad records is
    held back (and a good one sent in the flood with it), a few mistakes are not."""
    assert config.REFUSED_IMPORT_LIMIT == "10/minute;100/hour"
    api = app.test_client()
    bad = dict(RECORD, players=["Ann", "Bo"])
    for minute in range(10):
        assert [send(api, "/api/games", bad).status_code for _ in range(10)] == [400] * 10
        refused = send(api, "/api/evenings", {"unit": "GBP", "games": [RECORD], "paid": []})
        assert refused.status_code == 429, minute
        shipped.now += 61
    assert refused.get_json()["error"] == (
        "Too many refused imports from this client: at most 10 a minute and 100 an hour. Wait, "
        "check the record, then send it again.")
    assert send(api, "/api/games", RECORD).status_code == 429, "100 in the hour"
    assert tables(app) == 0
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.168.1.51"
    assert send(other, "/api/games", RECORD).status_code == 201
    shipped.now += 3600
    assert send(api, "/api/games", RECORD).status_code == 201
    assert tables(app) == 2


def long_game(rounds: int) -> dict:
    return gen_tremp.random_record(random.Random(rounds), rounds=rounds, avoid_end=True)


def test_a_record_of_the_most_rounds_is_taken_and_one_more_is_a_413(app, client):
    assert app.config["RECORD_ROUNDS"] == config.RECORD_ROUNDS == 200
    over = send(client, "/api/games", long_game(201))
    assert over.status_code == 413
    assert over.get_json()["error"] == (
        "This game has 201 rounds: the app takes at most 200 in one record (a whole night's "
        "play), so nothing was made. Split it, one game or evening at a time.")
    evening = {"unit": "GBP", "games": [long_game(100), long_game(101)], "paid": []}
    over = send(client, "/api/evenings", evening)
    assert over.status_code == 413 and "This evening has 201 rounds" in over.get_json()["error"]
    assert tables(app) == 0
    assert send(client, "/api/games", long_game(200)).status_code == 201
    evening["games"][1] = long_game(100)
    assert send(client, "/api/evenings", evening).status_code == 201
    assert tables(app) == 2


HEAVY = ("/t/{code}/games/1", "/t/{code}/games/1/record.json", "/t/{code}/evenings/1",
         "/t/{code}/evenings/1/lines.csv", "/t/{code}/evenings/1/evening.json",
         "/t/{code}/evenings")
"""The heavy pages of a table (the first game, the first evening)."""


def imported(client, rounds: int) -> str:
    answer = send(client, "/api/games", long_game(rounds))
    assert answer.status_code == 201
    return answer.get_json()["table_url"].rsplit("/", 1)[-1]


def test_heavy_pages_per_address_at_and_over_the_limit(app, client, shipped):
    assert config.HEAVY_PAGE_LIMIT == "20/minute;300/hour" and config.HEAVY_ROUNDS == 50
    usual, long = imported(client, 50), imported(client, 51)
    watcher = app.test_client()
    # The pages of a game of 50 rounds are not heavy: they never count.
    for _ in range(4):  # 24 of them
        for page in HEAVY:
            assert watcher.get(page.format(code=usual)).status_code == 200, page
    # Those of 51 rounds are: 20 a minute.
    for turn in range(20):
        page = HEAVY[turn % len(HEAVY)].format(code=long)
        assert watcher.get(page).status_code == 200, page
    refused = watcher.get(f"/t/{long}/evenings/1")
    assert refused.status_code == 429
    assert ("Too many long pages from this network: at most 20 a minute and 300 an hour of "
            "the pages of games and evenings over 50 rounds" in refused.get_data(as_text=True))
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.168.1.60"
    assert other.get(f"/t/{long}/evenings/1").status_code == 200
    for _minute in range(14):  # 20 a minute, each of the next 14 minutes
        shipped.now += 61
        for _ in range(20):
            assert watcher.get(f"/t/{long}/games/1/record.json").status_code == 200
    shipped.now += 61
    assert watcher.get(f"/t/{long}/games/1").status_code == 429, "300 in the hour"


def test_event_streams_per_address_at_and_over_the_limit(app, actions):
    assert app.config["STREAMS_PER_ADDRESS"] == config.STREAMS_PER_ADDRESS == 40
    code = actions.create_table()
    cafe = app.test_client()
    cafe.environ_base["REMOTE_ADDR"] = "203.0.113.9"
    streams = []
    for _ in range(40):
        response = cafe.get(f"/t/{code}/events", buffered=False)
        said = iter(response.response)
        assert next(said).startswith(b"retry: ")  # open, and listening
        streams.append((response, said))
    over = cafe.get(f"/t/{code}/events", buffered=False)
    assert b"".join(over.response) == event_streams.FULL.encode(), "the 41st screen polls"
    elsewhere = actions.phone().get(f"/t/{code}/events", buffered=False)
    assert next(iter(elsewhere.response)).startswith(b"retry: ")
    elsewhere.close()
    streams.pop()[0].close()  # one screen closes its stream: another may open
    again = cafe.get(f"/t/{code}/events", buffered=False)
    assert next(iter(again.response)).startswith(b"retry: ")
    again.close()
    for response, _said in streams:
        response.close()
    assert app.extensions[event_streams.EXTENSION].open_streams == 0


def test_a_refused_request_waits_a_second_for_its_answer_outside_the_gate(app, shipped,
                                                                        monkeypatch):
    """A client asking again as soon as it is refused asks once a second, not a hundred
    times; meanwhile the others go in (by the one place of the gate, here)."""
    import threading

    from companion import door
    from companion.config import REFUSAL_PAUSE

    assert REFUSAL_PAUSE == 1.0
    app.config["REFUSAL_PAUSE"] = REFUSAL_PAUSE
    gate = app.wsgi_app.gate
    gate.size = gate.most_changes = 1  # a request holding a place would hold them all
    events: list[str] = []
    pausing, pause_over = threading.Event(), threading.Event()

    def pause(seconds: float) -> None:  # the door's pause, until the test lets it end
        events.append(f"pause {seconds}")
        pausing.set()
        pause_over.wait(HANG)
        events.append("pause over")

    monkeypatch.setattr(door, "time", SimpleNamespace(sleep=pause, monotonic=time.monotonic,
                                                      time=time.time))
    api = app.test_client()
    for _ in range(2):
        assert send(api, "/api/games", RECORD).status_code == 201
    answered = []
    waiting = threading.Thread(target=lambda: answered.append(
        send(api, "/api/games", RECORD).status_code), daemon=True)
    waiting.start()
    assert pausing.wait(HANG), "the refused request never paused"
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "192.168.1.70"
    assert other.get("/").status_code == 200
    events.append("other answered")
    pause_over.set()
    waiting.join(HANG)
    assert answered == [429]
    assert events == [f"pause {REFUSAL_PAUSE}", "other answered", "pause over"], (
        "the refused request held a place while it paused")


def test_streams_asked_for_at_the_same_moment_are_held_to_the_limit_too():
    """Fifty streams asked for at once all pass the first look (none is open yet); only as
    many as the address may hold open, the others say ``full``."""
    quiet = SimpleNamespace(versions=lambda ids: {}, follow=lambda *told: None)
    bell = event_streams.Streams(feed=quiet, limit=100, per_address=2)
    asked = [bell.stream(7, 1, address="203.0.113.9") for _ in range(3)]
    assert not bell.full_for("203.0.113.9")
    first = [next(stream) for stream in asked]
    assert [said.startswith("retry:") for said in first] == [True, True, False]
    assert first[2] == event_streams.FULL and bell.open_streams == 2
    for stream in asked:
        stream.close()
    assert bell.open_streams == 0 and not bell.full_for("203.0.113.9")
