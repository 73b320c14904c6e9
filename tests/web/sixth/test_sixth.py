"""A made-up sixth game, Sixes, added with no edit outside this folder.

It is its rules module (``rules.py``), its web package (``web/``: the flow, its one
action, its templates and its stylesheet), its rules texts (``texts/``: English and
French) and one registry line (``add_game`` in the fixture below), as
``docs/adding-a-game.md`` says. It is played through the Flask test client over every
generic page: a table and its phones, its options (for money), a round counted on the
phones with a double tap refused, a correction, the scoreboard, the evening's ledger and
its settle-up, the record book, the night's recap, its rules page in four languages (the
two without a text of its own read the English), and its record exported and imported.
It says nothing of the record book, so the book counts its games played and won.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from companion.rules import GAMES, evening, record_book, replay
from companion.rules.contract import GameRules
from companion.rules.games import add_game, forget_game, game_module
from tests.conftest import TableActions

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
    assert files == ["rules.py", "texts/en.md", "texts/fr.md", "web/__init__.py",
                     "web/sixes.css", "web/templates/sixes/_correct.html",
                     "web/templates/sixes/_options.html", "web/templates/sixes/_round.html"]
    places = {p.split("/")[0] for p in files}
    assert places == {"rules.py", "texts", "web"}  # its rules, its texts, its web package
    calls = [node for node in ast.walk(ast.parse(Path(__file__).read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "add_game"]
    assert len(calls) == 1  # its registry line
