"""The access log of a real server cannot link a slip to its voter.

Two runs of the app under gunicorn (as the Procfile starts it), with the same
voters dropping their slips in the same order but naming different players
(the same final counts): the access logs are identical, line for line, apart
from the timestamps and the client ports. Every request of the vote is in
them: the phones' slips (sealed on the phone), their live polls and the tablet's.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import sealed_fields

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PLAYERS = ("Rob", "Sam", "Nick", "Emily")
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')

# The server's own settings, with the table codes and keys made in order (not at random),
# so both runs have the same table code, the same QR code and pages of the same size.
TEST_CONFIG = f'''
exec(open({str(ROOT / "gunicorn.conf.py")!r}).read())
_real_post_fork = post_fork


def post_fork(server, worker):
    import itertools

    import companion.store.changes as changes

    _real_post_fork(server, worker)
    codes = (f"BCDFGH{{a}}{{b}}" for a, b in itertools.product("BCDFGHJKLMNPQRSTVWXZ", repeat=2))
    changes.new_code = lambda: next(codes)
    keys = (f"key{{n:040d}}" for n in itertools.count())
    changes.new_key = lambda: next(keys)
'''


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Device:
    """A browser: its own cookies; it sends forms with its CSRF token, as htmx would."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token = ""

    def get(self, path: str, htmx: bool = False) -> tuple[int, str]:
        request = urllib.request.Request(self.base + path,
                                         headers={"HX-Request": "true"} if htmx else {})
        return self._open(request)

    def post(self, path: str, form: dict, htmx: bool = False) -> tuple[int, str]:
        data = urllib.parse.urlencode({"csrf_token": self.token, **form}, doseq=True).encode()
        request = urllib.request.Request(self.base + path, data=data, method="POST",
                                         headers={"HX-Request": "true"} if htmx else {})
        return self._open(request)

    def _open(self, request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=30) as answer:
                status, body = answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read().decode()
        token = CSRF.search(body)
        if token:
            self.token = token.group(1)
        return status, body


def run(tmp_path: Path, slips: dict[str, str]) -> list[str]:
    """A table voting under gunicorn; returns the access log's lines."""
    database = tmp_path / "companion.sqlite3"
    config = tmp_path / "gunicorn.test.py"
    config.write_text(TEST_CONFIG)
    log = tmp_path / "access.log"
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "logs",
           "COMPANION_PUBLIC_URL": "http://192.168.1.10:5000", "PORT": str(port),
           "COMPANION_HOST": "127.0.0.1", "RATELIMIT_STORAGE_URI": "memory://"}
    env.pop("COMPANION_BALLOT_KEY", None)
    subprocess.run([str(BIN / "flask"), "--app", "companion", "db", "upgrade"], cwd=ROOT,
                   env=env, check=True, capture_output=True)
    server = subprocess.Popen(
        [str(BIN / "gunicorn"), "-c", str(config), "--access-logfile", str(log),
         "companion:create_app()"], cwd=ROOT, env=env,
        stdout=subprocess.DEVNULL, stderr=(tmp_path / "gunicorn.err").open("w"))
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):  # up to 30 s for gunicorn to listen
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.1):
                    break
            except OSError:
                time.sleep(0.1)
        keeper = Device(base)
        keeper.get("/new")
        status, page = keeper.post("/new", {"name": "Logs", "game": "tromplemond", "seats": "4",
                                           "player": list(PLAYERS), "dealer": "1"})
        assert status == 200, page
        code = re.search(r'data-code="([A-Z0-9]+)"', page).group(1)
        phones = {}
        for position, name in enumerate(PLAYERS, 1):
            phone = phones[name] = Device(base)
            phone.get(f"/j/{code}")
            assert phone.post(f"/j/{code}/claim", {"seat": str(position)})[0] == 200
        assert keeper.post(f"/t/{code}/start", {})[0] == 200
        assert keeper.post(f"/t/{code}/games/1/tromplemond/vote", {"round": "1"})[0] == 200
        version = lambda: re.search(r'data-version="(\d+)"',  # noqa: E731
                                    keeper.get(f"/t/{code}/pulse", htmx=True)[1]).group(1)
        for voter, target in slips.items():
            v = version()
            for phone in phones.values():  # every screen polls, as sync-page.js does
                phone.get(f"/t/{code}/seat/pulse?v={v}", htmx=True)
            # Sealed on the phone, to the key its slip form shows (as static/app/slip.js does).
            _, page = phones[voter].get(f"/t/{code}/seat/pulse", htmx=True)
            status, _ = phones[voter].post(f"/t/{code}/games/1/sealed/vote",
                                           {**sealed_fields(page, target), "stage": "1"},
                                           htmx=True)
            assert status == 200
            keeper.get(f"/t/{code}/pulse?v={v}", htmx=True)
            keeper.get(f"/t/{code}/games/1/pulse?v={v}", htmx=True)
        for phone in phones.values():
            phone.get(f"/t/{code}/seat/pulse", htmx=True)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return log.read_text().splitlines()


def normal(line: str) -> str:
    """An access-log line without its timestamp (and the client's port, where logged)."""
    return re.sub(r"\[[^\]]*\]", "[time]", re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:port", line))


@pytest.mark.skipif(os.name == "nt", reason="gunicorn runs on Unix")
def test_two_votes_with_the_same_counts_leave_the_same_access_log(tmp_path_factory):
    # 2–2 between Nick and Emily either way: who named whom differs, the counts do not.
    one = run(tmp_path_factory.mktemp("one"), {"Rob": "Nick", "Sam": "Emily", "Nick": "Emily",
                                                "Emily": "Nick"})
    other = run(tmp_path_factory.mktemp("other"), {"Rob": "Emily", "Sam": "Nick",
                                                    "Nick": "Emily", "Emily": "Nick"})
    assert len(one) > 40, "the log holds every request"
    assert any("/sealed/vote" in line for line in one)
    # The same lines; a worker thread may write its line a moment after the next request's,
    # so they are compared as a whole, not by position.
    assert sorted(map(normal, one)) == sorted(map(normal, other))
    # The comparison is sharp: a vote with other counts leaves another log.
    three_one = run(tmp_path_factory.mktemp("three"), {"Rob": "Emily", "Sam": "Emily",
                                                        "Nick": "Emily", "Emily": "Nick"})
    assert sorted(map(normal, three_one)) != sorted(map(normal, one))
