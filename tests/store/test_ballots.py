"""The secret ballot in the store: outcomes, refusals, concurrency, and what the database keeps."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, inspect, select, text

from companion.extensions import db
from companion.rules.tromplemond import VoteKind
from companion.store import Game, Table
from companion.store.ballots import (
    Ballot,
    BallotError,
    Count,
    Voted,
    cast,
    discard,
    open_vote,
    record_cut,
    scrub,
    vote_status,
)

pytestmark = pytest.mark.db

PLAYERS = ["Rob", "Sam", "Nick", "Emily"]
WHEN = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield
        db.session.rollback()


def make_game(players=PLAYERS, game="tromplemond") -> Game:
    """A table with a game, every field fixed (no random code, key or clock)."""
    table = Table(code="BCDFGHJK", name="Friday", game=game, version=1,
                  scorekeeper_key_hash="k" * 64, recovery_code_hash="r" * 64, created_at=WHEN)
    db.session.add(table)
    db.session.flush()
    row = Game(table=table, number=1, game=game, players=list(players),
               first_dealer=players[0], options={}, rounds=[], flags={}, created_at=WHEN)
    db.session.add(row)
    db.session.commit()
    return row


def vote_all(game: Game, slips: dict[str, str], round_index: int = 0) -> None:
    """Each voter drops a slip, one transaction (one request) each, in the order given."""
    for voter, target in slips.items():
        cast(game, round_index, voter, target)
        db.session.commit()


def version(game: Game) -> int:
    return db.session.scalar(select(Table.version).where(Table.id == game.table_id))


# opening ----------------------------------------------------------------------------------

def test_opening_the_vote_makes_stage_one_for_all_four_with_zero_counts(ctx):
    game = make_game()
    before = version(game)
    ballot = open_vote(game, 0)
    db.session.commit()
    assert (ballot.stage, ballot.kind, ballot.voters, ballot.candidates, ballot.revealed) == (
        1, "vote", PLAYERS, PLAYERS, False)
    counts = db.session.execute(select(Count.candidate, Count.votes)
                                .where(Count.ballot_id == ballot.id)).all()
    assert sorted(counts) == sorted((name, 0) for name in PLAYERS)
    assert version(game) == before + 1
    status = vote_status(game, 0)
    assert (status.stage, status.kind, status.slips_in, status.slips_expected) == (
        1, "vote", 0, 4)
    assert status.counts is None and status.outcome is None and not status.settled
    assert status.targets("Rob") == ("Sam", "Nick", "Emily")


def test_opening_twice_returns_the_same_ballot_and_changes_nothing(ctx):
    game = make_game()
    first = open_vote(game, 0)
    db.session.commit()
    before = version(game)
    again = open_vote(game, 0)
    db.session.commit()
    assert again.id == first.id
    assert version(game) == before
    assert db.session.scalar(select(func.count()).select_from(Ballot)) == 1


def test_a_round_without_a_vote_has_an_empty_status(ctx):
    game = make_game()
    status = vote_status(game, 2)
    assert not status.opened and status.stage == 0 and status.counts is None


@pytest.mark.parametrize(("players", "kind", "index"), [
    (["Ann", "Bo", "Cy"], "tromplemond", 0),
    (PLAYERS, "tremp", 0),
    (PLAYERS, "tromplemond", -1),
])
def test_only_a_tromplemond_round_of_four_has_a_vote(ctx, players, kind, index):
    game = make_game(players, kind)
    with pytest.raises(BallotError):
        open_vote(game, index)
    assert db.session.scalar(select(func.count()).select_from(Ballot)) == 0


# outcomes ---------------------------------------------------------------------------------

def test_nothing_is_shown_before_the_last_slip_then_everything_at_once(ctx):
    game = make_game()
    open_vote(game, 0)
    db.session.commit()
    slips = {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"}
    for n, (voter, target) in enumerate(slips.items(), start=1):
        before = version(game)
        status = vote_status(game, 0)
        assert status.counts is None and status.outcome is None and status.settled_off is None
        assert status.slips_in == n - 1
        cast(game, 0, voter, target)
        db.session.commit()
        assert version(game) == before + 1
    status = vote_status(game, 0)
    assert status.counts == {"Rob": 0, "Sam": 0, "Nick": 1, "Emily": 3}
    assert status.outcome.kind is VoteKind.VOTED_OFF
    assert (status.settled_off, status.how) == ("Emily", "vote")
    assert status.voted == frozenset(PLAYERS)
    assert status.history == ("Round 1, vote 1: 3–1, Emily is voted off",)


def test_two_one_one_votes_off_the_player_with_two(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Rob"})
    status = vote_status(game, 0)
    assert (status.settled_off, status.how) == ("Sam", "vote")
    assert status.history == ("Round 1, vote 1: 2–1–1, Sam is voted off",)


def test_two_two_opens_a_tie_break_for_the_two_with_no_votes(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Nick"})
    status = vote_status(game, 0)
    assert status.counts == {"Rob": 0, "Sam": 2, "Nick": 2, "Emily": 0}
    assert status.outcome.kind is VoteKind.TIE_BREAK
    assert (status.stage, status.kind, status.eligible, status.candidates) == (
        2, "tie-break", ("Rob", "Emily"), ("Sam", "Nick"))
    assert status.tie_break and status.slips_in == 0 and status.slips_expected == 2
    assert status.may_vote("Rob") and not status.may_vote("Sam")
    assert status.cut_choices == ("Sam", "Nick")
    assert status.history == ("Round 1, vote 1: 2–2 between Sam and Nick; Rob and Emily decide",)
    cast(game, 0, "Rob", "Nick")
    db.session.commit()
    assert vote_status(game, 0).counts == {"Rob": 0, "Sam": 2, "Nick": 2, "Emily": 0}, (
        "the open tie-break shows nothing, only the vote before it")
    cast(game, 0, "Emily", "Nick")
    db.session.commit()
    status = vote_status(game, 0)
    assert (status.settled_off, status.how) == ("Nick", "tie-break")
    assert status.counts == {"Sam": 0, "Nick": 2}
    assert status.history[-1] == "Round 1, tie-break 1: agreed on Nick"
    assert status.cut_choices == ()


def test_a_disagreeing_tie_break_gives_the_same_two_new_slips(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Nick"})
    vote_all(game, {"Rob": "Sam", "Emily": "Nick"})
    status = vote_status(game, 0)
    assert (status.stage, status.kind, status.eligible, status.candidates) == (
        3, "tie-break", ("Rob", "Emily"), ("Sam", "Nick"))
    assert status.voted == frozenset() and not status.settled
    assert status.history[-1] == "Round 1, tie-break 1: Rob and Emily disagreed, new slips"
    vote_all(game, {"Emily": "Sam", "Rob": "Sam"})
    status = vote_status(game, 0)
    assert (status.settled_off, status.how) == ("Sam", "tie-break")
    assert status.history[-1] == "Round 1, tie-break 2: agreed on Sam"


def test_one_one_one_one_means_everyone_votes_again(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, {"Rob": "Sam", "Sam": "Nick", "Nick": "Emily", "Emily": "Rob"})
    status = vote_status(game, 0)
    assert status.outcome.kind is VoteKind.REVOTE
    assert (status.stage, status.kind, status.eligible) == (2, "vote", tuple(PLAYERS))
    assert status.cut_choices == tuple(PLAYERS)
    assert status.history == ("Round 1, vote 1: 1–1–1–1, everyone votes again",)
    # Earlier slips do not count: everyone has a fresh one.
    vote_all(game, {"Rob": "Nick", "Sam": "Nick", "Nick": "Emily", "Emily": "Nick"})
    status = vote_status(game, 0)
    assert (status.settled_off, status.how) == ("Nick", "vote")
    assert status.counts == {"Rob": 0, "Sam": 0, "Nick": 3, "Emily": 1}
    assert status.history[-1] == "Round 1, vote 2: 3–1, Nick is voted off"


def test_rounds_have_their_own_votes(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"})
    open_vote(game, 1)
    db.session.commit()
    assert vote_status(game, 1).slips_in == 0 and not vote_status(game, 1).settled
    assert vote_status(game, 0).settled_off == "Emily"


# card cut ---------------------------------------------------------------------------------

def test_a_card_cut_settles_a_two_two_tie_and_drops_the_open_tie_break_unread(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Nick"})
    cast(game, 0, "Rob", "Sam")  # one tie-break slip in: it must not survive the cut
    db.session.commit()
    record_cut(game, 0, "Nick")
    db.session.commit()
    status = vote_status(game, 0)
    assert (status.settled_off, status.how) == ("Nick", "cut")
    assert status.history[-1] == "Round 1, card cut: Nick goes off"
    assert status.counts == {"Rob": 0, "Sam": 2, "Nick": 2, "Emily": 0}
    # The half-done tie-break is gone: no row says Rob named Sam.
    assert db.session.scalar(select(func.count()).select_from(Ballot)) == 1
    assert db.session.scalar(select(func.count()).select_from(Count)
                             .where(Count.votes > 0, Count.candidate == "Sam")) == 1
    assert set(db.session.scalars(select(Voted.player))) == set(PLAYERS)


def test_after_one_one_one_one_a_cut_may_name_any_of_the_four(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, {"Rob": "Sam", "Sam": "Nick", "Nick": "Emily", "Emily": "Rob"})
    record_cut(game, 0, "Rob")
    db.session.commit()
    assert vote_status(game, 0).settled_off == "Rob"


@pytest.mark.parametrize(("setup", "name", "message", "status"), [
    ({}, "Sam", "no tie yet", 409),
    ({"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Nick"}, "Rob",
     "between Sam and Nick", 400),
    ({"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"}, "Nick",
     "settled: Emily is off", 409),
])
def test_a_cut_is_refused_when_there_is_no_tie_or_the_name_is_not_tied(ctx, setup, name,
                                                                       message, status):
    game = make_game()
    open_vote(game, 0)
    db.session.commit()
    vote_all(game, setup)
    before = (version(game), vote_status(game, 0))
    with pytest.raises(BallotError, match=message) as refused:
        record_cut(game, 0, name)
    db.session.rollback()
    assert refused.value.status == status
    assert (version(game), vote_status(game, 0)) == before


def test_a_cut_before_any_vote_is_refused(ctx):
    game = make_game()
    with pytest.raises(BallotError, match="not open yet"):
        record_cut(game, 0, "Rob")


# refusals ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("voter", "target", "message", "status"), [
    ("Rob", "Rob", "cannot vote for yourself", 400),
    ("Rob", "Zed", "Name one of Sam, Nick and Emily", 400),
    ("Zed", "Rob", "Zed is not playing", 403),
])
def test_bad_slips_are_refused_and_change_nothing(ctx, voter, target, message, status):
    game = make_game()
    open_vote(game, 0)
    cast(game, 0, "Sam", "Emily")
    db.session.commit()
    before = (version(game), vote_status(game, 0))
    with pytest.raises(BallotError, match=message) as refused:
        cast(game, 0, voter, target)
    db.session.rollback()
    assert refused.value.status == status
    assert (version(game), vote_status(game, 0)) == before


def test_a_second_slip_from_the_same_player_is_refused(ctx):
    game = make_game()
    open_vote(game, 0)
    cast(game, 0, "Sam", "Emily")
    db.session.commit()
    with pytest.raises(BallotError, match="Sam has already voted") as refused:
        cast(game, 0, "Sam", "Nick")
    db.session.rollback()
    assert refused.value.status == 409
    assert vote_status(game, 0).slips_in == 1


def test_a_tie_break_takes_slips_only_from_the_deciders_and_only_for_the_tied(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Nick"})
    with pytest.raises(BallotError, match="only Rob and Emily decide") as refused:
        cast(game, 0, "Sam", "Nick")
    assert refused.value.status == 403
    db.session.rollback()
    with pytest.raises(BallotError, match="Name one of Sam and Nick"):
        cast(game, 0, "Rob", "Emily")
    db.session.rollback()
    assert vote_status(game, 0).slips_in == 0


def test_a_slip_for_an_earlier_stage_is_refused(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Nick"})
    with pytest.raises(BallotError, match="earlier vote") as refused:
        cast(game, 0, "Rob", "Sam", stage=1)
    db.session.rollback()
    assert refused.value.status == 409
    cast(game, 0, "Rob", "Sam", stage=2)
    db.session.commit()
    assert vote_status(game, 0).slips_in == 1


def test_no_slip_before_the_vote_opens_or_after_it_is_settled(ctx):
    game = make_game()
    with pytest.raises(BallotError, match="not open yet"):
        cast(game, 0, "Rob", "Sam")
    open_vote(game, 0)
    vote_all(game, {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"})
    with pytest.raises(BallotError, match="settled: Emily is off") as refused:
        cast(game, 0, "Rob", "Sam")
    assert refused.value.status == 409


# discard ----------------------------------------------------------------------------------

def test_discard_forgets_the_round_vote_and_leaves_other_rounds(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"})
    open_vote(game, 1)
    vote_all(game, {"Rob": "Sam", "Sam": "Nick"}, round_index=1)
    before = version(game)
    discard(game, 1)
    db.session.commit()
    assert version(game) == before + 1
    assert not vote_status(game, 1).opened
    assert vote_status(game, 0).settled_off == "Emily"
    assert db.session.scalar(select(func.count()).select_from(Voted)) == 4
    assert db.session.scalar(select(func.count()).select_from(Count)) == 4
    # The round can be voted again from scratch.
    open_vote(game, 1)
    db.session.commit()
    assert vote_status(game, 1).slips_in == 0


def test_deleting_a_game_deletes_its_ballots(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, {"Rob": "Emily"})
    db.session.delete(game)
    db.session.commit()
    for model in (Ballot, Voted, Count):
        assert db.session.scalar(select(func.count()).select_from(model)) == 0


# concurrency ------------------------------------------------------------------------------

def test_four_slips_in_the_same_instant_all_count_once(app, ctx):
    game = make_game()
    open_vote(game, 0)
    db.session.commit()
    game_id = game.id
    slips = {"Rob": "Emily", "Sam": "Emily", "Nick": "Sam", "Emily": "Sam"}
    start = threading.Barrier(len(slips))
    errors: list[BaseException] = []

    def drop(voter: str, target: str) -> None:
        # A POST request of its own, as a phone's vote is.
        with app.test_request_context(method="POST"):
            try:
                start.wait()
                cast(db.session.get(Game, game_id), 0, voter, target)
                db.session.commit()
            except BaseException as error:  # noqa: BLE001  (reported below)
                errors.append(error)
                db.session.rollback()

    threads = [threading.Thread(target=drop, args=item) for item in slips.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    db.session.commit()  # a fresh snapshot: see what the threads wrote
    status = vote_status(game, 0)
    assert status.counts == {"Rob": 0, "Sam": 2, "Nick": 0, "Emily": 2}
    assert set(db.session.scalars(select(Voted.player).join(Ballot).where(Ballot.stage == 1))
               ) == set(PLAYERS)
    # Exactly one of them revealed it and opened exactly one tie-break.
    assert (status.stage, status.kind, status.eligible) == (2, "tie-break", ("Rob", "Nick"))


def test_the_same_slip_twice_in_the_same_instant_counts_once(app, ctx):
    game = make_game()
    open_vote(game, 0)
    db.session.commit()
    game_id = game.id
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def drop(target: str) -> None:
        with app.test_request_context(method="POST"):
            try:
                start.wait()
                cast(db.session.get(Game, game_id), 0, "Rob", target)
                db.session.commit()
                outcomes.append("counted")
            except BallotError as error:
                db.session.rollback()
                outcomes.append(str(error))

    threads = [threading.Thread(target=drop, args=(t,)) for t in ("Sam", "Nick")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["Rob has already voted: one slip each.", "counted"]
    db.session.commit()  # a fresh snapshot: see what the threads wrote
    assert vote_status(game, 0).slips_in == 1
    assert db.session.scalar(select(func.sum(Count.votes))) == 1


# secrecy ----------------------------------------------------------------------------------

def dump() -> dict[str, list[tuple]]:
    """Every row of every table, as the database returns them (no ORDER BY).

    Plus SQLite's rowid where a table has one, and PostgreSQL's ``ctid``
    (where a row version sits) and ``xmin`` (the transaction that wrote it,
    as its rank among the dump's transactions: the absolute ids differ from
    one run to the next, their order does not).
    """
    engine = db.engine
    names = sorted(inspect(engine).get_table_names())
    rows: dict[str, list[tuple]] = {}
    with engine.connect() as conn:
        for name in names:
            quoted = engine.dialect.identifier_preparer.quote(name)
            if engine.dialect.name == "postgresql":
                query = f"SELECT ctid::text, xmin::text, * FROM {quoted}"
            else:
                schema = conn.exec_driver_sql(
                    "SELECT sql FROM sqlite_master WHERE name = ?", (name,)).scalar_one()
                rowid = "WITHOUT ROWID" not in schema.upper()
                query = f"SELECT {'rowid, ' if rowid else ''}* FROM {quoted}"
            rows[name] = [tuple(row) for row in conn.exec_driver_sql(query)]
    if engine.dialect.name == "postgresql":
        xids = sorted({int(row[1]) for table in rows.values() for row in table})
        rank = {str(xid): n for n, xid in enumerate(xids)}
        rows = {name: [(row[0], rank[row[1]], *row[2:]) for row in table]
                for name, table in rows.items()}
    return rows


def run_vote(app, slips: dict[str, str]) -> dict[str, list[tuple]]:
    """A fresh database, one game, these slips (one request each), then the full dump."""
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
        game = make_game()
        open_vote(game, 0)
        db.session.commit()
        vote_all(game, slips)
        db.session.remove()
        return dump()


@pytest.mark.parametrize(("first", "second"), [
    # 1–1–1–1 either way: Rob and Sam, voting last, swap whom they name.
    ({"Nick": "Sam", "Emily": "Rob", "Rob": "Emily", "Sam": "Nick"},
     {"Nick": "Sam", "Emily": "Rob", "Rob": "Nick", "Sam": "Emily"}),
    # 2–2 between Emily and Nick either way: Rob and Sam, voting first, swap.
    ({"Rob": "Emily", "Sam": "Nick", "Nick": "Emily", "Emily": "Nick"},
     {"Rob": "Nick", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"}),
    # 2–1–1, Emily off either way: three of the four slips change hands.
    ({"Rob": "Emily", "Sam": "Emily", "Nick": "Sam", "Emily": "Nick"},
     {"Rob": "Sam", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"}),
])
def test_the_database_cannot_tell_who_voted_for_whom(app, first, second):
    a = run_vote(app, first)
    b = run_vote(app, second)
    assert any(a[name] for name in ("ballots", "ballot_voted", "ballot_counts"))
    assert a == b


def test_the_dump_would_tell_if_the_counts_differed(app):
    """The dump is sharp enough to see a different vote (the secrecy test can fail)."""
    a = run_vote(app, {"Rob": "Emily", "Sam": "Nick", "Nick": "Emily", "Emily": "Nick"})
    b = run_vote(app, {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"})
    assert a != b


def test_scrub_after_a_reveal_keeps_every_row(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"})
    before = dump()
    db.session.remove()
    scrub()
    assert dump() == before
    if db.engine.dialect.name == "sqlite":
        with db.engine.connect() as conn:
            busy, frames, _ = conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
            timeout = conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one()
        assert (busy, frames) == (0, 0), "the WAL is truncated: no page copies left"
        assert timeout == 10000, "the pooled connection waits for writers as usual again"
    else:
        with db.engine.connect() as conn:
            dead = conn.execute(text(
                "SELECT coalesce(sum(n_dead_tup), 0) FROM pg_stat_user_tables "
                "WHERE relname IN ('ballot_voted', 'ballot_counts')")).scalar_one()
        assert dead == 0
