"""The layers keep to their order: rules → store → live → web (pages) → games → templates/static.

Each module's imports are read with :mod:`ast` (``import x``, ``from x import y``, relative
ones, at any depth of the module: inside a function too), so nothing is imported to check.

- ``companion/live`` (the transport) imports nothing from ``companion.web``: the pages tell
  it what it needs through its hooks (``companion.live.hooks``).
- ``companion.web`` has no import cycle: its modules can be read in one order.
- No ``companion/rules`` module, nor any game's rules (``companion/games/<game>/rules``),
  imports Flask or SQLAlchemy (``tests/rules/test_purity.py`` checks the rest of its purity).
- The games (``companion/games/<game>/``) are the top layer: no module outside them imports
  one; a game's rules import only the common rules (and its own rules); its web package and
  store module import the app's layers and its own folder, never another game's.
- One phone's bet, traced as a tap, enters few of the project's modules
  (``scripts/trace_tap.py``).
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"


def module_name(path: Path) -> str:
    """``companion/live/push.py`` → ``companion.live.push`` (a package: its folder's name)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports(module: str, *, top_only: bool = False) -> set[str]:
    """The project's modules (and outside packages, by their full name) that ``module``
    imports; ``from package import submodule`` counts the submodule, not the package.
    ``top_only``: only the imports run when the module is loaded (not in its functions)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = _top_level(tree.body) if top_only else ast.walk(tree)
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(max(node.level - 1, 0)):
                base = base.rpartition(".")[0]
            source = (f"{base}.{node.module}" if node.module else base) if node.level \
                else node.module or ""
            submodules = [f"{source}.{alias.name}" for alias in node.names
                          if f"{source}.{alias.name}" in MODULES]
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(source)
    return found


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements run when a module loads: its body, and the branches of its ``if``s
    and ``try``s (not what ``if TYPE_CHECKING`` guards: it never runs)."""
    nodes: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If):
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                nodes += _top_level(node.body) + _top_level(node.orelse)
        elif isinstance(node, ast.Try):
            nodes += _top_level(node.body + node.orelse + node.finalbody)
            for handler in node.handlers:
                nodes += _top_level(handler.body)
        else:
            nodes.append(node)
    return nodes


def under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_live_package_imports_nothing_from_the_pages():
    live = [name for name in MODULES if under(name, "companion.live")]
    assert len(live) >= 7, live  # (the front door, once live/door.py, is companion/door.py)
    reaching = {name: sorted(n for n in imports(name) if under(n, "companion.web"))
                for name in live}
    assert {name: found for name, found in reaching.items() if found} == {}


def test_the_web_layer_has_no_import_cycle():
    web = {name for name in MODULES if under(name, "companion.web")}
    graph = {name: {n for n in imports(name, top_only=True) if n in web} for name in web}
    done: set[str] = set()
    cycles: list[list[str]] = []

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            cycles.append(path[path.index(name):] + [name])
            return
        if name in done:
            return
        for other in sorted(graph[name]):
            visit(other, path + [name])
        done.add(name)

    for name in sorted(web):
        visit(name, [])
    assert cycles == []


