"""The import page (``/import``), as a person holding a file meets it.

Each kind of refusal is said in the device's language, says what is wrong with the file and
what to do, and makes nothing; none shows the JSON reader's words or the API's. A good file
picked after bad ones is taken; imports taken are held to their limit, and refused ones to a
looser one of their own. The table made is named in the device's language, the game's name
kept. (The API's refusals, in English: ``test_games.py``, ``test_hardening.py``; each limit
at its shipped number through the API: ``test_inbound_limits.py``.)
"""

from __future__ import annotations

import html
import io
import json
import random
import re
from types import SimpleNamespace

import pytest
from sqlalchemy import func, select

from companion import config
from companion.extensions import db
from companion.store import Table
from tests.rules import gen_tremp
from tests.web.test_games import CLUMOND, GNOME  # good records of one round each

pytestmark = pytest.mark.db

TRICKS_15 = {**CLUMOND, "rounds": [dict(CLUMOND["rounds"][0],
                                        tricks={"Ann": 7, "Bo": 4, "Cy": 4})]}
"""One the rules refuse: the tricks of round 1 add up to 15, not 13."""


def as_file(record: object) -> bytes:
    return json.dumps(record, ensure_ascii=False).encode()


class Screen:
    """A device on the import page, reading it in ``language``, from ``address``."""

    def __init__(self, app, language: str, address: str = "127.0.0.1") -> None:
        self.client = app.test_client()
        self.client.environ_base["REMOTE_ADDR"] = address
        self.headers = {"Accept-Language": language}
        page = self.client.get("/import", headers=self.headers).get_data(as_text=True)
        self.token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)

    def pick(self, body: bytes, name: str = "record.json"):
        """Pick ``body`` as the file ``name`` and press Import: the answer."""
        return self.client.post("/import", headers=self.headers,
                                data={"csrf_token": self.token,
                                      "record": (io.BytesIO(body), name)},
                                content_type="multipart/form-data")


def said(answer) -> str:
    """The refusal the page shows (its notice), as a person reads it."""
    page = answer.get_data(as_text=True)
    found = re.search(r'<p class="notice error"[^>]*data-testid="error">(.*?)</p>', page, re.S)
    assert found, f"no refusal on the page: {page[:300]}"
    return html.unescape(found.group(1))


def tables(app) -> int:
    with app.app_context():
        count = db.session.scalar(select(func.count()).select_from(Table))
        db.session.remove()
        return count


def table_names(app) -> list[str]:
    with app.app_context():
        names = list(db.session.scalars(select(Table.name).order_by(Table.id)))
        db.session.remove()
        return names


NOT_READ = ("Ce fichier n'est pas une feuille de partie ni de soirée : il n'a pas pu être lu. "
            "Choisissez le fichier .json exporté par le compagnon.")
NOT_A_RECORD = ("Ce fichier n'est pas une feuille de partie ni de soirée : il contient autre "
                "chose. Choisissez le record.json d’une partie ou l’evening.json d’une soirée, "
                "tel que le compagnon l'a exporté.")
RULES = "Les règles refusent cette feuille, donc rien n'a été créé. "
AGAIN = " Corrigez cela dans le fichier, ou choisissez celui que le compagnon a exporté."
A_NIGHT = gen_tremp.random_record(random.Random(201), rounds=201, avoid_end=True)

