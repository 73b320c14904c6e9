"""No input gives a 500, and a refused request changes nothing: two walks over every route.

- **The sweep** (:func:`test_every_route_in_every_phase_by_every_role`) is deterministic.
  It makes a table of each game in each of its phases (``tests.web.phases``: the set-up,
  the dealing, each game's own moments, the game over, the evening closed; and a table
  imported with the largest numbers a record may hold) and sends every route of
  ``app.url_map`` to it — each game's own routes to the tables of the other four too —
  as the scorekeeper, a phone seated at the table, a phone of another table and a
  stranger (:meth:`Sweep.table` says which request each sends); then the routes of no
  table (the home page, ``/new``, ``/recover``, the API with awkward bodies, the static
  files) as each of them. It prints how many requests it made, by route and role, and
  fails when a route of ``url_map`` was never requested, or never by one of the four:
  a new route is swept, or the test says so.
- **The walk** (:func:`test_no_request_gives_a_500_and_a_refusal_changes_nothing`) is a
  Hypothesis state machine that sends generated requests — path values, query strings,
  form fields (every field name the templates use, with awkward values), JSON bodies —
  to every route, from the same roles.

After every request (:class:`Checker`): no 5xx, and a refused request (4xx) committed no
change to the database. Both run on SQLite and (CI) PostgreSQL and write their figures to
``test-output/`` (``fuzz-sweep-<database>.json``: by route and role, the time taken, the
requests that moved a table on; ``fuzz-<database>.json``).
"""

from __future__ import annotations

import json
import math
import os
import re
import time
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings, stateful
from hypothesis import strategies as st
from sqlalchemy import event, func, select
from werkzeug.routing import Rule
from werkzeug.security import generate_password_hash

from companion.extensions import csrf, db, limiter
from companion.live import versions
from companion.rules import GAMES
from companion.store import SeatRequest, commits, queries
from companion.store.evenings import Evening, Payment
from companion.web.games import load_flows
from tests.web.games.tromplemond import LARGE_EVENING
from tests.web.phases import (
    LARGEST,
    PHASES,
    Phase,
    Place,
    helper_of,
    helper_places,
    phases_of,
    without_helper,
)

pytestmark = pytest.mark.db

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output"

TEMPLATES = [*(ROOT / "templates").rglob("*.html"),
             *(ROOT / "companion" / "games").glob("*/web/templates/**/*.html")]
"""Every template: the generic ones and each game's (in its package)."""

FIELDS = sorted({name for path in TEMPLATES
                 for name in re.findall(r'name="([A-Za-z_0-9-]+)"', path.read_text())
                 if "{" not in name} | {"round", "rounds", "choice", "stage", "chooser", "seat",
                                        "player", "target", "step", "from", "how", "what"})
"""Every form field name the pages use (and the ones views read)."""

AWKWARD = ["", " ", "0", "1", "2", "3", "4", "8", "-1", "2147483648", "9" * 25, "²", "١",
           "1.5", "NaN", "Infinity", "1e400", "\u200b", "Rob", "Sam", "Nick",
           "Emily", "Zed", "on", "yes", "no", "cards", "quick", "none", "clear", "start",
           "pause", "end", "up", "down", "random", "banned", "void", "AS", "10D", "KH", "JS",
           "XXI", "Fool", "red joker", "GBP", "chips", "preview", "save", "tromplemond",
           "clumond", "x" * 300, "<script>", "'; DROP TABLE games; --"]

SAFE_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
VALUES = st.one_of(st.sampled_from(AWKWARD), SAFE_TEXT, st.integers(-5, 10**30).map(str))

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | SAFE_TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(SAFE_TEXT, children,
                                                                      max_size=4),
    max_leaves=12)
RAW_BODIES = [b"[" * 3000 + b"]" * 3000, b'{"game": NaN}', b'{"a": 1e400}', b'{"a": "\\ud800"}',
              b"\xff\xfe", b"", b"null", b'{"game": "tromplemond", "players": 5}']

HTMX = {"HX-Request": "true"}
ROLES = ("scorekeeper", "seated phone", "phone of another table", "stranger")


def database_kind() -> str:
    return "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"


