"""A club's server: several gunicorn servers (or workers) on one PostgreSQL database.

A change made through one server reaches the screens whose event streams are on another
at once, told by PostgreSQL (``LISTEN``/``NOTIFY``: ``companion.live.feed``), and no
server reads versions on a timer; a dropped listening connection is made again; the
workers of one server seal and open the slips of one vote with the one key, and a second
server beside one whose keys are its own is refused. PostgreSQL only (skipped on SQLite).
"""

from __future__ import annotations

import http.client
import os
import queue
import re
import subprocess
import threading
import time
from pathlib import Path

import psycopg
import pytest

from tests.conftest import sealed_fields, worker_number
from tests.waiting import HANG, Ceiling
from tests.web.served import GUNICORN, ROOT, Device, free_port, make_table, served

pytestmark = pytest.mark.db

REDIS = f"redis://127.0.0.1:6379/{max(1, 13 - worker_number())}"
"""The machine's Redis (shared with others: a database number of these tests' own, one for
each xdist worker)."""

COUNTING = f'''
exec(open({str(ROOT / "gunicorn.conf.py")!r}).read())
_real_post_fork = post_fork


def post_fork(server, worker):
    """Write each statement the worker sends the database to a file: pid, time, statement."""
    import os
    import time

    import psycopg

    _real_post_fork(server, worker)
    log = open(os.environ["STATEMENT_LOG"], "a", buffering=1)
    execute = psycopg.Cursor.execute

    def counted(self, query, *args, **kwargs):
        text = query if isinstance(query, str) else repr(query)
        log.write(f"{{os.getpid()}} {{time.time():.3f}} {{' '.join(text.split())[:70]}}\\n")
        return execute(self, query, *args, **kwargs)

    psycopg.Cursor.execute = counted
'''


