"""The game-flow layer: a game plugs in through its flow alone.

A made-up game ("Snap") with its own flow, blueprint and templates is put in
the registry; the new-table form offers it, its table runs through the
generic pages, and nothing generic is edited for it.
"""

from __future__ import annotations

import ast
import sys
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from flask import Blueprint
from jinja2 import ChoiceLoader, DictLoader

from companion import create_app
from companion.extensions import db
from companion.rules.games import add_game, forget_game
from companion.store import rounds as round_store
from companion.web import games
from companion.web.actions import Act, Who, game_action
from companion.web.flow import FLOWS_EXTENSION, GameFlow, View, checklist
from tests.conftest import element

pytestmark = pytest.mark.db

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "companion" / "web"
GAME_FOLDERS = ROOT / "companion" / "games"


class SnapPhase(Enum):
    PLAYING = "playing"
    OVER = "end"


snap = Blueprint("snap", __name__)


@snap.post("/snap")
@game_action(Who.PLAYER, SnapPhase.PLAYING)
def call_snap(act: Act):
    """Whoever calls snap first wins the round."""
    round_store.confirm_round(act.draft, {"winner": act.player or act.form.get("for", "")})


class SnapFlow(GameFlow):
    """A two-player game of Snap: the first to call it wins the round; three rounds win."""

    name = "snap"
    blueprint = snap
    tablet_template = "snap/_round.html"
    phone_template = "snap/_round.html"
    options_template = "snap/_options.html"

    @property
    def title(self) -> str:
        return "Snap"

    def allowed_players(self) -> list[int]:
        return [2]

    def replay(self, record: dict[str, Any]) -> dict[str, Any]:
        totals = dict.fromkeys(record["players"], 0)
        rounds = []
        for entry in record["rounds"]:
            totals[entry["winner"]] += 1
            rounds.append({"scores": {p: int(p == entry["winner"]) for p in totals},
                           "totals": dict(totals)})
        target = record["options"].get("target", 3)
        winners = [p for p, n in totals.items() if n >= target]
        return {"rounds": rounds, "totals": totals, "finished": bool(winners),
                "winners": winners, "money": {}}

    def read_options(self, table, form):
        return {"target": int(form.get("target") or 3)}, None

    def moment(self, table, game, me=None) -> View:
        result = self.replay(game.record())
        draft = round_store.current_draft(game)
        over = result["finished"]
        return View(table=table, game=game, me=me, result=result,
                    phase=SnapPhase.OVER if over else SnapPhase.PLAYING,
                    round_index=len(game.rounds),
                    checklists=() if over else (
                        checklist("deal", "Deal", ("Split the deck in two.",), draft),))


TEMPLATES = {
    "snap/_round.html": (
        '<h2>Snap, round {{ view.round_number }}</h2>'
        '{% for list in view.checklists %}<p data-testid="step">{{ list.steps[0].text }}</p>'
        '{% endfor %}'
        '{% if view.phase.value == "playing" %}'
        '<form method="post" action="{{ url_for(\'snap.call_snap\', code=table.code, '
        'number=game.number) }}"><input type="hidden" name="csrf_token" '
        'value="{{ csrf_token() }}"><input type="hidden" name="round" '
        'value="{{ view.round_number }}"><button data-testid="snap">Snap!</button></form>'
        '{% else %}<p data-testid="winner">{{ view.result.winners|join(", ") }} won</p>'
        '{% endif %}'),
    "snap/_options.html": '<input name="target" value="3" data-testid="snap-target">',
}


@pytest.fixture
def snap_app(tmp_path, monkeypatch):
    """The app with Snap registered: one registry line, and its templates."""
    add_game("snap", rules=__name__, web=__name__)
    monkeypatch.setattr(sys.modules[__name__], "FLOW", SnapFlow(), raising=False)
    app = create_app({"TESTING": True, "SECRET_KEY": "tests", "PUBLIC_URL": "",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'snap.sqlite3'}",
                      "RATELIMIT_STORAGE_URI": "memory://"})
    app.jinja_loader = ChoiceLoader([app.jinja_loader, DictLoader(TEMPLATES)])
    with app.app_context():
        db.create_all()
    yield app
    forget_game("snap")
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_made_up_game_plugs_in_with_its_flow_alone(snap_app):
    from tests.conftest import TableActions

    keeper = snap_app.test_client()
    actions = TableActions(snap_app, keeper)
    form = keeper.get("/new?game=snap").get_data(as_text=True)
    assert "Snap (2 players)" in form
    assert form.count('data-testid="player-') == 2  # as many seats as Snap takes
    code = actions.create_table(game="snap", players=["Ann", "Bo"])
    ann, bo = actions.seat_everyone(code)
    # Its options on the generic start page, its checklist on the generic regions.
    assert 'data-testid="snap-target"' in keeper.get(f"/t/{code}/start").get_data(as_text=True)
    assert actions.post(f"/t/{code}/start", {"target": "2"}).status_code == 303
    tablet = keeper.get(f"/t/{code}").get_data(as_text=True)
    assert "Snap, round 1" in tablet and "Split the deck in two." in tablet
    assert 'data-phase="playing"' in tablet
    # Its own action, under its own prefix, through the one action sequence.
    snap_url = f"/t/{code}/games/1/snap/snap"
    assert actions.post(snap_url, {"round": "1"}, client=bo).status_code == 303
    assert actions.post(snap_url, {"round": "1"}, client=bo).status_code == 409  # stale round
    assert actions.post(snap_url, {"round": "2"}, client=bo).status_code == 303
    phone = ann.get(f"/t/{code}/seat").get_data(as_text=True)
    assert 'data-testid="winner">Bo won' in phone and 'data-phase="end"' in phone
    # The generic scoreboard and record.json follow.
    board = keeper.get(f"/t/{code}/pulse", headers={"HX-Request": "true"})
    assert 'data-total="Bo">2<' in element(board.get_data(as_text=True), "scoreboard")
    record = keeper.get(f"/t/{code}/games/1/record.json").get_json()
    assert record["rounds"] == [{"winner": "Bo"}, {"winner": "Bo"}]
    # A game that is over takes no more taps.
    assert actions.post(snap_url, {"round": "3"}, client=ann).status_code == 409


