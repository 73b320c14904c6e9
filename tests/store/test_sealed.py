"""Sealed choices: both modes, the sealing key, a restart, and what the database keeps.

Nothing of a choice is readable before the last one is in: not a count,
not a shown choice, not a byte that varies with it. Then everything at once.
"""

from __future__ import annotations

import base64
import logging
import os
import time
from functools import partial

import pytest
from nacl.public import PrivateKey
from sqlalchemy import inspect, select, text

from companion import create_app
from companion.config import from_environment
from companion.extensions import db
from companion.games.tromplemond import store as tromplemond
from companion.store import Game
from companion.store.sealed import (
    BLOB_BYTES,
    EXTENSION,
    PLAIN_BYTES,
    Mode,
    OpenedSlip,
    SealError,
    Sealing,
    Slip,
    Tally,
    decode_blob,
    discard,
    drop,
    encode_blob,
    install_keys,
    latest,
    open_sealing,
    open_slip,
    seal,
    seal_slip,
    sealing_keys,
    set_verdict,
    slip_plaintext,
    status,
    statuses,
    void_lost,
)
from companion.store.sealing_keys import KEY_BYTES, MemoryKeys, make_store
from tests.store import conftest
from tests.store.conftest import PLAYERS, rows, version
from tests.waiting import Ceiling

pytestmark = pytest.mark.db

make_game = partial(conftest.make_game, game="trefeltromp")
"""A table with a Trefeltromp game, every field fixed (no random code, key or clock)."""


def ballot(game: Game, choosers=PLAYERS, choices=PLAYERS, round_index: int = 0) -> Sealing:
    """An anonymous sealing (a secret ballot), committed."""
    sealing = open_sealing(game, round_index, "vote", Mode.ANONYMOUS, choosers, choices)
    db.session.commit()
    return sealing


def seal_all(game: Game, sealing: Sealing, choices: dict[str, str]) -> list[bool]:
    """Each chooser seals a choice, one transaction (one request) each, in the order given."""
    done = []
    for chooser, choice in choices.items():
        done.append(seal(game, db.session.get(Sealing, sealing.id), chooser, choice))
        db.session.commit()
    return done


def blobs() -> dict[str, bytes]:
    return dict(db.session.execute(select(Slip.chooser, Slip.blob)).all())


# the two modes ----------------------------------------------------------------------------

def test_an_anonymous_sealing_shows_only_counts_and_only_at_the_last_choice(ctx):
    game = make_game()
    sealing = ballot(game)
    choices = {"Rob": "Emily", "Sam": "Emily", "Nick": "Rob", "Emily": "Nick"}
    for n, (chooser, choice) in enumerate(choices.items(), start=1):
        state = status(db.session.get(Sealing, sealing.id))
        assert (state.counts, state.shown, state.revealed) == (None, None, False)
        assert state.open and state.chosen == set(list(choices)[:n - 1])
        assert rows(Tally) == 0
        before = version(game)
        assert seal(game, db.session.get(Sealing, sealing.id), chooser, choice) is (n == 4)
        db.session.commit()
        assert version(game) == before + 1
    state = status(db.session.get(Sealing, sealing.id))
    assert state.revealed and not state.open
    assert state.counts == {"Rob": 1, "Sam": 0, "Nick": 1, "Emily": 2}
    assert list(state.counts) == PLAYERS, "counts in the order of the choices"
    assert state.shown is None, "an anonymous sealing never says who chose what"
    assert state.chosen == set(PLAYERS) and state.waiting_for == ()
    assert rows(Slip) == 0 and rows(Tally) == 4
    assert db.session.get(Sealing, sealing.id).shown is None


def test_an_anonymous_sealing_of_any_text_counts_what_was_chosen(ctx):
    game = make_game()
    sealing = ballot(game, choosers=["Rob", "Sam", "Nick"], choices=None)
    seal_all(game, sealing, {"Rob": "pass", "Sam": "7", "Nick": "pass"})
    state = status(db.session.get(Sealing, sealing.id))
    assert state.choices is None
    assert state.counts == {"7": 1, "pass": 2}