def snapshot() -> dict[str, list[tuple]]:
    """Every row of every table, in key order."""
    rows = {}
    for table in db.metadata.sorted_tables:
        order = list(table.primary_key.columns) or list(table.columns)
        rows[table.name] = [tuple(row) for row in db.session.execute(
            select(table).order_by(*order)).all()]
    db.session.rollback()
    return rows


# --------------------------------------------------------------------------- the check


_NOT_WRITES = ("SELECT", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "PRAGMA",
               "SHOW", "SET", "VACUUM")
"""The first words of the statements that change no row (any other counts as a write)."""


class Checker:
    """Sends a request and checks what it did: no 5xx; a refusal (4xx) changed nothing.

    It hears every statement the app sends its database (engine events): a statement
    that may write (anything but a read, a lock, a transaction's own statements) makes
    its transaction one that writes, and such a transaction's commit (or a write outside
    any transaction) is a committed change. A refused request must commit none — which
    is stricter than "no row differs" (a write of the same value would be caught too)
    and needs no copy of the database, so the sweep's thousands of requests stay quick.
    """

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.writes = 0
        """Statements that may write, sent so far."""
        self.committed = 0
        """Changes committed so far (transactions that wrote, and writes on their own)."""
        self._writing: set[int] = set()
        self.requests: Counter[tuple[str, str]] = Counter()
        """Requests made, by route (``METHOD /rule``) and role."""
        self.classes: Counter[str] = Counter()
        self.failures: list[str] = []
        with app.app_context():
            self.engine = db.engine
        self._listeners = (("before_cursor_execute", self._heard), ("begin", self._ended),
                           ("commit", self._commit), ("rollback", self._ended))
        for name, listener in self._listeners:
            event.listen(self.engine, name, listener)

    def close(self) -> None:
        for name, listener in self._listeners:
            event.remove(self.engine, name, listener)

    def _heard(self, connection, _cursor, statement: str, *_rest) -> None:
        if statement.lstrip().upper().startswith(_NOT_WRITES):
            return
        self.writes += 1
        raw = connection.connection.dbapi_connection
        if getattr(raw, "autocommit", False) is True or not getattr(raw, "in_transaction", True):
            self.committed += 1  # no transaction around it: it is committed at once
        else:
            self._writing.add(id(raw))

    def _commit(self, connection) -> None:
        raw = connection.connection.dbapi_connection
        if id(raw) in self._writing:
            self._writing.discard(id(raw))
            self.committed += 1

    def _ended(self, connection) -> None:
        self._writing.discard(id(connection.connection.dbapi_connection))

    def send(self, client: FlaskClient, method: str, path: str, *, route: str, role: str,
             where: str, **kwargs):
        """``client.open(path, method=method, **kwargs)``, checked; the response."""
        limiter.reset()  # every request is answered, not held back by a limit
        committed = self.committed
        said = f"{method} {path} {kwargs.get('query_string') or ''} as {role} ({where})"
        self.requests[route, role] += 1
        try:
            response = client.open(path, method=method, **kwargs)
        except Exception as error:  # the app raised: a 500 for the player
            self.classes["5xx"] += 1
            self.failures.append(f"{said}: {type(error).__name__}: {error}")
            return None
        status = response.status_code
        response.close()
        self.classes[f"{status // 100}xx"] += 1
        if status >= 500:
            self.failures.append(f"{said}: {status}")
        elif status >= 400 and self.committed != committed:
            self.failures.append(f"{said}: refused with {status}, and a change was committed")
        return response

    @property
    def count(self) -> int:
        return sum(self.requests.values())


@pytest.fixture
def quick(monkeypatch) -> None:
    """What the fuzzing does not try, made quick: the recovery code's hash (slow on purpose,
    and the sweep makes over a hundred tables)."""
    monkeypatch.setattr("companion.store.changes.recovery_hash",
                        lambda code: generate_password_hash(code, "pbkdf2:sha256:1"))


@pytest.fixture
def checker(app) -> Iterator[Checker]:
    made = Checker(app)
    yield made
    made.close()


