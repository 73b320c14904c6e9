"""Every registered game's rules module meets the contract (:class:`GameRules`), and nothing
in the web layer looks a rules function up by name."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from companion.rules import GAMES, game_module
from companion.rules.contract import GameRules

ROOT = Path(__file__).resolve().parents[2]

FUNCTIONS = ("replay", "deck_prep", "deal_steps", "next_dealer", "money_lines")


def _parameters(function) -> list[str]:
    return [p.name for p in inspect.signature(function).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
            and p.default is p.empty]


@pytest.mark.parametrize("game", GAMES)
def test_each_game_meets_the_contract(game):
    module = game_module(game)
    assert isinstance(module, GameRules)
    for name in FUNCTIONS:
        wanted = _parameters(getattr(GameRules, name))[1:]  # without self
        given = _parameters(getattr(module, name))
        assert len(given) == len(wanted), f"{game}.{name}{given} is not {name}{wanted}"
    assert all(isinstance(n, int) for n in module.PLAYERS) and len(module.PLAYERS) > 0
    assert isinstance(module.DEFAULTS, dict)
    assert isinstance(module.RECORD_FLAGS, tuple)
    assert module.CHIP_GAME is ("chip_value" in module.DEFAULTS)


def test_a_module_missing_a_part_fails_the_contract():
    import types

    partial = types.ModuleType("half_a_game")
    partial.PLAYERS, partial.DEFAULTS, partial.RECORD_FLAGS = (2,), {}, ()
    partial.replay = lambda record: {}
    assert not isinstance(partial, GameRules)  # no CHIP_GAME, no deal steps …


def test_no_rules_module_is_looked_up_by_name_in_the_web_layer():
    """``getattr``/``hasattr`` on a rules module (``self.rules``, ``game_module(…)``, a module
    of ``companion.rules``) hides what a game must give: the contract names it instead."""
    found = []
    for path in [*(ROOT / "companion" / "web").rglob("*.py"),
                 *(ROOT / "companion" / "games").glob("*/web/*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rules_names = {alias.asname or alias.name for node in ast.walk(tree)
                       if isinstance(node, ast.ImportFrom) and node.module
                       and node.module.lstrip(".").split(".")[0] in {"rules", "companion"}
                       and "rules" in node.module for alias in node.names}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in {"getattr", "hasattr"} and node.args):
                target = ast.unparse(node.args[0])
                if ("rules" in target or "game_module" in target or "module" in target
                        or target.split(".")[0] in rules_names):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert found == []
