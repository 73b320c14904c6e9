"""How much a live poll costs: an unchanged poll (204) against a changed one (the pulse's answer).

Prints figures; asserts nothing. Runs the app in-process (Flask's test client) on a
temporary SQLite file, or on ``DATABASE_URL`` when it is set.

    .venv/bin/python scripts/bench_polls.py
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import create_app  # noqa: E402
from companion.config import database_url  # noqa: E402
from companion.extensions import db  # noqa: E402

POLLS = 500


def timed(client, url: str, headers: dict[str, str]) -> tuple[list[float], int, int]:
    """Milliseconds for each of ``POLLS`` GETs of ``url``, the last status and body size."""
    times = []
    response = None
    for _ in range(POLLS):
        start = time.perf_counter()
        response = client.get(url, headers=headers)
        times.append((time.perf_counter() - start) * 1000)
    return times, response.status_code, len(response.get_data())


def main() -> None:
    """Make a table with four seated phones and time the seat page's pulse."""
    with tempfile.TemporaryDirectory() as folder:
        url = os.environ.get("DATABASE_URL")
        app = create_app({
            "TESTING": True, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": (database_url(url, folder) if url
                                        else f"sqlite:///{folder}/bench.sqlite3"),
            "RATELIMIT_ENABLED": False,
        })
        with app.app_context():
            db.drop_all()
            db.create_all()
        keeper = app.test_client()
        made = keeper.post("/new", data={
            "name": "Bench", "game": "tromplemond", "seats": "4",
            "player": ["Rob", "Sam", "Nick", "Emily"], "dealer": "1"})
        code = made.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
        phone = app.test_client()
        phone.post(f"/j/{code}/claim", data={"seat": "1"})
        page = phone.get(f"/t/{code}/seat").get_data(as_text=True)
        version = re.search(rf"/t/{code}/seat/pulse\?v=(\d+)", page).group(1)
        htmx = {"HX-Request": "true"}
        quiet, quiet_status, quiet_size = timed(phone, f"/t/{code}/seat/pulse?v={version}", htmx)
        fresh, fresh_status, fresh_size = timed(phone, f"/t/{code}/seat/pulse?v=0", htmx)
        print(f"live poll of a phone's seat page (its pulse), {POLLS} polls each "
              f"({'DATABASE_URL' if url else 'SQLite'}, in-process, one core)")
        for label, times, status, size in (
                ("unchanged (204)", quiet, quiet_status, quiet_size),
                ("changed (partial)", fresh, fresh_status, fresh_size)):
            print(f"  {label:18} status {status}  body {size:5} bytes  "
                  f"median {statistics.median(times):.2f} ms  "
                  f"p95 {sorted(times)[int(len(times) * 0.95)]:.2f} ms")
        per_second = 1000 / statistics.median(quiet)
        print(f"  one worker thread answers about {per_second:.0f} unchanged polls a second, "
              f"enough for {per_second * 2:.0f} screens polling every 2 s")


if __name__ == "__main__":
    main()