def test_an_attributed_sealing_shows_each_choice_beside_its_chooser_at_once(ctx):
    game = make_game()
    sealing = open_sealing(game, 0, "banen", Mode.ATTRIBUTED, ["Sam", "Rob", "Nick"])
    db.session.commit()
    assert seal_all(game, sealing, {"Rob": "10♥", "Nick": "A♠"}) == [False, False]
    state = status(db.session.get(Sealing, sealing.id))
    assert (state.shown, state.counts, state.revealed) == (None, None, False)
    assert state.waiting_for == ("Sam",) and state.may_choose("Sam")
    assert not state.may_choose("Rob") and not state.may_choose("Emily")
    assert db.session.get(Sealing, sealing.id).shown is None
    assert seal_all(game, sealing, {"Sam": "K♣"}) == [True]
    state = status(db.session.get(Sealing, sealing.id))
    assert state.shown == {"Sam": "K♣", "Rob": "10♥", "Nick": "A♠"}
    assert list(state.shown) == ["Sam", "Rob", "Nick"], "in chooser order"
    assert state.mode is Mode.ATTRIBUTED and state.counts is None
    assert rows(Slip) == 0 and rows(Tally) == 0


def test_sealings_of_a_round_follow_each_other_stage_by_stage(ctx):
    game = make_game()
    first = ballot(game)
    second = open_sealing(game, 0, "tie-break", Mode.ANONYMOUS, ["Rob", "Emily"],
                          ["Sam", "Nick"])
    other_round = open_sealing(game, 1, "banen", Mode.ATTRIBUTED, PLAYERS)
    db.session.commit()
    assert (first.stage, second.stage, other_round.stage) == (1, 2, 1)
    assert latest(game, 0).id == second.id and latest(game, 1).id == other_round.id
    assert latest(game, 2) is None and statuses(game, 2) == []
    assert [(s.stage, s.step, s.expected) for s in statuses(game, 0)] == [
        (1, "vote", 4), (2, "tie-break", 2)]


def test_opening_with_nobody_to_choose_is_refused(ctx):
    game = make_game()
    with pytest.raises(SealError, match="Nobody") as refused:
        open_sealing(game, 0, "vote", Mode.ANONYMOUS, [], PLAYERS)
    assert refused.value.status == 409
    assert rows(Sealing) == 0


@pytest.mark.parametrize(("chooser", "choice", "message", "code"), [
    ("Zed", "Rob", "Zed has no choice to make here", 403),
    ("Rob", "Zed", "not one of the choices", 400),
    ("Sam", "Nick", "Sam has chosen already: one choice each", 409),
])
def test_a_choice_is_refused_when_it_is_not_one_to_make(ctx, chooser, choice, message, code):
    game = make_game()
    sealing = ballot(game)
    seal_all(game, sealing, {"Sam": "Emily"})
    before = (version(game), blobs())
    with pytest.raises(SealError, match=message) as refused:
        seal(game, db.session.get(Sealing, sealing.id), chooser, choice)
    db.session.rollback()
    assert refused.value.status == code
    assert (version(game), blobs()) == before


def test_an_anonymous_choice_of_any_text_must_fit_a_count_row(ctx):
    game = make_game()
    sealing = ballot(game, choosers=["Rob", "Sam"], choices=None)
    with pytest.raises(SealError, match="too long") as refused:
        seal(game, sealing, "Rob", "x" * 41)
    db.session.rollback()
    assert refused.value.status == 400 and rows(Slip) == 0
    seal_all(game, sealing, {"Rob": "x" * 40, "Sam": "y"})
    assert status(db.session.get(Sealing, sealing.id)).counts == {"x" * 40: 1, "y": 1}


