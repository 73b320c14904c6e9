"""The migrations make exactly the schema the models describe, and move the data along."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

import flask_migrate
import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import func, inspect, select, text

from companion import create_app
from companion.config import database_url
from companion.extensions import db
from companion.games.tromplemond import store as tromplemond
from companion.store import Game, rounds, sealed

pytestmark = pytest.mark.db


@pytest.fixture
def bare_app(tmp_path):
    """An app on an empty database: no tables of the models, no alembic_version."""
    url = os.environ.get("DATABASE_URL")
    app = create_app({
        "TESTING": True, "SECRET_KEY": "tests",
        "SQLALCHEMY_DATABASE_URI": (database_url(url, str(tmp_path)) if url
                                    else f"sqlite:///{tmp_path / 'migrated.sqlite3'}"),
    })
    with app.app_context():
        _clear()
        yield app
        db.session.remove()
        _clear()
        db.engine.dispose()


def _clear():
    with db.engine.begin() as connection:
        # Tables of older revisions (a test that stopped half-way down) go first.
        for name in ("ballot_counts", "ballot_voted", "ballots"):
            connection.execute(text(f"DROP TABLE IF EXISTS {name}"))
    db.drop_all()
    with db.engine.begin() as connection:
        connection.execute(text("DROP TABLE IF EXISTS alembic_version"))


def test_migrations_make_exactly_the_models_schema(bare_app):
    leftovers = set(inspect(db.engine).get_table_names())
    flask_migrate.upgrade()
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = [d for d in compare_metadata(context, db.metadata)
                       if not (d[0] == "remove_table" and d[1].name in leftovers)]
    assert differences == []
    assert set(db.metadata.tables) <= set(inspect(db.engine).get_table_names())


def test_migrations_go_down_to_nothing_and_up_again(bare_app):
    flask_migrate.upgrade()
    flask_migrate.downgrade(revision="base")
    assert not set(db.metadata.tables) & set(inspect(db.engine).get_table_names())
    flask_migrate.upgrade()
    assert set(db.metadata.tables) <= set(inspect(db.engine).get_table_names())


PLAYERS = ["Rob", "Sam", "Nick", "Emily"]
T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
ROB = {"public": ["K♥", "10♠"], "secret": ["Q♥", "J♦", "K♠"]}
SAM = {"public": ["A♣", "2♦"], "secret": ["10♦", "4♠", "K♦"]}


def _old(name: str, *columns: tuple[str, sa.types.TypeEngine]) -> sa.TableClause:
    return sa.table(name, *(sa.column(c, t) for c, t in columns))


OLD_TABLES = _old("tables", ("id", sa.Integer()), ("code", sa.String()), ("name", sa.String()),
                  ("game", sa.String()), ("allow_phone_names", sa.Boolean()),
                  ("first_dealer", sa.Integer()), ("dealer_drawn", sa.Boolean()),
                  ("version", sa.Integer()), ("scorekeeper_key_hash", sa.String()),
                  ("recovery_code_hash", sa.String()), ("created_at", sa.DateTime(True)),
                  ("unit", sa.String()))
OLD_GAMES = _old("games", ("id", sa.Integer()), ("table_id", sa.Integer()),
                 ("number", sa.Integer()), ("game", sa.String()), ("players", sa.JSON()),
                 ("first_dealer", sa.String()), ("options", sa.JSON()), ("rounds", sa.JSON()),
                 ("flags", sa.JSON()), ("status", sa.String()), ("created_at", sa.DateTime(True)))
OLD_DRAFTS = _old("round_drafts", ("id", sa.Integer()), ("game_id", sa.Integer()),
                  ("round_index", sa.Integer()), ("phase", sa.String()), ("hands", sa.JSON()),
                  ("voted_off", sa.String()), ("shown_early", sa.String()),
                  ("dealer_forfeit", sa.Boolean()), ("called", sa.JSON()), ("ticks", sa.JSON()),
                  ("timer", sa.String()), ("timer_started_at", sa.DateTime(True)),
                  ("timer_spent_ms", sa.Integer()))
OLD_BALLOTS = _old("ballots", ("id", sa.Integer()), ("game_id", sa.Integer()),
                   ("round_index", sa.Integer()), ("stage", sa.Integer()), ("kind", sa.String()),
                   ("voters", sa.JSON()), ("candidates", sa.JSON()), ("revealed", sa.Boolean()),
                   ("cut", sa.String()))
OLD_VOTED = _old("ballot_voted", ("ballot_id", sa.Integer()), ("player", sa.String()))
OLD_COUNTS = _old("ballot_counts", ("ballot_id", sa.Integer()), ("candidate", sa.String()),
                  ("votes", sa.Integer()))


def _fill_before_game_flows() -> None:
    """A table at revision c3d4e5f6a7b8 with two games in play, as the old code wrote them.

    Game 1: round 1 was confirmed after a 2–2 settled by a card cut; round 2
    is being entered (hands, who went off, a call, the dealer's forfeit, a
    paused timer) and its vote is open with one slip in. Game 2: a running
    timer and nothing entered.
    """
    round_1 = {"hands": {}, "voted_off": "Nick", "shown_early": None,
               "dealer_forfeit": False, "called": []}
    with db.engine.begin() as conn:
        conn.execute(sa.insert(OLD_TABLES).values(
            id=1, code="BCDFGHJK", name="Friday", game="tromplemond", allow_phone_names=False,
            first_dealer=1, dealer_drawn=False, version=7, scorekeeper_key_hash="k" * 64,
            recovery_code_hash="r" * 64, created_at=T0, unit="GBP"))
        for number, rounds in ((1, [round_1]), (2, [])):
            conn.execute(sa.insert(OLD_GAMES).values(
                id=number, table_id=1, number=number, game="tromplemond", players=PLAYERS,
                first_dealer="Rob", options={}, rounds=rounds, flags={}, status="playing",
                created_at=T0))
        conn.execute(sa.insert(OLD_DRAFTS), [
            {"id": 1, "game_id": 1, "round_index": 1, "phase": "hands",
             "hands": {"Rob": ROB, "Sam": SAM}, "voted_off": "Emily", "shown_early": None,
             "dealer_forfeit": True, "called": ["Sam"], "ticks": ["deal:0", "deck:2"],
             "timer": "paused", "timer_started_at": None, "timer_spent_ms": 61000},
            {"id": 2, "game_id": 2, "round_index": 0, "phase": "deal", "hands": {},
             "voted_off": None, "shown_early": None, "dealer_forfeit": False, "called": [],
             "ticks": [], "timer": "running", "timer_started_at": T0, "timer_spent_ms": 0},
        ])
        conn.execute(sa.insert(OLD_BALLOTS), [
            {"id": 1, "game_id": 1, "round_index": 0, "stage": 1, "kind": "vote",
             "voters": PLAYERS, "candidates": PLAYERS, "revealed": True, "cut": "Nick"},
            {"id": 2, "game_id": 1, "round_index": 1, "stage": 1, "kind": "vote",
             "voters": PLAYERS, "candidates": PLAYERS, "revealed": False, "cut": None},
        ])
        conn.execute(sa.insert(OLD_COUNTS), [
            {"ballot_id": 1, "candidate": name, "votes": votes}
            for name, votes in {"Rob": 0, "Sam": 2, "Nick": 2, "Emily": 0}.items()] + [
            {"ballot_id": 2, "candidate": name, "votes": votes}
            for name, votes in {"Rob": 0, "Sam": 1, "Nick": 0, "Emily": 0}.items()])
        conn.execute(sa.insert(OLD_VOTED), [{"ballot_id": 1, "player": p} for p in PLAYERS]
                     + [{"ballot_id": 2, "player": "Rob"}])


def test_the_game_flows_migration_moves_drafts_timers_and_ballots(bare_app):
    flask_migrate.upgrade(revision="c3d4e5f6a7b8")
    _fill_before_game_flows()
    flask_migrate.upgrade()
    assert not {"ballots", "ballot_voted", "ballot_counts"} & set(
        inspect(db.engine).get_table_names())
    assert not {"hands", "voted_off", "called", "timer", "phase"} & {
        c["name"] for c in inspect(db.engine).get_columns("round_drafts")}

    # The drafts keep their facts in the record's form, and their ticks.
    first, second = db.session.get(Game, 1), db.session.get(Game, 2)
    draft = rounds.current_draft(first)
    assert (draft.round_index, draft.ticks, draft.corrected_from) == (
        1, ["deal:0", "deck:2"], None)
    assert draft.facts == {"hands": {"Rob": ROB, "Sam": SAM}, "voted_off": "Emily",
                           "dealer_forfeit": True, "called": ["Sam"]}
    assert tromplemond.round_facts(draft, None)["voted_off"] == "Emily"
    empty = rounds.current_draft(second)
    assert (empty.id, empty.round_index, empty.facts, empty.ticks) == (2, 0, {}, [])

    # The timers move to their own table, each for its round.
    paused = tromplemond.current_timer(first, 1)
    assert (paused.id is not None, paused.clock, paused.spent_ms) == (
        True, tromplemond.Clock.PAUSED, 61000)
    assert paused.seconds_left() == 239
    running = tromplemond.current_timer(second, 0)
    assert running.clock is tromplemond.Clock.RUNNING
    assert running.seconds_left(T0 + timedelta(seconds=30)) == 270

    # The revealed stage keeps its counts and its card cut.
    settled = tromplemond.vote_status(first, 0)
    assert (settled.settled_off, settled.how, settled.cut) == (
        "Nick", tromplemond.Stage.CUT, "Nick")
    assert settled.counts == {"Rob": 0, "Sam": 2, "Nick": 2, "Emily": 0}
    assert settled.history[0].pattern == "2–2" and not settled.restarted
    assert dict(db.session.execute(select(sealed.Tally.choice, sealed.Tally.count)
                                   .where(sealed.Tally.sealing_id == 1)).all()) == {
        "Rob": 0, "Sam": 2, "Nick": 2, "Emily": 0}

    # The open stage starts again: no slip, no partial count carried over.
    vote = tromplemond.vote_status(first, 1)
    assert (vote.stage, vote.voting, vote.restarted, vote.voted) == (1, True, True, frozenset())
    assert vote.counts is None and vote.may_vote("Rob")
    assert db.session.scalar(select(func.count()).select_from(sealed.Slip)) == 0
    assert db.session.scalar(select(func.count()).select_from(sealed.Tally)
                             .where(sealed.Tally.sealing_id == 2)) == 0

    # The moved rows live on: the open vote is played to its end, a new one opens.
    for voter, target in {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily",
                          "Emily": "Sam"}.items():
        tromplemond.cast(first, 1, voter, target)
        db.session.commit()
    assert tromplemond.vote_status(first, 1).settled_off == "Emily"
    assert tromplemond.open_vote(second, 0).id == 3
    db.session.commit()


def test_the_game_flows_migration_goes_back_with_the_drafts_facts(bare_app):
    flask_migrate.upgrade(revision="c3d4e5f6a7b8")
    _fill_before_game_flows()
    flask_migrate.upgrade()
    flask_migrate.downgrade(revision="c3d4e5f6a7b8")
    with db.engine.connect() as conn:
        drafts = conn.execute(sa.select(OLD_DRAFTS).order_by(OLD_DRAFTS.c.id)).mappings().all()
    assert [(d["phase"], d["hands"], d["voted_off"], d["dealer_forfeit"], d["called"],
             d["ticks"]) for d in drafts] == [
        ("hands", {"Rob": ROB, "Sam": SAM}, "Emily", True, ["Sam"], ["deal:0", "deck:2"]),
        ("deal", {}, None, False, [], []),
    ]
    flask_migrate.upgrade()
    assert rounds.current_draft(db.session.get(Game, 1)).facts == {
        "hands": {"Rob": ROB, "Sam": SAM}, "voted_off": "Emily", "dealer_forfeit": True,
        "called": ["Sam"]}


def test_the_evenings_migration_puts_each_tables_games_in_a_first_open_evening(bare_app):
    from companion.store import evenings

    flask_migrate.upgrade(revision="d4e5f6a7b8c9")
    with db.engine.begin() as conn:
        for table_id, code in ((1, "BCDFGHJK"), (2, "BCDFGHJM"), (3, "BCDFGHJN")):
            conn.execute(sa.insert(OLD_TABLES).values(
                id=table_id, code=code, name="Friday", game="tromplemond",
                allow_phone_names=False, first_dealer=1, dealer_drawn=False, version=1,
                scorekeeper_key_hash="k" * 64, recovery_code_hash="r" * 64, created_at=T0,
                unit="GBP"))
        conn.execute(sa.insert(OLD_GAMES), [
            {"id": number, "table_id": table_id, "number": number - offset,
             "game": "tromplemond", "players": PLAYERS, "first_dealer": "Rob",
             "options": {"joining_fee": 100}, "rounds": [], "flags": {},
             "status": "ended" if number == 1 else "playing",
             "created_at": T0 + timedelta(hours=number)}
            for number, table_id, offset in ((1, 1, 0), (2, 1, 0), (3, 2, 2))])
    flask_migrate.upgrade()

    first, second = (db.session.scalar(evenings.open_evening_of(t)) for t in (1, 2))
    assert db.session.scalar(evenings.open_evening_of(3)) is None  # no game: made when needed
    assert (first.number, first.first_game, first.last_game, first.closed) == (1, 1, None, False)
    assert [g.id for g in first.games] == [1, 2] and [g.id for g in second.games] == [3]
    assert first.opened_at.replace(tzinfo=UTC) == T0 + timedelta(hours=1)
    # (The players migration after it gives each name of the table a player.)
    assert evenings.evening_record(first) == {
        "evening": None, "unit": "GBP", "games": [g.record() for g in first.games], "paid": [],
        "player_ids": {"Rob": "1", "Sam": "2", "Nick": "3", "Emily": "4"}}
    db.session.rollback()  # the session's reads must not hold locks the downgrade waits for

    flask_migrate.downgrade(revision="d4e5f6a7b8c9")
    assert not {"evenings", "payments"} & set(inspect(db.engine).get_table_names())
    flask_migrate.upgrade()
    assert len(db.session.scalar(evenings.open_evening_of(1)).games) == 2


OLD_SEATS = _old("seats", ("id", sa.Integer()), ("table_id", sa.Integer()),
                 ("position", sa.Integer()), ("name", sa.String()), ("key_hash", sa.String()))
OLD_REQUESTS = _old("seat_requests", ("id", sa.Integer()), ("table_id", sa.Integer()),
                    ("seat_id", sa.Integer()), ("key_hash", sa.String()),
                    ("status", sa.String()), ("created_at", sa.DateTime(timezone=True)))


def test_the_players_migration_gives_each_name_a_player_and_keeps_the_seat_requests(bare_app):
    from companion.store import Seat, SeatRequest, players

    flask_migrate.upgrade(revision="5265843de2f6")
    with db.engine.begin() as conn:
        conn.execute(sa.insert(OLD_TABLES).values(
            id=1, code="BCDFGHJK", name="Friday", game="tromplemond", allow_phone_names=False,
            first_dealer=1, dealer_drawn=False, version=1, scorekeeper_key_hash="k" * 64,
            recovery_code_hash="r" * 64, created_at=T0, unit="GBP"))
        conn.execute(sa.insert(OLD_SEATS), [
            {"id": i, "table_id": 1, "position": i, "name": name, "key_hash": None}
            for i, name in enumerate(["Rob", "Sam", "Nick", "Dev", None], 1)])
        conn.execute(sa.insert(OLD_REQUESTS).values(
            id=1, table_id=1, seat_id=2, key_hash="p" * 64, status="pending", created_at=T0))
        conn.execute(sa.insert(OLD_GAMES).values(
            id=1, table_id=1, number=1, game="tromplemond", players=PLAYERS,
            first_dealer="Rob", options={}, rounds=[], flags={}, status="ended",
            created_at=T0))
    flask_migrate.upgrade()

    named = {p.name: p.id for p in db.session.scalars(players.players_of(1))}
    assert list(named) == ["Rob", "Sam", "Nick", "Emily", "Dev"]  # the games' first
    seats = db.session.scalars(select(Seat).order_by(Seat.position)).all()
    assert [s.player_id for s in seats] == [named["Rob"], named["Sam"], named["Nick"],
                                            named["Dev"], None]
    assert db.session.get(Game, 1).player_ids == {n: named[n] for n in PLAYERS}
    assert db.session.get(SeatRequest, 1).status == "pending"  # seats were not remade
    db.session.rollback()

    flask_migrate.downgrade(revision="5265843de2f6")
    assert "players" not in inspect(db.engine).get_table_names()
    assert db.session.scalar(select(func.count()).select_from(OLD_REQUESTS)) == 1
