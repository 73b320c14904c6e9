"""On a database server: a request that only reads does it without a transaction around it,
a write is one transaction, and a connection the server dropped is not an error page.

Every statement on PostgreSQL is a round trip; a page or a poll reads in autocommit (no
``BEGIN`` before, no ``ROLLBACK`` after), which loses nothing under read committed, where
each statement sees what is committed when it starts anyway.
"""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from companion import transactions
from companion.extensions import db

from ..conftest import statements

pytestmark = pytest.mark.db

HTMX = {"HX-Request": "true"}


def test_a_poll_reads_in_autocommit_and_a_tap_writes_in_one_transaction(
        app, actions, server_url):
    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.start(code)
    answers = []

    with statements(app) as polled:
        answers.append(phones[0].get(f"/t/{code}/seat/pulse?v=0", headers=HTMX))
    assert answers[-1].status_code == 200
    assert polled and all(said.autocommit for said in polled), polled

    with statements(app) as tapped:
        answers.append(actions.post(
            f"/t/{code}/games/1/tick", {"round": "1", "step": "deck:0"}, headers=HTMX))
    assert answers[-1].status_code == 200
    assert 'data-step="deck:0" data-done="yes"' in answers[-1].get_data(as_text=True)
    last_write = max(i for i, said in enumerate(tapped) if said.word == "UPDATE")
    # Up to its last write the tap is one transaction; its answer then only reads.
    assert not any(said.autocommit for said in tapped[:last_write + 1]), tapped
    assert all(said.autocommit for said in tapped[last_write + 1:]), tapped
    assert actions.keeper.get(f"/t/{code}").status_code == 200


def test_a_refused_tap_changes_nothing(app, actions, server_url):
    code = actions.create_table()
    actions.seat_everyone(code)
    actions.start(code)
    before = actions.table(code).version
    refused = actions.post(f"/t/{code}/games/1/tick", {"round": "7", "step": "deck:0"},
                           headers=HTMX)
    assert refused.status_code == 409
    assert actions.table(code).version == before


def test_connections_the_server_dropped_are_replaced_before_use(
        app, actions, server_url, monkeypatch):
    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.start(code)
    assert phones[0].get(f"/t/{code}/seat").status_code == 200
    # The server restarts (its connections to the app end) and the tables sit idle a while.
    with app.app_context():
        outside = create_engine(db.engine.url, poolclass=NullPool)
    with outside.begin() as connection:
        dropped = connection.scalar(text(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
    outside.dispose()
    assert dropped
    monkeypatch.setattr(transactions, "IDLE_PING", 0.0)
    assert phones[0].get(f"/t/{code}/seat").status_code == 200
    tapped = actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deck:0"},
                          headers=HTMX)
    assert tapped.status_code == 200
