"""A game at a table, as the web tests play it, and the secrecy runs that compare two games.

``GameAtTable`` is what every game's test module shares: the tablet (``actions.keeper``)
and a phone a seat, reading the round region, the scoreboard, the record and the round
being entered, and posting a round action with the round it is for. Each game's subclass
names its game and keeps only what is its own (how a hand is bid, entered or played).

Imported as ``tests.web.tables`` (as ``tests.conftest`` is: the suite runs with
``--import-mode=importlib``).
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from nacl.bindings import crypto_scalarmult_base

from companion.extensions import db, limiter
from companion.live import versions
from companion.store import ALPHABET, queries, sealed, sealing_keys
from companion.store import rounds as round_store
from tests.conftest import element, pulse_of

HTMX = {"HX-Request": "true"}
GENERIC = ("tick", "confirm", "undo", "rounds/")
"""The round actions every game shares (a game's own are under ``/<game>/``)."""


def raw(response) -> str:
    """A response's body, as sent."""
    return response.get_data(as_text=True)


class GameAtTable:
    """Game 1 at a table: the tablet (``actions.keeper``) and the phones by player's name.

    ``players`` are in seat order (``seat`` counts from 1); ``phones`` may hold fewer.
    """

    GAME = ""
    """The URL part of the game's own round actions (``/t/<code>/games/1/<GAME>/…``)."""
    GENERIC = GENERIC
    """The actions posted to every game's URL rather than under ``GAME``."""
    OK = (303,)
    """The statuses ``ok`` accepts."""
    body = staticmethod(raw)
    """How a page is read (a subclass may unescape it)."""

    def __init__(self, actions, code: str, phones: dict, players: Iterable[str] = ()) -> None:
        self.actions = actions
        self.app = actions.app
        self.code = code
        self.keeper = actions.keeper
        self.phones = phones
        self.players = tuple(players or phones)

    # --- reading

    def record(self) -> dict:
        return self.keeper.get(f"/t/{self.code}/games/1/record.json").get_json()

    @property
    def round(self) -> int:
        """The round (the hand) in progress, as players count it."""
        return len(self.record()["rounds"]) + 1

    hand = round

    def region(self, client, page: str, element_id: str) -> str:
        """A region of live page ``page`` as its pulse brings it (it must answer 200)."""
        response = client.get(pulse_of(page, self.code), headers=HTMX)
        assert response.status_code == 200, self.body(response)
        return element(self.body(response), element_id)

    def tablet(self) -> str:
        """The tablet's round region."""
        return self.region(self.keeper, "tablet", "round")

    def phone(self, name: str) -> str:
        """A phone's round region."""
        return self.region(self.phones[name], "phone", "round")

    def scores(self, client=None) -> str:
        """The scoreboard region of game 1's score page, as ``client`` (the tablet) sees it."""
        return self.region(client or self.keeper, "game", "scoreboard")

    def phase(self, page: str | None = None) -> str:
        """The phase a round region (the tablet's by default) is drawn for."""
        return re.search(r'data-phase="([a-z-]*)"', page or self.tablet()).group(1)

    def draft(self):
        """The round being entered, as the database has it now."""
        with self.app.app_context():
            game = db.session.scalar(queries.table_by_code(self.code)).current_game
            draft = round_store.current_draft(game)
            db.session.expunge_all()
            return draft

    def facts(self) -> dict:
        return dict(self.draft().facts)

    def version(self) -> int:
        return self.actions.table(self.code).version

    def imported(self, record: dict) -> dict:
        """``record`` imported by another device (it must be taken), read back from its game."""
        answer = self.app.test_client().post("/api/games", json=record)
        assert answer.status_code == 201, self.body(answer)
        again = self.app.test_client().get(
            urlsplit(answer.get_json()["game_url"]).path + "/record.json")
        return again.get_json()

    def seat(self, name: str) -> int:
        return self.players.index(name) + 1

    # --- doing

    def url(self, tail: str) -> str:
        """A round action: every game's (tick, confirm …) or the game's own."""
        where = tail if tail.startswith(self.GENERIC) else f"{self.GAME}/{tail}"
        return f"/t/{self.code}/games/1/{where}"

    def post(self, tail: str, data: dict | None = None, *, client=None, round_=None,
             htmx: bool = False, headers: dict | None = None):
        """POST a round action for this round (or ``round_``), as the keeper by default."""
        form = {"round": str(round_ or self.round), **(data or {})}
        return self.actions.post(self.url(tail), form, client=client,
                                 headers=headers or (HTMX if htmx else {}))

    def ok(self, tail: str, data: dict | None = None, **kwargs):
        response = self.post(tail, data, **kwargs)
        assert response.status_code in self.OK, self.body(response)
        return response

    def confirm(self) -> None:
        self.ok("confirm")


# --------------------------------------------------------------------------- secrecy runs

CSRF_VALUE = re.compile(r'("X-CSRFToken": "|name="csrf_token" value="|name="tap" value=")[^"]+')
CLOCK = re.compile(r"\b\d{1,2}:\d{2}(:\d{2})?\b|\d{4}-\d{2}-\d{2}T[\d:.+Z-]+")


def normal(body: str) -> str:
    # CSRF tokens are signed with the time, a form's tap key is drawn at random (always as
    # long); a timer would show the clock. Nothing else varies.
    return CLOCK.sub("<clock>", CSRF_VALUE.sub(r"\1<token>", body))


def every_screen(devices, read: Callable = raw) -> dict[str, str]:
    """Every URL of every ``(name, client, urls)``, without and with htmx, as it answers now."""
    got = {}
    for name, client, urls in devices:
        for url in urls:
            for headers in ({}, HTMX):
                response = client.get(url, headers=headers)
                got[f"{name} {url} {bool(headers)}"] = (
                    f"{response.status_code} {response.headers.get('Location')} "
                    + normal(read(response)))
    return got


def fresh(app, actions, monkeypatch):
    """A fresh database whose codes and keys come in a fixed order, and new actions on it,
    so that two runs differ only in what they do."""
    codes = (f"BCDFGH{a}{b}" for a, b in itertools.product(ALPHABET, repeat=2))
    monkeypatch.setattr("companion.store.changes.new_code", lambda: next(codes))
    keys = (f"key{n:040d}" for n in itertools.count())
    monkeypatch.setattr("companion.store.changes.new_key", lambda: next(keys))
    # The sealings' key pairs too (their public keys are in the slip forms), in a new store.
    seeds = (hashlib.sha256(b"sealing %d" % n).digest() for n in itertools.count())
    def key_pair() -> tuple[bytes, bytes]:
        private = next(seeds)
        return crypto_scalarmult_base(private), private

    monkeypatch.setattr(sealing_keys, "key_pair", key_pair)
    sealed.install_keys(app, None)
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
    # The new database starts its versions again: forget the old ones.
    app.extensions[versions.EXTENSION] = versions.VersionMemo()
    limiter.reset()
    return type(actions)(app, app.test_client())


def as_logged(answer, read: Callable = raw) -> dict[str, str]:
    """An answer as an access log or a proxy sees it: its status, size, headers and body.

    (The session cookie holds the phone's random CSRF token: it varies by run, not by step.)
    """
    headers = sorted((k, v) for k, v in answer.headers.items() if k != "Set-Cookie")
    return {"answer": f"{answer.status_code} {len(answer.data)} {headers} "
                      f"{normal(read(answer))}"}
