"""What a long record costs the server: its import, and each page of its table, against a tap.

Usage: ``.venv/bin/python scripts/bench_records.py [--rounds 50,100,200] [--runs 5]
[--database postgresql+psycopg://…]``

For each game, a record of each length from its generator (``tests/rules/gen_<game>.py``,
kept going as ``scripts/bench_rules.py`` keeps it) is imported through ``POST /api/games``
into the app in this process (Flask's test client, a temporary SQLite file or the
PostgreSQL database given, whose tables are made again first). Then each page whose work
grows with the rounds is asked for: the game's page and its ``record.json``, the evening's
page, ``lines.csv`` and ``evening.json``, and the table's evenings list; the first time (a
new version: the rules replay the record) and again (the same version: what is made once
per version is found). Every time is printed as a multiple of a tap (the tablet choosing the
first dealer at a table of its own: a write of a dozen statements) timed in the same run,
best of ``--runs``. It is the measurement behind ``RECORD_ROUNDS`` (``companion/config.py``)
and of the budgets of 300 and 60 taps that a record at the limit keeps to (a test holds only
the behaviour: ``tests/web/test_records.py``, every page made and replayed once per version).
It only reports.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
import tempfile
import timeit
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench_rules import LONG_GAME, usable_keywords  # noqa: E402  (scripts/ is on the path)

from companion import compile_templates, create_app  # noqa: E402
from companion.extensions import db  # noqa: E402
from companion.rules import GAMES  # noqa: E402

PAGES = {
    "game": "/t/{code}/games/1",
    "record.json": "/t/{code}/games/1/record.json",
    "evening": "/t/{code}/evenings/1",
    "lines.csv": "/t/{code}/evenings/1/lines.csv",
    "evening.json": "/t/{code}/evenings/1/evening.json",
    "evenings": "/t/{code}/evenings",
}
"""The pages whose work grows with a table's rounds."""


def best(action, runs: int) -> float:
    """The shortest of ``runs`` timings of ``action`` (seconds)."""
    return min(timeit.repeat(action, repeat=runs, number=1))


def long_record(game: str, rounds: int, seed: int) -> dict:
    """A ``rounds``-round record of ``game`` from its generator, kept going."""
    generator = importlib.import_module(f"tests.rules.gen_{game}").random_record
    keywords = usable_keywords(generator, game, LONG_GAME.get(game, {}))
    return generator(random.Random(seed), rounds=rounds, **keywords)


def app_for(database: str, folder: str):
    """The app on an empty database (SQLite in ``folder`` unless ``database`` is given),
    without rate limits or CSRF (the benchmark is one client), its templates compiled (as
    the server does before it serves)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                      "WTF_CSRF_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": database or f"sqlite:///{folder}/bench.db"})
    with app.app_context():
        db.drop_all()
        db.create_all()
    compile_templates(app)
    return app


def tap_seconds(app, runs: int) -> float:
    """A tap's time: the tablet choosing the first dealer (best of ``runs``)."""
    tablet = app.test_client()
    made = tablet.post("/new", data={"name": "Taps", "game": "tromplemond", "seats": "4",
                                     "player": ["A", "B", "C", "D"], "dealer": "1"})
    code = made.headers["Location"].rsplit("/", 1)[-1]
    turns = iter(range(10**9))
    return best(lambda: tablet.post(f"/t/{code}/dealer",
                                    data={"dealer": str(1 + next(turns) % 2)}), runs * 4)


def measure(app, game: str, rounds: int, runs: int, seed: int) -> dict[str, float]:
    """Seconds of the import and of each page (first, then again), best of ``runs``."""
    client = app.test_client()
    body = json.dumps(long_record(game, rounds, seed))
    answers = []
    found = {"import": best(lambda: answers.append(client.post(
        "/api/games", data=body, content_type="application/json")), 1)}
    answer = answers[-1]
    if answer.status_code != 201:
        raise RuntimeError(f"{game}, {rounds} rounds: {answer.status_code} {answer.data[:200]}")
    code = urlsplit(answer.get_json()["table_url"]).path.rsplit("/", 1)[-1]
    for name, page in PAGES.items():
        url = page.format(code=code)
        found[name] = best(lambda url=url: client.get(url), 1)
        found[f"{name} again"] = best(lambda url=url: client.get(url), runs)
    found["bytes"] = len(body)
    return found


def main(argv: list[str] | None = None) -> int:
    """Print the report; always exit 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", default="50,100,200", help="record lengths (50,100,200)")
    parser.add_argument("--runs", type=int, default=5, help="timings of each, best kept (5)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the generated games")
    parser.add_argument("--database", default="", help="a PostgreSQL URL (default: SQLite)")
    args = parser.parse_args(argv)
    lengths = [int(n) for n in args.rounds.split(",")]
    with tempfile.TemporaryDirectory(prefix="bench_records-") as folder:
        app = app_for(args.database, folder)
        tap = tap_seconds(app, args.runs)
        print(f"a tap: {1000 * tap:.2f} ms (best of {4 * args.runs}); every other figure is "
              f"in taps (the page's time over a tap's), best of {args.runs}; "
              f"db={'postgresql' if args.database else 'sqlite'}")
        columns = ["import", *(f"{name}{again}" for name in PAGES for again in ("", " again"))]
        print(f"{'game':<17}{'rounds':>7}{'KB':>6}" + "".join(f"{c:>19}" for c in columns))
        for game in GAMES:
            for rounds in lengths:
                try:
                    found = measure(app, game, rounds, args.runs, args.seed)
                except Exception as error:  # noqa: BLE001 - report, never fail
                    print(f"{game:<17}{rounds:>7} error: {type(error).__name__}: {error}")
                    continue
                print(f"{game:<17}{rounds:>7}{found['bytes'] / 1024:>6.0f}"
                      + "".join(f"{found[c] / tap:>19.1f}" for c in columns), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
