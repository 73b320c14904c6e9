"""Tromplemond's vote in the store: its stages, refusals, card cuts and concurrency.

The vote is a run of anonymous sealed choices (``companion.store.sealed``):
these tests play it through ``companion.games.tromplemond.store`` as the pages do.
"""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import select, text

from companion.extensions import db
from companion.games.tromplemond.rules import VoteKind
from companion.games.tromplemond.store import (
    Stage,
    cast,
    check_slip,
    discard_vote,
    open_vote,
    record_cut,
    vote_status,
)
from companion.store import Game, Table
from companion.store.sealed import SealError, Sealing, Slip, Tally, scrub
from tests.store.conftest import PLAYERS, make_game, rows, version

pytestmark = pytest.mark.db

TWO_TWO = {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Nick"}
THREE_ONE = {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"}
ONE_EACH = {"Rob": "Sam", "Sam": "Nick", "Nick": "Emily", "Emily": "Rob"}


def vote_all(game: Game, slips: dict[str, str], round_index: int = 0) -> None:
    """Each voter drops a slip, one transaction (one request) each, in the order given."""
    for voter, target in slips.items():
        cast(game, round_index, voter, target)
        db.session.commit()




def history(game: Game, round_index: int = 0) -> list[tuple]:
    """The revealed stages as (stage, ordinal, pattern, outcome kind, who is off)."""
    return [(r.stage, r.ordinal, r.pattern, r.outcome.kind, r.outcome.voted_off)
            for r in vote_status(game, round_index).history]


# opening ----------------------------------------------------------------------------------

def test_opening_the_vote_makes_stage_one_for_all_four_with_nothing_counted(ctx):
    game = make_game()
    before = version(game)
    sealing = open_vote(game, 0)
    db.session.commit()
    assert (sealing.stage, sealing.step, sealing.mode, sealing.choosers, sealing.choices,
            sealing.revealed) == (1, "vote", "anonymous", PLAYERS, PLAYERS, False)
    assert rows(Tally) == 0 and rows(Slip) == 0
    assert version(game) == before + 1
    status = vote_status(game, 0)
    assert (status.stage, status.kind, status.slips_in, status.slips_expected) == (
        1, Stage.VOTE, 0, 4)
    assert status.opened and status.voting and not status.settled
    assert status.counts is None and status.outcome is None and status.history == ()
    assert status.targets("Rob") == ("Sam", "Nick", "Emily")
    assert status.cut_choices == () and not status.restarted


def test_opening_twice_returns_the_same_sealing_and_changes_nothing(ctx):
    game = make_game()
    first = open_vote(game, 0)
    db.session.commit()
    before = version(game)
    again = open_vote(game, 0)
    db.session.commit()
    assert again.id == first.id
    assert version(game) == before
    assert rows(Sealing) == 1


def test_a_round_without_a_vote_has_an_empty_status(ctx):
    game = make_game()
    status = vote_status(game, 2)
    assert (status.opened, status.stage, status.counts, status.history) == (False, 0, None, ())
    assert not status.may_vote("Rob")


def test_the_players_come_from_the_game(ctx):
    game = make_game(["Ann", "Bo", "Cy", "Di"])
    open_vote(game, 0)
    vote_all(game, {"Ann": "Di", "Bo": "Di", "Cy": "Ann", "Di": "Ann"})
    status = vote_status(game, 0)
    assert status.counts == {"Ann": 2, "Bo": 0, "Cy": 0, "Di": 2}
    assert (status.eligible, status.candidates) == (("Bo", "Cy"), ("Ann", "Di"))


# outcomes ---------------------------------------------------------------------------------

def test_nothing_is_shown_before_the_last_slip_then_everything_at_once(ctx):
    game = make_game()
    open_vote(game, 0)
    db.session.commit()
    for n, (voter, target) in enumerate(THREE_ONE.items(), start=1):
        before = version(game)
        status = vote_status(game, 0)
        assert status.counts is None and status.outcome is None and status.settled_off is None
        assert status.slips_in == n - 1 and rows(Tally) == 0
        assert cast(game, 0, voter, target) is (n == 4)
        db.session.commit()
        assert version(game) == before + 1
    status = vote_status(game, 0)
    assert status.counts == {"Rob": 0, "Sam": 0, "Nick": 1, "Emily": 3}
    assert status.outcome.kind is VoteKind.VOTED_OFF
    assert (status.settled_off, status.how) == ("Emily", Stage.VOTE)
    assert status.voted == frozenset(PLAYERS) and not status.voting
    assert history(game) == [(Stage.VOTE, 1, "3–1", VoteKind.VOTED_OFF, "Emily")]
    assert rows(Slip) == 0, "the sealed slips go at the reveal"


def test_two_one_one_votes_off_the_player_with_two(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam", "Emily": "Rob"})
    status = vote_status(game, 0)
    assert (status.settled_off, status.how) == ("Sam", Stage.VOTE)
    assert history(game) == [(Stage.VOTE, 1, "2–1–1", VoteKind.VOTED_OFF, "Sam")]


def test_two_two_opens_a_tie_break_for_the_two_with_no_votes(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, TWO_TWO)
    status = vote_status(game, 0)
    assert status.counts == {"Rob": 0, "Sam": 2, "Nick": 2, "Emily": 0}
    assert status.outcome.kind is VoteKind.TIE_BREAK
    assert (status.stage, status.kind, status.eligible, status.candidates) == (
        2, Stage.TIE_BREAK, ("Rob", "Emily"), ("Sam", "Nick"))
    assert status.voting and status.slips_in == 0 and status.slips_expected == 2
    assert status.may_vote("Rob") and not status.may_vote("Sam")
    assert status.cut_choices == ("Sam", "Nick")
    assert history(game) == [(Stage.VOTE, 1, "2–2", VoteKind.TIE_BREAK, None)]
    assert status.history[0].deciders == tuple(PLAYERS)
    cast(game, 0, "Rob", "Nick")
    db.session.commit()
    status = vote_status(game, 0)
    assert status.counts == {"Rob": 0, "Sam": 2, "Nick": 2, "Emily": 0}, (
        "the open tie-break shows nothing, only the vote before it")
    assert status.revealed_kind is Stage.VOTE and status.voted == {"Rob"}
    cast(game, 0, "Emily", "Nick")
    db.session.commit()
    status = vote_status(game, 0)
    assert (status.settled_off, status.how) == ("Nick", Stage.TIE_BREAK)
    assert status.counts == {"Sam": 0, "Nick": 2}
    assert history(game)[-1] == (Stage.TIE_BREAK, 1, "2", VoteKind.VOTED_OFF, "Nick")
    assert status.history[-1].deciders == ("Rob", "Emily")
    assert status.cut_choices == () and status.stage == 2


def test_a_disagreeing_tie_break_gives_the_same_two_new_slips(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, TWO_TWO)
    vote_all(game, {"Rob": "Sam", "Emily": "Nick"})
    status = vote_status(game, 0)
    assert (status.stage, status.kind, status.eligible, status.candidates) == (
        3, Stage.TIE_BREAK, ("Rob", "Emily"), ("Sam", "Nick"))
    assert status.voted == frozenset() and not status.settled
    assert status.counts == {"Sam": 1, "Nick": 1}
    assert status.cut_choices == ("Sam", "Nick")
    assert history(game)[-1] == (Stage.TIE_BREAK, 1, "1–1", VoteKind.TIE_BREAK, None)
    vote_all(game, {"Emily": "Sam", "Rob": "Sam"})
    status = vote_status(game, 0)
    assert (status.settled_off, status.how) == ("Sam", Stage.TIE_BREAK)
    assert history(game)[-1] == (Stage.TIE_BREAK, 2, "2", VoteKind.VOTED_OFF, "Sam")
    assert len(status.history) == 3


def test_one_one_one_one_means_everyone_votes_again(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, ONE_EACH)
    status = vote_status(game, 0)
    assert status.outcome.kind is VoteKind.REVOTE
    assert (status.stage, status.kind, status.eligible, status.candidates) == (
        2, Stage.VOTE, tuple(PLAYERS), tuple(PLAYERS))
    assert status.cut_choices == tuple(PLAYERS)
    assert history(game) == [(Stage.VOTE, 1, "1–1–1–1", VoteKind.REVOTE, None)]
    # Earlier slips do not count: everyone has a fresh one.
    assert status.voted == frozenset() and status.may_vote("Rob")
    vote_all(game, {"Rob": "Nick", "Sam": "Nick", "Nick": "Emily", "Emily": "Nick"})
    status = vote_status(game, 0)
    assert (status.settled_off, status.how) == ("Nick", Stage.VOTE)
    assert status.counts == {"Rob": 0, "Sam": 0, "Nick": 3, "Emily": 1}
    assert history(game)[-1] == (Stage.VOTE, 2, "3–1", VoteKind.VOTED_OFF, "Nick")


def test_rounds_have_their_own_votes(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, THREE_ONE)
    open_vote(game, 1)
    db.session.commit()
    vote_all(game, {"Rob": "Sam"}, round_index=1)
    assert vote_status(game, 1).slips_in == 1 and not vote_status(game, 1).settled
    assert vote_status(game, 1).stage == 1
    assert vote_status(game, 0).settled_off == "Emily"
    assert vote_status(game, 0).voted == frozenset(PLAYERS)


# card cut ---------------------------------------------------------------------------------

def test_a_card_cut_settles_a_two_two_tie_and_drops_the_open_tie_break_unread(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, TWO_TWO)
    cast(game, 0, "Rob", "Sam")  # one tie-break slip in: it must not survive the cut
    db.session.commit()
    before = version(game)
    record_cut(game, 0, "Nick")
    db.session.commit()
    assert version(game) > before
    status = vote_status(game, 0)
    assert (status.settled_off, status.how, status.cut) == ("Nick", Stage.CUT, "Nick")
    assert status.counts == {"Rob": 0, "Sam": 2, "Nick": 2, "Emily": 0}
    assert not status.voting and status.cut_choices == ()
    # The half-done tie-break is gone, unread: its sealing and its slip.
    assert rows(Sealing) == 1 and rows(Slip) == 0
    tie = db.session.scalars(select(Sealing)).one()
    assert (tie.stage, tie.verdict, tie.revealed) == (1, "Nick", True)
    assert dict(db.session.execute(select(Tally.choice, Tally.count))
                .all()) == {"Rob": 0, "Sam": 2, "Nick": 2, "Emily": 0}


def test_a_card_cut_after_a_disagreeing_tie_break(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, TWO_TWO)
    vote_all(game, {"Rob": "Sam", "Emily": "Nick"})
    record_cut(game, 0, "Sam")
    db.session.commit()
    status = vote_status(game, 0)
    assert (status.settled_off, status.how) == ("Sam", Stage.CUT)
    assert [s.stage for s in db.session.scalars(select(Sealing))] == [1, 2]


def test_after_one_one_one_one_a_cut_may_name_any_of_the_four(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, ONE_EACH)
    record_cut(game, 0, "Rob")
    db.session.commit()
    assert vote_status(game, 0).settled_off == "Rob"
    with pytest.raises(SealError, match="settled: Rob is off"):
        cast(game, 0, "Sam", "Nick")


@pytest.mark.parametrize(("setup", "name", "message", "status"), [
    ({}, "Sam", "no tie yet", 409),
    ({"Rob": "Sam"}, "Sam", "no tie yet", 409),
    (TWO_TWO, "Rob", "between Sam and Nick: pick one", 400),
    (ONE_EACH, "Zed", "between Rob, Sam, Nick and Emily: pick one", 400),
    (THREE_ONE, "Nick", "settled: Emily is off", 409),
])
def test_a_cut_is_refused_when_there_is_no_tie_or_the_name_is_not_tied(ctx, setup, name,
                                                                       message, status):
    game = make_game()
    open_vote(game, 0)
    db.session.commit()
    vote_all(game, setup)
    before = (version(game), vote_status(game, 0))
    with pytest.raises(SealError, match=message) as refused:
        record_cut(game, 0, name)
    db.session.rollback()
    assert refused.value.status == status
    assert (version(game), vote_status(game, 0)) == before


def test_a_cut_before_any_vote_is_refused(ctx):
    game = make_game()
    with pytest.raises(SealError, match="not open yet") as refused:
        record_cut(game, 0, "Rob")
    assert refused.value.status == 409
    assert rows(Sealing) == 0


# refusals ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("voter", "target", "message", "status"), [
    ("Rob", "Rob", "cannot vote for yourself", 400),
    ("Rob", "Zed", "Name one of Sam, Nick and Emily on your slip", 400),
    ("Rob", "", "Name one of Sam, Nick and Emily", 400),
    ("Zed", "Rob", "Zed is not playing this game", 403),
    ("Sam", "Nick", "Sam has already voted: one slip each", 409),
])
def test_bad_slips_are_refused_and_change_nothing(ctx, voter, target, message, status):
    game = make_game()
    open_vote(game, 0)
    cast(game, 0, "Sam", "Emily")
    db.session.commit()
    before = (version(game), vote_status(game, 0))
    with pytest.raises(SealError, match=message) as checked:
        check_slip(vote_status(game, 0), voter, target, None)
    assert checked.value.status == status
    with pytest.raises(SealError, match=message) as refused:
        cast(game, 0, voter, target)
    db.session.rollback()
    assert refused.value.status == status
    assert (version(game), vote_status(game, 0)) == before
    assert rows(Slip) == 1


def test_a_good_slip_passes_the_check_and_the_check_writes_nothing(ctx):
    game = make_game()
    open_vote(game, 0)
    db.session.commit()
    before = version(game)
    assert check_slip(vote_status(game, 0), "Rob", "Sam", 1) is None
    db.session.commit()
    assert version(game) == before and rows(Slip) == 0


def test_a_tie_break_takes_slips_only_from_the_deciders_and_only_for_the_tied(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, TWO_TWO)
    with pytest.raises(SealError, match="only Rob and Emily decide between Sam and Nick"
                       ) as refused:
        cast(game, 0, "Sam", "Nick")
    assert refused.value.status == 403
    db.session.rollback()
    with pytest.raises(SealError, match="Name one of Sam and Nick on your slip") as refused:
        cast(game, 0, "Rob", "Emily")
    assert refused.value.status == 400
    db.session.rollback()
    assert vote_status(game, 0).slips_in == 0


def test_a_slip_for_an_earlier_stage_is_refused(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, TWO_TWO)
    with pytest.raises(SealError, match="earlier vote") as refused:
        cast(game, 0, "Rob", "Sam", stage=1)
    db.session.rollback()
    assert refused.value.status == 409
    assert vote_status(game, 0).slips_in == 0
    cast(game, 0, "Rob", "Sam", stage=2)
    db.session.commit()
    assert vote_status(game, 0).slips_in == 1


def test_no_slip_before_the_vote_opens_or_after_it_is_settled(ctx):
    game = make_game()
    with pytest.raises(SealError, match="not open yet") as refused:
        cast(game, 0, "Rob", "Sam")
    assert refused.value.status == 409
    db.session.rollback()
    open_vote(game, 0)
    vote_all(game, THREE_ONE)
    with pytest.raises(SealError, match="settled: Emily is off") as refused:
        cast(game, 0, "Rob", "Sam")
    assert refused.value.status == 409


# discard ----------------------------------------------------------------------------------

def test_discard_forgets_the_round_vote_and_leaves_other_rounds(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, THREE_ONE)
    open_vote(game, 1)
    vote_all(game, {"Rob": "Sam", "Sam": "Nick"}, round_index=1)
    before = version(game)
    discard_vote(game, 1)
    db.session.commit()
    assert version(game) == before + 1
    assert not vote_status(game, 1).opened
    assert vote_status(game, 0).settled_off == "Emily"
    assert rows(Sealing) == 1 and rows(Slip) == 0 and rows(Tally) == 4
    # The round can be voted again from scratch.
    open_vote(game, 1)
    db.session.commit()
    status = vote_status(game, 1)
    assert (status.stage, status.slips_in) == (1, 0) and status.may_vote("Rob")


def test_discarding_a_round_without_a_vote_changes_nothing(ctx):
    game = make_game()
    before = version(game)
    discard_vote(game, 0)
    db.session.commit()
    assert version(game) == before


def test_deleting_a_game_deletes_its_sealings(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, THREE_ONE)
    open_vote(game, 1)
    vote_all(game, {"Rob": "Emily"}, round_index=1)
    assert rows(Sealing) == 2 and rows(Slip) == 1 and rows(Tally) == 4
    db.session.delete(game)
    db.session.commit()
    for model in (Sealing, Slip, Tally):
        assert rows(model) == 0


# concurrency ------------------------------------------------------------------------------

def test_four_slips_in_the_same_instant_all_count_once(app, ctx):
    game = make_game()
    open_vote(game, 0)
    db.session.commit()
    game_id = game.id
    slips = {"Rob": "Emily", "Sam": "Emily", "Nick": "Sam", "Emily": "Sam"}
    start = threading.Barrier(len(slips))
    errors: list[BaseException] = []
    revealed: list[bool] = []

    def drop(voter: str, target: str) -> None:
        # A POST request of its own, as a phone's vote is.
        with app.test_request_context(method="POST"):
            try:
                start.wait()
                revealed.append(cast(db.session.get(Game, game_id), 0, voter, target))
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
    assert status.history[0].counts == {"Rob": 0, "Sam": 2, "Nick": 0, "Emily": 2}
    # Exactly one of them revealed it and opened exactly one tie-break.
    assert sorted(revealed) == [False, False, False, True]
    assert (status.stage, status.kind, status.eligible) == (2, Stage.TIE_BREAK, ("Rob", "Nick"))
    assert rows(Sealing) == 2 and rows(Slip) == 0


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
            except SealError as error:
                db.session.rollback()
                outcomes.append(f"{error.status} {error}")

    threads = [threading.Thread(target=drop, args=(t,)) for t in ("Sam", "Nick")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["409 Rob has already voted: one slip each.", "counted"]
    db.session.commit()  # a fresh snapshot: see what the threads wrote
    assert vote_status(game, 0).voted == {"Rob"}
    assert db.session.scalars(select(Slip.chooser)).all() == ["Rob"]
    vote_all(game, {"Sam": "Emily", "Nick": "Emily", "Emily": "Nick"})
    counts = vote_status(game, 0).counts
    assert sum(counts.values()) == 4 and counts["Sam"] + counts["Nick"] == 2


# the database's own traces --------------------------------------------------------------

def test_scrub_after_a_reveal_keeps_every_row(ctx):
    game = make_game()
    open_vote(game, 0)
    vote_all(game, THREE_ONE)

    def everything() -> dict[str, list[tuple]]:
        return {model.__tablename__: sorted(tuple(row) for row in db.session.execute(
            select(model.__table__)).all()) for model in (Table, Game, Sealing, Tally)}

    before, game_id = everything(), game.id
    if db.engine.dialect.name == "postgresql" and db.engine.dialect.server_version_info >= (15,):
        # The writes' pending statistics are sent before the VACUUM runs.
        db.session.execute(text("SELECT pg_stat_force_next_flush()"))
        db.session.commit()
    db.session.remove()
    scrub()
    assert everything() == before
    counts = vote_status(db.session.get(Game, game_id), 0).counts
    assert counts == {"Rob": 0, "Sam": 0, "Nick": 1, "Emily": 3}
    if db.engine.dialect.name == "sqlite":
        with db.engine.connect() as conn:
            busy, frames, _ = conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
            timeout = conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one()
        assert (busy, frames) == (0, 0), "the WAL is truncated: no page copies left"
        assert timeout == 10000, "the pooled connection waits for writers as usual again"
    else:
        with db.engine.connect() as conn:
            dead, vacuumed = conn.execute(text(
                "SELECT coalesce(sum(n_dead_tup), 0), count(last_vacuum) "
                "FROM pg_stat_user_tables "
                "WHERE relname IN ('sealed_slips', 'sealed_tallies', 'sealings')")).one()
        assert (dead, vacuumed) == (0, 3)