def test_no_choice_after_the_reveal_or_a_verdict(ctx):
    game = make_game()
    done = ballot(game, choosers=["Rob"], choices=["Sam", "Nick"])
    seal_all(game, done, {"Rob": "Sam"})
    with pytest.raises(SealError, match="settled a moment ago") as refused:
        seal(game, db.session.get(Sealing, done.id), "Rob", "Nick")
    assert refused.value.status == 409
    db.session.rollback()
    cut = ballot(game, choosers=["Rob", "Sam"], choices=["Nick", "Emily"], round_index=1)
    seal_all(game, cut, {"Rob": "Nick"})
    set_verdict(game, db.session.get(Sealing, cut.id), "Emily")
    db.session.commit()
    state = status(db.session.get(Sealing, cut.id))
    assert (state.verdict, state.open, state.revealed, state.counts) == (
        "Emily", False, False, None)
    assert rows(Slip) == 0, "the slips of a sealing settled otherwise go unread"
    with pytest.raises(SealError, match="settled a moment ago"):
        seal(game, db.session.get(Sealing, cut.id), "Sam", "Nick")


def test_drop_and_discard_forget_sealings_with_their_slips(ctx):
    game = make_game()
    revealed = ballot(game, choosers=["Rob"], choices=["Sam", "Nick"])
    seal_all(game, revealed, {"Rob": "Sam"})
    dropped = ballot(game)
    seal_all(game, dropped, {"Rob": "Sam"})
    other = ballot(game, round_index=1)
    seal_all(game, other, {"Nick": "Sam"})
    before = version(game)
    drop(game, db.session.get(Sealing, dropped.id))
    db.session.commit()
    assert version(game) == before + 1
    assert [s.stage for s in statuses(game, 0)] == [1]
    assert status(db.session.get(Sealing, revealed.id)).counts == {"Sam": 1, "Nick": 0}
    assert rows(Slip) == 1
    discard(game, 0)
    db.session.commit()
    assert statuses(game, 0) == [] and rows(Tally) == 0
    assert [s.chosen for s in statuses(game, 1)] == [{"Nick"}]


# the sealed slips -------------------------------------------------------------------------

def private_of(sealing: Sealing) -> bytes:
    """The private key the store keeps for ``sealing`` (None once destroyed)."""
    return sealing_keys().private_key(db.session.get(Sealing, sealing.id).public_key)


@pytest.mark.parametrize("choice", [
    "", "Rob", "Emily", "K♣", "Bartholomew-Maximilian Featherstonehaugh", "é" * 127,
])
def test_every_slip_is_exactly_blob_bytes_long_whatever_the_choice(ctx, choice):
    game = make_game()
    sealing = open_sealing(game, 0, "banen", Mode.ATTRIBUTED, PLAYERS)
    db.session.commit()
    seal_all(game, sealing, {"Rob": choice, "Sam": "x"})
    stored = blobs()
    assert {len(b) for b in stored.values()} == {BLOB_BYTES}
    assert choice.encode() not in stored["Rob"] or not choice, "the choice is not in clear"
    assert open_slip(private_of(sealing), stored["Rob"]) == OpenedSlip(sealing.id, "Rob",
                                                                       choice)


def test_a_choice_too_long_for_a_slip_is_refused(ctx):
    game = make_game()
    sealing = open_sealing(game, 0, "banen", Mode.ATTRIBUTED, PLAYERS)
    db.session.commit()
    with pytest.raises(SealError, match="too long") as refused:
        seal(game, sealing, "Rob", "x" * (PLAIN_BYTES - 10))
    db.session.rollback()
    assert refused.value.status == 400 and rows(Slip) == 0
    assert len(slip_plaintext(sealing.id, "Rob", "x" * 40)) == PLAIN_BYTES


