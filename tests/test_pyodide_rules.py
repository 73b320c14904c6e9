"""The rules give the same answers in the browser's Python as on the server (issue 42).

A table with no server would run the same rules in the tablet's browser, on Pyodide (Python
compiled to WebAssembly, from the npm package ``pyodide``). ``scripts/pyodide_rules.mjs``
starts it under Node from ``node_modules`` only, puts the rules' files in its file system
and replays records; here generated games of every kind (each game's
``tests/rules/gen_<game>.py``, fixed seeds), evenings (``gen_evening.py``) and a few broken
records go through it in ONE start, and each answer must be CPython's, to the character.

Without Node or ``node_modules/pyodide`` (``npm ci``) the test is skipped with a message;
with ``COMPANION_REQUIRE_BROWSER=1`` (CI) it fails instead.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from companion.rules import GAMES, RuleError, evening, replay
from tests.found import module_if_any
from tests.rules.gen_evening import random_evening

ROOT = Path(__file__).resolve().parent.parent
LOADER = ROOT / "scripts" / "pyodide_rules.mjs"
PYODIDE = ROOT / "node_modules" / "pyodide" / "pyodide.asm.wasm"
PER_GAME = 20
EVENINGS = 6


def missing(reason: str) -> None:
    """Skip for a missing Node or Pyodide, or fail when CI requires the test."""
    if os.environ.get("COMPANION_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (COMPANION_REQUIRE_BROWSER=1)", pytrace=False)
    pytest.skip(reason)


def game_records() -> dict[str, list[dict[str, Any]]]:
    """``PER_GAME`` records of each game that has a generator, each from a seed of its own."""
    made = {}
    for game in GAMES:
        generator = module_if_any(f"tests.rules.gen_{game}")
        if generator is None:
            continue
        make = getattr(generator, "random_record", None) or generator.evening_game
        made[game] = [make(random.Random(f"{game}-{seed}")) for seed in range(PER_GAME)]
    return made


def broken(records: dict[str, list[dict[str, Any]]]) -> list[Any]:
    """Records that break the rules: the answer is the rule broken, the same words too."""
    some = next(iter(records.values()))[0]
    return [{**some, "players": some["players"][:1]}, {**some, "game": "snap"}, [],
            {"unit": "marbles", "games": []}, {"unit": "EUR", "paid": "all of it"}]


def cpython(record: Any) -> Any:
    """What the loader answers for ``record``, worked out here (see its header)."""
    is_evening = (isinstance(record, dict) and "game" not in record
                  and ("unit" in record or "games" in record))
    try:
        return evening(record) if is_evening else replay(record)
    except RuleError as err:
        return {"error": err.code, "message": str(err)}


def test_the_rules_answer_the_same_in_pyodide_as_in_cpython():
    node = shutil.which("node")
    if node is None:
        missing("node is not installed: the rules were not run on Pyodide")
    if not PYODIDE.is_file():
        missing("node_modules/pyodide is missing (npm ci): the rules were not run on Pyodide")
    records = game_records()
    assert set(records) == set(GAMES), f"no generator for {set(GAMES) - set(records)}"
    evenings = [random_evening(random.Random(f"evening-{seed}")) for seed in range(EVENINGS)]
    batch = [r for kind in records.values() for r in kind] + evenings + broken(records)
    results = [cpython(record) for record in batch]
    assert [r for r in results if "error" in r] == results[-len(broken(records)):]
    expected = [json.dumps(result, ensure_ascii=False) for result in results]

    done = subprocess.run([node, str(LOADER)], cwd=ROOT, capture_output=True, timeout=300,
                          input=json.dumps(batch, ensure_ascii=False).encode())
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    answers = json.loads(done.stdout)
    assert len(answers) == len(batch)
    wrong = [(n, record.get("game") if isinstance(record, dict) else record)
             for n, (record, answer, want) in enumerate(zip(batch, answers, expected, strict=True))
             if json.dumps(answer, ensure_ascii=False) != want]
    assert wrong == [], f"{len(wrong)} of {len(batch)} records answered otherwise: {wrong[:5]}"
