"""The sealing key stores: memory (the default) and Redis (several servers on one database).

Redis is tried on servers of the test's own (``redis-server`` on a free port, in
a temporary folder): one that keeps nothing on disk is used; one that writes
RDB snapshots or an append-only file is refused at start, with a message that
says why.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from contextlib import contextmanager
from functools import partial

import pytest
from nacl.public import PrivateKey

from companion import create_app
from companion.extensions import db
from companion.store import Game
from companion.store.sealed import (
    Mode,
    Sealing,
    open_sealing,
    seal,
    sealing_keys,
    status,
)
from companion.store.sealing_keys import MemoryKeys, RedisKeys, make_store
from tests.store import conftest
from tests.store.conftest import PLAYERS

make_game = partial(conftest.make_game, game="tromplemond")

needs_redis = pytest.mark.skipif(shutil.which("redis-server") is None,
                                 reason="redis-server is not installed")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def redis_server(tmp_path, *settings: str):
    """A Redis of the test's own, with these settings; yields its URL."""
    port = free_port()
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                               "--dir", str(tmp_path), *settings],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.1):
                    break
            except OSError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.mark.parametrize("store", ["memory", "redis"])
def test_a_store_keeps_a_private_key_until_it_is_destroyed(tmp_path, store):
    if store == "redis" and shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    with (redis_server(tmp_path, "--save", "", "--appendonly", "no") if store == "redis"
          else _nothing()) as url:
        keys = make_store(url)
        assert isinstance(keys, RedisKeys if url else MemoryKeys)
        public = keys.make()
        private = keys.private_key(public)
        assert bytes(PrivateKey(private).public_key) == public
        assert keys.holds(public) and not keys.holds(bytes(32))
        other = keys.make()
        keys.destroy(public)
        assert keys.private_key(public) is None and not keys.holds(public)
        assert keys.holds(other)


@contextmanager
def _nothing():
    yield None


@needs_redis
@pytest.mark.parametrize("settings", [
    ("--save", "900 1", "--appendonly", "no"),
    ("--save", "", "--appendonly", "yes"),
])
def test_a_redis_that_writes_to_disk_is_refused_at_start(tmp_path, settings):
    with redis_server(tmp_path, *settings) as url:
        with pytest.raises(RuntimeError, match="writes its data to disk") as refused:
            create_app({"TESTING": True, "SECRET_KEY": "tests", "SEALING_STORE": url,
                        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite3'}"})
        assert "--save '' --appendonly no" in str(refused.value)


def test_a_redis_out_of_reach_is_refused_at_start():
    port = free_port()
    with pytest.raises(RuntimeError, match=f"cannot ask 127.0.0.1:{port} whether it writes") \
            as refused:
        make_store(f"redis://:secret@127.0.0.1:{port}/0")
    assert "secret" not in str(refused.value), "the URL's password is not said"


@needs_redis
@pytest.mark.db
def test_servers_sharing_a_redis_store_open_each_others_slips(app, tmp_path):
    with redis_server(tmp_path, "--save", "", "--appendonly", "no") as url:
        app.config["SEALING_STORE"] = url
        from companion.store.sealed import install_keys

        install_keys(app, url)
        with app.app_context():
            game = make_game()
            sealing = open_sealing(game, 0, "vote", Mode.ANONYMOUS, PLAYERS, PLAYERS)
            db.session.commit()
            for chooser, choice in {"Rob": "Emily", "Sam": "Emily", "Nick": "Rob"}.items():
                seal(game, db.session.get(Sealing, sealing.id), chooser, choice)
                db.session.commit()
            sealing_id, game_id = sealing.id, game.id
            public = sealing.public_key
            db.session.remove()
        other = create_app({"TESTING": True, "SECRET_KEY": "tests", "SEALING_STORE": url,
                            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]})
        try:
            with other.app_context():
                assert isinstance(sealing_keys(), RedisKeys)
                game = db.session.get(Game, game_id)
                row = db.session.get(Sealing, sealing_id)
                assert not status(row).restarted, "the other server holds its key"
                assert seal(game, row, "Emily", "Nick") is True
                db.session.commit()
                state = status(db.session.get(Sealing, sealing_id))
                assert state.counts == {"Rob": 1, "Sam": 0, "Nick": 1, "Emily": 2}
                assert not sealing_keys().holds(public), "destroyed for every server"
        finally:
            with other.app_context():
                db.session.remove()
                db.engine.dispose()