def test_a_slip_sealed_on_the_device_is_kept_as_sent(ctx):
    game = make_game()
    sealing = ballot(game)
    sent = seal_slip(sealing.public_key, sealing.id, "Rob", "Emily")
    seal(game, db.session.get(Sealing, sealing.id), "Rob", "Emily", sent)
    db.session.commit()
    assert blobs() == {"Rob": sent}
    # One that does not say what the game recorded is sealed again by the server.
    other = seal_slip(sealing.public_key, sealing.id, "Sam", "Nick")
    seal(game, db.session.get(Sealing, sealing.id), "Sam", "Emily", other)
    db.session.commit()
    assert blobs()["Sam"] != other
    assert open_slip(private_of(sealing), blobs()["Sam"]).choice == "Emily"


def test_the_same_choice_seals_to_a_different_slip_each_time():
    public = bytes(PrivateKey.generate().public_key)
    assert seal_slip(public, 1, "Rob", "Emily") != seal_slip(public, 1, "Rob", "Emily")


def test_a_slip_opens_only_with_its_sealings_private_key(ctx):
    game = make_game()
    sealing = ballot(game)
    other = ballot(game, round_index=1)
    seal_all(game, sealing, {"Rob": "Emily"})
    blob = blobs()["Rob"]
    assert open_slip(private_of(sealing), blob).choice == "Emily"
    for key in (private_of(other), bytes(PrivateKey.generate())):
        with pytest.raises(SealError, match="sealed for another moment") as refused:
            open_slip(key, blob)
        assert refused.value.status == 409
    tampered = blob[:-1] + bytes([blob[-1] ^ 1])
    with pytest.raises(SealError):
        open_slip(private_of(sealing), tampered)
    with pytest.raises(SealError, match="could not be read"):
        open_slip(private_of(sealing), blob[:-1])
    with pytest.raises(SealError, match="could not be read"):
        decode_blob(encode_blob(blob)[:-2])
    assert decode_blob(encode_blob(blob)) == blob


# the key pairs ----------------------------------------------------------------------------

def test_each_sealing_has_a_key_pair_of_its_own_its_private_key_only_in_memory(app, ctx):
    game = make_game()
    first, second = ballot(game), ballot(game, round_index=1)
    assert len(first.public_key) == KEY_BYTES and first.public_key != second.public_key
    private = private_of(first)
    assert bytes(PrivateKey(private).public_key) == first.public_key
    seal_all(game, first, {"Rob": "Emily"})
    stored = every_value()
    folders = [app.instance_path]
    if db.engine.dialect.name == "sqlite":
        folders.append(os.path.dirname(db.engine.url.database))
    for folder in folders:
        for name in os.listdir(folder):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                with open(path, "rb") as handle:
                    stored += handle.read()
    assert first.public_key in stored, "the scan reads the database's bytes"
    assert private not in stored and private.hex().encode() not in stored


@pytest.mark.parametrize("end", ["reveal", "drop", "discard", "verdict"])
def test_the_private_key_is_destroyed_when_the_sealing_ends(app, ctx, end):
    game = make_game()
    sealing = ballot(game, choosers=["Rob", "Sam"], choices=["Nick", "Emily"])
    public, private = sealing.public_key, private_of(sealing)
    keys = sealing_keys()
    held = keys.held()
    seal_all(game, sealing, {"Rob": "Nick"})
    row = db.session.get(Sealing, sealing.id)
    if end == "reveal":
        seal(game, row, "Sam", "Emily")
    elif end == "drop":
        drop(game, row)
    elif end == "discard":
        discard(game, 0)
    else:
        set_verdict(game, row, "Nick")
    assert keys.holds(public), "kept until the end is committed"
    db.session.commit()
    assert not keys.holds(public) and keys.private_key(public) is None
    assert keys.held() == held - 1
    assert private not in bytes(keys._region), "its slot is overwritten"


