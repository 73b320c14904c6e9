"""The round being entered, for every game: facts, ticks, confirm, undo and corrections."""

from __future__ import annotations

import pytest

from companion.extensions import db
from companion.store import Game
from companion.store import rounds as rs
from tests.store.conftest import drafting, new_game, rows, version

pytestmark = pytest.mark.db

ROB = {"public": ["K♥", "10♠"], "secret": ["Q♥", "J♦", "K♠"]}
SAM = {"public": ["A♣", "2♦"], "secret": ["10♦", "4♠", "K♦"]}
ROUND_1 = {"tricks": {"Ann": 5, "Bo": 3, "Cy": 5}}
ROUND_2 = {"tricks": {"Ann": 2, "Bo": 9, "Cy": 2}}


@pytest.fixture
def game(app):
    with drafting(app, "clumond", ("Ann", "Bo", "Cy")) as game:
        yield game


def drafts() -> int:
    return rows(rs.RoundDraft)


def confirmed(game: Game, *facts: dict) -> None:
    """Confirm rounds one after the other, one transaction each."""
    for round_facts in facts:
        rs.confirm_round(rs.locked_draft(game), round_facts)
        db.session.commit()


def test_a_new_draft_is_round_one_with_nothing_entered(game):
    draft = rs.current_draft(game)
    assert draft.id is not None and draft.game_id == game.id
    assert (draft.round_index, draft.facts, draft.ticks, draft.corrected_from) == (
        0, {}, [], None)
    assert not draft.ticked("deal:0")
    assert drafts() == 1


def test_ticks_toggle_and_each_change_bumps_the_table_once(game):
    draft = rs.locked_draft(game)
    before = version(game)
    assert rs.toggle_tick(draft, "deal:2") is True
    assert version(game) == before + 1
    assert rs.toggle_tick(draft, "deck:0") is True
    assert draft.ticked("deal:2") and draft.ticks == ["deal:2", "deck:0"]
    assert rs.toggle_tick(draft, "deal:2") is False
    assert not draft.ticked("deal:2")
    assert draft.ticks == ["deck:0"] and version(game) == before + 3
    db.session.commit()
    assert rs.current_draft(game).ticks == ["deck:0"]


def test_update_facts_sets_and_removes_keys_and_keeps_the_others(game):
    draft = rs.locked_draft(game)
    before = version(game)
    rs.update_facts(draft, {"hands": {"Rob": ROB}, "called": ["Rob"]})
    rs.update_facts(draft, {"hands": {"Rob": ROB, "Sam": SAM}, "dealer_forfeit": True})
    assert version(game) == before + 2
    assert draft.facts == {"hands": {"Rob": ROB, "Sam": SAM}, "called": ["Rob"],
                           "dealer_forfeit": True}
    rs.update_facts(draft, {"called": None, "voted_off": None})
    assert draft.facts == {"hands": {"Rob": ROB, "Sam": SAM}, "dealer_forfeit": True}
    db.session.commit()
    assert rs.current_draft(game).facts == {"hands": {"Rob": ROB, "Sam": SAM},
                                            "dealer_forfeit": True}


def test_confirm_appends_the_round_and_clears_the_draft_for_the_next(game):
    draft = rs.locked_draft(game)
    rs.toggle_tick(draft, "deck:1")
    rs.update_facts(draft, {"tricks": {"Ann": 5}})
    before = version(game)
    rs.confirm_round(draft, ROUND_1)
    db.session.commit()
    assert version(game) == before + 1
    assert game.rounds == [ROUND_1]
    draft = rs.current_draft(game)
    assert (draft.round_index, draft.facts, draft.ticks, draft.corrected_from) == (
        1, {}, [], None)
    confirmed(game, ROUND_2)
    assert game.rounds == [ROUND_1, ROUND_2] and rs.current_draft(game).round_index == 2
    assert drafts() == 1, "one draft per game, reused round after round"


def test_undo_puts_the_last_round_back_into_the_draft(game):
    confirmed(game, ROUND_1, ROUND_2)
    draft = rs.locked_draft(game)
    rs.toggle_tick(draft, "deal:0")
    before = version(game)
    assert rs.undo_round(draft) == ROUND_2
    db.session.commit()
    assert version(game) == before + 1
    assert game.rounds == [ROUND_1]
    draft = rs.current_draft(game)
    assert (draft.round_index, draft.facts, draft.ticks) == (1, ROUND_2, [])
    # The facts put back are a copy: changing the draft leaves the record alone.
    rs.update_facts(rs.locked_draft(game), {"tricks": None})
    db.session.commit()
    assert game.rounds == [ROUND_1] and rs.current_draft(game).facts == {}


