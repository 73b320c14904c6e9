"""No game's name in generic code: what a generic module, template, stylesheet, script or
test helper needs of a game, it asks the registry and the game's own modules.

A game's own files are found by a rule, not listed: a path with a part (a folder, or a
file name split at ``_``, ``-`` and ``.``) that is the game's name (``companion/games/
tremp/``: its rules, web package and texts; ``tests/web/test_tremp.py``).
The made-up sixth game lives in its test's folder (:data:`FOLDERS`).

A test module (``test_*.py``) may name a game, whatever its name: a test plays some game to
show what it asserts (``tests/browser/test_no_freeze.py`` plays Tromplemond, a test of that
game's pages in a generic situation), and saying which is the test's business. What a test
module leans on, a helper or a ``conftest.py``, is generic code: it asks the registry and
the game's own helper (``tests/browser/games/<game>.py``).

Code is read, not prose: a docstring, a comment or a doctest may name a game as an
example (the modules' documentation does, for the five games the app ships), code and
markup may not. The files still allowed are listed in :data:`ALLOWED`, each with why.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from companion.rules import GAMES

ROOT = Path(__file__).resolve().parents[1]

NAMES = (*GAMES, "sixes")
"""The five games' names and the test's sixth game's."""

FOLDERS = {"sixes": "tests/web/sixth"}
"""A game's folder whose path does not name it: the sixth game's (its registry line, in
its test, says its rules and web package are there)."""

REGISTRY = "companion/rules/games.py"
"""The registry: the one place the five games are listed."""

ALLOWED = {
    # History, not code that runs on a game: a migration is the schema as it was then.
    "companion/migrations/versions/d4e5f6a7b8c9_game_flows.py": "a past migration",
}
"""Files that may name a game in code, each with why (a ``TODO issue 40`` is a leak left)."""

SUFFIXES = {".py", ".html", ".css", ".js", ".mjs"}


def own_game(path: Path) -> str | None:
    """The game a file is its own (by the module's rule), or None for a generic file."""
    relative = path.relative_to(ROOT)
    for game, folder in FOLDERS.items():
        if relative.is_relative_to(folder):
            return game
    parts = {word for part in relative.parts for word in re.split(r"[_.\-]", part)}
    return next((game for game in NAMES if game in parts), None)


def generic_files() -> list[Path]:
    """Every generic module, template, stylesheet, script and test helper."""
    found = [*(ROOT / "companion").rglob("*"), *(ROOT / "templates").rglob("*"),
             *(ROOT / "static").rglob("*"),
             *(p for p in (ROOT / "tests").rglob("*.py") if not p.name.startswith("test_"))]
    return sorted(p for p in found
                  if p.is_file() and p.suffix in SUFFIXES and "vendor" not in p.parts
                  and "__pycache__" not in p.parts and own_game(p) is None
                  and str(p.relative_to(ROOT)) != REGISTRY)


def _python_code(source: str) -> str:
    """A module's code: its tokens less comments and docstrings."""
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                docstrings.add(body[0].lineno)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            docstrings.add(node.lineno)  # an attribute's docstring, below it
    kept = [token.string for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type != tokenize.COMMENT
            and not (token.type == tokenize.STRING and token.start[0] in docstrings)]
    return " ".join(kept)


def code_of(path: Path) -> str:
    """The code and markup of a file, less its comments (and a module's docstrings)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return _python_code(text)
    if path.suffix == ".html":
        return re.sub(r"\{#.*?#\}|<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"(^|\s)//.*$", " ", text, flags=re.M) if path.suffix != ".css" else text


def names_in(path: Path) -> set[str]:
    """The games a file's code names."""
    code = code_of(path).lower()
    return {game for game in NAMES if re.search(rf"(?<![a-z]){game}", code)}


def test_no_generic_file_names_a_game():
    leaks = {str(p.relative_to(ROOT)): sorted(names) for p in generic_files()
             if (names := names_in(p)) and str(p.relative_to(ROOT)) not in ALLOWED}
    assert leaks == {}, "generic files that name a game: ask the registry and the game"


def test_each_allowed_file_still_names_a_game():
    """An allowance no longer needed is taken out (the list says what is left)."""
    needless = [name for name in ALLOWED if not names_in(ROOT / name)]
    assert needless == []


def test_the_rule_finds_each_game_s_own_files_and_the_check_finds_a_name_in_code(tmp_path):
    assert own_game(ROOT / "companion/games/tremp/rules.py") == "tremp"
    assert own_game(ROOT / "companion/games/trefeltromp/web/flow.py") == "trefeltromp"
    assert own_game(ROOT / "tests/web/test_trumplestiltskin.py") == "trumplestiltskin"
    assert own_game(ROOT / "tests/web/sixth/web/__init__.py") == "sixes"
    assert own_game(ROOT / "companion/web/records/book.py") is None
    generic = generic_files()
    assert ROOT / "tests/browser/conftest.py" in generic  # a helper: checked
    assert ROOT / "tests/browser/test_no_freeze.py" not in generic  # a test module: may name
    module = tmp_path / "generic.py"
    module.write_text('"""Tromplemond, an example."""\n# clumond\nx = 1\n', encoding="utf-8")
    assert names_in(module) == set()
    module.write_text('"""A module."""\nif game == "tremp":\n    pass\n', encoding="utf-8")
    assert names_in(module) == {"tremp"}
    sheet = tmp_path / "generic.css"
    sheet.write_text("/* tremp */\n.clumond-scores { color: red; }\n", encoding="utf-8")
    assert names_in(sheet) == {"clumond"}
