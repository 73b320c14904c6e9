"""Several workers count one address's limits together in Redis, as the README's
deployment says (``RATELIMIT_STORAGE_URI=redis://…``).

Each "worker" is a process of its own on the same database and the same Redis; the
machine's Redis (127.0.0.1:6379) is used as a deployment would, under a key prefix of
the test's own that it removes afterwards.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

import pytest
import redis  # a runtime dependency (pyproject.toml): several workers need it

REDIS = "redis://127.0.0.1:6379/0"

WORKER = r"""
import sys
from companion import create_app
app = create_app({"TESTING": True, "SECRET_KEY": "tests", "PUBLIC_URL": "",
                  "SQLALCHEMY_DATABASE_URI": sys.argv[1],
                  "RATELIMIT_STORAGE_URI": sys.argv[2], "RATELIMIT_KEY_PREFIX": sys.argv[3],
                  "WRONG_CODE_LIMIT": "3/minute", "REFUSAL_PAUSE": 0.0})
client = app.test_client()
codes = [client.get("/join", query_string={"code": "BCDFGHJK"}).status_code
         for _ in range(int(sys.argv[4]))]
print(" ".join(map(str, codes)))
"""


@pytest.fixture
def prefix():
    name = f"test-limits-{uuid.uuid4().hex}"
    yield name
    store = redis.Redis.from_url(REDIS)
    for key in store.scan_iter(f"*{name}*"):
        store.delete(key)


def worker(database: str, prefix: str, tries: int) -> list[int]:
    done = subprocess.run([sys.executable, "-c", WORKER, database, REDIS, prefix, str(tries)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert done.returncode == 0, done.stderr[-2000:]
    return [int(code) for code in done.stdout.split()]


def test_the_documented_migration_command_runs_with_redis_limits(tmp_path):
    database = f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "companion", "db", "upgrade"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "DATABASE_URL": database, "RATELIMIT_STORAGE_URI": REDIS,
             "SECRET_KEY": "tests"})
    assert done.returncode == 0, done.stderr[-2000:]


def test_two_workers_share_one_address_s_count_of_wrong_codes(tmp_path, prefix):
    database = f"sqlite:///{tmp_path / 'companion.sqlite3'}"
    subprocess.run([sys.executable, "-m", "flask", "--app", "companion", "db", "upgrade"],
                   check=True, capture_output=True, timeout=120,
                   env={**os.environ, "DATABASE_URL": database, "SECRET_KEY": "tests"})
    assert worker(database, prefix, 2) == [404, 404]
    # The second worker has seen none of these itself: the third wrong code is its
    # first, and the fourth is over the address's limit of three.
    assert worker(database, prefix, 2) == [404, 429]
