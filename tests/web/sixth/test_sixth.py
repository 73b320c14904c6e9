"""A made-up sixth game, Sixes, added with no edit outside this folder.

It is its rules module (``rules.py``), its web package (``web/``: the flow, its one
action, its templates and its stylesheet), its rules texts (``texts/``: English and
French), its own catalogues (``translations/``: the words of its templates, its flow and
its rules' codes in French, German and Norwegian; ``babel.cfg`` says how pybabel finds
them), its test helper (``sixes.py``: its tables in each phase, which the sweeps find by
its name) and one registry line (``add_game`` in the fixture below), as
``docs/adding-a-game.md`` says. It is played through the Flask test client over every
generic page: a table and its phones, its options (for money), a round counted on the
phones with a double tap refused, a correction, the scoreboard, the evening's ledger and
its settle-up, the record book, the night's recap, its rules page in four languages (the
two without a text of its own read the English), and its record exported and imported;
then the fuzz sweep and the every-page-in-each-language sweep, each finding it through
the registry.
It says nothing of the record book, so the book counts its games played and won.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from babel.messages.pofile import read_po

from companion.extensions import limiter
from companion.rules import GAMES, evening, record_book, replay
from companion.rules.contract import GameRules
from companion.rules.games import add_game, forget_game, game_module
from companion.web.device import LANGUAGES
from tests.conftest import TableActions
from tests.web import test_fuzz
from tests.web.phases import every_phase, helper_of
from tests.web.test_every_page_in_each_language import (
    LANGS,
    read_in_each_language,
    read_pages_of_no_table,
)

pytestmark = pytest.mark.db

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
PACKAGE = ".".join(HERE.relative_to(ROOT).parts)
"""This folder as a package: ``tests.web.sixth``."""


@pytest.fixture
def sixes():
    """Sixes in the registry (asked for before ``app``: the app finds it when made)."""
    add_game("sixes", package=PACKAGE)  # the registry line
    yield
    forget_game("sixes")


def text(answer) -> str:
    """A page's text, its tags and spaces folded (what a player reads)."""
    return " ".join(re.sub(r"<[^>]+>", " ", answer.get_data(as_text=True)).split())


def moment(page: str) -> str:
    """The moment of the round the page's forms were drawn for."""
    return re.search(r'name="moment" value="(\d+)"', page).group(1)


