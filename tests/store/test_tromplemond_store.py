"""The Tromplemond round in progress: the draft's facts, the timer, confirm and undo."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from companion.extensions import db
from companion.store import Game, changes
from companion.store import tromplemond as rs

pytestmark = pytest.mark.db

ROB = {"public": ["K♥", "10♠"], "secret": ["Q♥", "J♦", "K♠"]}
SAM = {"public": ["A♣", "2♦"], "secret": ["10♦", "4♠", "K♦"]}
NICK = {"public": ["J♥", "A♦"], "secret": ["J♠", "A♠", "10♥"]}
T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


@pytest.fixture
def game(app):
    with app.app_context():
        table, _, _ = changes.create_table(
            name="Friday", game="tromplemond", names=["Rob", "Sam", "Nick", "Emily"],
            allow_phone_names=False, first_dealer=1)
        game = changes.start_game(table)
        rs.start_draft(game)
        db.session.commit()
        yield game
        db.session.rollback()


def version(game: Game) -> int:
    db.session.expire(game.table, ["version"])
    return game.table.version


def test_a_tromplemond_table_counts_in_pounds_and_other_games_in_chips(game):
    assert game.table.unit == "GBP"
    other, _, _ = changes.create_table(name="Clubs", game="clumond", names=["A", "B", "C"],
                                       allow_phone_names=False, first_dealer=1)
    assert other.unit == "chips"
    before = version(game)
    changes.set_unit(game.table, "EUR")
    changes.set_unit(game.table, "EUR")
    assert game.table.unit == "EUR" and version(game) == before + 1


def test_a_new_draft_is_round_one_dealing_with_nothing_entered(game):
    draft = rs.current_draft(game)
    assert (draft.round_index, draft.phase, draft.hands, draft.called, draft.ticks) == (
        0, rs.DEAL, {}, [], [])
    assert draft.timer == rs.READY and draft.seconds_left() == 300
    assert db.session.scalar(select(func.count()).select_from(rs.RoundDraft)) == 1


def test_ticks_toggle_and_each_change_bumps_the_table(game):
    draft = rs.locked_draft(game)
    before = version(game)
    assert rs.toggle_tick(draft, "deal:2") is True
    assert rs.toggle_tick(draft, "deck:0") is True
    assert draft.ticked("deal:2") and draft.ticks == ["deal:2", "deck:0"]
    assert rs.toggle_tick(draft, "deal:2") is False
    assert draft.ticks == ["deck:0"] and version(game) == before + 3
    db.session.commit()
    assert rs.current_draft(game).ticks == ["deck:0"]


def test_the_timer_runs_pauses_resumes_and_ends(game):
    draft = rs.locked_draft(game)
    rs.start_timer(draft, T0)
    assert draft.timer == rs.RUNNING
    assert draft.seconds_left(T0 + timedelta(seconds=10)) == 290
    assert draft.seconds_left(T0 + timedelta(seconds=10, milliseconds=1)) == 290
    assert draft.seconds_left(T0 + timedelta(seconds=10, milliseconds=999)) == 290
    rs.pause_timer(draft, T0 + timedelta(seconds=61))
    assert draft.timer == rs.PAUSED and draft.timer_spent_ms == 61000
    # Paused: time does not pass.
    assert draft.seconds_left(T0 + timedelta(hours=1)) == 239
    rs.pause_timer(draft, T0 + timedelta(hours=1))  # pausing twice changes nothing
    assert draft.timer_spent_ms == 61000
    rs.start_timer(draft, T0 + timedelta(seconds=100))
    rs.start_timer(draft, T0 + timedelta(seconds=200))  # already running: no restart
    db.session.commit()
    # Read back (SQLite keeps naive datetimes): still counted from the resume.
    draft = rs.current_draft(game)
    assert draft.seconds_left(T0 + timedelta(seconds=130)) == 209
    assert draft.seconds_left(T0 + timedelta(seconds=1000)) == 0
    rs.end_timer(draft)
    assert draft.timer == rs.ENDED and draft.seconds_left() == 0


def test_hands_are_kept_in_seat_order_and_clearing_one_drops_its_call(game):
    draft = rs.locked_draft(game)
    rs.set_hand(draft, "Nick", NICK)
    rs.set_hand(draft, "Rob", ROB)
    rs.set_hand(draft, "Sam", SAM)
    assert list(draft.hands) == ["Rob", "Sam", "Nick"]
    rs.toggle_called(draft, "Nick")
    rs.toggle_called(draft, "Rob")
    assert draft.called == ["Rob", "Nick"]
    rs.set_hand(draft, "Nick", None)
    assert list(draft.hands) == ["Rob", "Sam"] and draft.called == ["Rob"]
    assert rs.toggle_called(draft, "Rob") is False and draft.called == []


def test_shown_early_sends_the_offender_off_and_can_be_taken_back(game):
    draft = rs.locked_draft(game)
    rs.start_timer(draft, T0)
    rs.set_shown_early(draft, "Sam")
    assert (draft.phase, draft.shown_early, draft.timer) == (rs.HANDS, "Sam", rs.ENDED)
    assert rs.round_facts(draft, "Nick")["voted_off"] is None
    rs.set_shown_early(draft, None)
    assert (draft.phase, draft.shown_early) == (rs.DEAL, None)


def test_the_vote_ends_the_interrogation(game):
    draft = rs.locked_draft(game)
    rs.start_timer(draft, T0)
    rs.to_vote(draft)
    assert (draft.phase, draft.timer) == (rs.VOTE, rs.ENDED)


def test_round_facts_are_the_record_round_in_the_design_order(game):
    draft = rs.locked_draft(game)
    for name, hand in (("Rob", ROB), ("Sam", SAM), ("Nick", NICK)):
        rs.set_hand(draft, name, hand)
    rs.toggle_called(draft, "Nick")
    assert rs.toggle_forfeit(draft) is True
    facts = rs.round_facts(draft, "Emily")
    assert list(facts) == ["hands", "voted_off", "shown_early", "dealer_forfeit", "called"]
    assert facts == {"hands": {"Rob": ROB, "Sam": SAM, "Nick": NICK}, "voted_off": "Emily",
                     "shown_early": None, "dealer_forfeit": True, "called": ["Nick"]}
    assert rs.toggle_forfeit(draft) is False


def test_confirm_appends_the_round_and_clears_the_draft_for_the_next(game):
    draft = rs.locked_draft(game)
    rs.toggle_tick(draft, "deck:1")
    rs.set_hand(draft, "Rob", ROB)
    facts = {"hands": {"Rob": ROB}, "voted_off": "Emily"}
    rs.confirm_round(draft, facts)
    db.session.commit()
    assert game.rounds == [facts]
    draft = rs.current_draft(game)
    assert (draft.round_index, draft.phase, draft.hands, draft.ticks) == (1, rs.DEAL, {}, [])


def test_undo_puts_the_last_round_back_into_the_draft(game):
    draft = rs.locked_draft(game)
    facts = {"hands": {"Rob": ROB, "Sam": SAM, "Nick": NICK}, "voted_off": "Emily",
             "shown_early": None, "dealer_forfeit": True, "called": ["Nick"]}
    rs.confirm_round(draft, facts)
    db.session.commit()
    draft = rs.locked_draft(game)
    assert rs.undo_round(draft) == facts
    db.session.commit()
    assert game.rounds == []
    draft = rs.current_draft(game)
    assert (draft.round_index, draft.phase, draft.voted_off, draft.dealer_forfeit) == (
        0, rs.HANDS, "Emily", True)
    assert draft.hands == facts["hands"] and draft.called == ["Nick"]
    assert draft.timer == rs.ENDED
    assert rs.round_facts(draft, None) == facts


def test_undo_of_a_round_someone_showed_cards_early_in(game):
    draft = rs.locked_draft(game)
    rs.confirm_round(draft, {"hands": {}, "voted_off": None, "shown_early": "Sam"})
    rs.undo_round(draft)
    assert (draft.shown_early, draft.voted_off, draft.phase) == ("Sam", None, rs.HANDS)


def test_a_stale_draft_reads_fresh_and_is_cleared_when_written(game):
    draft = rs.locked_draft(game)
    rs.toggle_tick(draft, "deal:0")
    db.session.commit()
    # The record moved on without the draft (an imported or corrected game).
    game.rounds = [{"hands": {}, "voted_off": "Emily"}]
    db.session.commit()
    assert rs.current_draft(game).round_index == 1 and rs.current_draft(game).ticks == []
    draft = rs.locked_draft(game)
    assert (draft.round_index, draft.ticks) == (1, [])


def test_a_game_without_a_draft_gets_one_when_first_written(app):
    with app.app_context():
        table, _, _ = changes.create_table(
            name="Imported", game="tromplemond", names=["Rob", "Sam", "Nick", "Emily"],
            allow_phone_names=False, first_dealer=1)
        game = changes.start_game(table)
        db.session.commit()
        assert rs.current_draft(game).id is None
        draft = rs.locked_draft(game)
        rs.toggle_tick(draft, "deal:1")
        db.session.commit()
        assert rs.current_draft(game).id == draft.id


def test_corrections_and_flags_change_the_record(game):
    game.rounds = [{"hands": {}, "voted_off": "Emily"}, {"hands": {}, "voted_off": "Rob"}]
    rs.replace_round(game, 0, {"hands": {}, "voted_off": "Sam"})
    assert [r["voted_off"] for r in game.rounds] == ["Sam", "Rob"]
    rs.set_flag(game, "banned", "Nick")
    assert game.record()["banned"] == "Nick"
    rs.set_flag(game, "void", True)
    rs.set_flag(game, "banned", None)
    assert game.flags == {"void": True}
    db.session.commit()
    assert game.record()["void"] is True and "banned" not in game.record()


def test_deleting_a_game_deletes_its_draft(game):
    db.session.delete(game.table)
    db.session.commit()
    assert db.session.scalar(select(func.count()).select_from(rs.RoundDraft)) == 0
