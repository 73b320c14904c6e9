"""A made-up sixth game, Sixes, added with no edit outside this folder.

It is three things: its rules module (``rules.py``), its web package (``web/``: the
flow, its one action, its templates and its stylesheet) and one registry line
(``add_game`` in the fixture below), as ``docs/adding-a-game.md`` says. It is played
through the Flask test client: its options, a round counted on the phones with a double
tap refused, a correction, and the scoreboard.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from companion.rules import GAMES, replay
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
    add_game("sixes", rules=f"{PACKAGE}.rules", web=f"{PACKAGE}.web")  # the registry line
    yield
    forget_game("sixes")


def moment(page: str) -> str:
    """The moment of the round the page's forms were drawn for."""
    return re.search(r'name="moment" value="(\d+)"', page).group(1)


def test_a_sixth_game_plays_options_a_round_a_correction_and_the_scoreboard(sixes, app):
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
    assert actions.post(f"/t/{code}/start", {"target": "3"}).status_code == 303

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


def test_a_sixth_game_is_its_rules_module_its_web_package_and_one_registry_line():
    """Nothing else: the game's files are this folder's (the test aside), and the
    registry is told of it in one line."""
    files = sorted(str(p.relative_to(HERE)) for p in HERE.rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts and p != Path(__file__))
    assert files == ["rules.py", "web/__init__.py", "web/sixes.css",
                     "web/templates/sixes/_correct.html", "web/templates/sixes/_options.html",
                     "web/templates/sixes/_round.html"]
    places = {p.split("/")[0] for p in files}
    assert places == {"rules.py", "web"}  # its rules module and its web package
    calls = [node for node in ast.walk(ast.parse(Path(__file__).read_text(encoding="utf-8")))
             if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "add_game"]
    assert len(calls) == 1  # its registry line
