"""What the store tests share: an app context, games made for them, and counts read back.

The helpers are imported as ``tests.store.conftest`` (as ``tests.conftest`` is: the suite
runs with ``--import-mode=importlib``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from companion.extensions import db
from companion.rules import GAMES
from companion.store import Game, Table, changes, rounds

PLAYERS = ["Rob", "Sam", "Nick", "Emily"]
WHEN = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


@pytest.fixture
def ctx(app):
    """An app context; what the test leaves uncommitted is rolled back."""
    with app.app_context():
        yield
        db.session.rollback()


def make_game(players=PLAYERS, game: str | None = None) -> Game:
    """A table with a game (by default the registry's first), every field fixed (no random
    code, key or clock)."""
    game = game or GAMES[0]
    table = Table(code="BCDFGHJK", name="Friday", game=game, version=1,
                  scorekeeper_key_hash="k" * 64, recovery_code_hash="r" * 64, created_at=WHEN)
    db.session.add(table)
    db.session.flush()
    row = Game(table=table, number=1, game=game, players=list(players),
               first_dealer=players[0], options={}, rounds=[], flags={}, created_at=WHEN)
    db.session.add(row)
    db.session.commit()
    return row


def new_game(game: str, names: Sequence[str], **options) -> Game:
    """Game 1 of a new table made as the pages make it (``options``: the table's, e.g. unit)."""
    table, _, _ = changes.create_table(name="Friday", game=game, names=list(names),
                                       allow_phone_names=False, first_dealer=1, **options)
    return changes.start_game(table)


@contextmanager
def drafting(app, game: str, names: Sequence[str], **options) -> Iterator[Game]:
    """In an app context: a new game with its first round begun, committed; rolled back after."""
    with app.app_context():
        row = new_game(game, names, **options)
        rounds.start_draft(row)
        db.session.commit()
        yield row
        db.session.rollback()


def version(game: Game) -> int:
    """The game's table's version, as the database has it now."""
    return db.session.scalar(select(Table.version).where(Table.id == game.table_id))


def rows(model) -> int:
    return db.session.scalar(select(func.count()).select_from(model))
