"""The versions lookup of unchanged polls and event streams: a few connections, shared.

However many threads a server has, the lookup opens at most its ``size`` connections (a
PostgreSQL server allows 100 by default), and a connection that fails is dropped for a
new one.
"""

from __future__ import annotations

import pytest

from companion.extensions import db
from companion.live.polls import VersionLookup
from tests.conftest import at_once

pytestmark = pytest.mark.db


@pytest.fixture
def lookup_and_code(app, actions):
    code = actions.create_table()
    with app.app_context():
        lookup = VersionLookup(db.engine, size=2)
    yield lookup, code
    lookup.pool.dispose()


def test_many_threads_share_a_few_connections(lookup_and_code, actions, monkeypatch):
    lookup, code = lookup_and_code
    made = []
    real = lookup._connect
    monkeypatch.setattr(lookup, "_connect", lambda: made.append(1) or real())
    version = actions.table(code).version

    def twenty_lookups(_thread: int) -> int:
        found = {lookup(code) for _ in range(20)}
        return found.pop() if len(found) == 1 else -1

    assert set(at_once(twenty_lookups, range(12)).values()) == {version}
    assert 1 <= len(made) <= 2
    assert lookup("NOTACODE") is None


def test_a_failed_connection_is_dropped_and_the_next_lookup_makes_another(
        lookup_and_code, actions):
    lookup, code = lookup_and_code
    version = actions.table(code).version
    assert lookup(code) == version
    broken = lookup.pool.connect()
    broken.dbapi_connection.close()  # as if the database had restarted
    broken.close()  # back in the pool, dead
    assert lookup(code) is None  # this poll goes on to the app
    assert lookup(code) == version
    assert lookup.of_tables([actions.table(code).id]) == {actions.table(code).id: version}


def test_a_lookup_waits_only_a_moment_for_a_connection(app, lookup_and_code):
    _, code = lookup_and_code
    with app.app_context():
        lookup = VersionLookup(db.engine, size=2, patience=0.05)
    taken = [lookup.pool.connect(), lookup.pool.connect()]  # both connections out
    assert all(connection.dbapi_connection is not None for connection in taken)
    assert lookup(code) is None  # none came back in time: the app answers instead
    taken[0].close()  # one is given back: the next lookup uses it
    assert lookup(code) is not None
    taken[1].close()
    lookup.pool.dispose()
