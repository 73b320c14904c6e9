"""PostgreSQL's change feed (``CHANGE_FEED=notify``, the default there): a change made by
another process reaches this process's streams at once, told by the database, with no
version read on a timer; a dropped listening connection is made again. In process, with
the other process's changes made under another origin (the two-server tests:
``tests/web/test_club.py``)."""

from __future__ import annotations

import os
import time

import pytest
from sqlalchemy import text

from companion.config import from_environment
from companion.extensions import db
from companion.live import feed
from companion.live import streams as bell
from companion.live.polls import VersionLookup
from companion.store import Table, commits
from tests.waiting import Ceiling, wait_until

pytestmark = pytest.mark.db


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    monkeypatch.setattr(bell, "HEARTBEAT", 1.0)
    monkeypatch.setattr(bell, "SPREAD", 0.0)


@pytest.fixture
def notify_feed(app):
    """The app's feed, when it is PostgreSQL's (the tests skip on SQLite)."""
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("LISTEN/NOTIFY is PostgreSQL's")
    heard = app.extensions[bell.EXTENSION].feed
    assert isinstance(heard, feed.NotifyFeed), "PostgreSQL's default feed"
    return heard


def open_stream(device, code):
    response = device.get(f"/t/{code}/events", buffered=False)
    said = iter(response.response)
    assert next(said).startswith(b"retry:")
    return response, said


def change_elsewhere(app, code, monkeypatch) -> int:
    """Raise the table's version as another process would (another origin); its new
    version."""
    monkeypatch.setattr(commits, "_origin", (os.getpid(), "another-process"))
    with app.app_context():
        table = db.session.query(Table).filter_by(code=code).one()
        commits.bump(table)
        db.session.commit()
        version = table.version
        db.session.remove()
    monkeypatch.setattr(commits, "_origin", None)
    return version


def heard(said, version: int) -> None:
    """Wait until the stream says ``version`` (heartbeats skipped)."""
    ceiling = Ceiling()
    while (got := next(said)) != f"data: {version}\n\n".encode():
        assert got.startswith(b"data: "), got
        assert not ceiling.passed, f"version {version} never heard"


def test_another_process_change_is_heard_at_once_without_reading_versions(
        app, actions, notify_feed, monkeypatch):
    reads = []
    lookup = notify_feed.lookup
    monkeypatch.setattr(lookup, "of_tables", lambda ids: reads.append(ids)
                        or VersionLookup.of_tables(lookup, ids))
    code = actions.create_table()
    response, said = open_stream(actions.phone(), code)
    wait_until(lambda: notify_feed.connection is not None and reads, "never listened")
    time.sleep(3 * feed.LOOK_EVERY)
    assert len(reads) == 1, "one read when it started listening, none on a timer"
    version = change_elsewhere(app, code, monkeypatch)
    heard(said, version)
    assert len(reads) == 1, "told by the database: no version read (polling reads them)"
    response.close()


def test_a_dropped_listening_connection_is_made_again_and_nothing_is_missed(
        app, actions, notify_feed, monkeypatch):
    monkeypatch.setattr(feed, "RECONNECT", (0.5, 5.0))
    reads = []
    lookup = notify_feed.lookup
    monkeypatch.setattr(lookup, "of_tables", lambda ids: reads.append(ids)
                        or VersionLookup.of_tables(lookup, ids))
    code = actions.create_table()
    response, said = open_stream(actions.phone(), code)
    wait_until(lambda: notify_feed.connection is not None, "never listened")
    first = notify_feed.connects
    with app.app_context():
        pid = notify_feed.connection.info.backend_pid
        db.session.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        db.session.commit()
    # Changed while nobody listens (the feed waits before connecting again): read once
    # the feed listens again.
    version = change_elsewhere(app, code, monkeypatch)
    heard(said, version)
    assert notify_feed.connects == first + 1
    wait_until(lambda: notify_feed.connection is not None, "never listened again")
    read_so_far = len(reads)
    version = change_elsewhere(app, code, monkeypatch)  # and heard as before: told, not read
    heard(said, version)
    assert len(reads) == read_so_far, "heard by a read, not told by the database"
    response.close()


def test_the_feed_is_chosen_by_the_setting_and_the_database(app, actions):
    assert from_environment("/i", {})["CHANGE_FEED"] is None
    assert from_environment("/i", {"COMPANION_CHANGE_FEED": "polling"})["CHANGE_FEED"] == \
        "polling"
    with app.app_context():
        engine = db.engine
        assert isinstance(feed.feed_for(None, engine), feed.NotifyFeed
                          if engine.dialect.name == "postgresql" else feed.PollingFeed)
        assert isinstance(feed.feed_for("polling", engine), feed.PollingFeed)
        with pytest.raises(ValueError, match="must be one of polling, notify"):
            feed.feed_for("carrier-pigeon", engine)
        if engine.dialect.name == "sqlite":
            with pytest.raises(ValueError, match="needs PostgreSQL"):
                feed.feed_for("notify", engine)