REFUSALS = {
    "not JSON": (b'{"game": "clumond", "players": ["Ann",, "Bo"]}', 400, NOT_READ),
    "not text": (b'{"game": "clumond\xff"}', 400, NOT_READ),
    "NaN": (b'{"game": "clumond", "stake": NaN}', 400, NOT_READ),
    "a list": (b"[1, 2, 3]", 400, NOT_A_RECORD),
    "no game in it": (as_file({"players": ["Ann", "Bo"]}), 400, NOT_A_RECORD),
    "an unknown game": (
        as_file({**CLUMOND, "game": "poker"}), 400,
        "Ce fichier est la feuille d'un jeu que le compagnon ne connaît pas (« poker »). Il "
        "connaît Tromplemond, Clumond, Trumplestiltskin, Trefeltromp et Tremp : choisissez la "
        "feuille de l'un d'eux."),
    "a rules refusal": (as_file(TRICKS_15), 400,
                        RULES + "Manche 1 : les plis font 15 au total, pas 13." + AGAIN),
    "a rules refusal in an evening": (
        as_file({"unit": "EUR", "games": [CLUMOND, TRICKS_15], "paid": []}), 400,
        RULES + "Partie 2 : manche 1 : les plis font 15 au total, pas 13." + AGAIN),
    "players the rules refuse": (
        as_file({**CLUMOND, "players": ["Ann", "Bo"]}), 400,
        RULES + "Le clumond se joue avec 3 joueurs, pas 2." + AGAIN),
    "a field the app does not know": (
        as_file({**CLUMOND, "stakes": 5}), 400,
        "Cette feuille de Clumond a un champ que l'application ne connaît pas (« stakes »), "
        "donc rien n'a été créé : une faute de frappe ne doit pas faire perdre un fait sans "
        "qu'on le voie. Corrigez-le ou retirez-le du fichier."),
    "an evening without games": (
        as_file({"unit": "EUR", "games": [], "paid": []}), 400,
        "Cette soirée n'a aucune partie : il n'y a rien dont faire une table. Choisissez une "
        "soirée avec au moins une partie, ou le record.json d’une partie."),
    "a name with spaces around it": (
        as_file({"unit": "EUR", "evening": "Vendredi ", "games": [CLUMOND], "paid": []}), 400,
        "Un nom de ce fichier ne peut pas être gardé tel quel, donc rien n'a été créé. Le nom "
        "de la soirée a des espaces en trop. Corrigez-le dans le fichier."),
    "too many rounds": (
        as_file(A_NIGHT), 413,
        "Ce fichier a 201 manches : l'application en prend au plus 200 par feuille (toute une "
        "soirée de jeu), donc rien n'a été créé. Découpez-le en fichiers d'une partie ou d'une "
        "soirée chacun."),
    "too big": (
        b'{"game": "clumond", "notes": "' + b"x" * 600_000 + b'"}', 413,
        "Ce fichier est trop gros pour une feuille : l'application prend des fichiers de 512 Ko "
        "au plus, donc rien n'a été créé. Choisissez le fichier .json exporté par le "
        "compagnon."),
}
"""Each kind of file the page refuses: its bytes, the status, and what a French device reads."""

DEVELOPERS_WORDS = ("JSON object", "Content-Type", "Expecting", "line 1", "char ", "Send ",
                    "UTF-8", "NaN", "Traceback")
"""What the API says to a developer, and a person holding a file never reads."""


@pytest.mark.parametrize("kind", list(REFUSALS))
def test_each_refusal_is_said_in_the_device_s_language_and_makes_nothing(app, kind):
    body, status, french = REFUSALS[kind]
    screen = Screen(app, "fr-FR,fr;q=0.9")
    answer = screen.pick(body)
    assert answer.status_code == status
    assert said(answer) == french
    for words in DEVELOPERS_WORDS:
        assert words not in said(answer), words
    page = answer.get_data(as_text=True)
    assert '<html lang="fr">' in page and 'data-testid="record-file"' in page, "pick again"
    assert tables(app) == 0


def test_a_file_not_picked_is_said_in_the_device_s_language(app):
    screen = Screen(app, "fr")
    answer = screen.client.post("/import", headers=screen.headers,
                                data={"csrf_token": screen.token})
    assert answer.status_code == 400
    assert said(answer) == ("Choisissez un fichier : le record.json d’une partie ou "
                            "l’evening.json d’une soirée.")
    assert tables(app) == 0


def test_a_german_device_reads_its_refusals_in_german(app):
    screen = Screen(app, "de-DE,de;q=0.9,en;q=0.5")
    refused = screen.pick(as_file(TRICKS_15))
    assert refused.status_code == 400
    assert said(refused) == (
        "Die Regeln lehnen diese Aufzeichnung ab, darum wurde nichts angelegt. Runde 1: die "
        "Stiche ergeben zusammen 15, nicht 13. Korrigiere das in der Datei oder wähle die, die "
        "der Begleiter exportiert hat.")
    broken = screen.pick(b"{")
    assert broken.status_code == 400
    assert said(broken) == ("Diese Datei ist keine Partie- oder Abend-Aufzeichnung: Sie ließ "
                            "sich nicht lesen. Wähle die .json-Datei, die der Begleiter "
                            "exportiert hat.")
    assert tables(app) == 0


def test_the_imported_table_is_named_in_the_device_s_language(app):
    german = Screen(app, "de")
    gnome = german.pick(as_file(GNOME))
    assert gnome.status_code == 303
    assert german.pick(as_file({"unit": "EUR", "evening": "Freitag", "games": [GNOME],
                                "paid": []}), "evening.json").status_code == 303
    assert german.pick(as_file({"unit": "EUR", "games": [CLUMOND], "paid": []}),
                       "evening.json").status_code == 303
    norwegian = Screen(app, "nb")
    assert norwegian.pick(as_file(CLUMOND)).status_code == 303
    assert table_names(app) == ["Trumplestiltskin (importiert)", "Freitag (importiert)",
                                "Ein Abend (importiert)", "Clumond (importert)"]
    keeper = german.client.get(gnome.headers["Location"], headers=german.headers)
    assert "Trumplestiltskin (importiert)" in keeper.get_data(as_text=True)