def test_a_reveal_that_rolls_back_keeps_its_key_and_a_sealing_that_does_leaves_none(ctx):
    game = make_game()
    keys = sealing_keys()
    sealing = ballot(game, choosers=["Rob"], choices=["Sam", "Nick"])
    held = keys.held()
    seal(game, db.session.get(Sealing, sealing.id), "Rob", "Sam")
    db.session.rollback()
    assert keys.holds(sealing.public_key) and rows(Slip) == 0
    open_sealing(game, 1, "vote", Mode.ANONYMOUS, PLAYERS, PLAYERS)
    assert keys.held() == held + 1
    db.session.rollback()
    assert keys.held() == held, "the key of a sealing never committed is destroyed"


def test_a_store_full_of_open_sealings_refuses_the_next(app, ctx):
    app.extensions[EXTENSION] = MemoryKeys(slots=2)
    game = make_game()
    ballot(game), ballot(game, round_index=1)
    with pytest.raises(SealError, match="as many open votes as it may") as refused:
        open_sealing(game, 2, "vote", Mode.ANONYMOUS, PLAYERS, PLAYERS)
    assert refused.value.status == 503
    db.session.rollback()
    assert rows(Sealing) == 2


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a forked worker")
def test_workers_forked_after_the_store_is_made_share_its_keys():
    keys = MemoryKeys(slots=8)
    made = keys.make()
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # the worker: reads the key made before the fork, makes one, ends one
        try:
            os.write(writer, keys.private_key(made) + keys.make())
            keys.destroy(made)
        finally:
            os._exit(0)
    os.close(writer)
    answer = b""
    while chunk := os.read(reader, 128):
        answer += chunk
    os.close(reader)
    os.waitpid(child, 0)
    assert answer[:KEY_BYTES] == bytes(PrivateKey(answer[:KEY_BYTES]))
    assert bytes(PrivateKey(answer[:KEY_BYTES]).public_key) == made
    assert keys.holds(answer[KEY_BYTES:]), "the worker's key is the master's too"
    assert not keys.holds(made), "and the key it ended is gone for every process"


def test_the_old_ballot_key_setting_is_ignored_with_a_warning(app, caplog):
    setting = base64.urlsafe_b64encode(os.urandom(32)).decode()
    assert from_environment("/srv/i", {"COMPANION_BALLOT_KEY": setting})["BALLOT_KEY"] == setting
    with caplog.at_level(logging.WARNING):
        other = create_app({"TESTING": True, "SECRET_KEY": "tests", "BALLOT_KEY": setting,
                            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]})
    assert "COMPANION_BALLOT_KEY is ignored" in caplog.text
    assert isinstance(other.extensions[EXTENSION], MemoryKeys)
    assert from_environment("/srv/i", {"COMPANION_SEALING_STORE": "redis://r:6379/2"})[
        "SEALING_STORE"] == "redis://r:6379/2"
    with pytest.raises(RuntimeError, match="memory:// or redis://"):
        make_store("file:///tmp/keys")


# a restart --------------------------------------------------------------------------------

def test_a_restart_voids_an_open_sealing_and_raises_its_tables_version(app, ctx):
    game = make_game()
    done = ballot(game, choosers=["Rob", "Sam"], choices=["Nick", "Emily"])
    seal_all(game, done, {"Rob": "Nick", "Sam": "Nick"})
    sealing = ballot(game, round_index=1)
    seal_all(game, sealing, {"Rob": "Emily", "Sam": "Emily", "Nick": "Emily"})
    old_public, old_blob = sealing.public_key, blobs()["Rob"]
    before = version(game)

    install_keys(app, None)  # the server restarted: a new store, the old keys are lost

    state = status(db.session.get(Sealing, sealing.id))
    assert state.restarted and state.open and state.chosen == frozenset()
    assert void_lost() == 1
    assert version(game) == before + 1, "every screen hears of it at once"
    row = db.session.get(Sealing, sealing.id)
    assert row.restarted and row.public_key != old_public and sealing_keys().holds(
        row.public_key)
    assert rows(Slip) == 0, "the old slips go, unread"
    with pytest.raises(SealError):
        open_slip(sealing_keys().private_key(row.public_key), old_blob)
    assert void_lost() == 0 and version(game) == before + 1, "once"
    # A revealed sealing is not touched by the restart.
    revealed = status(db.session.get(Sealing, done.id))
    assert not revealed.restarted and revealed.counts == {"Nick": 2, "Emily": 0}
    state = status(db.session.get(Sealing, sealing.id))
    assert state.restarted and state.may_choose("Rob") and state.waiting_for == tuple(PLAYERS)
    assert seal_all(game, sealing, {"Rob": "Nick", "Sam": "Nick", "Nick": "Sam",
                                    "Emily": "Rob"}) == [False, False, False, True]
    state = status(db.session.get(Sealing, sealing.id))
    assert state.counts == {"Rob": 1, "Sam": 1, "Nick": 2, "Emily": 0}