def test_the_check_catches_a_refusal_that_commits_and_a_crash(app, actions, checker):
    """The check itself, on this database: a refusal that committed a change is caught (a
    GET's too, which PostgreSQL runs outside a transaction), and so is an answer that
    raised; a refusal that wrote and rolled back is not, nor an accepted change."""

    @app.route("/checked/<code>/<how>", methods=["GET", "POST"])
    @csrf.exempt
    def checked(code: str, how: str):
        commits.bump(commits.find_to_change(code))
        if how == "crash":
            raise RuntimeError("a bug")
        if how == "rolled back":
            db.session.rollback()
        else:
            db.session.commit()
        return "", 200 if how == "accepted" else 409

    code = actions.create_table()
    for method, how in (("POST", "accepted"), ("POST", "rolled back"), ("POST", "committed"),
                        ("GET", "committed"), ("POST", "crash")):
        with app.app_context():
            before = snapshot()
        checker.send(actions.keeper, method, f"/checked/{code}/{how}", route=how,
                     role="scorekeeper", where="the check's own test")
        with app.app_context():
            assert (snapshot() == before) == (how in ("rolled back", "crash")), how
    assert [failure.split(": ", 1)[1] for failure in checker.failures] == [
        "refused with 409, and a change was committed"] * 2 + ["RuntimeError: a bug"]
    assert checker.classes == {"2xx": 1, "4xx": 3, "5xx": 1}


# --------------------------------------------------------------------------- the sweep


def _routes(app: Flask) -> list[tuple[Rule, str]]:
    """Every route of the app, with each of its methods (HEAD and OPTIONS are Flask's)."""
    return sorted(((rule, method) for rule in app.url_map.iter_rules()
                   for method in sorted(rule.methods - {"HEAD", "OPTIONS"})),
                  key=lambda pair: (pair[0].rule, pair[1]))


def _name(rule: Rule, method: str) -> str:
    return f"{method} {rule.rule}"


def _game_of(rule: Rule, flows: dict) -> str | None:
    """The game whose own route ``rule`` is (None: a route of every game, or of none)."""
    owner = rule.endpoint.split(".")[0]
    return next((name for name, flow in flows.items()
                 if flow.blueprint is not None and flow.blueprint.name == owner), None)


def _awkward_form(route: str, round_: int) -> dict[str, object]:
    """Every field the pages use, each with an awkward value (which one, by the route), and
    the round the table is on (so that a round action gets past the round's check). The
    CSRF token is the sender's to add."""
    salt = zlib.crc32(route.encode())
    form: dict[str, object] = {
        field: AWKWARD[(salt + 7 * i) % len(AWKWARD)] for i, field in enumerate(FIELDS)}
    for i, field in enumerate(("player", "kept", "public", "secret")):
        form[field] = [AWKWARD[(salt + 3 * i + k) % len(AWKWARD)] for k in range(3)]
    form["round"] = str(round_)
    return form


PLAYERS = ("Rob", "Sam", "Nick", "Emily")

API_BODIES: list[object] = [
    b"", b"null", b"[]", b'{"game": NaN}', b'{"a": 1e400}', b'{"a": "\\ud800"}', b"\xff\xfe",
    b"[" * 3000 + b"]" * 3000, b"1" * 5000,
    *({"game": "tromplemond", "players": list(PLAYERS),
       "options": {"joining_fee": amount, "tromp_stake": amount}, "rounds": []}
      for amount in (LARGEST, LARGEST + 1, 10**4299)),
    {"game": "clumond", "players": ["Ann", "Bo", "Cy"],
     "options": {"chip_value": LARGEST, "stack": LARGEST, "ante": LARGEST}, "rounds": []},
    {"game": "tremp", "players": ["Rob", "Sam", "Nick", " Emily"], "rounds": []},
    *({"unit": "GBP", "games": [{"game": "tremp", "players": list(PLAYERS), "rounds": []}],
       "paid": [["Rob", "Sam", amount]]} for amount in (2**31 - 1, 2**31, 2**63, 10**30)),
    LARGE_EVENING,
    {**LARGE_EVENING, "games": [{**LARGE_EVENING["games"][0],
                                 "options": {"rounds": 1, "chip_value": 9 * 10**4299}}]},
]
"""The JSON API's awkward bodies: not JSON, too deep, numbers out of every range (and at
the edge of what a record may hold)."""