def test_a_sixth_game_plays_through_every_generic_page(sixes, app):
    assert "sixes" in GAMES and isinstance(game_module("sixes"), GameRules)
    keeper = app.test_client()
    actions = TableActions(app, keeper)
    assert "Sixes (2 to 6 players)" in keeper.get("/new?game=sixes").get_data(as_text=True)
    code = actions.create_table(game="sixes", players=["Ann", "Bo", "Cy"])
    ann, bo, cy = actions.seat_everyone(code)

    # Its options, on the generic start page.
    start = keeper.get(f"/t/{code}/start").get_data(as_text=True)
    assert 'data-testid="sixes-target"' in start and 'value="5"' in start
    assert actions.post(f"/t/{code}/start", {"target": "0"}).status_code == 400
    assert actions.post(f"/t/{code}/start", {"target": "3", "stake": "0.50"}).status_code == 303

    # A round: the checklists, each phone counts its own sixes; a double tap acts once.
    tablet = keeper.get(f"/t/{code}").get_data(as_text=True)
    assert "Take one 52-card deck, jokers out." in tablet and 'data-phase="playing"' in tablet
    assert '<link rel="stylesheet" href="/static/css/sixes.css">' in tablet
    assert keeper.get("/static/css/sixes.css").data == (HERE / "web" / "sixes.css").read_bytes()
    url = f"/t/{code}/games/1/sixes/seats/{{}}/sixes"
    for position, (phone, count) in enumerate([(ann, "2"), (bo, "0"), (cy, "1")], 1):
        drawn = moment(phone.get(f"/t/{code}/seat").get_data(as_text=True))
        form = {"round": "1", "moment": drawn, "sixes": count, "from": "seat"}
        assert actions.post(url.format(position), form, client=phone).status_code == 303
        again = actions.post(url.format(position), form, client=phone)
        assert again.status_code == 409, "a tap drawn for an earlier moment acts once"
        assert "Someone counted a moment ago" in again.get_data(as_text=True)
    assert actions.post(f"/t/{code}/games/1/confirm", {"round": "1"}).status_code == 303
    record = keeper.get(f"/t/{code}/games/1/record.json").get_json()
    assert record["rounds"] == [{"sixes": {"Ann": 2, "Bo": 0, "Cy": 1}}]

    # A correction of round 1: previewed, then saved; the rules score it again.
    page = keeper.get(f"/t/{code}/games/1/rounds/1").get_data(as_text=True)
    assert 'name="sixes-0" value="2"' in page
    fix = {"rounds": "1", "sixes-0": "3", "sixes-1": "0", "sixes-2": "1"}
    preview = actions.post(f"/t/{code}/games/1/rounds/1", fix).get_data(as_text=True)
    assert 'data-testid="correction-preview"' in preview
    assert actions.post(f"/t/{code}/games/1/rounds/1", fix | {"step": "save"}).status_code == 303

    # The scoreboard, and the end: Ann reached the target of 3.
    board = keeper.get(f"/t/{code}/pulse", headers={"HX-Request": "true"})
    assert 'data-round="1"' in board.get_data(as_text=True)
    result = replay(keeper.get(f"/t/{code}/games/1/record.json").get_json())
    assert result["totals"] == {"Ann": 3, "Bo": 0, "Cy": 1} and result["winners"] == ["Ann"]
    assert 'data-phase="end"' in bo.get(f"/t/{code}/seat").get_data(as_text=True)

    # The evening's ledger, as a money game: Bo and Cy each pay Ann the stake.
    exported = keeper.get(f"/t/{code}/evenings/1/evening.json").get_json()
    ledger = evening(exported)
    assert ledger["net"] == {"Ann": 100, "Bo": -50, "Cy": -50}
    assert ledger["owing"] == [["Bo", "Ann", 50], ["Cy", "Ann", 50]]
    page = text(keeper.get(f"/t/{code}/evenings/1"))
    assert "Sixes" in page and "Bo pays Ann £0.50" in page

    # The record book: its games played and won, and its money (it says nothing more).
    book = text(keeper.get(f"/t/{code}/records"))
    assert "Sixes" in book and "£1.00" in book
    ann = next(p for p in record_book([exported]).players if p.name == "Ann")
    figures = ann.games["sixes"]
    assert (figures.played.value, figures.won.value, figures.runner_up) == (1, 1, None)
    assert figures.money["GBP"].value == 100 and figures.largest_pot == {}

    # The night's recap.
    recap = text(keeper.get(f"/t/{code}/evenings/1/recap"))
    assert "Sixes: won by Ann" in recap and "Bo pays Ann £0.50" in recap

    # Its rules page in four languages: its own English and French, the English elsewhere.
    for lang, words in (("en", "A made-up trick-counting game"),
                        ("fr", "Un jeu inventé pour 2 à 6 joueurs"),
                        ("de", "A made-up trick-counting game"),
                        ("nb", "A made-up trick-counting game")):
        keeper.set_cookie("lang", lang)
        assert words in text(keeper.get("/rules/sixes")), lang
        assert words.split(":")[0] in text(keeper.get("/rules")), lang
    keeper.set_cookie("lang", "en")

    # Its record exported, then imported: a new table with the same game and ledger.
    record = keeper.get(f"/t/{code}/games/1/record.json").get_json()
    made = app.test_client().post("/api/games", json=record)
    assert made.status_code == 201, made.get_json()
    again = app.test_client().post("/api/evenings", json=exported)
    assert again.status_code == 201, again.get_json()
    copy = urlsplit(again.get_json()["table_url"]).path.rsplit("/", 1)[-1]
    assert evening(keeper.get(f"/t/{copy}/evenings/1/evening.json").get_json()) == ledger


