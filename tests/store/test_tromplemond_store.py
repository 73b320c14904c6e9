"""What the store keeps for Tromplemond alone: the interrogation timer, the round's facts, £."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from companion.extensions import db
from companion.games.tromplemond import store as tp
from companion.rules import GAMES
from companion.store import changes, rounds
from companion.web.games import load_flows
from tests.store.conftest import drafting, rows, version

FLOWS = load_flows()
"""Every registered game's flow."""

pytestmark = pytest.mark.db

ROB = {"public": ["K♥", "10♠"], "secret": ["Q♥", "J♦", "K♠"]}
SAM = {"public": ["A♣", "2♦"], "secret": ["10♦", "4♠", "K♦"]}
NICK = {"public": ["J♥", "A♦"], "secret": ["J♠", "A♠", "10♥"]}
T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
ORDER = ["hands", "voted_off", "shown_early", "dealer_forfeit", "called"]


@pytest.fixture
def game(app):
    with drafting(app, "tromplemond", ["Rob", "Sam", "Nick", "Emily"],
                  unit=FLOWS["tromplemond"].default_unit) as game:
        yield game


def timers() -> int:
    return rows(tp.InterrogationTimer)


# the unit ---------------------------------------------------------------------------------

def test_tromplemond_is_played_for_pounds_and_the_other_games_for_chips():
    assert set(FLOWS) == set(GAMES)
    assert {name: flow.default_unit for name, flow in FLOWS.items()} == {
        name: "GBP" if name == "tromplemond" else "chips" for name in GAMES}


def test_a_tromplemond_table_counts_in_pounds_until_the_unit_is_changed(game):
    assert game.table.unit == "GBP"
    other, _, _ = changes.create_table(name="Clubs", game="clumond", names=["A", "B", "C"],
                                       allow_phone_names=False, first_dealer=1,
                                       unit=FLOWS["clumond"].default_unit)
    assert other.unit == "chips"
    before = version(game)
    changes.set_unit(game.table, "EUR")
    changes.set_unit(game.table, "EUR")
    assert game.table.unit == "EUR" and version(game) == before + 1


# the timer --------------------------------------------------------------------------------

def test_a_new_round_has_a_ready_timer_of_five_minutes_and_no_row_yet(game):
    timer = tp.current_timer(game, 0)
    assert (timer.clock, timer.round_index, timer.spent_ms) == (tp.Clock.READY, 0, 0)
    assert timer.seconds_left() == tp.INTERROGATION_SECONDS == 300
    assert timers() == 0, "reading writes nothing"


def test_the_timer_runs_pauses_resumes_and_ends(game):
    draft = rounds.locked_draft(game)
    before = version(game)
    tp.start_timer(draft, T0)
    timer = tp.current_timer(game, 0)
    assert timer.clock is tp.Clock.RUNNING and version(game) == before + 1
    assert timer.seconds_left(T0 + timedelta(seconds=10)) == 290
    assert timer.seconds_left(T0 + timedelta(seconds=10, milliseconds=1)) == 290
    assert timer.seconds_left(T0 + timedelta(seconds=10, milliseconds=999)) == 290
    tp.pause_timer(draft, T0 + timedelta(seconds=61))
    assert timer.clock is tp.Clock.PAUSED and timer.spent_ms == 61000
    # Paused: time does not pass.
    assert timer.seconds_left(T0 + timedelta(hours=1)) == 239
    changed = version(game)
    tp.pause_timer(draft, T0 + timedelta(hours=1))  # pausing twice changes nothing
    assert timer.spent_ms == 61000 and version(game) == changed
    tp.start_timer(draft, T0 + timedelta(seconds=100))
    tp.start_timer(draft, T0 + timedelta(seconds=200))  # already running: no restart
    db.session.commit()
    # Read back (SQLite keeps naive datetimes): still counted from the resume.
    timer = tp.current_timer(game, 0)
    assert timer.clock is tp.Clock.RUNNING
    assert timer.seconds_left(T0 + timedelta(seconds=130)) == 209
    assert timer.seconds_left(T0 + timedelta(seconds=1000)) == 0
    tp.end_timer(rounds.locked_draft(game))
    db.session.commit()
    timer = tp.current_timer(game, 0)
    assert timer.clock is tp.Clock.ENDED and timer.seconds_left(T0) == 0
    # An ended timer stays ended: it does not start again this round.
    changed = version(game)
    tp.start_timer(rounds.locked_draft(game), T0)
    tp.end_timer(rounds.locked_draft(game))
    assert tp.current_timer(game, 0).clock is tp.Clock.ENDED and version(game) == changed
    assert timers() == 1