FOREIGN_ACTIONS = ("set-up", "dealing", "ready to deal")
"""The phases in which each game's actions are sent to the tables of the other games (each
game's first phase has its own name). Its screens (GETs) are sent in every phase."""


class Step(NamedTuple):
    """One request of the sweep on a table: the ``k``-th path of ``rule`` as ``role``, with
    no form, the ``empty`` one or the ``awkward`` one; plain, or as htmx asks."""

    rule: Rule
    method: str
    role: str
    k: int
    form: str | None = None
    htmx: bool = False

    @property
    def name(self) -> str:
        """What the request is, whichever table it goes to."""
        return (f"{_name(self.rule, self.method)} as {self.role}"
                + (f", {self.form} form" if self.form else "") + (", htmx" if self.htmx else ""))


class Sweep:
    """Every route on every table in every phase, by every role (see the module)."""

    def __init__(self, app: Flask, actions, checker: Checker,
                 phases: list[Phase] = PHASES) -> None:
        self.app = app
        self.phases = phases
        """The phases swept (their order says which outsider sends a route on which)."""
        self.flows = load_flows()
        """Every registered game's flow."""
        self.actions = actions
        self.check = checker
        elsewhere = actions.create_table(name="Elsewhere")
        self.other_phone, claimed = actions.claim(elsewhere, 1)
        assert claimed.status_code == 303
        self.stranger = app.test_client()
        self.stranger.environ_base["REMOTE_ADDR"] = "192.168.1.250"
        self.routes = _routes(app)
        self.moved: Counter[str] = Counter()
        """The requests that moved a table on to another phase, by :attr:`Step.name`."""
        self.place: Place | None = None
        """The table the requests go to (None: a new one is made for the next)."""
        self.made = 0
        """Tables made for the phases (one each, and one after each that moved on)."""

    # --- the tables

    def state(self, place: Place) -> tuple:
        """Where the table stands: its game, the game's moment (its phase, the rounds
        played, the sealed choices open), the evenings closed, and whether the sweep's phone
        still holds its seat. A request that changes it moves the table to another phase."""
        with self.app.test_request_context():
            table = db.session.scalar(queries.table_by_code(place.code))
            game = table.current_game
            moment: tuple = ()
            if table.playing is not None:
                flow = self.flows[game.game]
                view = flow.moment(table, game)
                sealings = [step.status(view) for step in flow.sealed_steps.values()]
                moment = (view.phase, len(game.rounds),
                          *(sealing and sealing.id for sealing in sealings))
            closed = db.session.scalar(select(func.count()).select_from(Evening).where(
                Evening.table_id == table.id, Evening.closed_at.is_not(None)))
            seat = table.seat_at(place.seat)
            return (table.game, game and (game.number, game.status), moment, closed,
                    seat is not None and seat.held)

    def values(self, place: Place) -> dict[str, object]:
        """What a path's parts are on this table: its latest game and the round it is on, a
        payment, a request."""
        with self.app.app_context():
            table = db.session.scalar(queries.table_by_code(place.code))
            game = table.current_game
            payment = db.session.scalar(select(Payment.id).join(Evening).where(
                Evening.table_id == table.id).limit(1))
            asked = db.session.scalar(select(SeatRequest.id).where(
                SeatRequest.table_id == table.id).limit(1))
            return {"game": game.number if game is not None else 1,
                    "round": len(game.rounds) + 1 if game is not None else 1,
                    "seats": len(table.seats), "payment_id": payment or 1,
                    "request_id": asked or 1}

    # --- the requests

    PARTS = frozenset({"code", "number", "game_number", "position", "round_number",
                       "hand_number", "payment_id", "request_id", "answer", "step"})
    """The parts of a table's paths the sweep fills in (:meth:`paths`)."""

    def choices(self, phase: Phase) -> dict[str, list[str]]:
        """The path parts a route is swept with each of: an answer to a seat request, and
        each sealed choice of the table's game (the first game's with sealed choices, such
        as Tromplemond's vote, on the others' tables)."""
        steps = list(self.flows[phase.game].sealed_steps) or next(
            list(flow.sealed_steps) for flow in self.flows.values() if flow.sealed_steps)
        return {"answer": ["approve", "deny"], "step": steps}

    def paths(self, rule: Rule, role: str, phase: Phase) -> list[str]:
        """The paths ``rule`` is swept with on the table as ``role`` (one for each of the
        :meth:`choices` its path holds)."""
        place, values = self.place, self.values_now
        seat = place.seat
        if role == "scorekeeper":  # another seat than the phone's: the phone stays seated
            seat = seat % values["seats"] + 1
        game = values["game"] if rule.rule.startswith("/t/<code>/games/") else 1
        parts: dict[str, list[str]] = {
            "code": [place.code], "number": [str(game)], "game_number": ["1"],
            "position": [str(seat)], "round_number": ["1"], "hand_number": ["1"],
            "payment_id": [str(values["payment_id"])],
            "request_id": [str(values["request_id"])], **self.choices(phase)}
        assert parts.keys() == self.PARTS
        paths = [rule.rule]
        for name in rule.arguments:
            paths = [re.sub(rf"<(?:[^>:]+:)?{name}>", quote(value, safe=""), path)
                     for path in paths for value in parts[name]]
        return paths

    def plan(self, phase: Phase) -> Iterator[Step]:
        """The requests of a table in ``phase`` (see :meth:`table`)."""
        turn = self.phases.index(phase)
        for i, (rule, method) in enumerate(self.routes):
            if "code" not in rule.arguments or not rule.arguments <= self.PARTS:
                continue  # (a part the sweep cannot fill: the route goes unrequested)
            owner = _game_of(rule, self.flows)
            choices = self.choices(phase)
            count = math.prod(len(choices.get(name, "-")) for name in rule.arguments)
            outsider = ROLES[2 + (i + turn) % 2]
            for role in (*ROLES[:2], outsider):
                for k in range(count):
                    if method == "GET":
                        yield Step(rule, method, role, k)
                    elif owner is not None and owner != phase.game:
                        if role == "scorekeeper" and phase.name in FOREIGN_ACTIONS:
                            yield Step(rule, method, role, k, "awkward", True)
                    elif role in ROLES[:2]:
                        yield Step(rule, method, role, k, "empty")
                        yield Step(rule, method, role, k, "awkward", True)
                    else:
                        yield Step(rule, method, role, k, "awkward", True)

    def table(self, phase: Phase) -> None:
        """Every route of a table, on a table in ``phase``, as the scorekeeper, the seated
        phone and one of the two who hold no seat here: the phone of another table and the
        stranger take turns, route by route and phase by phase (the app tells them apart
        by nothing but the other table's key), so that each sends every route.

        A GET is sent as a browser opens it; the scorekeeper and the seated phone send it
        again as htmx asks when that answer was a redirect (a live region sends a plain
        browser to its page). A POST is sent by the scorekeeper and the seated phone with
        an empty form (as a page without JavaScript would) and with the awkward one as an
        htmx tap; by the one with no seat with the awkward one. Another game's action (a
        404 before anyone's role is looked at, whatever the phase) is sent by the
        scorekeeper, before and after the start (:data:`FOREIGN_ACTIONS`).

        A request that moves the table on to another phase (the game ended, the phone
        left its seat) leaves the next request a new table in the phase; the requests
        that did so on an earlier table go last, so that fewer tables are made.
        """
        self.place = None
        for step in sorted(self.plan(phase), key=lambda step: step.name in self.moved):
            answer = self.send(phase, step)
            if (step.method == "GET" and step.role in ROLES[:2] and answer is not None
                    and 300 <= answer.status_code < 400):
                self.send(phase, step._replace(htmx=True))

    def send(self, phase: Phase, step: Step):
        """One request of the sweep, checked; a new table in ``phase`` first when the one
        before moved the table on."""
        if self.place is None:
            self.made += 1
            self.place = phase.build(self.actions)
            self.kept, self.values_now = self.state(self.place), self.values(self.place)
        client = {"scorekeeper": self.actions.keeper, "seated phone": self.place.phone,
                  "phone of another table": self.other_phone,
                  "stranger": self.stranger}[step.role]
        data = None
        if step.form is not None:
            data = (_awkward_form(step.rule.rule, self.values_now["round"])
                    if step.form == "awkward" else {})
            data["csrf_token"] = self.actions.token(client)
        committed = self.check.committed
        path = self.paths(step.rule, step.role, phase)[step.k]
        answer = self.check.send(client, step.method, path, data=data,
                                 headers=HTMX if step.htmx else {},
                                 route=_name(step.rule, step.method), role=step.role,
                                 where=str(phase))
        if self.check.committed != committed and self.state(self.place) != self.kept:
            self.moved[step.name] += 1
            if not self.seated_again():
                self.place = None
        return answer

    def seated_again(self) -> bool:
        """True when all that moved was the phone giving up its seat, and taking it again
        brought the table back to where it was (quicker than a new table)."""
        if self.state(self.place)[:-1] != self.kept[:-1]:
            return False
        _phone, claimed = self.actions.claim(self.place.code, self.place.seat,
                                             phone=self.place.phone)
        return claimed.status_code < 400 and self.state(self.place) == self.kept

    def everything_else(self) -> None:
        """The routes of no table: the home page, the forms, the API, the static files."""
        clients = {"scorekeeper": self.actions.keeper, "seated phone": self.other_phone,
                   "phone of another table": self.other_phone, "stranger": self.stranger}
        some_code = self.actions.create_table(name="Looked up")
        values = {"game": [*self.flows, "nogame"], "filename": ["app/boot.js", "nothing.js"],
                  # a table on this device's files: Pyodide's and the app's zip
                  "version": ["0.0.0", "..%2F.."], "name": ["pyodide.mjs", "x.zip", "..%2Fx"]}
        for rule, method in self.routes:
            if "code" in rule.arguments or not rule.arguments <= values.keys():
                continue
            paths = [rule.rule]
            for name in rule.arguments:
                paths = [re.sub(rf"<(?:[^>:]+:)?{name}>", value, path)
                         for path in paths for value in values[name]]
            for role, client in clients.items():
                for path in paths:
                    for query in ({}, {"code": some_code, "back": "/t/x"}, {"code": "ZZ"}):
                        if method == "GET":
                            self.check.send(client, method, path, query_string=query,
                                            route=_name(rule, method), role=role,
                                            where="no table")
                    if method == "POST" and path.startswith("/api/"):
                        for body in API_BODIES:
                            raw = body if isinstance(body, bytes) else json.dumps(body).encode()
                            self.check.send(client, method, path, data=raw,
                                            content_type="application/json",
                                            route=_name(rule, method), role=role,
                                            where="no table")
                    elif method == "POST":
                        token = self.actions.token(client)
                        for form in ({}, {**_awkward_form(rule.rule, 1), "code": some_code}):
                            self.check.send(client, method, path,
                                            data={**form, "csrf_token": token},
                                            route=_name(rule, method), role=role,
                                            where="no table")


