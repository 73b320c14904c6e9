"""The models keep facts with the database's own guarantees: unique seats, atomic versions."""

from __future__ import annotations

import pytest
from sqlalchemy import select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from companion.extensions import db
from companion.store import Game, Seat, SeatRequest, Table, changes, commits, key_hash, same_key
from companion.store.codes import check_recovery, new_key, recovery_hash

pytestmark = pytest.mark.db


def make_table(names=("Rob", "Sam", "Nick", "Emily"), **kw):
    table, key, recovery = changes.create_table(
        name="Friday", game="tromplemond", names=list(names),
        allow_phone_names=kw.get("allow_phone_names", False), first_dealer=1)
    db.session.commit()
    return table, key, recovery


def test_a_new_table_has_its_seats_in_order_and_version_one(ctx):
    table, key, recovery = make_table()
    assert [(s.position, s.name) for s in table.seats] == [
        (1, "Rob"), (2, "Sam"), (3, "Nick"), (4, "Emily")]
    assert table.version == 1
    assert same_key(key, table.scorekeeper_key_hash)
    assert check_recovery(recovery, table.recovery_code_hash)
    assert not check_recovery("BCDFGHJK", table.recovery_code_hash)


@pytest.mark.parametrize("clash", [{"position": 1}, {"name": "Rob"}, {"key_hash": "h" * 64}])
def test_seats_are_unique_per_table(ctx, clash):
    table, _, _ = make_table()
    db.session.execute(update(Seat).where(Seat.table_id == table.id, Seat.position == 1)
                       .values(key_hash="h" * 64))
    db.session.commit()
    seat = {"position": 9, "name": "Zed", "key_hash": None} | clash
    db.session.add(Seat(table_id=table.id, **seat))
    with pytest.raises(IntegrityError):
        db.session.commit()
    db.session.rollback()
    # The same at another table is fine.
    other = Table(code="ZZZZZZZZ", name="Other", game="tremp", scorekeeper_key_hash="x",
                  recovery_code_hash="y")
    db.session.add(other)
    db.session.flush()
    db.session.add(Seat(table_id=other.id, **seat))
    db.session.commit()


def test_blank_names_and_free_seats_may_repeat(ctx):
    table, _, _ = make_table(names=[None, None, None], allow_phone_names=True)
    assert [s.name for s in table.seats] == [None, None, None]
    assert all(s.key_hash is None for s in table.seats)


def test_join_codes_are_unique(ctx):
    table, _, _ = make_table()
    db.session.add(Table(code=table.code, name="Copy", game="tremp",
                         scorekeeper_key_hash="x", recovery_code_hash="y"))
    with pytest.raises(IntegrityError):
        db.session.commit()


def test_bump_adds_one_in_the_database_even_over_a_stale_copy(app, ctx):
    table, _, _ = make_table()
    table_id = table.id
    db.session.commit()  # no transaction of this session stays open
    # Another request raises the version meanwhile (its own connection and transaction) …
    with db.engine.begin() as other:
        other.execute(text("UPDATE tables SET version = version + 4 WHERE id = :id"),
                      {"id": table_id})
    # … while this one still holds the version it read before.
    set_committed_value(table, "version", 1)
    commits.bump(table)
    db.session.commit()
    assert db.session.scalar(select(Table.version).where(Table.id == table.id)) == 6


def test_a_seat_goes_to_the_first_phone_only(ctx):
    table, _, _ = make_table()
    seat = table.seat_at(2)
    assert changes.claim_seat(table, seat, new_key())
    db.session.commit()
    assert not changes.claim_seat(table, seat, new_key())
    db.session.commit()


def test_one_phone_holds_one_seat_per_table(ctx):
    table, _, _ = make_table()
    key = new_key()
    assert changes.claim_seat(table, table.seat_at(1), key)
    db.session.commit()
    assert not changes.claim_seat(table, table.seat_at(2), key)
    db.session.commit()
    assert [s.key_hash for s in table.seats].count(key_hash(key)) == 1


def test_once_a_game_started_a_free_seat_is_not_taken_with_one_tap(ctx):
    table, _, _ = make_table()
    changes.start_game(table)
    db.session.commit()
    with pytest.raises(changes.NeedsApproval):
        changes.claim_seat(table, table.seat_at(2), new_key())
    assert table.seat_at(2).key_hash is None


def test_approving_a_typed_name_names_the_blank_seat(ctx):
    table, _, _ = make_table()
    seat = changes.add_seat(table)
    key = new_key()
    asked = changes.ask_for_seat(table, seat, key, name="Dave")
    db.session.commit()
    assert changes.answer_request(table, asked, approve=True)
    db.session.commit()
    assert (seat.name, seat.key_hash) == ("Dave", key_hash(key))


def test_moving_seats_swaps_them_through_a_free_number(ctx):
    table, _, _ = make_table()
    changes.move_seat(table, table.seat_at(1), table.seat_at(2))
    db.session.commit()
    assert [s.name for s in table.seats] == ["Sam", "Rob", "Nick", "Emily"]
    assert table.first_dealer == 2


def test_approving_gives_the_seat_to_the_asker_and_denies_the_others(ctx):
    table, _, _ = make_table()
    seat = table.seat_at(2)
    changes.claim_seat(table, seat, new_key())
    first, second = new_key(), new_key()
    one = changes.ask_for_seat(table, seat, first)
    two = changes.ask_for_seat(table, seat, second)
    db.session.commit()
    assert changes.answer_request(table, one, approve=True)
    db.session.commit()
    assert seat.key_hash == key_hash(first)
    assert db.session.get(SeatRequest, two.id).status == "denied"
    assert not changes.answer_request(table, one, approve=True), "answered once only"


def test_a_game_keeps_its_record_and_flags(ctx):
    table, _, _ = make_table()
    record = {"game": "tromplemond", "players": ["Rob", "Sam", "Nick", "Emily"],
              "first_dealer": "Sam", "options": {"rounds": 4}, "rounds": [], "void": True}
    game = changes.start_game(table, record)
    db.session.commit()
    stored = db.session.get(Game, game.id)
    assert stored.record() == record
    assert list(stored.record()) == ["game", "players", "first_dealer", "options", "rounds",
                                     "void"]
    assert stored.number == 1 and stored.status == "playing"


def test_a_game_number_is_unique_per_table(ctx):
    table, _, _ = make_table()
    changes.start_game(table)
    db.session.commit()
    db.session.add(Game(table_id=table.id, number=1, game="tromplemond", players=[],
                        first_dealer="Rob"))
    with pytest.raises(IntegrityError):
        db.session.commit()


def test_deleting_a_table_deletes_its_seats_requests_and_games(ctx):
    table, _, _ = make_table()
    changes.ask_for_seat(table, table.seat_at(1), new_key())
    changes.start_game(table)
    db.session.commit()
    table_id = table.id
    db.session.execute(text("DELETE FROM tables WHERE id = :id"), {"id": table_id})
    db.session.commit()
    for model in (Seat, SeatRequest, Game):
        assert db.session.scalars(select(model).where(model.table_id == table_id)).all() == []


def test_keys_are_long_and_stored_as_sha256():
    key = new_key()
    assert len(key) >= 40
    assert len(key_hash(key)) == 64 and key not in key_hash(key)
    assert same_key(key, key_hash(key)) and not same_key(new_key(), key_hash(key))
    assert not same_key(None, key_hash(key)) and not same_key(key, None)


def test_recovery_codes_use_a_slow_salted_hash():
    assert recovery_hash("BCDFGHJK") != recovery_hash("BCDFGHJK")
