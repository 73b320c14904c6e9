"""What a table shows at one version is made once, and carried to later versions while no
change writes to the database tables it is made from."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from sqlalchemy import text

from companion.extensions import db
from companion.live.versions import VersionMemo
from companion.store import commits
from companion.store.commits import ANY_TABLE, Step, take_steps

from .test_live import HTMX, oob_ids, pulse_of


@dataclass
class AtVersion:
    id: int
    version: int


SEATS = frozenset({"seats", "seat_requests"})


class Maker:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        return f"made {self.calls}"


def test_a_value_is_carried_over_changes_that_wrote_none_of_its_tables():
    memo, make = VersionMemo(), Maker()
    assert memo.get(AtVersion(1, 7), "seats", make, SEATS) == "made 1"
    memo.learn([Step(1, 8, frozenset({"round_drafts"})),
                Step(1, 9, frozenset({"round_drafts", "sealings"}))])
    assert memo.get(AtVersion(1, 9), "seats", make, SEATS) == "made 1"
    assert make.calls == 1 and memo.carried == 1
    # ... and kept at the version it was carried to.
    assert memo.get(AtVersion(1, 9), "seats", make, SEATS) == "made 1"
    assert memo.carried == 1


@pytest.mark.parametrize("wrote, why", [
    ({"round_drafts", "seats"}, "a change wrote one of its tables"),
    ({ANY_TABLE}, "a change wrote a table nobody knows"),
])
def test_a_value_is_made_again_after_a_change_to_its_tables(wrote, why):
    memo, make = VersionMemo(), Maker()
    memo.get(AtVersion(1, 7), "seats", make, SEATS)
    memo.learn([Step(1, 8, frozenset(wrote))])
    assert memo.get(AtVersion(1, 8), "seats", make, SEATS) == "made 2", why


def test_a_value_is_made_again_after_a_change_this_process_did_not_see():
    memo, make = VersionMemo(), Maker()
    memo.get(AtVersion(1, 7), "seats", make, SEATS)
    memo.learn([Step(1, 9, frozenset({"round_drafts"}))])  # 7 -> 8: another worker's
    assert memo.get(AtVersion(1, 9), "seats", make, SEATS) == "made 2"


def test_a_value_without_its_tables_and_another_table_s_changes_are_not_carried():
    memo, make = VersionMemo(), Maker()
    memo.get(AtVersion(1, 7), "moment", make)
    memo.get(AtVersion(2, 7), "seats", make, SEATS)
    memo.learn([Step(1, 8, frozenset({"round_drafts"}))])
    assert memo.get(AtVersion(1, 8), "moment", make) == "made 3"
    assert memo.get(AtVersion(2, 8), "seats", make, SEATS) == "made 4"



@pytest.mark.db
def test_a_commit_says_which_tables_its_change_wrote(app, actions):
    code = actions.create_table()
    actions.start(code)
    with app.test_request_context():
        table = commits.find_to_change(code)
        before = table.version
        db.session.execute(text("SELECT 1"))
        commits.bump(table)
        db.session.commit()
        assert take_steps(db.session()) == [
            Step(table.id, before + 1, frozenset())]  # the version alone: nothing
        table = commits.find_to_change(code)
        table.name = "Saturday"
        commits.bump(table)
        db.session.execute(text("UPDATE seats SET name = name WHERE table_id = :t"),
                           {"t": table.id})
        db.session.commit()
        [step] = take_steps(db.session())
        assert step.wrote == {"tables", "seats"} and step.version == before + 2
        schema = "main" if db.engine.dialect.name == "sqlite" else "public"
        for seats in ('"seats"', f"{schema}.seats", f'"{schema}"."seats"'):
            table = commits.find_to_change(code)
            commits.bump(table)
            db.session.execute(text(f"UPDATE {seats} SET name = name WHERE table_id = :t"),
                               {"t": table.id})
            db.session.commit()
            assert take_steps(db.session())[0].wrote == {"seats"}, seats
        table = commits.find_to_change(code)
        commits.bump(table)
        db.session.execute(text("WITH x AS (SELECT 1) UPDATE seats SET name = name"))
        db.session.commit()
        assert take_steps(db.session())[0].wrote == {ANY_TABLE}
        table = commits.find_to_change(code)
        commits.bump(table)
        db.session.rollback()
        assert take_steps(db.session()) == []  # never was


@pytest.mark.db
def test_a_tick_s_answer_reads_neither_the_seats_nor_the_vote_again(app, client, actions):
    from ..conftest import statements

    code = actions.create_table()
    phones = actions.seat_everyone(code)
    actions.start(code)
    keeper = pulse_of(client.get(f"/t/{code}").get_data(as_text=True))
    phone = pulse_of(phones[0].get(f"/t/{code}/seat").get_data(as_text=True))
    with statements(app) as heard:
        answer = actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deck:0"},
                              headers={**HTMX, "X-Companion-Pulse": keeper})
    assert 'data-step="deck:0" data-done="yes"' in answer.get_data(as_text=True)
    read = " ".join(s.text for s in heard if s.word == "SELECT")
    for table in ("seats", "seat_requests", "sealings", "tromplemond_timers"):
        assert f" FROM {table} " not in f"{read} ", (table, heard)
    # The phones see the tick, and not their seats again.
    assert oob_ids(phones[0].get(phone, headers=HTMX).get_data(as_text=True)) == [
        "pulse", "round"]


@pytest.mark.db
def test_a_change_to_the_seats_after_ticks_still_reaches_every_screen(client, actions):
    code = actions.create_table()
    actions.start(code)
    actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deck:0"})
    keeper = pulse_of(client.get(f"/t/{code}").get_data(as_text=True))
    actions.post(f"/t/{code}/games/1/tick", {"round": "1", "step": "deck:1"})
    assert oob_ids(client.get(keeper, headers=HTMX).get_data(as_text=True)) == [
        "pulse", "round"]
    keeper = pulse_of(client.get(f"/t/{code}").get_data(as_text=True))
    actions.claim(code, 2)  # a phone asks for Sam's seat: the seats change, the round does not
    answer = client.get(keeper, headers=HTMX).get_data(as_text=True)
    assert oob_ids(answer) == ["pulse", "round", "requests-live", "keeper-live"]
    assert re.search(r'class="request" data-request="\d+" data-seat="2"', answer)
