"""The suite's own rules (tests/README.md): no test asserts how long something took.

A wall-clock assertion fails on a busy machine for no fault of the companion; a test waits
for the event it means, up to :data:`tests.waiting.HANG`, and figures about time belong in
the benchmark scripts (scripts/bench_*).
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.waiting import HANG, HANG_MS

TESTS = Path(__file__).resolve().parent
CLOCKS = r"monotonic|perf_counter|time\.time|timeit"
"""The clocks a stopwatch reads."""
STOPWATCH = re.compile("assert " + f".*({CLOCKS})")
"""What tests/README.md's grep looks for (written in two pieces, there and here, so that
neither file is found by it)."""


def stopwatch_assertions(folder: Path = TESTS) -> list[str]:
    """Every line of a Python file under ``folder`` that asserts on the clock."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if STOPWATCH.search(line):
                found.append(f"{path.relative_to(folder.parent)}:{number}: {line.strip()}")
    return found


def test_no_test_asserts_on_the_clock():
    found = stopwatch_assertions()
    assert found == [], ("wall-clock assertions (wait for the event instead, up to "
                         "tests.waiting.HANG; see tests/README.md):\n" + "\n".join(found))


def test_hypothesis_keeps_no_stopwatch():
    """A property is never failed for a slow example or a slow generation."""
    from hypothesis import HealthCheck, settings

    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check


def test_the_check_finds_a_stopwatch(tmp_path):
    clock = "time.monotonic()"
    stopwatch = f"assert {clock} - started < 1.0"
    (tmp_path / "test_quick.py").write_text(
        f"import time\n\ndef test_fast():\n    started = {clock}\n    {stopwatch}\n",
        encoding="utf-8")
    (tmp_path / "test_ceiling.py").write_text(
        "from tests.waiting import Ceiling\n\ndef test_waits():\n    ceiling = Ceiling()\n"
        "    assert not ceiling.passed\n", encoding="utf-8")
    assert stopwatch_assertions(tmp_path) == [f"{tmp_path.name}/test_quick.py:5: {stopwatch}"]


def test_the_rule_is_written_where_a_newcomer_reads_it():
    readme = (TESTS / "README.md").read_text(encoding="utf-8")
    assert f"HANG = {HANG:g} s" in readme and HANG_MS == HANG * 1000
    assert f"clocks='{CLOCKS}'\ngrep -rnE \"assert .*($clocks)\" tests" in readme