def test_a_choice_made_before_the_sweep_after_a_restart_starts_the_sealing_again(app, ctx):
    game = make_game()
    sealing = ballot(game)
    seal_all(game, sealing, {"Rob": "Emily", "Sam": "Emily"})
    install_keys(app, None)
    seal_all(game, sealing, {"Nick": "Sam"})
    row = db.session.get(Sealing, sealing.id)
    assert row.restarted and set(blobs()) == {"Nick"}
    # A slip sealed on a device to the lost key is refused: it can never be opened.
    with pytest.raises(SealError, match="restarted") as refused:
        install_keys(app, None)
        seal(game, db.session.get(Sealing, sealing.id), "Rob", "Sam",
             seal_slip(row.public_key, sealing.id, "Rob", "Sam"))
    assert refused.value.status == 409


def test_the_sweep_after_a_restart_waits_for_the_tables_to_exist(tmp_path):
    bare = create_app({"TESTING": True, "SECRET_KEY": "tests",
                       "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'empty.sqlite3'}"})
    with bare.app_context():
        assert void_lost() == 0  # no tables yet (before flask db upgrade): nothing to void
    assert bare.test_client().get("/").status_code == 200
    with bare.app_context():
        db.engine.dispose()


def test_a_restart_during_a_tromplemond_vote_asks_everyone_again(app, ctx):
    game = make_game(game="tromplemond")
    tromplemond.open_vote(game, 0)
    db.session.commit()
    for voter, target in {"Rob": "Emily", "Sam": "Emily"}.items():
        tromplemond.cast(game, 0, voter, target)
        db.session.commit()
    install_keys(app, None)
    vote = tromplemond.vote_status(game, 0)
    assert vote.restarted and vote.voted == frozenset() and vote.may_vote("Rob")
    for voter, target in {"Rob": "Nick", "Sam": "Nick", "Nick": "Emily",
                          "Emily": "Nick"}.items():
        tromplemond.cast(game, 0, voter, target)
        db.session.commit()
    vote = tromplemond.vote_status(game, 0)
    assert (vote.settled_off, vote.counts["Nick"], vote.restarted) == ("Nick", 3, False)


# what the database keeps ------------------------------------------------------------------

def test_tallies_are_written_only_at_the_reveal(ctx):
    game = make_game()
    sealing = ballot(game)
    for chooser, choice in {"Rob": "Sam", "Sam": "Nick", "Nick": "Sam"}.items():
        seal_all(game, sealing, {chooser: choice})
        assert rows(Tally) == 0, "no count exists before the last choice"
        assert rows(Slip) > 0
    seal_all(game, sealing, {"Emily": "Rob"})
    assert dict(db.session.execute(select(Tally.choice, Tally.count)).all()) == {
        "Rob": 1, "Sam": 2, "Nick": 1, "Emily": 0}
    assert rows(Slip) == 0