def test_a_timer_may_be_ended_before_it_ever_ran(game):
    tp.end_timer(rounds.locked_draft(game))
    db.session.commit()
    assert tp.current_timer(game, 0).clock is tp.Clock.ENDED


def test_a_timer_of_a_past_round_reads_as_a_fresh_one(game):
    draft = rounds.locked_draft(game)
    tp.start_timer(draft, T0)
    tp.end_timer(draft)
    rounds.confirm_round(draft, {"hands": {}, "voted_off": "Emily"})
    db.session.commit()
    timer = tp.current_timer(game, 1)
    assert (timer.round_index, timer.clock, timer.seconds_left(T0)) == (1, tp.Clock.READY, 300)
    assert tp.current_timer(game, 0).clock is tp.Clock.ENDED
    # The game's one row is reused for the new round when it is first written.
    tp.start_timer(rounds.locked_draft(game), T0 + timedelta(minutes=10))
    db.session.commit()
    timer = tp.current_timer(game, 1)
    assert (timer.clock, timer.spent_ms) == (tp.Clock.RUNNING, 0)
    assert timer.seconds_left(T0 + timedelta(minutes=11)) == 240
    assert timers() == 1


def test_deleting_a_game_deletes_its_timer(game):
    tp.start_timer(rounds.locked_draft(game), T0)
    db.session.commit()
    assert timers() == 1
    db.session.delete(game)
    db.session.commit()
    assert timers() == 0


# the round's facts ------------------------------------------------------------------------

def test_round_facts_are_the_record_round_in_the_documented_order(game):
    draft = rounds.locked_draft(game)
    rounds.update_facts(draft, {"called": ["Nick"], "dealer_forfeit": True,
                                "hands": {"Rob": ROB, "Sam": SAM, "Nick": NICK}})
    facts = tp.round_facts(draft, "Emily")
    assert list(facts) == ORDER
    assert facts == {"hands": {"Rob": ROB, "Sam": SAM, "Nick": NICK}, "voted_off": "Emily",
                     "shown_early": None, "dealer_forfeit": True, "called": ["Nick"]}


def test_a_new_round_has_empty_facts_in_the_same_order(game):
    facts = tp.round_facts(rounds.current_draft(game), None)
    assert list(facts) == ORDER
    assert facts == {"hands": {}, "voted_off": None, "shown_early": None,
                     "dealer_forfeit": False, "called": []}


def test_shown_early_sends_nobody_off_by_vote(game):
    draft = rounds.locked_draft(game)
    rounds.update_facts(draft, {"shown_early": "Sam"})
    assert tp.round_facts(draft, "Nick")["voted_off"] is None
    assert tp.round_facts(draft, "Nick")["shown_early"] == "Sam"
    rounds.update_facts(draft, {"shown_early": None})
    assert tp.round_facts(draft, "Nick")["voted_off"] == "Nick"


def test_a_round_put_back_by_undo_gives_the_same_facts(game):
    facts = {"hands": {"Rob": ROB, "Sam": SAM, "Nick": NICK}, "voted_off": "Emily",
             "shown_early": None, "dealer_forfeit": True, "called": ["Nick"]}
    rounds.confirm_round(rounds.locked_draft(game), facts)
    db.session.commit()
    draft = rounds.locked_draft(game)
    assert rounds.undo_round(draft) == facts
    db.session.commit()
    # Who went off is in the undone round's facts: no vote is needed to confirm it again.
    assert tp.round_facts(rounds.current_draft(game), None) == facts
    shown = {**facts, "voted_off": None, "shown_early": "Sam", "called": []}
    rounds.confirm_round(rounds.locked_draft(game), shown)
    rounds.undo_round(rounds.locked_draft(game))
    assert tp.round_facts(rounds.current_draft(game), "Nick") == shown
