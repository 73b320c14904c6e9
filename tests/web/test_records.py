"""A record at the limit of rounds: every page of its table is made within a budget.

Each page whose work grows with the rounds (the game's page and record, the evening's
page, CSV and record, the table's evenings) is timed the first time (a new version: the
rules replay the record) and again (the same version: what is made once per version is
found), as a multiple of a tap timed in the same run (the tablet choosing the first
dealer). The record is the heaviest of the games at the limit (Trefeltromp, 200 hands:
``scripts/bench_records.py``); a longer one is refused at import
(``tests/web/test_inbound_limits.py``). Before the limit, a record of 1,300 hands made its
table's evenings list in over a thousand taps' time.
"""

from __future__ import annotations

import json
import random
import timeit

import pytest

from tests.rules.gen_trefeltromp import random_record

pytestmark = pytest.mark.db

FIRST = 300
"""Taps' time a page may take the first time at a version (it replays the record)."""
AGAIN = 60
"""Taps' time it may take again at the same version."""
PAGES = ("/t/{code}/games/1", "/t/{code}/games/1/record.json", "/t/{code}/evenings/1",
         "/t/{code}/evenings/1/lines.csv", "/t/{code}/evenings/1/evening.json",
         "/t/{code}/evenings")


def best(action, runs: int) -> float:
    """The shortest of ``runs`` timings of ``action`` (seconds)."""
    return min(timeit.repeat(action, repeat=runs, number=1))


def test_every_page_of_a_record_at_the_limit_is_made_within_its_budget(app, actions):
    app.config["HEAVY_PAGE_LIMIT"] = "1000/minute"  # one client, every page many times
    limit = app.config["RECORD_ROUNDS"]
    record = json.dumps(random_record(random.Random(1), rounds=limit, finish=0.0, cut=0.0,
                                      leave_chance=0.0))
    assert len(json.loads(record)["rounds"]) == limit
    watcher = app.test_client()
    tablet = actions.create_table()
    turns = iter(range(10**6))
    tap = best(lambda: actions.post(f"/t/{tablet}/dealer", {"dealer": str(1 + next(turns) % 2)}),
               20)
    over = []
    for page in PAGES:
        # A table of its own for each page: its first time is the first at its version.
        answer = watcher.post("/api/games", data=record, content_type="application/json")
        assert answer.status_code == 201
        url = page.format(code=answer.get_json()["table_url"].rsplit("/", 1)[-1])
        first = best(lambda url=url: watcher.get(url), 1)
        again = best(lambda url=url: watcher.get(url), 3)
        assert watcher.get(url).status_code == 200
        if first > FIRST * tap or again > AGAIN * tap:
            over.append(f"{url}: {first / tap:.0f} and {again / tap:.0f} taps")
    assert not over, f"over the budget ({FIRST} and {AGAIN} taps of {1000 * tap:.1f} ms): {over}"
