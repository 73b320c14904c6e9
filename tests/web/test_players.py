"""A player at a table is the same player every evening: kept by the store, written in the
evening's record, and offered again in one tap to the phone that sat as them."""

from __future__ import annotations

import pytest

from companion.extensions import db
from companion.rules.records import record_book
from companion.store import changes, players, queries
from tests.web.test_ledger import Evening, text

pytestmark = pytest.mark.db


@pytest.fixture
def table(actions) -> Evening:
    """Evening 1: Rob, Sam, Nick and Emily play a Tromplemond (Rob wins); it is closed."""
    table = Evening(actions)
    table.tromplemond()
    assert table.post("/close").status_code == 303
    return table


def ids(table: Evening, number: int) -> dict[str, str]:
    return table.record(number)["player_ids"]


def test_each_evening_record_names_the_same_player_by_the_same_id(table):
    first = ids(table, 1)
    assert sorted(first) == ["Emily", "Nick", "Rob", "Sam"]
    assert len(set(first.values())) == 4
    table.tromplemond()
    assert ids(table, 2) == first


def test_a_renamed_player_keeps_their_id_and_their_record(table):
    sam = ids(table, 1)["Sam"]
    renamed = table.actions.post(f"/t/{table.code}/seats/2/name", {"name": "Samuel"})
    assert renamed.status_code == 303
    table.tromplemond()
    second = table.record(2)
    assert second["player_ids"]["Samuel"] == sam
    book = record_book([table.record(1), second])
    player = book.player(sam)
    assert (player.name, player.names) == ("Samuel", ("Sam", "Samuel"))
    assert player.games["tromplemond"].played.value == 2


def test_a_seat_whose_name_is_cleared_is_somebody_new(table):
    with table.app.app_context():
        live = db.session.scalar(queries.table_by_code(table.code))
        seat = live.seat_at(4)
        assert seat.player_id is not None
        changes.rename_seat(live, seat, None)  # (a table that lets phones name their seats)
        assert seat.player_id is None
        changes.rename_seat(live, seat, "Dev")
        db.session.commit()
    table.tromplemond(finish=False)
    second = table.record(2)["player_ids"]
    assert "Emily" not in second
    assert second["Dev"] not in table.record(1)["player_ids"].values()
    assert {name: second[name] for name in ("Rob", "Sam", "Nick")} == {
        name: ids(table, 1)[name] for name in ("Rob", "Sam", "Nick")}


def test_a_phone_that_left_is_offered_its_player_again_in_one_tap(table):
    sam = table.phones["Sam"]
    assert table.actions.post(f"/t/{table.code}/seats/2/leave", client=sam).status_code == 303
    page = text(sam.get(f"/j/{table.code}"))
    assert 'data-testid="sit-again"' in page and "I'm Sam" in page
    stranger = table.actions.phone()
    assert 'data-testid="sit-again"' not in text(stranger.get(f"/j/{table.code}"))
    # One tap, no request for the scorekeeper to approve (the table has started).
    answer = table.actions.post(f"/j/{table.code}/again", client=sam)
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/seat")
    assert "Sam" in text(sam.get(f"/t/{table.code}/seat"))
    seat = table.actions.table(table.code).seat_at(2)
    assert seat.held and seat.name == "Sam"
    assert table.actions.post(f"/j/{table.code}/again", client=stranger).status_code == 409


def test_a_phone_whose_seat_was_taken_away_is_offered_a_blank_one_under_its_name(table):
    emily = table.phones["Emily"]
    actions = table.actions
    assert actions.post(f"/t/{table.code}/seats/4/remove").status_code == 303
    assert actions.post(f"/t/{table.code}/seats/add").status_code == 303
    page = text(emily.get(f"/j/{table.code}"))
    assert "I'm Emily" in page
    assert actions.post(f"/j/{table.code}/again", client=emily).status_code == 303
    seat = actions.table(table.code).seat_at(4)
    assert seat.name == "Emily" and seat.held
    with actions.app.app_context():
        live = db.session.scalar(queries.table_by_code(table.code))
        assert live.seat_at(4).player_id == int(ids(table, 1)["Emily"])
        assert len(db.session.scalars(players.players_of(live.id)).all()) == 4


def test_an_imported_evening_keeps_who_is_who(app, table):
    record = table.record(1)
    record["games"] = record["games"] * 2
    answer = app.test_client().post("/api/evenings", json=record)
    assert answer.status_code == 201, text(answer)
    code = answer.get_json()["table_url"].rsplit("/", 1)[-1]
    back = app.test_client().get(f"/t/{code}/evenings/1/evening.json").get_json()
    assert sorted(back["player_ids"]) == sorted(record["player_ids"])
    assert len(set(back["player_ids"].values())) == 4
    with app.app_context():
        imported = db.session.scalar(queries.table_by_code(code))
        assert {s.name: str(s.player_id) for s in imported.seats} == back["player_ids"]
