"""The container image's start, outside a container: ``deploy/entrypoint.sh`` (the
Dockerfile's ENTRYPOINT) on a fresh database applies the app's migrations to their head,
then gunicorn answers the home page and stops cleanly when told to (SIGTERM, as
``docker stop`` tells it); given a command, the entrypoint runs that after the migrations;
a database that never answers stops it with a message that says so.

On SQLite (a file in the test's folder), and on PostgreSQL when ``DATABASE_URL`` is set
(marked ``db``): there, a database of the test's own, made empty and dropped after. CI's
container step (``.ci/containers``) runs the same script in the image itself.
"""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text

from companion import MIGRATIONS
from companion.config import database_url
from companion.extensions import db
from tests.conftest import worker_name
from tests.waiting import HANG, Ceiling
from tests.web.served import free_port

pytestmark = pytest.mark.db

ROOT = Path(__file__).resolve().parents[1]
ENTRYPOINT = ROOT / "deploy" / "entrypoint.sh"


def head_revision() -> str:
    """The newest migration's revision (the migrations' head)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()


def server_sql(url: str, statement: str) -> None:
    """Run ``statement`` on the server of ``url`` (its ``postgres`` database), outside a
    transaction (CREATE and DROP DATABASE)."""
    import psycopg

    base = url.replace("postgresql+psycopg://", "postgresql://").rsplit("/", 1)[0]
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(statement)


@pytest.fixture
def fresh_database(tmp_path) -> Iterator[str]:
    """An empty database: a SQLite file, or (``DATABASE_URL`` set) a PostgreSQL database of
    this test's own on that server."""
    given = os.environ.get("DATABASE_URL")
    if not given:
        yield f"sqlite:///{tmp_path / 'entrypoint.sqlite3'}"
        return
    url = database_url(given, str(tmp_path))
    name = f"entrypoint_{worker_name()}"
    server_sql(url, f'DROP DATABASE IF EXISTS "{name}"')
    server_sql(url, f'CREATE DATABASE "{name}"')
    yield f"{url.rsplit('/', 1)[0]}/{name}"
    server_sql(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def entrypoint_env(url: str, **settings: str) -> dict[str, str]:
    """The environment the entrypoint runs in: the test's database, one worker on a free
    port of 127.0.0.1, this interpreter (the image's is its virtualenv's python3)."""
    return {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "entrypoint",
            "PYTHON": sys.executable, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
            "COMPANION_HOST": "127.0.0.1", "RATELIMIT_STORAGE_URI": "memory://",
            "WEB_CONCURRENCY": "1", **settings}


def home_page(port: int) -> int | None:
    """The home page's status, or None while nothing answers on ``port``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG)
    try:
        connection.request("GET", "/")
        return connection.getresponse().status
    except OSError:
        return None
    finally:
        connection.close()


def test_the_entrypoint_migrates_then_serves_and_stops_cleanly(fresh_database, tmp_path):
    port = free_port()
    log = tmp_path / "entrypoint.log"
    with log.open("wb") as output:
        process = subprocess.Popen([str(ENTRYPOINT)], cwd=tmp_path, stdout=output,
                                   stderr=subprocess.STDOUT, start_new_session=True,
                                   env=entrypoint_env(fresh_database, PORT=str(port)))
    try:
        ceiling = Ceiling()
        while (status := home_page(port)) is None:
            assert process.poll() is None, f"the entrypoint stopped:\n{log.read_text()}"
            assert not ceiling.passed, f"nothing answered:\n{log.read_text()}"
            time.sleep(0.1)
        assert status == 200

        # The migrations ran to their head: every table of the models is there.
        engine = create_engine(fresh_database)
        try:
            with engine.connect() as connection:
                applied = connection.execute(text("select version_num from alembic_version"))
                assert [row[0] for row in applied] == [head_revision()]
            tables = set(inspect(engine).get_table_names())
        finally:
            engine.dispose()
        assert {table.name for table in db.metadata.sorted_tables} <= tables

        # The process the entrypoint started is gunicorn itself (exec): SIGTERM stops it.
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=HANG) == 0, log.read_text()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    said = log.read_text()
    assert "Running upgrade" in said and "Shutting down" in said, said
    assert home_page(port) is None, "nothing answers once it stopped"


def test_a_command_runs_after_the_migrations(fresh_database, tmp_path):
    done = subprocess.run(
        [str(ENTRYPOINT), sys.executable, "-m", "flask", "--app", "companion", "db", "current"],
        cwd=tmp_path, env=entrypoint_env(fresh_database), capture_output=True, text=True,
        timeout=HANG)
    assert done.returncode == 0, done.stderr
    assert f"{head_revision()} (head)" in done.stdout


def test_a_database_that_never_answers_stops_it_with_a_message(tmp_path):
    closed = f"postgresql://nobody@127.0.0.1:{free_port()}/none"
    done = subprocess.run([str(ENTRYPOINT)], cwd=tmp_path, capture_output=True, text=True,
                          env=entrypoint_env(closed, COMPANION_DATABASE_WAIT="1"),
                          timeout=HANG)
    assert done.returncode != 0
    assert "the database does not answer" in done.stderr
    assert "Running upgrade" not in done.stderr + done.stdout
