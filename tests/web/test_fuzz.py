"""No input gives a 500: a property-based walk over every route of the app.

A Hypothesis state machine sends generated requests — path values, query
strings, form fields (every field name the templates use, with awkward
values), JSON bodies — to every route in ``app.url_map``, from the
scorekeeper's tablet, a seated phone and a stranger, on tables in each phase
of a game. After every request: no 5xx, and a refused request (4xx) changed
no row of the database. It runs on SQLite and (CI) PostgreSQL; the figures
of a run go to ``test-output/fuzz-<database>.json``.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from sqlalchemy import select

from companion.extensions import db, limiter
from companion.web import versions

pytestmark = pytest.mark.db

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output"
PLAYERS = ("Rob", "Sam", "Nick", "Emily")

FIELDS = sorted({name for path in (ROOT / "templates").rglob("*.html")
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


class Statuses:
    """What the walk sent and got back, per database."""

    def __init__(self) -> None:
        self.count = 0
        self.classes: Counter[str] = Counter()
        self.routes: set[str] = set()


def snapshot() -> dict[str, list[tuple]]:
    """Every row of every table, in key order."""
    rows = {}
    for table in db.metadata.sorted_tables:
        order = list(table.primary_key.columns) or list(table.columns)
        rows[table.name] = [tuple(row) for row in db.session.execute(
            select(table).order_by(*order)).all()]
    db.session.rollback()
    return rows


def build_tables(actions) -> dict[str, object]:
    """Tables in each phase: a vote open, hands being entered, a game over, no game yet."""
    from tests.web.test_tromplemond import Table as Game

    made: dict[str, object] = {"codes": [], "phones": []}

    def tromplemond() -> Game:
        code = actions.create_table()
        phones = actions.seat_everyone(code)
        assert actions.start(code).status_code == 303
        made["codes"].append(code)
        made["phones"].extend(phones)
        return Game(actions, code, phones)

    tromplemond()  # dealing
    voting = tromplemond()
    voting.open_vote()
    voting.vote({"Rob": "Sam"})
    hands = tromplemond()
    hands.vote_off("Emily")
    hands.enter("Rob", (["KH", "10S"], ["QH", "JD", "KS"]))
    over = tromplemond()
    over.vote_off("Emily")
    for name, hand in (("Rob", (["KH", "10S"], ["QH", "JD", "KS"])),
                       ("Sam", (["AC", "2D"], ["10D", "4S", "KD"])),
                       ("Nick", (["JH", "AD"], ["JS", "AS", "10H"]))):
        over.enter(name, hand)
    over.confirm()
    actions.post(f"/t/{over.code}/games/1/end")
    from companion.web.games import FLOWS

    for name, flow in FLOWS.items():
        if name == "tromplemond":
            continue
        count = flow.allowed_players()[0] if 4 not in flow.allowed_players() else 4
        code = actions.create_table(game=name, players=[f"P{i}" for i in range(1, count + 1)])
        made["phones"].extend(actions.seat_everyone(code))
        actions.start(code)
        made["codes"].append(code)
    empty = actions.create_table(name="No game yet")
    actions.claim(empty, 1)
    actions.post(f"/j/{empty}/ask", {"seat": "1"}, client=actions.phone())
    made["codes"].append(empty)
    return made


@pytest.fixture
def walk_stats():
    stats = Statuses()
    yield stats
    OUTPUT.mkdir(exist_ok=True)
    database = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"
    (OUTPUT / f"fuzz-{database}.json").write_text(json.dumps({
        "requests": stats.count, "status_classes": dict(sorted(stats.classes.items())),
        "routes": len(stats.routes)}, indent=2))


def test_no_request_gives_a_500_and_a_refusal_changes_nothing(app, actions, walk_stats):
    rules = [rule for rule in app.url_map.iter_rules() if rule.endpoint != "static"]

    class Walk(RuleBasedStateMachine):
        """One table set-up, then generated requests, each checked."""

        @initialize()
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
            self.last: tuple[int, str] = (200, "")

        def client(self, who: int):
            phones = self.made["phones"]
            return (self.actions.keeper, phones[who % len(phones)], self.stranger)[who % 3]

        @rule(data=st.data())
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
            who = data.draw(st.integers(0, 50))
            client = self.client(who)
            headers = {"HX-Request": "true"} if data.draw(st.booleans()) else {}
            with app.app_context():
                before = snapshot()
            if path.startswith("/api/"):
                body = data.draw(st.one_of(st.sampled_from(RAW_BODIES),
                                           JSON_VALUES.map(lambda v: json.dumps(v).encode())))
                response = client.open(path, method=method, data=body, query_string=query,
                                       headers=headers, content_type="application/json")
            elif method == "POST":
                form = data.draw(st.dictionaries(st.sampled_from(FIELDS),
                                                 st.one_of(VALUES, st.lists(VALUES, max_size=3)),
                                                 max_size=5))
                form["csrf_token"] = self.actions.token(client)
                response = client.open(path, method=method, data=form, query_string=query,
                                       headers=headers)
            else:
                response = client.open(path, method=method, query_string=query,
                                       headers=headers)
            walk_stats.count += 1
            walk_stats.classes[f"{response.status_code // 100}xx"] += 1
            walk_stats.routes.add(rule_.rule)
            self.last = (response.status_code, f"{method} {path} {query}")
            assert response.status_code < 500, self.last
            if response.status_code >= 400:
                with app.app_context():
                    assert snapshot() == before, f"a refused request changed rows: {self.last}"

        @invariant()
        def no_server_error(self) -> None:
            assert self.last[0] < 500

    Walk.TestCase.settings = settings(
        max_examples=int(os.environ.get("COMPANION_FUZZ_RUNS", "6")),
        stateful_step_count=int(os.environ.get("COMPANION_FUZZ_STEPS", "120")),
        deadline=None, derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    Walk.TestCase().runTest()
    assert walk_stats.count > 300
    assert walk_stats.classes["5xx"] == 0
