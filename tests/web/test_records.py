"""A record at the limit of rounds: every page of its table is made, and made once per version.

Each page whose work grows with the rounds (the game's page and record, the evening's
page, CSV and record, the table's evenings) replays the record the first time it is asked
for at a version; asked again at the same version, what was made once is found, and the
record is not replayed again. The record is the heaviest of the games at the limit
(Trefeltromp, 200 hands); a longer one is refused at import
(``tests/web/test_inbound_limits.py``). How long each page takes, as a multiple of a tap, is
``scripts/bench_records.py``'s figure (run by hand; its history is in docs/performance.md):
a test holds the behaviour, never a time.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.games.trefeltromp import rules as trefeltromp
from tests.rules.gen_trefeltromp import random_record

pytestmark = pytest.mark.db

PAGES = ("/t/{code}/games/1", "/t/{code}/games/1/record.json", "/t/{code}/evenings/1",
         "/t/{code}/evenings/1/lines.csv", "/t/{code}/evenings/1/evening.json",
         "/t/{code}/evenings")


def test_every_page_of_a_record_at_the_limit_is_made_and_replayed_once_per_version(
        app, monkeypatch):
    app.config["HEAVY_PAGE_LIMIT"] = "1000/minute"  # one client, every page many times
    limit = app.config["RECORD_ROUNDS"]
    record = json.dumps(random_record(random.Random(1), rounds=limit, finish=0.0, cut=0.0,
                                      leave_chance=0.0))
    assert len(json.loads(record)["rounds"]) == limit
    replays = []
    real_replay = trefeltromp.replay

    def counted(game_record, *args, **kwargs):
        replays.append(len(game_record["rounds"]))
        return real_replay(game_record, *args, **kwargs)

    monkeypatch.setattr(trefeltromp, "replay", counted)
    watcher = app.test_client()
    replayed_again = []
    for page in PAGES:
        # A table of its own for each page: its first time is the first at its version.
        answer = watcher.post("/api/games", data=record, content_type="application/json")
        assert answer.status_code == 201
        url = page.format(code=answer.get_json()["table_url"].rsplit("/", 1)[-1])
        first = watcher.get(url)
        assert first.status_code == 200, url
        before = len(replays)
        again = watcher.get(url)
        assert again.status_code == 200, url
        assert again.get_data() == first.get_data() or url.endswith(("/1", "/evenings")), url
        if len(replays) > before:
            replayed_again.append(f"{url}: {len(replays) - before} replays")
    assert replays, "no page replayed the record (the count no longer sees the rules' replay)"
    assert not replayed_again, f"asked again at the same version, replayed: {replayed_again}"