def by_route(app: Flask, checker: Checker) -> dict[str, dict[str, int]]:
    """How many requests each route of ``url_map`` got, by role (0: none)."""
    return {route: {role: checker.requests[route, role] for role in ROLES}
            for route in sorted(_name(rule, method) for rule, method in _routes(app))}


def unrequested(counts: dict[str, dict[str, int]]) -> list[str]:
    """The routes never requested, then the routes some role never requested."""
    never = [route for route, roles in counts.items() if not any(roles.values())]
    return never + [f"{route} as {role}" for route, roles in counts.items()
                    if any(roles.values()) for role, count in roles.items() if not count]


LABELS = {"scorekeeper": "keeper", "seated phone": "seated", "phone of another table": "other",
          "stranger": "stranger"}


def sweep_every_phase(app: Flask, actions, checker: Checker,
                      phases: list[Phase]) -> tuple[dict, list[str]]:
    """Every route on a table in each of ``phases`` by every role, then the routes of no
    table (:class:`Sweep`): the figures (by route and role), and the lines that say them."""
    started = time.perf_counter()
    sweep = Sweep(app, actions, checker, phases)
    for phase in phases:
        sweep.table(phase)
    sweep.everything_else()
    seconds = time.perf_counter() - started

    counts = by_route(app, checker)
    missing = unrequested(counts)
    figures = {"database": database_kind(), "requests": checker.count,
               "seconds": round(seconds, 1), "tables_made": sweep.made,
               "moved_on_by": dict(sweep.moved.most_common()),
               "phases": [str(phase) for phase in phases],
               "without_helper": without_helper(),
               "status_classes": dict(sorted(checker.classes.items())),
               "by_role": {role: sum(roles[role] for roles in counts.values())
                           for role in ROLES},
               "unrequested": missing, "failures": checker.failures, "by_route": counts}
    width = max(map(len, counts))
    lines = [f"fuzz sweep ({database_kind()}): {checker.count} requests in {seconds:.0f} s, "
             f"{len(phases)} phases on {sweep.made} tables; "
             + ", ".join(f"{k}: {v}" for k, v in sorted(checker.classes.items())),
             *(f"{game}: no test helper (tests/web/games/{game}.py): its set-up swept only"
               for game in without_helper()),
             f"{'route':{width}} " + " ".join(f"{LABELS[role]:>8}" for role in ROLES)]
    lines += [f"{route:{width}} " + " ".join(f"{roles[role]:8}" for role in ROLES)
              for route, roles in counts.items()]
    return figures, lines


