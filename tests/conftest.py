"""Shared fixtures: the app on a fresh database, a client, and ``actions`` that play a table.

The database is a temporary SQLite file, or the one in ``DATABASE_URL`` when
it is set (PostgreSQL in CI): then every table is dropped and made again
around each test. Tests that touch the database are marked ``db``.

The suite runs in parallel (pytest-xdist, a worker per core: ``manage.py test``). Each
worker has a database of its own on the server: ``DATABASE_URL``'s database with the
worker's name after it (``test_gw0``, made at the worker's start), which the worker's
processes (gunicorn servers, scripts) are given in ``DATABASE_URL`` in its place.

A test waits for the event it means, never for a time, and never asserts how long
something took; every wait's ceiling is :data:`tests.waiting.HANG` (tests/README.md).
"""

from __future__ import annotations

import base64
import dataclasses
import html
import os
import re
import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import urlsplit
from weakref import WeakKeyDictionary

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from sqlalchemy import event, inspect, make_url, text
from werkzeug.test import TestResponse

from companion import create_app
from companion.config import database_url
from companion.extensions import db, limiter
from companion.rules import GAMES
from companion.store import Table, queries
from companion.store.sealed import encode_blob, seal_slip

K = TypeVar("K", bound=Hashable)

CSRF = re.compile(r'"X-CSRFToken": "([^"]+)"|name="csrf_token" value="([^"]+)"')
SLIP_FORM = re.compile(r'<form [^>]*?class="slip-form"[^>]*? data-seal-key="([^"]*)" '
                       r'data-sealing="(\d+)" data-chooser="([^"]*)"')

hypothesis_settings.register_profile(
    "suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
hypothesis_settings.load_profile("suite")
"""Hypothesis's own stopwatches off (tests/README.md): its default fails an example that
took over 200 ms, and a generation it finds slow, both of which a busy machine makes."""


PULSES = {"tablet": "/t/{code}/pulse", "phone": "/t/{code}/seat/pulse",
          "join": "/j/{code}/pulse", "game": "/t/{code}/games/{number}/pulse"}
"""Each live page's pulse: asked without stamps, its answer draws every region of the page."""


def pulse_of(page: str, code: str, number: int = 1) -> str:
    """The pulse URL of live page ``page`` (``tablet``, ``phone``, ``join``, ``game``)."""
    return PULSES[page].format(code=code, number=number)


def element(answer: str, element_id: str) -> str:
    """The element with id ``element_id`` in a page or a pulse answer, whole (its tags and
    what they hold); empty when there is none: a region read from what a screen gets."""
    found = re.search(rf'<(\w+)\b[^>]*\sid="{re.escape(element_id)}"', answer)
    if found is None:
        return ""
    rest, depth = answer[found.start():], 0
    for tag in re.finditer(rf"<(/?){found.group(1)}\b[^>]*>", rest):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return rest[:tag.end()]
    return rest


def sealed_fields(page: str, choice: str) -> dict[str, str] | None:
    """The fields a slip form on ``page`` sends for ``choice`` once static/app/slip.js has
    sealed it (PyNaCl in place of tweetnacl: the same box, the same padded plaintext);
    None when the page holds no slip form."""
    found = SLIP_FORM.search(page)
    if found is None:
        return None
    key, sealing, chooser = found.groups()
    public = base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))
    return {"sealed": encode_blob(seal_slip(public, int(sealing), html.unescape(chooser),
                                            choice))}


def worker_name() -> str:
    """This xdist worker's name (``gw0``, ``gw1`` …), or ``""`` when the run is not split."""
    return os.environ.get("PYTEST_XDIST_WORKER", "")


def worker_number() -> int:
    """This xdist worker's number (0 for the first, and when the run is not split)."""
    name = worker_name()
    return int(name[2:]) if name.startswith("gw") and name[2:].isdigit() else 0


def own_server_database(url: str, worker: str) -> str:
    """``url`` with the worker's own database on the same server (``test`` → ``test_gw0``),
    made when it is not there yet: parallel workers never empty each other's tables."""
    import psycopg

    given = make_url(database_url(url, ""))
    name = f"{given.database}_{worker}"
    admin = given.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        if connection.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                              (name,)).fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')
    return given.set(database=name).render_as_string(hide_password=False)


def pytest_configure(config) -> None:
    """On an xdist worker with ``DATABASE_URL`` set: point ``DATABASE_URL`` at the worker's
    own database (for the app fixture and every process a test starts)."""
    url, worker = os.environ.get("DATABASE_URL"), worker_name()
    if url and worker and not url.startswith("sqlite"):
        os.environ["DATABASE_URL"] = own_server_database(url, worker)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """(xdist, in the process that shares the tests out) Keep what each worker sent back at
    its end, for the reports made at the end of the run (the rules' codes said, the
    browser's fit checks): ``config.companion_from_workers``."""
    output = getattr(node, "workeroutput", None) or {}
    kept = getattr(node.config, "companion_from_workers", None)
    if kept is None:
        kept = node.config.companion_from_workers = []
    kept.append(output)


