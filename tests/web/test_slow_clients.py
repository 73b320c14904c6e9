"""No client can stall the server: a body that never comes, or comes byte by byte.

Under gunicorn as the Procfile runs it, on the test's database: one table's
tablet taps and its phones read while, from another connection, a POST to a
second table sends its headers and then no body (or its body a byte at a
time), for 30 s. The taps' and reads' p95 is compared with their p95 in the
same test without that client (before and after it). The server reads a body
before the request waits for a place (``companion.live.door``): each such
POST is answered 408 once its time is up, the client tries again at once, and
the second table never changes.
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
from tests.web.served import Device, make_table, percentile, served

pytestmark = [pytest.mark.skipif(os.name == "nt", reason="gunicorn runs on Unix")]
# (Not run again on PostgreSQL: a body is read at the front door, before the request meets
# the database, so the database makes no difference to a stalled client; CI's time goes to
# the tests where it does.)

HOLD = 30.0
"""Seconds the slow client keeps a POST open (a new one as soon as one is answered)."""
QUIET = 3.0
"""Seconds measured without it, before and after."""


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
        self.answers: list[tuple[str, float]] = []
        """Each POST's answer (its status line, or what ended it) and how long it was open."""
        self.holding = threading.Event()
        self._ending = threading.Event()

    def run(self) -> None:
        while not self._ending.is_set():
            self.answers.append(self._once())

    def _once(self) -> tuple[str, float]:
        started = time.monotonic()
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
                    return answer or "closed", time.monotonic() - started
                if self.every is not None and sent < len(self.body) - 1:
                    try:
                        sock.sendall(self.body[sent:sent + 1])
                    except OSError:
                        continue  # cut off: its answer is there to read
                    sent += 1
        return "stopped", time.monotonic() - started

    def stop(self) -> None:
        """Stop after the POST being held (which is then left unanswered)."""
        self._ending.set()
        self.join(30)


def play(keeper: Device, phones: list[Device], code: str, seconds: float,
         ) -> tuple[list[float], list[float]]:
    """The tablet taps (the first dealer, seat 1 and 2 in turn) and the phones read their
    page, one after another, for ``seconds``: the taps' and the reads' seconds."""
    taps, reads = [], []
    ends = time.monotonic() + seconds
    turn = 0
    while time.monotonic() < ends:
        turn += 1
        status, _, took = keeper.post(f"/t/{code}/dealer", {"dealer": str(1 + turn % 2)})
        assert status in (200, 303), status
        taps.append(took)
        phone = phones[turn % len(phones)]
        status, _, took = phone.get(f"/t/{code}/seat")
        assert status == 200, status
        reads.append(took)
    return taps, reads


def version(app, code: str) -> int:
    with app.app_context():
        version = db.session.scalar(query(Table.version).where(Table.code == code))
        db.session.remove()
        return version


def stalled_while_playing(app, tmp_path, every: float | None) -> None:
    """The test: play without the slow client, with it for :data:`HOLD` s, and without
    again; the taps' and reads' p95 with it stay under 3x their p95 without it."""
    with served(app.config["SQLALCHEMY_DATABASE_URI"], tmp_path) as server:
        code, keeper, phones = make_table(server)
        other, other_keeper, _ = make_table(server)
        before = version(app, other)
        quiet = play(keeper, phones, code, QUIET)
        slow = SlowPoster(server.port, f"/t/{other}/dealer", other_keeper, {"dealer": "2"},
                          every)
        slow.start()
        assert slow.holding.wait(10)
        time.sleep(0.2)  # its headers are in
        held = play(keeper, phones, code, HOLD)
        slow.stop()
        after = play(keeper, phones, code, QUIET)
        log = server.log_text()
    answered = [(answer, seconds) for answer, seconds in slow.answers if answer != "stopped"]
    assert len(answered) >= 2, slow.answers
    assert all(answer == "HTTP/1.1 408 REQUEST TIMEOUT" for answer, _ in answered), answered
    assert all(9.5 < seconds < 15 for _, seconds in answered), answered
    assert version(app, other) == before, "the slow POST changed its table"
    for what, (with_it, without) in {"taps": (held[0], quiet[0] + after[0]),
                                     "reads": (held[1], quiet[1] + after[1])}.items():
        p95, usual = percentile(with_it, 0.95), percentile(without, 0.95)
        print(f"{what}: p95 {1000 * p95:.1f} ms with the slow client ({len(with_it)}), "
              f"{1000 * usual:.1f} without ({len(without)}): {p95 / usual:.2f}x")
        assert p95 < 3 * usual, (
            f"{what}: p95 {1000 * p95:.1f} ms with the slow client, {1000 * usual:.1f} "
            f"without ({len(with_it)} and {len(without)} requests)\n{log[-2000:]}")


def test_a_post_whose_body_never_comes_stalls_no_table(app, tmp_path):
    stalled_while_playing(app, tmp_path, every=None)


def test_a_body_sent_byte_by_byte_stalls_no_table(app, tmp_path):
    stalled_while_playing(app, tmp_path, every=0.1)