@pytest.fixture
def database(app) -> str:
    """The test's PostgreSQL database (its tables made by the ``app`` fixture)."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if url.startswith("sqlite"):
        pytest.skip("several servers on one database: PostgreSQL")
    return url


def sql(url: str, statement: str, *values) -> list[tuple]:
    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"),
                         autocommit=True) as connection:
        return connection.execute(statement, values).fetchall()


class Stream:
    """A screen's event stream on a server, read in a thread: each version it says."""

    def __init__(self, port: int, code: str, cookies: dict[str, str]) -> None:
        self.said: queue.Queue[int] = queue.Queue()
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG)
        self.connection.request("GET", f"/t/{code}/events", headers={
            "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())})
        self.answer = self.connection.getresponse()
        assert self.answer.status == 200
        assert self.answer.getheader("Content-Type").startswith("text/event-stream")
        self.first = self._next_version()
        threading.Thread(target=self._read, daemon=True).start()

    def _next_version(self) -> int | None:
        while True:
            line = self.answer.fp.readline()
            if not line:
                return None
            if line.startswith(b"data: "):
                return int(line[6:])

    def _read(self) -> None:
        try:
            while (version := self._next_version()) is not None:
                self.said.put(version)
        except (OSError, ValueError, AttributeError):  # (closed)
            pass

    def heard(self, version: int) -> None:
        """Wait until the stream says ``version`` (heartbeats skipped)."""
        ceiling = Ceiling()
        while True:
            try:
                got = self.said.get(timeout=ceiling.left())
            except queue.Empty:
                raise AssertionError(f"version {version} never heard") from None
            if got >= version:
                assert got == version
                return

    def close(self) -> None:
        self.connection.close()


def rename(keeper: Device, code: str, n: int) -> None:
    status, page, _ = keeper.post(f"/t/{code}/seats/1/name", {"name": f"Rob {n}"},
                                  headers={"HX-Request": "true"})
    assert status in (200, 303), page


def version_of(url: str, code: str) -> int:
    return sql(url, "SELECT version FROM tables WHERE code = %s", code)[0][0]


def statements(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def test_two_servers_push_each_other_s_changes_at_once_and_read_nothing_on_a_timer(
        database, tmp_path):
    log = tmp_path / "statements.log"
    config = tmp_path / "gunicorn.counting.py"
    config.write_text(COUNTING)
    both = {"COMPANION_SEALING_STORE": REDIS, "WEB_CONCURRENCY": "1",
            "STATEMENT_LOG": str(log)}
    with served(database, tmp_path, config, PGAPPNAME="club-A", **both) as a, \
            served(database, tmp_path, config, PGAPPNAME="club-B", **both) as b:
        code, keeper, phones = make_table(a)
        same = Stream(a.port, code, phones[0].cookies)
        cross = Stream(b.port, code, phones[1].cookies)
        rename(keeper, code, 0)
        same.heard(version_of(database, code))
        cross.heard(version_of(database, code))

        # A tap through A: its screens on A and on B show it, each tap, told (no server
        # reads versions on a timer: below). How soon, same server and across:
        # scripts/bench_load.py --servers 2 (docs/performance.md).
        for n in range(1, 6):
            version = version_of(database, code) + 1
            rename(keeper, code, n)
            same.heard(version)
            cross.heard(version)

        # Idle with both streams open: no statement at all from either server.
        assert any("UPDATE tables" in line for line in statements(log)), "the count counts"
        time.sleep(1.0)  # (the last tap's own reads, after its answer)
        before = len(statements(log))
        time.sleep(10.0)
        idle = statements(log)[before:]
        assert idle == [], "\n".join(idle)

        # B's listening connection dies: B's screens still hear the next change.
        listening = sql(database, "SELECT pid FROM pg_stat_activity WHERE application_name "
                        "= 'club-B' AND query LIKE 'LISTEN%%'")
        assert len(listening) == 1
        sql(database, "SELECT pg_terminate_backend(%s)", listening[0][0])
        version = version_of(database, code) + 1
        rename(keeper, code, 51)
        cross.heard(version)
        assert len(sql(database, "SELECT pid FROM pg_stat_activity WHERE application_name "
                       "= 'club-B' AND query LIKE 'LISTEN%%'")) == 1, "listening again"
        same.close()
        cross.close()


def test_a_second_server_whose_sealing_keys_are_not_shared_is_refused(database, tmp_path):
    with served(database, tmp_path):  # its sealing keys in its own memory
        for settings in ({}, {"COMPANION_SEALING_STORE": REDIS}):
            done = subprocess.run(
                [str(GUNICORN), "-c", str(ROOT / "gunicorn.conf.py"), "companion:create_app()"],
                cwd=ROOT, capture_output=True, text=True, timeout=60,
                env={**os.environ, "DATABASE_URL": database, "SECRET_KEY": "served",
                     "PORT": str(free_port()), "COMPANION_HOST": "127.0.0.1",
                     "RATELIMIT_STORAGE_URI": "memory://", **settings})
            assert done.returncode != 0
            assert "COMPANION_SEALING_STORE=redis://" in done.stderr, done.stderr[-2000:]


def worker_of(device: Device, access: Path, probe: str) -> str:
    """The pid of the worker that answers ``device``'s connection (from the access log)."""
    device.get(f"/?probe={probe}")
    ceiling = Ceiling()
    while not ceiling.passed:
        found = re.search(rf"^<(\d+)> /\?probe={probe}$", access.read_text(), re.MULTILINE)
        if found:
            return found.group(1)
        time.sleep(0.02)
    raise AssertionError(f"no access-log line for probe {probe}")


def test_four_phones_vote_at_once_through_two_workers_with_one_key(database, tmp_path):
    access = tmp_path / "access.log"
    args = f"--access-logfile {access} --access-logformat '%(p)s %(U)s?%(q)s'"
    # (The tables made count in the shared Redis: runs one after the other stay far below.)
    with served(database, tmp_path, WEB_CONCURRENCY="2", RATELIMIT_STORAGE_URI=REDIS,
                COMPANION_NEW_TABLE_LIMIT="1000/minute", GUNICORN_CMD_ARGS=args) as server:
        code, keeper, phones = make_table(server)
        assert keeper.post(f"/t/{code}/start", {})[0] in (200, 303)
        assert keeper.post(f"/t/{code}/games/1/tromplemond/vote", {"round": "1"})[0] in (200,
                                                                                         303)
        # Each phone on a connection of the worker it is given: two phones on each. A new
        # connection goes to whichever worker accepts it first; on a busy machine the one
        # that has just answered often does, so a phone tries again after a pause.
        workers: list[str] = []
        for n, phone in enumerate(phones):
            for attempt in range(150):
                phone.connection.close()
                pid = worker_of(phone, access, f"{n}-{attempt}")
                if n == 0 or (n == 1 and pid != workers[0]) or (n > 1 and pid == workers[n - 2]):
                    workers.append(pid)
                    break
                time.sleep(0.05)
            else:
                pytest.fail("the connections never reached both workers")
        assert len(set(workers)) == 2
        pages = [phone.get(f"/t/{code}/seat/pulse", {"HX-Request": "true"})[1]
                 for phone in phones]
        keys = {re.search(r'data-seal-key="([^"]+)"', page).group(1) for page in pages}
        assert len(keys) == 1, "every worker shows the vote's one key"
        names = ("Rob", "Sam", "Nick", "Emily")
        votes = {name: names[(i + 1) % 4] for i, name in enumerate(names)}  # one each
        start = threading.Barrier(4)
        answers: dict[str, int] = {}

        def vote(phone: Device, page: str, name: str) -> None:
            fields = {**sealed_fields(page, votes[name]), "stage": "1"}
            start.wait()
            answers[name] = phone.post(f"/t/{code}/games/1/sealed/vote", fields,
                                       {"HX-Request": "true"})[0]

        threads = [threading.Thread(target=vote, args=(phone, page, name))
                   for phone, page, name in zip(phones, pages, names, strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert answers == dict.fromkeys(names, 200)
        text = access.read_text()
        voted_by = set(re.findall(r"^<(\d+)> /t/\w+/games/1/sealed/vote\?$", text,
                                  re.MULTILINE))
        assert voted_by == set(workers), "the slips were dropped through both workers"
        tallies = sql(database, "SELECT t.choice, t.count FROM sealed_tallies t JOIN sealings "
                      "s ON s.id = t.sealing_id WHERE s.stage = 1")
        assert sorted(tallies) == sorted((name, 1) for name in names), \
            "every slip opened with the one key: one count each"