def test_every_route_in_every_phase_by_every_role(app, actions, checker, quick,
                                                  capsys):
    figures, lines = sweep_every_phase(app, actions, checker, PHASES)
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / f"fuzz-sweep-{database_kind()}.json").write_text(json.dumps(figures, indent=1))
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    assert not checker.failures, "\n".join(checker.failures[:40])
    missing = figures["unrequested"]
    assert not missing, f"routes of url_map the sweep never requested: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_its_phases_for_the_sweeps(game):
    """Each registered game's test helper gives its phases (``tests.web.phases``); a game
    with none is swept at its set-up only, and this says so."""
    if helper_of(game) is None:
        pytest.skip(f"{game} has no test helper ({' or '.join(helper_places(game))}): "
                    "the sweeps see its set-up only")
    names = [phase.name for phase in phases_of(game)]
    assert names[0] == "set-up" and names[-2:] == ["game over", "evening closed"]
    assert {phase.game for phase in phases_of(game)} == {game}


def test_the_sweep_names_a_route_it_could_not_request(app, actions, checker, quick):
    """A route with a part the sweep cannot fill in is named, so that a new route is swept or
    the sweep says it is not."""
    app.add_url_rule("/t/<code>/brand-new/<int:thing>", "brand_new", lambda **_parts: "")
    sweep = Sweep(app, actions, checker)
    sweep.table(PHASES[0])
    missing = unrequested(by_route(app, checker))
    assert "GET /t/<code>/brand-new/<int:thing>" in missing
    assert "GET /t/<code>/start" not in missing and "GET /t/<code>/start as seated phone" \
        not in missing and "GET /" in missing  # (the routes of no table were not swept)


