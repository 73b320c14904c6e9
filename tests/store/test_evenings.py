"""A table's evenings: which games they hold, the payments marked, the close, the record."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from companion.extensions import db
from companion.rules import evening as ledger
from companion.store import ENDED, changes, evenings
from companion.store.evenings import Evening, Payment
from tests.store.conftest import rows

pytestmark = pytest.mark.db

FEE = {"joining_fee": 200}


def make_table(unit="GBP"):
    table, _key, _recovery = changes.create_table(
        name="Friday", game="tromplemond", names=["Ana", "Ben", "Cleo", "Dev"],
        allow_phone_names=False, first_dealer=1, unit=unit)
    db.session.commit()
    return table


def play(table, status=ENDED, **options):
    """Start the table's next game (no rounds) and end it."""
    game = changes.start_game(table, options=options or FEE)
    if status == ENDED:
        changes.end_game(table, game, ENDED)
    db.session.commit()
    return game


def test_a_table_has_no_evening_row_until_one_is_written(ctx):
    table = make_table()
    current = evenings.current_evening(table)
    assert (current.number, current.first_game, current.games, current.payments) == (1, 1, [], [])
    assert current not in db.session and rows(Evening) == 0
    game = play(table, status="playing")
    assert evenings.current_evening(table).games == [game] and rows(Evening) == 0
    opened = evenings.open_evening(table)
    assert opened.id is not None and opened.games == [game]
    assert opened.opened_at == game.created_at  # it opened with its first game
    assert evenings.open_evening(table) is opened and evenings.current_evening(table) is opened


def test_a_table_has_one_evening_of_each_number(ctx):
    table = make_table()
    evenings.open_evening(table)
    db.session.commit()
    db.session.add(Evening(table_id=table.id, number=1, first_game=1))
    with pytest.raises(IntegrityError):
        db.session.commit()


def test_payments_are_kept_in_order_and_undone_one_by_one(ctx):
    table = make_table()
    play(table)
    evening = evenings.open_evening(table)
    version = table.version
    first = evenings.mark_paid(evening, "Ana", "Ben", 150)
    evenings.mark_paid(evening, "Cleo", "Ana", 350)
    evenings.mark_paid(evening, "Ana", "Ben", 150)
    db.session.commit()
    assert table.version == version + 3
    assert evenings.evening_record(evening)["paid"] == [
        ["Ana", "Ben", 150], ["Cleo", "Ana", 350], ["Ana", "Ben", 150]]
    evenings.undo_payment(evenings.locked_evening(evening), first)
    db.session.commit()
    assert table.version == version + 4
    assert evenings.evening_record(evening)["paid"] == [["Cleo", "Ana", 350], ["Ana", "Ben", 150]]
    assert rows(Payment) == 2


def test_the_record_is_the_design_format_and_the_rules_read_it(ctx):
    table = make_table()
    one = play(table)
    two = play(table, status="playing")
    evening = evenings.open_evening(table)
    evenings.rename_evening(evening, "Friday")
    db.session.commit()
    record = evenings.evening_record(evening)
    ids = {seat.name: str(seat.player_id) for seat in table.seats}
    assert record == {"evening": "Friday", "unit": "GBP",
                      "games": [one.record(), two.record()], "paid": [], "player_ids": ids}
    assert list(record) == ["evening", "unit", "games", "paid", "player_ids"]
    result = ledger(record)
    assert result["players"] == ["Ana", "Ben", "Cleo", "Dev"] and not result["settled"]


def test_closing_keeps_the_games_and_unit_and_the_next_game_opens_a_fresh_evening(ctx):
    table = make_table()
    one, two = play(table), play(table)
    first = evenings.open_evening(table)
    evenings.mark_paid(first, "Ana", "Ben", 100)
    evenings.close_evening(first)
    db.session.commit()
    assert (first.closed, first.last_game, first.unit) == (True, 2, "GBP")
    assert db.session.scalar(evenings.open_evening_of(table.id)) is None
    fresh = evenings.current_evening(table)
    assert (fresh.number, fresh.first_game, fresh.games, fresh.payments) == (2, 3, [], [])

    changes.set_unit(table, "EUR")
    three = play(table, status="playing")
    second = evenings.open_evening(table)
    db.session.commit()
    assert second.games == [three] and first.games == [one, two]
    assert evenings.evening_record(first)["unit"] == "GBP"
    assert evenings.evening_record(second)["unit"] == "EUR"
    assert evenings.evening_record(first)["paid"] == [["Ana", "Ben", 100]]
    assert [e.number for e in db.session.scalars(evenings.evenings_of(table.id))] == [1, 2]
    assert db.session.scalar(evenings.evening_number(table.id, 1)) is first


@pytest.mark.parametrize(("unit", "fee", "paid"), [("NOK", 5000, 3750), ("JPY", 1000, 750),
                                                  ("KWD", 2500, 1875)])
def test_an_evening_in_kroner_yen_or_dinars_is_kept_and_closed_in_its_unit(ctx, unit, fee,
                                                                          paid):
    table = make_table(unit)
    play(table, joining_fee=fee)
    first = evenings.open_evening(table)
    evenings.mark_paid(first, "Ana", "Ben", paid)
    evenings.close_evening(first)
    changes.set_unit(table, "GBP")  # the next evening in pounds: the closed one keeps its own
    db.session.commit()
    db.session.expire_all()
    record = evenings.evening_record(first)
    assert (first.unit, record["unit"], table.unit) == (unit, unit, "GBP")
    assert record["paid"] == [["Ana", "Ben", paid]]
    assert record["games"][0]["options"]["joining_fee"] == fee
    assert ledger(record)["paid"] == {"Ana": paid, "Ben": -paid}


def test_a_chip_value_is_a_game_option(ctx):
    table = make_table()
    game = changes.start_game(table, {"game": "clumond", "players": ["Ana", "Ben", "Cleo"],
                                      "first_dealer": "Ana", "options": {"ante": 5},
                                      "rounds": []})
    version = table.version
    evenings.set_chip_value(game, 5)
    db.session.commit()
    assert game.options == {"ante": 5, "chip_value": 5} and table.version == version + 1
    evenings.set_chip_value(game, None)
    db.session.commit()
    assert game.options == {"ante": 5}


def test_a_table_takes_its_evenings_and_payments_with_it(ctx):
    table = make_table()
    play(table)
    evenings.mark_paid(evenings.open_evening(table), "Ana", "Ben", 100)
    db.session.commit()
    db.session.delete(table)
    db.session.commit()
    assert rows(Evening) == 0 and rows(Payment) == 0