def test_two_games_can_never_share_a_url(snap_app):
    flows = snap_app.extensions[FLOWS_EXTENSION]
    prefixes = {rule.rule.split("/")[5] for rule in snap_app.url_map.iter_rules()
                if rule.endpoint.split(".")[0] in flows and rule.rule.startswith("/t/")}
    assert "snap" in prefixes and "tromplemond" in prefixes
    for rule in snap_app.url_map.iter_rules():
        owner = rule.endpoint.split(".")[0]
        if owner in flows:
            assert rule.rule.startswith(f"/t/<code>/games/<int:number>/{owner}/"), rule.rule


def test_every_game_has_a_flow():
    from companion.rules import GAMES

    assert list(games.load_flows()) == list(GAMES)
    for name, flow in games.load_flows().items():
        assert flow.name == name


# The package graph ------------------------------------------------------------------------

OURS = ("companion.web", "companion.games")

GENERIC = ("tables", "seats", "scores", "polled", "vote", "home", "roles", "rounds", "actions",
           "regions", "flow", "api", "pwa", "errors", "filters", "forms", "limits", "qr",
           "charts", "security")


def _imports(path: Path) -> set[str]:
    """The companion.web and companion.games modules a module imports (relative imports
    resolved)."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    if module.endswith(".__init__"):
        package = module[: -len(".__init__")]
    else:
        package = module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            names = [f"{target}.{alias.name}" for alias in node.names]
            found.update(n for n in [target, *names] if n.startswith(OURS))
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith(OURS))
    return found


def _graph() -> dict[str, set[str]]:
    modules = {}
    for path in [*WEB.rglob("*.py"), *GAME_FOLDERS.rglob("*.py")]:
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        modules[name.removesuffix(".__init__")] = path
    graph = {}
    for name, path in modules.items():
        graph[name] = {target for target in _imports(path) if target in modules
                       and target != name}
    return graph


def test_generic_web_modules_import_no_games_web_package():
    graph = _graph()
    for name in GENERIC:
        module = f"companion.web.{name}"
        assert module in graph, module
        assert not any(t.startswith(("companion.web.games", "companion.games"))
                       for t in graph[module]), module


def test_the_web_package_graph_has_no_import_cycle():
    graph = _graph()
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> None:
        if node in path:
            raise AssertionError(" → ".join([*path[path.index(node):], node]))
        if node in done:
            return
        for target in graph.get(node, ()):
            # A package imports its own submodules to register them: not a cycle back to it.
            if node.startswith(target + ".") or target.startswith(node + "."):
                continue
            visit(target, [*path, node])
        done.add(node)

    for node in graph:
        visit(node, [])


def test_no_generic_template_names_a_game():
    from companion.rules import GAMES

    generic = [p for p in (ROOT / "templates").rglob("*.html")
               if p.parent.name not in GAMES]
    for path in generic:
        text = path.read_text(encoding="utf-8").lower()
        for game in GAMES:
            assert game not in text, f"{path.relative_to(ROOT)} names {game}"


def test_the_five_games_are_listed_in_one_place():
    """The registry (``companion.rules.games``) is the only list of the games: no module,
    template, stylesheet or script names them all together anywhere else."""
    import re

    from companion.rules import GAMES

    names = "|".join(GAMES)
    found = []
    for folder in ("companion", "templates", "static", "scripts"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in {".py", ".html", ".js", ".css"} or "vendor" in path.parts:
                continue
            text = path.read_text(encoding="utf-8")
            for start in (m.start() for m in re.finditer(names, text)):
                if set(re.findall(names, text[start:start + 240])) == set(GAMES):
                    found.append(str(path.relative_to(ROOT)))
                    break
    assert found == ["companion/rules/games.py"]


def test_each_game_keeps_its_templates_and_stylesheet_in_its_package():
    """A game's templates and stylesheet live in its web package, nowhere at the top level;
    the pages link its stylesheet at the URL they always had."""
    from companion.rules import GAMES

    for game in GAMES:
        package = GAME_FOLDERS / game / "web"
        assert not (ROOT / "templates" / game).exists(), f"templates/{game}/ is left"
        assert not (ROOT / "static" / "css" / f"{game}.css").exists()
        assert (package / "templates" / game / "_tablet.html").is_file()
    assert sorted(p.parent.parent.name for p in GAME_FOLDERS.glob("*/web/*.css")) == sorted(
        ["clumond", "trefeltromp", "tremp", "trumplestiltskin"])


def test_a_games_stylesheet_is_served_as_a_static_file(client):
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="stylesheet" href="/static/css/tremp.css">' in page
    sheet = client.get("/static/css/tremp.css")
    assert sheet.status_code == 200 and sheet.mimetype == "text/css"
    assert "no-store" not in sheet.headers.get("Cache-Control", "")
    assert sheet.data == (GAME_FOLDERS / "tremp" / "web" / "tremp.css").read_bytes()
    assert client.get("/static/css/tromplemond.css").status_code == 404  # it has none
