"""A request that changes a table locks the table's row before it reads anything else of it.

Every change raises the table's version, which takes that row's lock; a tap that holds it
from its first statement reads its game, its round and the version once, knowing nobody
can change them before it commits, and draws its answer from what it committed without
reading those rows again. On PostgreSQL this is what keeps a change right when two come
at once; SQLite takes the whole database for each writer anyway.
"""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from companion.extensions import db

from ..conftest import Statement, at_once, statements
from ..waiting import HANG, Ceiling

pytestmark = pytest.mark.db

HTMX = {"HX-Request": "true"}


def reads_of(heard: list[Statement], table: str) -> list[str]:
    return [s.text for s in heard if s.word == "SELECT" and (
        f" FROM {table} " in f"{s.text} " or f" JOIN {table} " in s.text)]


def test_a_tap_reads_its_table_then_its_game_and_round_once(app, actions):
    code = actions.create_table()
    actions.seat_everyone(code)
    actions.start(code)
    answers = []
    with statements(app) as heard:
        answers.append(actions.post(
            f"/t/{code}/games/1/tick", {"round": "1", "step": "deck:0"}, headers=HTMX))

    assert answers[0].status_code == 200
    assert 'data-step="deck:0" data-done="yes"' in answers[0].get_data(as_text=True)
    selects = [s.text for s in heard if s.word == "SELECT"]
    assert " FROM tables " in selects[0], heard  # the table's row first ...
    with app.app_context():
        if db.engine.dialect.name != "sqlite":
            assert selects[0].endswith("FOR UPDATE"), selects[0]  # ... locked
    for row in ("tables", "games", "round_drafts"):
        assert len(reads_of(heard, row)) == 1, (row, heard)
    # ... and the game with its round's draft, in one statement after it.
    assert reads_of(heard, "games") == reads_of(heard, "round_drafts") == [selects[1]]
    # The answer is the round at the version the tap made.
    version = actions.table(code).version
    assert f'id="round" aria-label="The round" data-version="{version}"' in (
        answers[0].get_data(as_text=True))


def waiting_on_a_lock(other, pid: int) -> bool:
    """True once some connection other than ``pid`` waits for a lock."""
    return other.execute(text(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> :pid"
    ), {"pid": pid}).scalar_one() > 0


def test_a_tap_that_waited_for_the_table_sees_the_change_it_waited_for(
        app, actions, server_url):
    code = actions.create_table()
    actions.seat_everyone(code)
    actions.start(code)
    version = actions.table(code).version
    engine = create_engine(server_url, poolclass=NullPool)
    answers = []
    tap = threading.Thread(target=lambda: answers.append(actions.post(
        f"/t/{code}/games/1/tick", {"round": "1", "step": "deck:0"}, headers=HTMX)))
    try:
        with engine.connect() as writer, engine.connect() as watcher:
            watcher.execution_options(isolation_level="AUTOCOMMIT")
            pid = writer.execute(text("SELECT pg_backend_pid()")).scalar_one()
            # Another writer, as the app writes: the table's row first, then the change.
            writer.execute(text("SELECT id FROM tables WHERE code = :code FOR UPDATE"),
                           {"code": code})
            writer.execute(text("UPDATE games SET status = 'ended' WHERE table_id = "
                                "(SELECT id FROM tables WHERE code = :code)"), {"code": code})
            writer.execute(text("UPDATE tables SET version = version + 1 WHERE code = :code"),
                           {"code": code})
            tap.start()
            ceiling = Ceiling()
            while not waiting_on_a_lock(watcher, pid):
                assert not ceiling.passed, "the tap never waited for the table"
                assert not answers, answers[0].get_data(as_text=True)
                time.sleep(0.01)
            writer.commit()
        tap.join(HANG)
    finally:
        engine.dispose()
    # The game it meant to tick was ended while it waited: refused, nothing changed.
    assert answers[0].status_code == 409
    assert "Game 1 is over" in answers[0].get_data(as_text=True)
    assert actions.table(code).version == version + 1


def test_taps_and_the_ledger_at_once_on_one_table_all_land(app, actions):
    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.start(code)
    before = actions.table(code).version
    senders = {f"phone {i}": phone for i, phone in enumerate(phones)}

    def send(who: str) -> int:
        statuses = set()
        for turn in range(3):
            if who == "keeper":
                answer = actions.post(f"/t/{code}/evenings/1/name",
                                      {"name": f"Friday {turn}"})
            else:
                answer = actions.post(f"/t/{code}/games/1/tick",
                                      {"round": "1", "step": "deck:1", "from": "seat"},
                                      client=senders[who], headers=HTMX)
            statuses.add(answer.status_code)
        return statuses.pop() if len(statuses) == 1 else 0

    answers = at_once(send, ["keeper", *senders])
    assert answers == {"keeper": 303, **{who: 200 for who in senders}}
    # Twelve ticks of one step (unticked again) and three names, each counted once.
    page = actions.keeper.get(f"/t/{code}").get_data(as_text=True)
    assert 'data-step="deck:1" data-done="no"' in page
    assert actions.table(code).version == before + 15
    assert "Friday 2" in actions.keeper.get(f"/t/{code}/evenings/1").get_data(as_text=True)
