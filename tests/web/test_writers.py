"""Writes on SQLite: one at a time, taking the lock at BEGIN and letting it go at the commit.

A tap holds SQLite's write lock from its first statement to its commit, and not while it
draws its answer; the writers of the server queue for that lock on a lock of the process
(``companion.transactions.WRITERS``), which every commit and every rollback lets go.
"""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import event

from companion import transactions
from companion.extensions import db
from tests.conftest import at_once

pytestmark = pytest.mark.db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def sqlite_only(app):
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            pytest.skip("SQLite's own locking")


def free_for_another_thread() -> bool:
    """True when another thread can take the writers' lock at once."""
    got = []

    def take() -> None:
        got.append(transactions.WRITERS.acquire(blocking=False))
        if got[0]:
            transactions.WRITERS.release()

    other = threading.Thread(target=take)
    other.start()
    other.join()
    return got[0]


def test_a_tap_holds_the_write_lock_until_its_commit_and_draws_its_answer_without_it(
        app, actions, sqlite_only):
    code = actions.create_table()
    actions.seat_everyone(code)
    actions.start(code)
    said: list[str] = []
    with app.app_context():
        engine = db.engine

    def heard(_connection, _cursor, statement, *_rest) -> None:
        said.append(statement if statement.startswith("BEGIN") else statement.split()[0])

    def committed(_connection) -> None:
        said.append("COMMIT")

    event.listen(engine, "before_cursor_execute", heard)
    event.listen(engine, "commit", committed)
    try:
        response = actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deck:0"},
                                headers=HTMX)
    finally:
        event.remove(engine, "before_cursor_execute", heard)
        event.remove(engine, "commit", committed)
    assert response.status_code == 200
    assert 'data-step="deck:0" data-done="yes"' in response.get_data(as_text=True)
    begins = [word for word in said if word.startswith("BEGIN")]
    assert begins[0] == "BEGIN IMMEDIATE", said
    after_commit = said[said.index("COMMIT") + 1:]
    # Its answer reads (if at all: what it shows was read under the lock, or carried from
    # the version before) without the write lock.
    assert "BEGIN IMMEDIATE" not in after_commit, said
    assert free_for_another_thread()


def test_a_refused_tap_lets_the_next_writer_go(app, actions, sqlite_only):
    code = actions.create_table()
    actions.seat_everyone(code)
    actions.start(code)
    refused = actions.post(f"/t/{code}/games/1/tick", {"round": "7", "step": "deck:0"},
                           headers=HTMX)
    assert refused.status_code == 409
    assert free_for_another_thread()


def test_taps_from_several_phones_at_once_all_land(app, actions):
    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.start(code)
    before = actions.table(code).version

    def five_taps(phone) -> int:
        statuses = {actions.post(f"/t/{code}/games/1/tick",
                                 {"round": "1", "step": "deck:1", "from": "seat"},
                                 client=phone, headers=HTMX).status_code for _ in range(5)}
        return statuses.pop() if len(statuses) == 1 else 0

    assert list(at_once(five_taps, phones).values()) == [200] * 4
    # Twenty ticks of one step, one after another: it is unticked again, the version rose
    # twenty times, and no writer is left holding the lock.
    page = actions.keeper.get(f"/t/{code}").get_data(as_text=True)
    assert 'data-step="deck:1" data-done="no"' in page
    assert actions.table(code).version == before + 20
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            assert free_for_another_thread()