# --------------------------------------------------------------------------- the walk


WALK_PHASES = {("tromplemond", "set-up"), ("tromplemond", "vote open"), ("clumond", "entry"),
               ("trumplestiltskin", "points"), ("trefeltromp", "reveal"), ("tremp", "tricks"),
               ("tremp", "game over")}
"""The tables the walk sends its requests to: one of each game, in a phase of its own."""


def build_tables(actions) -> dict[str, list]:
    """The walk's tables (:data:`WALK_PHASES`): their codes and their seated phones."""
    made: dict[str, list] = {"codes": [], "phones": []}
    for phase in PHASES:
        if (phase.game, phase.name) in WALK_PHASES:
            place = phase.build(actions)
            made["codes"].append(place.code)
            made["phones"].append(place.phone)
    return made


@pytest.fixture
def walk_stats(checker):
    yield checker
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / f"fuzz-{database_kind()}.json").write_text(json.dumps({
        "requests": checker.count, "status_classes": dict(sorted(checker.classes.items())),
        "routes": len({route for route, _role in checker.requests})}, indent=2))


def test_no_request_gives_a_500_and_a_refusal_changes_nothing(app, actions, walk_stats,
                                                             quick):
    rules = [rule for rule in app.url_map.iter_rules() if rule.endpoint != "static"]
    check = walk_stats

    class Walk(stateful.RuleBasedStateMachine):
        """One table set-up, then generated requests, each checked."""

        @stateful.initialize()
        def tables(self) -> None:
            with app.app_context():  # every run starts from an empty database
                db.session.remove()
                for table in reversed(db.metadata.sorted_tables):
                    db.session.execute(table.delete())
                db.session.commit()
            limiter.reset()
            # The emptied database gives out the same ids and versions again: what the app
            # kept for a table at a version (its sealing's public key …) is another table's.
            app.extensions[versions.EXTENSION] = versions.VersionMemo()
            self.actions = type(actions)(app, app.test_client())
            self.made = build_tables(self.actions)
            self.stranger = app.test_client()
            self.failures = len(check.failures)

        def client(self, who: int) -> tuple[str, FlaskClient]:
            phones = self.made["phones"]
            return ((ROLES[0], self.actions.keeper), (ROLES[1], phones[who % len(phones)]),
                    (ROLES[3], self.stranger))[who % 3]

        @stateful.rule(data=st.data())
        def send(self, data) -> None:
            rule_ = data.draw(st.sampled_from(rules), label="route")
            values = {}
            for name, converter in rule_._converters.items():
                kind = type(converter).__name__
                if name == "code":
                    values[name] = data.draw(st.one_of(
                        st.sampled_from(self.made["codes"]),
                        st.sampled_from(["BCDFGHJK", "x", "zzzzzzzz", "%2e%2e"])))
                elif "Int" in kind or "Integer" in kind:
                    values[name] = data.draw(st.one_of(
                        st.integers(0, 4), st.sampled_from([2**31 - 1, 2**31, 2**63 + 5])))
                else:
                    values[name] = data.draw(st.one_of(
                        st.sampled_from(["vote", "show", "approve", "deny", "tromplemond",
                                         "clumond", "tremp", "x"]), SAFE_TEXT.filter(bool)))
            path = rule_.rule
            for name, value in values.items():
                path = re.sub(rf"<[^>]*:?{name}>", quote(str(value), safe=""), path)
            path = re.sub(r"<[^>]+>", "x", path)
            method = data.draw(st.sampled_from(sorted(rule_.methods - {"HEAD", "OPTIONS"})))
            query = data.draw(st.dictionaries(st.sampled_from(["v", "back", "code", "done",
                                                               "game", "seats", "new_recovery"]),
                                              VALUES, max_size=2))
            role, client = self.client(data.draw(st.integers(0, 50)))
            headers = HTMX if data.draw(st.booleans()) else {}
            route = _name(rule_, method)
            if path.startswith("/api/"):
                body = data.draw(st.one_of(st.sampled_from(RAW_BODIES),
                                           JSON_VALUES.map(lambda v: json.dumps(v).encode())))
                check.send(client, method, path, data=body, query_string=query,
                           headers=headers, content_type="application/json", route=route,
                           role=role, where="walk")
            elif method == "POST":
                form = data.draw(st.dictionaries(st.sampled_from(FIELDS),
                                                 st.one_of(VALUES, st.lists(VALUES, max_size=3)),
                                                 max_size=5))
                form["csrf_token"] = self.actions.token(client)
                check.send(client, method, path, data=form, query_string=query,
                           headers=headers, route=route, role=role, where="walk")
            else:
                check.send(client, method, path, query_string=query, headers=headers,
                           route=route, role=role, where="walk")

        @stateful.invariant()
        def no_server_error(self) -> None:
            assert len(check.failures) == self.failures, check.failures[-1]

    Walk.TestCase.settings = settings(
        max_examples=int(os.environ.get("COMPANION_FUZZ_RUNS", "6")),
        stateful_step_count=int(os.environ.get("COMPANION_FUZZ_STEPS", "120")),
        deadline=None, derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    Walk.TestCase().runTest()
    assert check.count > 300
    assert check.classes["5xx"] == 0