def pytest_sessionfinish(session) -> None:
    """On an xdist worker: send the browser tests' fit checks and the long evening's end
    screens back with its end."""
    from tests.browser import fit, long_evening

    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["companion_fit"] = [dataclasses.asdict(result) for result in fit.RESULTS]
        output["companion_long_evening"] = [dataclasses.asdict(result)
                                            for result in long_evening.RESULTS]


def pytest_terminal_summary(terminalreporter) -> None:
    """The fit and axe counts of every page state the browser tests checked (fit.py), and the
    problems found a page on the end screens of a long evening (long_evening.py): the
    workers' with this process's own."""
    from tests.browser import fit, long_evening

    for output in getattr(terminalreporter.config, "companion_from_workers", ()):
        fit.RESULTS.extend(fit.ScreenResult(**found) for found in output.get("companion_fit", ()))
        long_evening.RESULTS.extend(long_evening.PageResult(**found)
                                    for found in output.get("companion_long_evening", ()))
    for title, lines in (("screens: sideways scroll and axe nodes (any impact)", fit.report()),
                         ("end screens of a long evening: problems found a page",
                          long_evening.report())):
        if lines:
            terminalreporter.section(title)
            for line in lines:
                terminalreporter.write_line(line)


MANY_TABLES = {"NEW_TABLE_LIMIT": "1000/minute", "API_LIMIT": "1000/minute",
               "REFUSED_IMPORT_LIMIT": "1000/minute"}
"""A test makes its tables and imports (and has imports refused) from one address, as many as
it needs: the limits on them are tested on their own (``tests/web/test_inbound_limits.py``)."""


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    """The companion on a fresh database (SQLite file, or ``DATABASE_URL`` when set)."""
    url = os.environ.get("DATABASE_URL")
    app = create_app({
        "TESTING": True,
        "SECRET_KEY": "tests",
        "SQLALCHEMY_DATABASE_URI": (database_url(url, str(tmp_path)) if url
                                    else f"sqlite:///{tmp_path / 'companion.sqlite3'}"),
        "PUBLIC_URL": "",
        "RATELIMIT_STORAGE_URI": "memory://",
        **MANY_TABLES,
    })
    with app.app_context():
        if url:
            empty_server_database()
        else:
            db.create_all()
    limiter.reset()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def empty_server_database() -> None:
    """The models' tables, empty, on the database server (PostgreSQL).

    The first test of a run makes them afresh (so a schema left by an older run never
    serves); after that, when every table is there (left by the test before), they are
    emptied, which is many times faster than dropping and making them for each test; a
    test that cleared them (the migration tests) gets them made again.
    """
    names = [table.name for table in db.metadata.sorted_tables]
    if _schema_made and set(names) <= set(inspect(db.engine).get_table_names()):
        quoted = ", ".join(f'"{name}"' for name in names)
        with db.engine.begin() as connection:
            connection.execute(text(f"TRUNCATE {quoted} RESTART IDENTITY CASCADE"))
    else:
        db.drop_all()
        db.create_all()
        _schema_made.append(True)


