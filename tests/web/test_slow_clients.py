"""No client can stall the server: a body that never comes, or comes byte by byte.

Under gunicorn as the Procfile runs it, on the test's database: from one connection, a
POST to a second table sends its headers and then no body (or its body a byte at a
time); while it is held, one table's tablet taps and its phones read, and every one of
them is answered before the held POST is (by order of events, not by a time). The
server reads a body before the request waits for a place (``companion.door``), and
the second table never changes. (That a late body is answered 408 at its deadline, by
both workers: ``tests/web/test_server_limits.py``.) How
much the held POST slows the others (their p95 with it and without it) is a figure of
``scripts/bench_hostile.py`` (``--attacks stall,slow``), run by hand.
"""

from __future__ import annotations

import os
import select
import socket
import threading
import time
from urllib.parse import urlencode

import pytest
from sqlalchemy import select as query

from companion.extensions import db
from companion.store import Table
from tests.waiting import HANG
from tests.web.served import Device, make_table, served

pytestmark = [pytest.mark.skipif(os.name == "nt", reason="gunicorn runs on Unix")]
# (Not run again on PostgreSQL: a body is read at the front door, before the request meets
# the database, so the database makes no difference to a stalled client; CI's time goes to
# the tests where it does.)

BODY_SECONDS = int(HANG)
"""The server's time for a body here: the window in which the others' requests must all
be answered while the slow POST is held (a busy machine's requests take longer, never
that long)."""
ROUNDS = 10
"""Taps and reads played while the slow POST is held."""


class SlowPoster(threading.Thread):
    """A client that keeps a POST open: its headers, then no body (``every`` None) or its
    body one byte every ``every`` seconds, never the last one. When the server answers, it
    notes the status and starts again, until :meth:`stop`."""

    def __init__(self, port: int, path: str, device: Device, form: dict,
                 every: float | None) -> None:
        super().__init__(daemon=True)
        body = urlencode({"csrf_token": device.token, **form}).encode()
        cookies = "; ".join(f"{k}={v}" for k, v in device.cookies.items())
        self.head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookies}\r\n"
                     "Content-Type: application/x-www-form-urlencoded\r\n"
                     f"Content-Length: {len(body)}\r\n\r\n").encode()
        self.port, self.body, self.every = port, body, every
        self.answers: list[str] = []
        """Each POST's answer (its status line, or what ended it)."""
        self.holding = threading.Event()
        self._ending = threading.Event()

    def run(self) -> None:
        while not self._ending.is_set():
            self.answers.append(self._once())

    def _once(self) -> str:
        with socket.create_connection(("127.0.0.1", self.port)) as sock:
            sock.sendall(self.head)
            self.holding.set()
            sent = 0
            while not self._ending.is_set():
                readable, _, _ = select.select([sock], [], [], self.every or 0.2)
                if readable:
                    try:
                        answer = sock.recv(200).split(b"\r\n", 1)[0].decode()
                    except ConnectionResetError:
                        answer = "reset"
                    return answer or "closed"
                if self.every is not None and sent < len(self.body) - 1:
                    try:
                        sock.sendall(self.body[sent:sent + 1])
                    except OSError:
                        continue  # cut off: its answer is there to read
                    sent += 1
        return "stopped"

    def stop(self) -> None:
        """Stop after the POST being held (which is then left unanswered)."""
        self._ending.set()
        self.join(HANG)


def play(keeper: Device, phones: list[Device], code: str, rounds: int) -> None:
    """The tablet taps (the first dealer, seat 1 and 2 in turn) and a phone reads its page,
    ``rounds`` times, one after another; each is answered."""
    for turn in range(1, rounds + 1):
        status, _, _ = keeper.post(f"/t/{code}/dealer", {"dealer": str(1 + turn % 2)})
        assert status in (200, 303), status
        status, _, _ = phones[turn % len(phones)].get(f"/t/{code}/seat")
        assert status == 200, status


def version(app, code: str) -> int:
    with app.app_context():
        version = db.session.scalar(query(Table.version).where(Table.code == code))
        db.session.remove()
        return version


def stalled_while_playing(app, tmp_path, every: float | None) -> None:
    """The test: while the slow client holds its POST, the other table's taps and reads are
    all answered, before the held POST is; it changed nothing."""
    with served(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path,
                COMPANION_BODY_SECONDS=str(BODY_SECONDS),
                COMPANION_REQUESTS_AT_ONCE="1") as server:  # a held place would hold all
        code, keeper, phones = make_table(server)
        other, other_keeper, _ = make_table(server)
        before = version(app, other)
        slow = SlowPoster(server.port, f"/t/{other}/dealer", other_keeper, {"dealer": "2"},
                          every)
        slow.start()
        assert slow.holding.wait(HANG)
        time.sleep(0.2)  # its headers are in
        play(keeper, phones, code, ROUNDS)
        assert slow.answers == [], "the slow POST was answered before the others were"
        slow.stop()
    assert slow.answers == ["stopped"], slow.answers
    assert version(app, other) == before, "the slow POST changed its table"


def test_a_post_whose_body_never_comes_stalls_no_table(app, tmp_path):
    stalled_while_playing(app, tmp_path, every=None)


def test_a_body_sent_byte_by_byte_stalls_no_table(app, tmp_path):
    stalled_while_playing(app, tmp_path, every=0.1)
