"""The rules layer is pure: no module under companion/rules, nor any game's rules
(companion/games/<game>/rules.py, or a package of them), imports the web or storage layers.

Every import is parsed with :mod:`ast` (``import x``, ``from x import y``,
relative imports, imports inside functions, and ``importlib.import_module`` /
``__import__`` with a literal name), so an import hidden in a function body
is caught as surely as one at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import companion.rules

RULES_DIR = Path(companion.rules.__file__).parent
FORBIDDEN = ("flask", "sqlalchemy", "flask_sqlalchemy", "werkzeug", "jinja2",
             "companion.web", "companion.store")


def module_name(path: Path) -> str:
    """The dotted name of a file under companion/rules, e.g. ``companion.rules.cards``."""
    parts = path.relative_to(RULES_DIR.parent.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imported_names(source: str, module: str, is_package: bool = False) -> list[str]:
    """Every module name that ``source`` (the module ``module``) imports, fully resolved."""
    package = module if is_package else module.rpartition(".")[0]
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base = ".".join(base_parts[:len(base_parts) - node.level + 1])
                full = f"{base}.{node.module}" if node.module else base
            else:
                full = node.module or ""
            names.append(full)
            # `from companion import web` imports companion.web.
            names.extend(f"{full}.{alias.name}" for alias in node.names if alias.name != "*")
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            first = node.args[0]
            if (called in ("import_module", "__import__") and isinstance(first, ast.Constant)
                    and isinstance(first.value, str)):
                names.append(first.value)
    return names


def forbidden_imports(names: list[str]) -> list[str]:
    """The names among ``names`` that belong to a forbidden package."""
    return [name for name in names
            if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN)]


ROOT = RULES_DIR.parent.parent
GAMES_DIR = RULES_DIR.parent / "games"
GAME_RULE_FILES = sorted([*GAMES_DIR.glob("*/rules.py"), *GAMES_DIR.glob("*/rules/**/*.py")])
RULE_FILES = sorted(RULES_DIR.rglob("*.py")) + GAME_RULE_FILES


def test_the_walk_finds_the_rules_modules():
    found = {path.name for path in RULE_FILES}
    assert {"__init__.py", "cards.py", "common.py", "errors.py", "settle.py"} <= found
    assert {path.relative_to(GAMES_DIR).parts[0] for path in GAME_RULE_FILES} >= set(
        companion.rules.GAMES)


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_rules_module_imports_the_web_or_the_store(path):
    source = path.read_text(encoding="utf-8")
    names = imported_names(source, module_name(path), path.name == "__init__.py")
    assert forbidden_imports(names) == [], f"{path} imports {forbidden_imports(names)}"


@pytest.mark.parametrize("source", [
    "import flask",
    "import sqlalchemy.orm as orm",
    "from flask import Flask",
    "from flask_sqlalchemy import SQLAlchemy",
    "from werkzeug.exceptions import NotFound",
    "def f():\n    import jinja2\n",
    "class C:\n    def m(self):\n        from sqlalchemy import select\n",
    "from companion.web import views",
    "from companion import store",
    "from ..web import views",
    "from .. import store",
    "from ..store.models import Table",
    "import importlib\nimportlib.import_module('flask')",
    "__import__('werkzeug')",
    "try:\n    import flask\nexcept ImportError:\n    pass\n",
])
def test_the_checker_catches_every_kind_of_import(source):
    assert forbidden_imports(imported_names(source, "companion.rules.cards")) != []


@pytest.mark.parametrize("source", [
    "from .cards import Suit",
    "from . import common",
    "from fractions import Fraction",
    "import flask_like_but_not_flask",
    "from companion.rules.settle import settle_up",
    "from companion import rules",
    "import importlib\nimportlib.import_module(f'{__name__}.cards')",
])
def test_the_checker_lets_pure_imports_through(source):
    assert forbidden_imports(imported_names(source, "companion.rules.cards")) == []


def test_relative_imports_resolve_from_the_package():
    assert "companion.web" in imported_names("from .. import web", "companion.rules.cards")
    assert "companion.rules.cards" in imported_names("from .cards import Suit",
                                                     "companion.rules", is_package=True)
    assert module_name(RULES_DIR / "cards.py") == "companion.rules.cards"
    assert module_name(RULES_DIR / "__init__.py") == "companion.rules"