_schema_made: list[bool] = []
"""Non-empty once this run has made the tables on the database server."""


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser with its own cookies (the scorekeeper's tablet, in most tests)."""
    return app.test_client()


def csrf_token(client: FlaskClient, page: str = "/") -> str:
    """The CSRF token a page gives this client (as its forms and htmx would send it)."""
    html = client.get(page).get_data(as_text=True)
    match = CSRF.search(html)
    assert match, f"no CSRF token on {page}"
    return match.group(1) or match.group(2)


@dataclass(frozen=True)
class Statement:
    """One statement the app sent to its database, as a test heard it."""

    text: str
    """The statement on one line."""
    autocommit: bool | None
    """Whether its connection was in autocommit (None where the driver does not say)."""

    @property
    def word(self) -> str:
        """Its first word: SELECT, UPDATE, BEGIN …"""
        return self.text.split()[0]


@contextmanager
def statements(app: Flask) -> Iterator[list[Statement]]:
    """Every statement the app's engine sends while the block runs, in order."""
    heard: list[Statement] = []
    with app.app_context():
        engine = db.engine

    def listen(connection, _cursor, statement, *_rest) -> None:
        autocommit = getattr(connection.connection.dbapi_connection, "autocommit", None)
        heard.append(Statement(" ".join(statement.split()), autocommit))

    event.listen(engine, "before_cursor_execute", listen)
    try:
        yield heard
    finally:
        event.remove(engine, "before_cursor_execute", listen)


@pytest.fixture
def server_url(app: Flask):
    """The database server's URL; the test is skipped on SQLite."""
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            pytest.skip("a database server's own behaviour")
        return db.engine.url


def at_once(send: Callable[[K], int], keys: Iterable[K]) -> dict[K, int]:
    """``send(key)`` for every key, each in its own thread, all let go in the same instant;
    what each answered (a status), by key. A key whose thread failed has no answer."""
    keys = list(keys)
    start_line = threading.Barrier(len(keys))
    answers: dict[K, int] = {}

    def go(key: K) -> None:
        start_line.wait()
        answers[key] = send(key)

    threads = [threading.Thread(target=go, args=(key,)) for key in keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


class TableActions:
    """Play a table through the web pages, as a scorekeeper and as phones.

    Each phone is its own test client, with its own cookie. Every form is
    sent with the client's CSRF token, as a browser would.
    """

    PLAYERS = ("Rob", "Sam", "Nick", "Emily")

    def __init__(self, app: Flask, keeper: FlaskClient) -> None:
        self.app = app
        self.keeper = keeper
        self._tokens: WeakKeyDictionary[FlaskClient, str] = WeakKeyDictionary()
        self._phones = 0

    def token(self, client: FlaskClient) -> str:
        """This client's CSRF token (fetched once)."""
        token = self._tokens.get(client)
        if token is None:
            token = self._tokens[client] = csrf_token(client)
        return token

    def post(self, url: str, data: dict | None = None, *, client: FlaskClient | None = None,
             **kwargs) -> TestResponse:
        """POST a form with the client's CSRF token (default client: the scorekeeper)."""
        client = client or self.keeper
        form = {"csrf_token": self.token(client), **(data or {})}
        return client.post(url, data=form, **kwargs)

    def create_table(self, *, name: str = "Friday night", game: str | None = None,
                     players: Sequence[str | None] = PLAYERS, seats: int | None = None,
                     phone_names: bool = False, dealer: str | int = 1,
                     client: FlaskClient | None = None) -> str:
        """Make a table as the scorekeeper (of ``game``: by default the registry's first,
        which the new-table form offers first); returns its join code."""
        form = {"name": name, "game": game or GAMES[0], "seats": str(seats or len(players)),
                "player": [p or "" for p in players], "dealer": str(dealer)}
        if phone_names:
            form["phone_names"] = "on"
        response = self.post("/new", form, client=client)
        assert response.status_code == 303, response.get_data(as_text=True)
        return urlsplit(response.headers["Location"]).path.rsplit("/", 1)[-1]

    def phone(self) -> FlaskClient:
        """A new phone: a client with its own cookies and its own address on the Wi-Fi."""
        self._phones += 1
        client = self.app.test_client()
        client.environ_base["REMOTE_ADDR"] = f"192.168.1.{100 + self._phones}"
        return client

    def claim(self, code: str, position: int, *, phone: FlaskClient | None = None,
              name: str | None = None) -> tuple[FlaskClient, TestResponse]:
        """A phone (a new one by default) takes seat ``position``."""
        phone = phone or self.phone()
        data = {"seat": str(position)}
        if name is not None:
            data["name"] = name
        return phone, self.post(f"/j/{code}/claim", data, client=phone)

    def approve(self, code: str, position: int, *,
                keeper: FlaskClient | None = None) -> TestResponse:
        """The scorekeeper (``keeper``, the table's maker by default) taps Approve on the
        request waiting for seat ``position``, found on the tablet's page as they see it."""
        keeper = keeper or self.keeper
        page = keeper.get(f"/t/{code}").get_data(as_text=True)
        asked = re.search(rf'data-request="(\d+)" data-seat="{position}"', page)
        assert asked, f"no request for seat {position} on the tablet"
        return self.post(f"/t/{code}/requests/{asked.group(1)}/approve", client=keeper)

    def seat_everyone(self, code: str) -> list[FlaskClient]:
        """A phone in every seat, in seat order."""
        phones = []
        for seat in self.table(code).seats:
            phone, response = self.claim(code, seat.position)
            assert response.status_code == 303
            phones.append(phone)
        return phones

    def start(self, code: str) -> TestResponse:
        """The scorekeeper starts the game."""
        return self.post(f"/t/{code}/start")

    def vote(self, code: str, phone: FlaskClient, target: str, *, number: int = 1,
             stage: int | None = None, htmx: bool = False) -> TestResponse:
        """A phone drops its slip naming ``target``, picked on the phone and sealed there
        (to the key its slip form shows) as static/app/slip.js does; with no slip form on the
        phone's screen, in clear (as a phone without JavaScript sends it)."""
        page = phone.get(pulse_of("phone", code), headers={"HX-Request": "true"})
        data = sealed_fields(element(page.get_data(as_text=True), "round"), target) \
            or {"choice": target}
        if stage is not None:
            data["stage"] = str(stage)
        return self.post(f"/t/{code}/games/{number}/sealed/vote", data,
                         client=phone, headers={"HX-Request": "true"} if htmx else {})

    def tie_break(self, code: str, phone: FlaskClient, target: str, **kwargs) -> TestResponse:
        """A decider drops a tie-break slip naming one of the tied two."""
        return self.vote(code, phone, target, **kwargs)

    def table(self, code: str) -> Table:
        """The table as the database has it now (read in a fresh session)."""
        with self.app.app_context():
            table = db.session.scalar(queries.table_by_code(code))
            assert table is not None
            # Load what tests look at before the session closes.
            _ = [(s.name, s.key_hash) for s in table.seats], [g.record() for g in table.games]
            db.session.expunge_all()
            return table


@pytest.fixture
def actions(app: Flask, client: FlaskClient) -> TableActions:
    """Play a table: ``actions.create_table()``, ``actions.claim(code, 2)`` …"""
    return TableActions(app, client)