def test_a_sixth_game_is_its_folder_and_one_registry_line():
    """Nothing else: the game's files are this folder's (the test aside), and the
    registry is told of it in one line."""
    files = sorted(str(p.relative_to(HERE)) for p in HERE.rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts and p != Path(__file__))
    files = [name for name in files if not name.endswith(".mo")]  # (compiled, not kept)
    assert files == ["babel.cfg", "rules.py", "sixes.py", "texts/en.md", "texts/fr.md",
                     "translations/de/LC_MESSAGES/messages.po",
                     "translations/fr/LC_MESSAGES/messages.po", "translations/messages.pot",
                     "translations/nb/LC_MESSAGES/messages.po", "web/__init__.py",
                     "web/sixes.css", "web/templates/sixes/_correct.html",
                     "web/templates/sixes/_options.html", "web/templates/sixes/_round.html"]
    places = {p.split("/")[0] for p in files}
    # its rules, its texts, its web package, its catalogues (and how they are made), its
    # test helper
    assert places == {"rules.py", "texts", "web", "translations", "babel.cfg", "sixes.py"}
    calls = [node for node in ast.walk(ast.parse(Path(__file__).read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "add_game"]
    assert len(calls) == 1  # its registry line


# --------------------------------------------------------------------------- the sweeps


checker = test_fuzz.checker
"""The fuzz sweep's check of every request (no 5xx; a refusal commits nothing)."""

quick = test_fuzz.quick
"""What the fuzz sweep does not try, made quick (the recovery code's hash)."""


def test_the_sweeps_find_sixes_and_its_phases_through_the_registry(sixes):
    helper = helper_of("sixes")
    assert helper is not None and Path(helper.__file__) == HERE / "sixes.py"
    assert [phase.name for phase in every_phase(GAMES) if phase.game == "sixes"] == [
        "set-up", "dealing", "counting", "round 1 scored", "game over", "evening closed"]


def test_the_fuzz_sweep_sends_every_route_to_sixes_in_each_phase(sixes, app, actions,
                                                                    checker, quick):
    """Every route, on a table of Sixes in each of its phases, by every role: no 5xx, and
    a refusal changes nothing; every route is sent by each role (another game's own
    actions aside: sent to Sixes' tables by the scorekeeper, as each game's are to the
    others' tables)."""
    figures, _lines = test_fuzz.sweep_every_phase(app, actions, checker, every_phase(["sixes"]))
    assert not checker.failures, "\n".join(checker.failures[:40])
    own = "POST /t/<code>/games/<int:number>/sixes/seats/<int:position>/sixes"
    assert all(figures["by_route"][own].values()), figures["by_route"][own]
    assert [route for route in figures["unrequested"] if not _another_game_s(route)] == []
    assert figures["tables_made"] >= 6


def _another_game_s(route: str) -> bool:
    """True for another game's own route (sent to Sixes' tables by the scorekeeper only,
    before the start: the five games' sweep sends it by every role on that game's)."""
    return any(f"/{game}/" in route for game in GAMES if game != "sixes")


def test_every_page_of_sixes_reads_in_each_language(sixes, app, actions, client):
    """Each page of a table of Sixes in each of its phases, on the tablet and a phone, in
    French, German and Norwegian: no English word of the interface (the app's or the
    game's own catalogues); and the pages of no table, its rules among them."""
    for phase in every_phase(["sixes"]):
        limiter.reset()  # (each phase is a test of its own in the five games' sweep)
        read_in_each_language(app, actions, phase)
    for lang in LANGS:
        read_pages_of_no_table(client, lang)


def test_its_catalogues_have_every_word_of_the_game_in_each_language(tmp_path):
    """pybabel finds every word of its templates, its flow and its rules' codes
    (``babel.cfg``); its catalogue in each language has them all, translated."""
    template = tmp_path / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F",
                    "babel.cfg", "-o", str(template), "."], cwd=HERE, check=True,
                   capture_output=True)
    with template.open("rb") as source:
        wanted = {(m.context, m.id) for m in read_po(source) if m.id}
    assert len(wanted) >= 15 and ("sixes.deck.take", "Take one 52-card deck, jokers out.") \
        in wanted
    for lang in set(LANGUAGES) - {"en"}:
        with (HERE / "translations" / lang / "LC_MESSAGES" / "messages.po").open("rb") as po:
            have = {(m.context, m.id): m.string for m in read_po(po, locale=lang) if m.id}
        assert sorted(map(str, wanted - set(have))) == [], lang
        assert [key for key in wanted if not have[key]] == [], lang


def test_its_words_are_said_in_the_device_s_language(sixes, app, actions):
    """Its checklists (its rules' codes) and its buttons read in French from its own
    catalogue, with no edit to the app's."""
    code = actions.create_table(game="sixes", players=["Ann", "Bo", "Cy"])
    actions.seat_everyone(code)
    assert actions.post(f"/t/{code}/start", {"target": "3"}).status_code == 303
    actions.keeper.set_cookie("lang", "fr")
    tablet = text(actions.keeper.get(f"/t/{code}"))
    actions.keeper.set_cookie("lang", "en")
    assert "Prenez un jeu de 52 cartes, sans les jokers." in tablet
    assert "Compter" in tablet and "Valider la manche 1" in tablet
