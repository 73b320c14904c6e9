"""The migrations make exactly the schema the models describe (SQLite and PostgreSQL)."""

from __future__ import annotations

import os

import flask_migrate
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from companion import create_app
from companion.config import database_url
from companion.extensions import db

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
