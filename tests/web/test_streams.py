"""Push: a screen's event stream says its table's version, and says it again at once when it
changes, so the screen polls only then; without a stream a screen polls as before."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import update

from companion.extensions import db
from companion.live import feed
from companion.live import streams as bell
from companion.live.polls import VersionLookup
from companion.store import Table
from tests.waiting import HANG, Ceiling

pytestmark = pytest.mark.db


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    """A heartbeat every second (so a stream that hears nothing still answers in a test)."""
    monkeypatch.setattr(bell, "HEARTBEAT", 1.0)
    monkeypatch.setattr(bell, "SPREAD", 0.0)


def version(actions, code) -> int:
    return actions.table(code).version


def open_stream(client, code):
    """The stream's response and its messages, as they come."""
    response = client.get(f"/t/{code}/events", buffered=False)
    return response, iter(response.response)


def message(said) -> bytes:
    return next(said)


def test_a_stream_says_the_version_then_each_change_at_once(client, actions, monkeypatch):
    # The versions are never read on a timer in this test: only this process's ring can say
    # the change before the ceiling (a stream that waited for a read would hang).
    monkeypatch.setattr(feed, "WATCH_EVERY", 10 * HANG)
    code = actions.create_table()
    v = version(actions, code)
    response, said = open_stream(actions.phone(), code)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-store"
    assert message(said) == f"retry: {bell.RETRY_MS}\ndata: {v}\n\n".encode()
    assert message(said) == f"data: {v}\n\n".encode(), "nothing changed: the heartbeat"
    # The scorekeeper renames a seat (the answer read to its end, as a server sends it: the
    # bells ring once it is sent).
    threading.Timer(0.1, lambda: actions.post(f"/t/{code}/seats/1/name", {"name": "Robin"},
                                              buffered=True)).start()
    ceiling = Ceiling()
    got = message(said)
    while got == f"data: {v}\n\n".encode():  # a heartbeat may come first
        assert not ceiling.passed, "the change was never said (the ring never rang)"
        got = message(said)
    assert got == f"data: {v + 1}\n\n".encode()
    response.close()


def test_a_change_made_elsewhere_is_heard_within_the_watch(app, client, actions):
    """The polling feed (SQLite's) reads the versions: it hears even a bare UPDATE."""
    with app.app_context():
        app.extensions[bell.EXTENSION].feed = feed.PollingFeed(VersionLookup(db.engine))
    code = actions.create_table()
    v = version(actions, code)
    response, said = open_stream(client, code)
    message(said)
    with app.app_context():  # another process (a script, another worker): no ring
        db.session.execute(update(Table).where(Table.code == code)
                           .values(version=Table.version + 1))
        db.session.commit()
    ceiling = Ceiling()
    while (got := message(said)) == f"data: {v}\n\n".encode():
        assert not ceiling.passed, "the watch never read the change"
    assert got == f"data: {v + 1}\n\n".encode()
    response.close()


def test_a_server_holding_its_most_streams_says_full_to_more(app, client, actions):
    code = actions.create_table()
    app.extensions[bell.EXTENSION].limit = 1
    first, said = open_stream(client, code)
    message(said)
    second = client.get(f"/t/{code}/events")
    assert second.status_code == 200 and second.data == b"event: full\ndata: \n\n"
    first.close()  # the page went away: its place is free again
    third, said = open_stream(client, code)
    assert third.status_code == 200 and message(said).startswith(b"retry:")
    third.close()
    assert app.extensions[bell.EXTENSION].open_streams == 0


def test_an_answer_never_read_holds_no_stream_open(app, client, actions):
    code = actions.create_table()
    client.get(f"/t/{code}/events", buffered=False)
    assert app.extensions[bell.EXTENSION].open_streams == 0


def test_streams_end_when_the_server_stops(app, client, actions):
    code = actions.create_table()
    response, said = open_stream(client, code)
    message(said)
    app.extensions[bell.EXTENSION].stopping = lambda: True
    with pytest.raises(StopIteration):
        message(said)
    response.close()


def test_a_wrong_code_has_no_stream(client):
    assert client.get("/t/BCDFGHJK/events").status_code == 404


def test_a_stream_opening_on_a_newer_version_wakes_the_streams_waiting_on_an_older_one():
    # The tablet reopens its stream after a change the others' streams were not told of yet
    # (the ring comes a moment later): they hear of it now, not at their next heartbeat.
    streams = bell.Streams(feed=feed.PollingFeed(None, every=60.0), limit=10)
    streams.listen(7, 4)
    heard = []
    waiting = threading.Thread(target=lambda: heard.append(streams.wait(7, 4, 10 * HANG)),
                               daemon=True)
    waiting.start()
    time.sleep(0.1)
    streams.listen(7, 5)
    waiting.join(timeout=HANG)  # (its own wait would end long after: only a wake ends it)
    assert heard == [5]
    streams.announce({7: 5})  # the ring that follows changes nothing more
    assert streams.latest(7) == (5, None)
    streams.leave(7)
    streams.leave(7)
    assert streams.open_streams == 0
