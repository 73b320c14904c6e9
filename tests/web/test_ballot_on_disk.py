"""Gone means gone: after the reveal, no copy of the database opens a slip.

A vote is played through the pages (the phones seal their slips as
static/app/slip.js does). Before the last slip, the test reads what a copy of the
server's disk would hold — SQLite: the database file, its WAL and a dump
(``iterdump``); PostgreSQL: the relation files of the sealing tables under the
data directory (after a CHECKPOINT), the WAL segments written during the
test, and ``pg_dump`` — finds the sealed slips there, and opens them with the
keys the server holds: the scan is sharp. After the reveal it reads the same
again: whatever copies of the slips are still there (PostgreSQL's WAL keeps
them), no key the server holds, nor the old ``COMPANION_BALLOT_KEY`` it was
given, opens one.
"""

from __future__ import annotations

import base64
import os
import subprocess
import time
from pathlib import Path

import pytest
from nacl.bindings import crypto_box_open
from nacl.exceptions import CryptoError
from sqlalchemy import text

from companion.extensions import db
from companion.store import sealed
from companion.store.sealing_keys import KEY_BYTES, MemoryKeys
from tests.conftest import sealed_fields
from tests.web.tables import HTMX

pytestmark = pytest.mark.db

PLAYERS = ("Rob", "Sam", "Nick", "Emily")
TABLES = ("sealed_slips", "sealings", "sealed_tallies")


def held_private_keys(keys: MemoryKeys) -> list[bytes]:
    """Every private key a memory store's slots hold now (as a reader of the process's
    memory would find them)."""
    region, size = bytes(keys._region), 1 + 2 * KEY_BYTES
    return [region[o + 1 + KEY_BYTES:o + size] for o in range(0, len(region), size)
            if region[o] == 1]


def disk_copy(app, since: float) -> bytes:
    """What a copy of the database's disk (and a dump of it) holds now, as bytes."""
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "sqlite":
            path = Path(engine.url.database)
            found = b"".join(Path(f"{path}{tail}").read_bytes()
                             for tail in ("", "-wal", "-shm") if Path(f"{path}{tail}").exists())
            raw = engine.raw_connection()
            try:
                dump = "\n".join(raw.driver_connection.iterdump())
            finally:
                raw.close()
            return found + dump.encode()
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("CHECKPOINT"))
            home = Path(conn.execute(text("SHOW data_directory")).scalar_one())
            files = [home / conn.execute(text("SELECT pg_relation_filepath(:t)"),
                                         {"t": name}).scalar_one() for name in TABLES]
        found = b""
        for file in files:
            for segment in sorted(file.parent.glob(file.name + "*")):  # .1 …, _fsm, _vm
                found += segment.read_bytes()
        for segment in (home / "pg_wal").iterdir():
            if segment.is_file() and segment.stat().st_mtime >= since:
                found += segment.read_bytes()
        url = engine.url
        dump = subprocess.run(
            ["pg_dump", "--data-only", *(f"--table={name}" for name in TABLES),
             "-h", url.host or "127.0.0.1", "-p", str(url.port or 5432),
             "-U", url.username or "postgres", url.database],
            check=True, capture_output=True, timeout=120,
            env={**os.environ, "PGPASSWORD": url.password or ""}).stdout
        return found + dump


def on_disk(blobs: list[bytes], copy: bytes) -> list[bytes]:
    """The slips found in the copy: as bytes, or as hex (a dump's)."""
    return [b for b in blobs if b in copy or b.hex().encode() in copy]


def opened_by(keys: list[bytes], blobs: list[bytes]) -> int:
    """How many of the slips one of the keys opens."""
    opened = 0
    for blob in blobs:
        for key in keys:
            try:
                crypto_box_open(blob[KEY_BYTES + 24:], blob[KEY_BYTES:KEY_BYTES + 24],
                                blob[:KEY_BYTES], key)
            except CryptoError:
                continue
            opened += 1
            break
    return opened


def test_after_the_reveal_no_copy_of_the_database_opens_a_slip(app, actions):
    since = time.time() - 1
    given = os.urandom(32)  # the old setting: a server was "given" a key
    app.config["BALLOT_KEY"] = base64.urlsafe_b64encode(given).decode()
    code = actions.create_table()
    phones = dict(zip(PLAYERS, actions.seat_everyone(code), strict=True))
    actions.start(code)
    actions.post(f"/t/{code}/games/1/tromplemond/vote", {"round": "1"})
    slips = {"Rob": "Emily", "Sam": "Emily", "Nick": "Sam", "Emily": "Rob"}
    sent = []
    for voter, target in slips.items():
        page = phones[voter].get(f"/t/{code}/seat/pulse", headers=HTMX).get_data(as_text=True)
        fields = sealed_fields(page, target)
        sent.append(sealed.decode_blob(fields["sealed"]))
        if voter == "Emily":
            copy = disk_copy(app, since)
            before = on_disk(sent[:3], copy)
            keys = held_private_keys(app.extensions[sealed.EXTENSION]) + [given]
            assert before == sent[:3], "before the reveal the scan finds every slip"
            assert opened_by(keys, before) == 3, "and the server's keys open them"
        answer = actions.post(f"/t/{code}/games/1/sealed/vote", {"stage": "1", **fields},
                              client=phones[voter])
        assert answer.status_code == 303
    with app.app_context():
        assert db.session.scalar(text("SELECT COUNT(*) FROM sealed_slips")) == 0
        assert db.session.scalar(text("SELECT COUNT(*) FROM sealed_tallies")) == 4
    copy = disk_copy(app, since)
    after = on_disk(sent, copy)
    keys = held_private_keys(app.extensions[sealed.EXTENSION]) + [given]
    assert opened_by(keys, after) == 0, "no key the server holds or was given opens a slip"
    assert opened_by(keys, sent) == 0, "nor any copy of them anywhere"
    print(f"slips still on disk after the reveal: {len(after)} of {len(sent)}; opened: 0")