def dump() -> dict[str, list[tuple]]:
    """Every row of every table, in key order, each blob as its length.

    Each row starts with where it sits: SQLite's rowid (where a table has
    one); PostgreSQL's ``ctid`` (the row version's place in the table's
    pages) and ``xmin`` (the transaction that wrote it, as its rank among the
    dump's transactions: the ids differ from one run to the next, their
    order does not).
    """
    engine = db.engine
    inspector = inspect(engine)
    rows: dict[str, list[tuple]] = {}
    with engine.connect() as conn:
        for name in sorted(inspector.get_table_names()):
            quoted = engine.dialect.identifier_preparer.quote(name)
            key = inspector.get_pk_constraint(name)["constrained_columns"]
            order = ", ".join(engine.dialect.identifier_preparer.quote(c) for c in key)
            if engine.dialect.name == "postgresql":
                where = "ctid::text, xmin::text, "
            else:
                schema = conn.exec_driver_sql(
                    "SELECT sql FROM sqlite_master WHERE name = ?", (name,)).scalar_one()
                where = "" if "WITHOUT ROWID" in schema.upper() else "rowid, "
            query = f"SELECT {where}* FROM {quoted}" + (f" ORDER BY {order}" if order else "")
            rows[name] = [tuple(("blob", len(v)) if isinstance(v, bytes | memoryview) else v
                                for v in row) for row in conn.exec_driver_sql(query)]
    if engine.dialect.name == "postgresql":
        xids = sorted({int(row[1]) for table in rows.values() for row in table})
        rank = {str(xid): n for n, xid in enumerate(xids)}
        rows = {name: [(row[0], rank[row[1]], *row[2:]) for row in table]
                for name, table in rows.items()}
    return rows


def every_value() -> bytes:
    """Every value of every row of every table, as bytes (a blob as it is)."""
    found = []
    with db.engine.connect() as conn:
        for name in inspect(db.engine).get_table_names():
            quoted = db.engine.dialect.identifier_preparer.quote(name)
            for row in conn.exec_driver_sql(f"SELECT * FROM {quoted}"):
                found += [bytes(v) if isinstance(v, bytes | memoryview) else repr(v).encode()
                          for v in row]
    return b"\n".join(found)


def fresh_database() -> Game:
    db.session.remove()
    db.drop_all()
    db.create_all()
    return make_game(game="tromplemond")


def run_sealed(app, choices: dict[str, str]) -> list[dict[str, list[tuple]]]:
    """A fresh database, one anonymous sealing, these choices (one request each).

    Returns the dump after the sealing opens and after every choice.
    """
    with app.app_context():
        game = fresh_database()
        sealing = ballot(game, choosers=list(choices), choices=PLAYERS)
        dumps = [dump()]
        for chooser, choice in choices.items():
            seal_all(game, sealing, {chooser: choice})
            dumps.append(dump())
        db.session.remove()
        return dumps


def run_vote(app, slips: dict[str, str]) -> list[dict[str, list[tuple]]]:
    """As :func:`run_sealed`, through Tromplemond's vote (a tie opens the next stage)."""
    with app.app_context():
        game = fresh_database()
        tromplemond.open_vote(game, 0)
        db.session.commit()
        dumps = [dump()]
        for voter, target in slips.items():
            tromplemond.cast(game, 0, voter, target)
            db.session.commit()
            dumps.append(dump())
        db.session.remove()
        return dumps


def wait_for_statistics(relation: str, inserted: int) -> tuple[int, int, int]:
    """PostgreSQL's row counters of ``relation`` once its inserts are counted (sent ~1 s late)."""
    ceiling = Ceiling()
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        while True:
            conn.execute(text("SELECT pg_stat_clear_snapshot()"))
            counters = conn.execute(text(
                "SELECT n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_user_tables "
                "WHERE relname = :name"), {"name": relation}).one()
            if counters[0] >= inserted or ceiling.passed:
                return tuple(counters)
            time.sleep(0.2)