@pytest.fixture
def shipped(app, monkeypatch):
    """The import limits as shipped (the tests' app relaxes them), and a clock for them that
    a test moves on."""
    app.config.update(API_LIMIT=config.IMPORT_LIMIT,
                      REFUSED_IMPORT_LIMIT=config.REFUSED_IMPORT_LIMIT, REFUSAL_PAUSE=0.0)
    clock = SimpleNamespace(now=1_000_000.0)
    monkeypatch.setattr("limits.storage.memory.time", SimpleNamespace(time=lambda: clock.now))
    return clock


def test_a_good_file_after_two_bad_ones_is_taken(app, shipped):
    assert config.IMPORT_LIMIT == "2/minute;20/hour"
    screen = Screen(app, "fr")
    assert screen.pick(b'{"game": "clumond",').status_code == 400
    assert screen.pick(as_file(TRICKS_15)).status_code == 400
    taken = screen.pick(as_file(CLUMOND))
    assert taken.status_code == 303, said(taken)
    assert tables(app) == 1
    assert screen.pick(b"[]").status_code == 400
    assert screen.pick(as_file({"unit": "EUR", "games": [CLUMOND], "paid": []}),
                       "evening.json").status_code == 303, "the second of the minute"
    assert tables(app) == 2


def test_imports_taken_are_held_to_their_limit(app, shipped):
    screen = Screen(app, "fr")
    assert [screen.pick(as_file(CLUMOND)).status_code for _ in range(2)] == [303, 303]
    refused = screen.pick(as_file(GNOME))
    assert refused.status_code == 429
    assert said(refused) == ("Trop d'imports depuis ce réseau : au plus 2 par minute et 20 par "
                             "heure. Attendez une minute, puis importez le suivant.")
    assert 'data-testid="record-file"' in refused.get_data(as_text=True), "pick it later"
    assert tables(app) == 2
    elsewhere = Screen(app, "fr", address="192.168.1.80")
    assert elsewhere.pick(as_file(GNOME)).status_code == 303, "another address"
    shipped.now += 61
    assert screen.pick(as_file(GNOME)).status_code == 303
    assert tables(app) == 4


def test_a_flood_of_refused_files_is_held_to_a_looser_limit(app, shipped):
    assert config.REFUSED_IMPORT_LIMIT == "10/minute;100/hour"
    screen = Screen(app, "fr")
    assert [screen.pick(b"not a record").status_code for _ in range(10)] == [400] * 10
    held = screen.pick(as_file(CLUMOND))
    assert held.status_code == 429, "a good file too, in the same minute"
    assert said(held) == ("Trop de fichiers refusés depuis ce réseau : au plus 10 par minute "
                          "et 100 par heure. Attendez une minute, vérifiez le fichier, puis "
                          "choisissez-le à nouveau.")
    assert tables(app) == 0
    shipped.now += 61
    assert screen.pick(as_file(CLUMOND)).status_code == 303
    assert tables(app) == 1


def test_the_api_keeps_its_developer_s_english_whatever_the_language(app):
    """The API says what the JSON reader and the rules found, in English, to a French client
    too; the table it makes is named in the request's language."""
    api = app.test_client()
    french = {"Accept-Language": "fr"}
    broken = api.post("/api/games", data=b'{"game": "clumond",', headers=french,
                      content_type="application/json")
    assert broken.status_code == 400
    assert broken.get_json()["error"].startswith(
        "Send a game record as a JSON object (Content-Type: application/json): Expecting")
    rules = api.post("/api/games", json=TRICKS_15, headers=french)
    assert rules.get_json()["error"] == "round 1: the tricks add up to 15, not 13"
    spaces = api.post("/api/evenings", headers=french,
                      json={"unit": "EUR", "evening": "Vendredi ", "games": [CLUMOND],
                            "paid": []})
    assert spaces.get_json()["error"] == "The evening's name has extra spaces."
    assert tables(app) == 0
    assert api.post("/api/games", json=CLUMOND, headers=french).status_code == 201
    assert api.post("/api/games", json=CLUMOND).status_code == 201
    assert table_names(app) == ["Clumond (importé)", "Clumond (imported)"]


def test_an_evening_moved_from_a_table_on_a_tablet_opens_its_scorekeeper_s_screen(app):
    tablet = Screen(app, "en")
    evening = as_file({"unit": "EUR", "evening": "Kitchen", "games": [CLUMOND], "paid": []})
    answer = tablet.client.post("/import", headers=tablet.headers,
                                data={"csrf_token": tablet.token, "moved": "1",
                                      "record": (io.BytesIO(evening), "evening.json")},
                                content_type="multipart/form-data")
    assert answer.status_code == 303
    where = answer.headers["Location"]
    assert re.search(r"/t/[A-Z0-9]+\?moved=1$", where), where
    page = tablet.client.get(where).get_data(as_text=True)  # (this device its scorekeeper)
    assert "The table on the tablet stays there as it was" in page
    assert 'id="join-url"' in page
    # A file picked on the page itself still opens the evening's ledger, with no such line.
    again = tablet.pick(evening, "evening.json")
    assert "/evenings/" in again.headers["Location"]
