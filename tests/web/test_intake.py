"""A request's body is read whole, within its size and time limits, before it goes in.

Over the size limit: a 413 that says the limit, nothing changed; at it: taken.
Slower than the time limit: a 408, nothing changed; within it: taken. A read
that would wait for ever (a socket whose client sends nothing) is cut off at
the deadline. Under a real gunicorn: ``tests/web/test_slow_clients.py``.
"""

from __future__ import annotations

import io
import json
import socket
import threading
import time

import pytest

from companion.door import BODY_RATE, time_limit
from tests.waiting import HANG

pytestmark = pytest.mark.db

RECORD = {"game": "tremp", "players": ["Ann", "Bo", "Cy", "Di"], "rounds": []}


def padded(size: int) -> bytes:
    """A valid game record, padded with spaces to ``size`` bytes."""
    body = json.dumps(RECORD).encode()
    return body + b" " * (size - len(body))


def tables(app) -> int:
    from companion.extensions import db
    from companion.store import Table

    with app.app_context():
        count = db.session.query(Table).count()
        db.session.remove()
        return count


def test_a_body_at_the_size_limit_is_taken_and_one_byte_more_is_a_clear_413(app, client):
    most = app.config["MAX_CONTENT_LENGTH"]
    assert most == 512 * 1024
    over = client.post("/api/games", data=padded(most + 1), content_type="application/json")
    assert over.status_code == 413
    assert over.get_json()["error"] == ("That is more than the app takes in one go: a request "
                                        "may bring at most 512 KiB (this one: 512 KiB).")
    assert tables(app) == 0
    at = client.post("/api/games", data=padded(most), content_type="application/json")
    assert at.status_code == 201 and tables(app) == 1


def test_a_page_over_the_size_limit_says_so_on_a_page(app, actions):
    code = actions.create_table()
    before = actions.table(code).version
    response = actions.post(f"/t/{code}/seats/5/name", {"name": "x" * 600_000})
    assert response.status_code == 413
    page = response.get_data(as_text=True)
    assert "Too much at once" in page and "at most 512 KiB (this one: 586 KiB)" in page
    assert actions.table(code).version == before


def chunked(app, path: str, body: bytes, **environ):
    """POST ``body`` with no length said (``Transfer-Encoding: chunked``, as the server
    hands it on: the stream ends with the body)."""
    return app.test_client().post(path, content_type="application/json", environ_overrides={
        "wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": "", "HTTP_TRANSFER_ENCODING": "chunked",
        "wsgi.input_terminated": True, **environ})


def test_a_chunked_body_is_held_to_the_same_size_limit(app):
    most = app.config["MAX_CONTENT_LENGTH"]
    over = chunked(app, "/api/games", padded(most + 1))
    assert over.status_code == 413 and "at most 512 KiB." in over.get_json()["error"]
    assert tables(app) == 0
    assert chunked(app, "/api/games", padded(most)).status_code == 201


def test_the_size_limit_is_a_setting(app, client):
    app.config["MAX_CONTENT_LENGTH"] = 100_000
    response = client.post("/api/games", data=padded(100_001), content_type="application/json")
    assert response.status_code == 413 and "at most 98 KiB" in response.get_json()["error"]


class Trickle(io.RawIOBase):
    """A body that comes ``step`` bytes at a time, ``pause`` seconds apart."""

    def __init__(self, body: bytes, step: int, pause: float) -> None:
        self.body, self.step, self.pause = body, step, pause

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        time.sleep(self.pause)
        part, self.body = self.body[:min(size, self.step)], self.body[min(size, self.step):]
        return part


def test_a_body_slower_than_its_time_limit_is_a_408_and_changes_nothing(app, actions):
    code = actions.create_table()
    before = actions.table(code).version
    app.config["BODY_SECONDS"] = 0.5
    body = f"csrf_token={actions.token(actions.keeper)}&dealer=2".encode()
    slow = actions.keeper.post(f"/t/{code}/dealer", environ_overrides={
        "wsgi.input": Trickle(body, 1, 0.02), "CONTENT_LENGTH": str(len(body)),
        "CONTENT_TYPE": "application/x-www-form-urlencoded"})
    assert slow.status_code == 408
    assert "took more than 1 second to arrive, so nothing was done" in slow.get_data(
        as_text=True)
    assert actions.table(code).version == before
    # The same body within the limit is taken.
    app.config["BODY_SECONDS"] = 10
    taken = actions.keeper.post(f"/t/{code}/dealer", environ_overrides={
        "wsgi.input": Trickle(body, 1, 0.02), "CONTENT_LENGTH": str(len(body)),
        "CONTENT_TYPE": "application/x-www-form-urlencoded"})
    assert taken.status_code == 303
    assert actions.table(code).version == before + 1


def test_the_time_limit_grows_with_the_body_at_a_poor_links_rate():
    assert time_limit(0, 10) == 10
    assert time_limit(512 * 1024, 10) == 10 + 512 * 1024 / BODY_RATE == 42
    assert BODY_RATE * 8 == 128 * 1024  # 128 kbit/s


def test_a_read_that_would_wait_for_ever_is_cut_off_at_the_deadline(app):
    """A socket whose client sent the headers and nothing more: the read is shut at the
    deadline, not left waiting (gunicorn's reader asks for the whole length at once)."""
    app.config["BODY_SECONDS"] = 0.5
    server_side, client_side = socket.socketpair()
    answers: list[str] = []

    def post() -> None:
        environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/api/games", "SERVER_NAME": "x",
                   "SERVER_PORT": "80", "wsgi.url_scheme": "http", "CONTENT_LENGTH": "100",
                   "CONTENT_TYPE": "application/json", "wsgi.errors": io.StringIO(),
                   "wsgi.input": server_side.makefile("rb"), "gunicorn.socket": server_side}
        body = b"".join(app.wsgi_app(environ, lambda status, *_: answers.append(status)))
        answers.append(json.loads(body)["error"])

    reader = threading.Thread(target=post, daemon=True)
    reader.start()
    reader.join(HANG)
    client_side.close()
    server_side.close()
    assert not reader.is_alive(), "the read was never cut off"
    assert answers[0].startswith("408") and "took more than 1 second to" in answers[1]
    assert tables(app) == 0


class Broken(io.RawIOBase):
    """A body whose connection breaks after its first bytes (as gunicorn's reader raises)."""

    def __init__(self) -> None:
        self.sent = False

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.sent:
            raise ConnectionResetError("the phone went away")
        self.sent = True
        return padded(100)[:50]


def test_a_body_cut_short_is_a_400_and_changes_nothing(app, client):
    expected = "The request's body was cut short or did not match what its headers said"
    short = client.post("/api/games", content_type="application/json", environ_overrides={
        "wsgi.input": io.BytesIO(padded(100)[:50]), "CONTENT_LENGTH": "100"})
    assert short.status_code == 400 and short.get_json()["error"].startswith(expected)
    broken = chunked(app, "/api/games", b"", **{"wsgi.input": Broken()})
    assert broken.status_code == 400 and broken.get_json()["error"].startswith(expected)
    assert tables(app) == 0