def assert_counts_written_once(app, candidates: int) -> None:
    """PostgreSQL: no row version of ``sealed_tallies`` ever held a partial count."""
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            return
        with db.engine.connect() as conn:
            tallies = conn.execute(text("SELECT xmin::text, sealing_id FROM sealed_tallies")).all()
            reveals = dict(conn.execute(text(
                "SELECT id, xmin::text FROM sealings WHERE revealed")).all())
        # Every count row was written by the transaction that revealed its sealing ...
        assert len(tallies) == candidates
        assert all(reveals[sealing] == xmin for xmin, sealing in tallies)
        # ... inserted once, never updated or deleted: no older version of a count exists.
        assert wait_for_statistics("sealed_tallies", candidates) == (candidates, 0, 0)


SECRET_CASES = [
    # Two choosers who swap: Rob→Emily, Sam→Nick or Rob→Nick, Sam→Emily.
    ("sealed", {"Rob": "Emily", "Sam": "Nick"}, {"Rob": "Nick", "Sam": "Emily"}),
    # Four choosers, three of whom change their choice.
    ("sealed", {"Rob": "Emily", "Sam": "Emily", "Nick": "Sam", "Emily": "Nick"},
     {"Rob": "Sam", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"}),
    # Tromplemond, 1–1–1–1 either way: Rob and Sam, voting last, swap whom they name.
    ("vote", {"Nick": "Sam", "Emily": "Rob", "Rob": "Emily", "Sam": "Nick"},
     {"Nick": "Sam", "Emily": "Rob", "Rob": "Nick", "Sam": "Emily"}),
    # Tromplemond, 2–2 between Emily and Nick either way: Rob and Sam, voting first, swap.
    ("vote", {"Rob": "Emily", "Sam": "Nick", "Nick": "Emily", "Emily": "Nick"},
     {"Rob": "Nick", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"}),
    # Tromplemond, 2–1–1, Emily off either way: three of the four slips change hands.
    ("vote", {"Rob": "Emily", "Sam": "Emily", "Nick": "Sam", "Emily": "Nick"},
     {"Rob": "Sam", "Sam": "Emily", "Nick": "Emily", "Emily": "Nick"}),
]


@pytest.mark.parametrize(("via", "first", "second"), SECRET_CASES)
def test_the_database_cannot_tell_who_chose_what_after_any_choice(app, via, first, second):
    run = run_sealed if via == "sealed" else run_vote
    a = run(app, first)
    assert_counts_written_once(app, len(PLAYERS))
    b = run(app, second)
    assert len(a) == len(b) == len(first) + 1
    # The test is not empty: slips are stored while the sealing is open, counts after.
    assert all(d["sealed_slips"] for d in a[1:-1])
    assert all(not d["sealed_tallies"] for d in a[:-1]) and a[-1]["sealed_tallies"]
    for step, (before, after) in enumerate(zip(a, b, strict=True)):
        assert before == after, f"the databases differ after choice {step}"
    assert_counts_written_once(app, len(PLAYERS))


def test_the_dump_would_tell_if_the_counts_differed(app):
    """The dump is sharp enough to see a different result (the secrecy test can fail)."""
    a = run_sealed(app, {"Rob": "Emily", "Sam": "Nick"})
    b = run_sealed(app, {"Rob": "Emily", "Sam": "Emily"})
    assert a[:-1] == b[:-1] and a[-1] != b[-1]


def test_the_dump_would_tell_who_chose_what_in_an_attributed_sealing(app):
    """An attributed reveal shows who chose what: the dump sees it (as intended)."""
    def run(choices: dict[str, str]) -> list[dict[str, list[tuple]]]:
        with app.app_context():
            game = fresh_database()
            sealing = open_sealing(game, 0, "banen", Mode.ATTRIBUTED, list(choices))
            db.session.commit()
            dumps = []
            for chooser, choice in choices.items():
                seal_all(game, sealing, {chooser: choice})
                dumps.append(dump())
            db.session.remove()
            return dumps

    a = run({"Rob": "Emily", "Sam": "Nick"})
    b = run({"Rob": "Nick", "Sam": "Emily"})
    assert a[0] == b[0], "before the reveal, nothing tells"
    assert a[1] != b[1], "at the reveal, everyone sees who showed what"