def test_a_stale_draft_reads_fresh_and_is_cleared_when_written(game):
    draft = rs.locked_draft(game)
    rs.toggle_tick(draft, "deal:0")
    rs.update_facts(draft, {"tricks": {"Ann": 1}})
    db.session.commit()
    # The record moved on without the draft (an imported or corrected game).
    game.rounds = [ROUND_1]
    db.session.commit()
    fresh = rs.current_draft(game)
    assert (fresh.round_index, fresh.facts, fresh.ticks) == (1, {}, [])
    stored = db.session.scalar(rs.draft_of(game.id))
    assert (stored.round_index, stored.ticks) == (0, ["deal:0"]), "reading writes nothing"
    draft = rs.locked_draft(game)
    assert (draft.round_index, draft.facts, draft.ticks) == (1, {}, [])
    db.session.commit()
    assert db.session.scalar(rs.draft_of(game.id)).round_index == 1


def test_a_game_without_a_draft_gets_one_when_first_written(app):
    with app.app_context():
        game = new_game("clumond", ("Ann", "Bo", "Cy", "Di"))
        db.session.commit()
        assert rs.current_draft(game).id is None and drafts() == 0
        draft = rs.locked_draft(game)
        rs.toggle_tick(draft, "deal:1")
        db.session.commit()
        assert rs.current_draft(game).id == draft.id and drafts() == 1
        assert rs.current_draft(game).ticks == ["deal:1"]
        assert rs.locked_draft(game).id == draft.id


def test_replace_round_keeps_the_rounds_before_the_first_correction(game):
    confirmed(game, ROUND_1, ROUND_2)
    first = {"tricks": {"Ann": 6, "Bo": 2, "Cy": 5}}
    second = {"tricks": {"Ann": 6, "Bo": 3, "Cy": 4}}
    draft = rs.locked_draft(game)
    before = version(game)
    rs.replace_round(draft, 0, first)
    db.session.commit()
    assert version(game) == before + 1
    assert game.rounds == [first, ROUND_2]
    assert rs.current_draft(game).corrected_from == [ROUND_1, ROUND_2]
    # A second correction keeps the rounds as they stood before the first one.
    rs.replace_round(rs.locked_draft(game), 0, second)
    rs.replace_round(rs.locked_draft(game), 1, ROUND_1)
    db.session.commit()
    assert game.rounds == [second, ROUND_1]
    assert rs.current_draft(game).corrected_from == [ROUND_1, ROUND_2]
    # The next confirm forgets it.
    confirmed(game, ROUND_2)
    assert rs.current_draft(game).corrected_from is None


def test_undo_forgets_what_was_corrected(game):
    confirmed(game, ROUND_1, ROUND_2)
    rs.replace_round(rs.locked_draft(game), 0, ROUND_2)
    db.session.commit()
    rs.undo_round(rs.locked_draft(game))
    db.session.commit()
    assert game.rounds == [ROUND_2]
    assert rs.current_draft(game).corrected_from is None


def test_amend_round_changes_the_record_and_tells_nobody(game):
    confirmed(game, ROUND_1, ROUND_2)
    before = version(game)
    rs.amend_round(game, 1, {**ROUND_2, "cut_winner": "Bo"})
    db.session.commit()
    assert version(game) == before + 1
    assert game.rounds == [ROUND_1, {**ROUND_2, "cut_winner": "Bo"}]
    assert rs.current_draft(game).corrected_from is None


def test_flags_are_set_and_cleared_on_the_record(game):
    before = version(game)
    rs.set_flag(game, "banned", "Bo")
    assert game.record()["banned"] == "Bo" and version(game) == before + 1
    rs.set_flag(game, "void", True)
    rs.set_flag(game, "banned", None)
    assert game.flags == {"void": True}
    db.session.commit()
    assert game.record()["void"] is True and "banned" not in game.record()
    assert version(game) == before + 3


def test_deleting_a_game_deletes_its_draft(game):
    draft = rs.locked_draft(game)
    rs.update_facts(draft, {"tricks": {"Ann": 1}})
    db.session.commit()
    db.session.delete(game)
    db.session.commit()
    assert drafts() == 0


def test_deleting_a_table_deletes_its_games_drafts(game):
    db.session.delete(game.table)
    db.session.commit()
    assert drafts() == 0
