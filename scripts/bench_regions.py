"""What each screen costs in process: an 8-round Tromplemond game, its polls and its pages.

For the unchanged poll, the changed regions as a pulse brings them (a phone's round, the
tablet's round: their page's pulse with only the version behind; the scoreboard: a score
page's pulse) and the whole pages (tablet, phone): the median and p95 time, the SQL
queries, the replays of the rules, and the size of the answer (plain and gzipped).
Prints figures; asserts nothing. SQLite in a temporary folder, or ``DATABASE_URL``.

    .venv/bin/python scripts/bench_regions.py
"""

from __future__ import annotations

import gzip
import html
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import event  # noqa: E402

from companion import create_app  # noqa: E402
from companion.config import database_url  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.games.tromplemond import rules as tromplemond  # noqa: E402
from tests.conftest import TableActions  # noqa: E402
from tests.web.test_tromplemond import Table as Game  # noqa: E402

RUNS = 200
HTMX = {"HX-Request": "true"}


class Counter:
    """Counts SQL statements and replays while it is on."""

    def __init__(self) -> None:
        self.queries = self.replays = 0


def round_only(client, page: str) -> str:
    """The pulse URL of ``page`` with the version behind and the other stamps as shown: its
    answer brings the round alone."""
    drawn = client.get(page).get_data(as_text=True)
    shown = re.search(r'id="pulse" hidden hx-get="([^"]*)"', drawn)
    return re.sub(r"([?&])v=\d+", r"\g<1>v=0", html.unescape(shown.group(1)))


def measure(client, url: str, counter: Counter, headers: dict[str, str],
            gzip_ok: bool = False) -> dict[str, float]:
    """Median and p95 milliseconds of ``RUNS`` GETs, with queries, replays and sizes."""
    times = []
    counter.queries = counter.replays = 0
    extra = {"Accept-Encoding": "gzip"} if gzip_ok else {}
    response = None
    for _ in range(RUNS):
        start = time.perf_counter()
        response = client.get(url, headers=headers | extra)
        times.append((time.perf_counter() - start) * 1000)
    body = response.get_data()
    sent_gzipped = response.headers.get("Content-Encoding") == "gzip"
    plain = gzip.decompress(body) if sent_gzipped else body
    times.sort()
    return {"status": response.status_code, "median": statistics.median(times),
            "p95": times[int(len(times) * 0.95)], "queries": counter.queries / RUNS,
            "replays": counter.replays / RUNS, "bytes": len(plain),
            # What the app sends gzipped (at its own level), else what gzip would make of it.
            "gzip": len(body) if sent_gzipped else len(gzip.compress(plain))}


def main() -> None:
    """Play 8 rounds, then time every screen's polls and pages."""
    folder = tempfile.mkdtemp()
    url = os.environ.get("DATABASE_URL")
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "PUBLIC_URL": "",
                      "RATELIMIT_STORAGE_URI": "memory://",
                      "SQLALCHEMY_DATABASE_URI": (database_url(url, folder) if url
                                                  else f"sqlite:///{folder}/bench.sqlite3")})
    with app.app_context():
        if url:
            db.drop_all()
        db.create_all()
    counter = Counter()
    real_replay = tromplemond.replay

    def counted_replay(record):
        counter.replays += 1
        return real_replay(record)

    tromplemond.replay = counted_replay
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute",
                     lambda *args: setattr(counter, "queries", counter.queries + 1))
    actions = TableActions(app, app.test_client())
    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.post(f"/t/{code}/start", {"joining_fee": "2.00", "tromp_stake": "0.50"})
    game = Game(actions, code, phones)
    for number in range(7):
        off = ("Rob", "Sam", "Nick", "Emily")[number % 4]
        game.vote_off(off)
        for name in ("Rob", "Sam", "Nick", "Emily"):
            if name != off:
                game.quick(name, 10 + 2 * number)
        game.confirm()
    game.vote_off("Emily")  # round 8: the hands are being entered
    game.quick("Rob", 20)
    version = actions.table(code).version
    keeper, sam = actions.keeper, phones[1]
    rows = [
        ("unchanged poll (204)", sam, f"/t/{code}/seat/pulse?v={version}", HTMX, False),
        ("phone round, changed", sam, round_only(sam, f"/t/{code}/seat"), HTMX, False),
        ("tablet round, changed", keeper, round_only(keeper, f"/t/{code}"), HTMX, False),
        ("scoreboard, changed", sam, f"/t/{code}/games/1/pulse?v=0", HTMX, False),
        ("tablet page", keeper, f"/t/{code}", {}, True),
        ("phone page", sam, f"/t/{code}/seat", {}, True),
    ]
    print(f"An 8-round Tromplemond game, {RUNS} GETs each "
          f"({'PostgreSQL' if url else 'SQLite'}, in process)")
    print(f"  {'':24} {'status':>6} {'median':>9} {'p95':>9} {'queries':>8} {'replays':>8} "
          f"{'bytes':>7} {'gzip':>6}")
    for label, client, path, headers, gzip_ok in rows:
        got = measure(client, path, counter, headers, gzip_ok)
        print(f"  {label:24} {got['status']:>6} {got['median']:>7.2f}ms {got['p95']:>7.2f}ms "
              f"{got['queries']:>8.1f} {got['replays']:>8.2f} {got['bytes']:>7} "
              f"{got['gzip']:>6}")


if __name__ == "__main__":
    main()
