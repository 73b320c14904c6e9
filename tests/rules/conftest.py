"""The rules tests watch every RuleError they raise (issue 30: the rules speak in facts).

While a rules test runs, each ``RuleError`` made is checked on the spot: its
params are facts (numbers, names, cards, raw values shown with ``!r``,
Phrases and wrapped errors whose own params are facts), never a piece of
English; an English piece makes the test that raised it fail there. Every
template said (``errors.say``) is counted, and when the whole of tests/rules
has run and passed, a code of ``MESSAGES`` that no test said fails the run:
each code's English is read by at least one test. Split over xdist workers, each worker
sends its count back at its end, and the process that shared the tests out adds them up
(with tests/conftest.py's ``pytest_testnodedown``).
"""

from __future__ import annotations

import re
import string
from collections import Counter
from pathlib import Path

import pytest

from companion.rules import errors

SAID: Counter[str] = Counter()
"""How many times each code's template was formatted by the rules tests."""

_HERE = Path(__file__).parent
_ENGLISH = re.compile(r"\b(the|is|are|not|must|of|has|have|and|or|was|to|in|by)\b|: ")
"""Words (and the ': ' of a composed label) that give English away in a param."""

_CALLERS_WORDS = {"number.not_whole", "number.too_small", "number.too_large",
                  "number.not_positive_whole", "value.not_true_or_false", "record.not_a_player"}
"""The helpers a web form also calls with its own words for the field (``what``/``where``)."""


def english_in(code: str, params: dict[str, object]) -> list[str]:
    """The params of ``code`` that carry English rather than a fact."""
    shown_raw = {name for _, name, _, conv in string.Formatter().parse(errors.MESSAGES[code])
                 if name and conv == "r"}
    found = []
    for key, value in params.items():
        if key in shown_raw or (code in _CALLERS_WORDS and key in ("what", "where")):
            continue
        values = (value,) if isinstance(value, errors.Phrase) or not isinstance(
            value, tuple) else value
        for item in values:
            if isinstance(item, errors.Phrase | errors.RuleError):
                found += english_in(item.code, dict(item.params))
            elif isinstance(item, str) and _ENGLISH.search(item):
                found.append(f"{code}: {key}={item!r}")
            elif not isinstance(item, str | int | float | tuple | list | dict | None):
                found.append(f"{code}: {key} is a {type(item).__name__}, not a fact")
    return found


@pytest.fixture(autouse=True, scope="session")
def _watch_rule_errors():
    said, init = errors.say, errors.RuleError.__init__

    def counted_say(code, params):
        SAID[code] += 1
        return said(code, params)

    def checked_init(self, code, /, **params):
        init(self, code, **params)
        english = english_in(code, dict(self.params))
        assert not english, f"English in a RuleError's params: {english}"

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(errors, "say", counted_say)
        patch.setattr(errors.RuleError, "__init__", checked_init)
        yield


_collected: set[str] = set()
_passed: set[str] = set()


def pytest_collection_modifyitems(items):
    _collected.update(item.nodeid for item in items if _HERE in Path(item.path).parents)


def pytest_runtest_logreport(report):
    # (Every test that passed: split over xdist workers, the process that hears the reports
    # collected nothing itself; the rules tests among them are picked out at the end.)
    if report.when == "call" and report.passed:
        _passed.add(report.nodeid)


def pytest_sessionfinish(session):
    """Fail a whole, green run of tests/rules that left a code of MESSAGES unsaid."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:  # an xdist worker: the process that shared the tests out counts
        output["rules_said"] = dict(SAID)
        output["rules_collected"] = sorted(_collected)
        return
    said, collected = Counter(SAID), set(_collected)
    for worker in getattr(session.config, "companion_from_workers", ()):
        said.update(worker.get("rules_said", {}))
        collected.update(worker.get("rules_collected", ()))
    files = {p.name for p in _HERE.glob("test_*.py")}
    ran = {nodeid.split("::")[0].rsplit("/", 1)[-1] for nodeid in _passed & collected}
    if session.testsfailed or files - ran or not collected or collected - _passed:
        return  # not the whole rules suite (or not green): the count would mean nothing
    unsaid = sorted(set(errors.MESSAGES) - errors.ADDED - set(said))
    if unsaid:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"codes of companion.rules.errors.MESSAGES no rules test says: "
                                f"{', '.join(unsaid)}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