def test_the_checks_see_a_cycle_and_a_forbidden_import(tmp_path, monkeypatch):
    """The readers above find what they look for (a check that cannot fail is no check)."""
    made = {"companion.web.a": "from . import b\n", "companion.web.b": "from .a import x\n",
            "companion.live.x": "def f():\n    from ..web import roles\n"}
    for name, source in made.items():
        path = tmp_path / (name.replace(".", "/") + ".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
        monkeypatch.setitem(MODULES, name, path)
    assert imports("companion.web.a", top_only=True) == {"companion.web.b"}
    assert imports("companion.web.b", top_only=True) == {"companion.web.a"}
    assert imports("companion.live.x") == {"companion.web.roles"}
    assert imports("companion.live.x", top_only=True) == set()


GAMES_PACKAGE = "companion.games"


def game_of(module: str) -> str | None:
    """``companion.games.tremp.web.flow`` → ``companion.games.tremp`` (None: not a game's)."""
    parts = module.split(".")
    return ".".join(parts[:3]) if under(module, GAMES_PACKAGE) and len(parts) > 2 else None


def game_rules_modules() -> list[str]:
    """Each game's rules (``companion.games.<game>.rules``, a module or a package)."""
    return [name for name in MODULES
            if (game := game_of(name)) is not None and under(name, f"{game}.rules")]


def test_no_rules_module_imports_flask_or_sqlalchemy():
    rules = [name for name in MODULES if under(name, "companion.rules")] + game_rules_modules()
    assert len(rules) > 5 and len(game_rules_modules()) >= 5
    found = {name: sorted(n for n in imports(name)
                          if under(n, "flask") or under(n, "sqlalchemy")
                          or under(n, "flask_sqlalchemy"))
             for name in rules}
    assert {name: names for name, names in found.items() if names} == {}


def test_no_module_below_the_games_imports_one():
    """The games are the top layer: the app finds them through the registry (by name, with
    ``importlib``), never by an import."""
    below = [name for name in MODULES if not under(name, GAMES_PACKAGE)]
    reaching = {name: sorted(n for n in imports(name) if under(n, GAMES_PACKAGE))
                for name in below}
    assert {name: found for name, found in reaching.items() if found} == {}


def test_a_game_s_rules_import_only_the_common_rules():
    found = {}
    for name in game_rules_modules():
        game = game_of(name)
        wrong = sorted(n for n in imports(name) if under(n, "companion")
                       and not under(n, "companion.rules") and not under(n, f"{game}.rules"))
        if wrong:
            found[name] = wrong
    assert found == {}


def test_a_game_s_folder_imports_the_app_s_layers_and_itself_never_another_game():
    games = [name for name in MODULES if game_of(name) is not None]
    assert len({game_of(name) for name in games}) >= 5
    found = {}
    for name in games:
        game = game_of(name)
        wrong = sorted(n for n in imports(name) if under(n, GAMES_PACKAGE)
                       and not under(n, game))
        if wrong:
            found[name] = wrong
    assert found == {}


def test_a_game_s_package_imports_nothing():
    """Importing a game's rules loads its folder's ``__init__``: it holds a docstring only,
    so the rules come without the web."""
    packages = {game_of(name) for name in MODULES if game_of(name) is not None}
    assert {name: sorted(imports(name)) for name in packages if imports(name)} == {}


def test_the_games_checks_see_a_game_reaching_up_or_across(tmp_path, monkeypatch):
    """The checks above find what they look for: a game's rules importing the web, a game's
    web package importing another game, a generic module importing a game."""
    made = {"companion.games.snap": '"""Snap."""\n',
            "companion.games.snap.rules": "from companion.web import flow\n",
            "companion.games.snap.web": "from companion.games.tremp import rules\n",
            "companion.web.snapshot": "from ..games.snap import rules\n"}
    for name, source in made.items():
        path = tmp_path / (name.replace(".", "/") + ".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
        monkeypatch.setitem(MODULES, name, path)
    for check in (test_a_game_s_rules_import_only_the_common_rules,
                  test_a_game_s_folder_imports_the_app_s_layers_and_itself_never_another_game,
                  test_no_module_below_the_games_imports_one):
        with pytest.raises(AssertionError):
            check()


@pytest.fixture(scope="module")
def trace():
    """One Trefeltromp bet, traced (``scripts/trace_tap.py``)."""
    spec = importlib.util.spec_from_file_location("trace_tap", ROOT / "scripts" / "trace_tap.py")
    script = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("trace_tap", script)
    spec.loader.exec_module(script)
    return script, script.trace_bet()


def test_a_tap_enters_few_modules(trace):
    script, traced = trace
    assert traced.status == 200
    assert "web/actions.py" in traced.modules and "games/trefeltromp/rules.py" in traced.modules
    assert len(traced.modules) <= CEILING, traced.line()


CEILING = 27
"""The most modules a tap enters today: no change may add one. What they are, and why not
fewer: ``docs/performance.md``, "One tap's path through the code"."""


def test_every_write_commits_through_the_action_helpers():
    """No route commits by hand: one request, one commit, in ``game_action`` or
    ``table_action`` (``companion/web/actions.py``); the taps' own bookkeeping
    (``companion/web/taps.py``) commits a repeat's claim and a late answer."""
    committing = {}
    for name, path in MODULES.items():
        if not under(name, "companion.web") or name in {"companion.web.actions",
                                                          "companion.web.taps"}:
            continue
        calls = [node.lineno for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                 and node.func.attr == "commit"]
        if calls:
            committing[name] = calls
    assert committing == {}
